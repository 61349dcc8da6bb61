# Helpers shared by the rule files.

from snakemake.exceptions import WorkflowError

LIB = "workflow/lib/tensegrity_id"
STRUCTURES = list(
    dict.fromkeys(
        config["build"]
        + config["table_s3"]["structures"]
        + config["fig1"]["structures"]
    )
)


def lib(*modules):
    """Library modules a rule depends on (Snakemake tracks scripts, not imports)."""
    return [f"{LIB}/{m}" for m in modules]


STRUCTURE_LIB = lib(
    "structure.py",
    "structure_io.py",
    "schemas/structure.schema.json",
    "generators.py",
    "formfinding.py",
    "statics.py",
    "catalog.py",
)


def entry(section, *keys):
    """A config entry, or a clear error naming the unknown structure or entry."""
    node, path = config.get(section, {}), section
    for key in keys:
        if key not in node:
            known = ", ".join(sorted(node)) or "none"
            raise WorkflowError(
                f"unknown name '{key}' under config '{path}' (known: {known}); "
                "add it to the config or check the requested path"
            )
        node, path = node[key], f"{path}.{key}"
    return node


def structure_spec(wildcards):
    """The config entry of one structure (its params re-run only its chain)."""
    return entry("structures", wildcards.structure)


def structure_file(wildcards):
    """A user structure file, when the entry names one, as a tracked input."""
    spec = entry("structures", wildcards.structure)
    return [spec["file"]] if "file" in spec else []


SIM_LIB = STRUCTURE_LIB + lib(
    "cables.py", "dynamics.py", "excitation.py", "simulate.py", "records.py", "runio.py"
)

BUILT = [s for s in config["build"]]


def _section(name):
    return {s: v for s, v in config.get(name, {}).items() if s in BUILT}


RECORDS = [(s, r) for s, recs in _section("records").items() for r in recs]
THRESHOLDS = [(s, t) for s, ths in _section("thresholds").items() for t in ths]
SENSORS = [
    (s, r, p) for s, r in RECORDS for p in config.get("protocols", {}).get(s, {})
]
MODAL = [s for s in config.get("modal", []) if s in BUILT]


def record_threshold(wildcards):
    """The threshold a record's amplitude refers to, if any."""
    spec = entry("records", wildcards.structure, wildcards.record)
    if "threshold" not in spec:
        return []
    return [f"results/thresholds/{wildcards.structure}/{spec['threshold']}.json"]


def _pairs(key):
    """[structure, record] pairs of a figure list, kept where the record exists."""
    known = set(RECORDS)
    return [
        tuple(p) for p in config.get("figures", {}).get(key, []) if tuple(p) in known
    ]


FIGURE_RECORDS = _pairs("records")
ENERGY_RECORDS = _pairs("energy_balance")

FISHER = [
    tuple(c)
    for c in config.get("fisher", {}).get("cases", [])
    if tuple(c[:2]) in set(RECORDS)
    and c[2] in config.get("protocols", {}).get(c[0], {})
]
FIG3 = [c for c in FISHER if list(c) in config.get("figures", {}).get("fig3", [])]
SERIES = [
    s for s in config.get("prestress_series", {}).get("structures", []) if s in BUILT
]
GROUPING = [
    s
    for s, g in config.get("grouping", {}).items()
    if s in BUILT and (s, *g["case"]) in set(FISHER)
]
REGRESSION = [
    tuple(c)
    for c in config.get("identify", {}).get("regression", {}).get("cases", [])
    if tuple(c) in set(RECORDS)
]

# ---------------------------------------------------------------- PINN runs
PINN = config.get("identify", {}).get("pinn", {})
PINN_LIB = SIM_LIB + lib(
    "identification.py",
    "identifiability.py",
    "statics.py",
    "scoring.py",
    "problem_io.py",
    "sensors.py",
    "residual.py",
    "pinn_net.py",
    "pinn.py",
)


def pinn_group(structure, record):
    """The records of a PINN case: a group of pooled records or the record itself."""
    return PINN.get("groups", {}).get(structure, {}).get(record, [record])


def _pinn_case_ok(s, r, p):
    recs = set(RECORDS)
    return (
        s in BUILT
        and all((s, x) in recs for x in pinn_group(s, r))
        and p in config.get("protocols", {}).get(s, {})
    )


def _pinn_runs():
    runs = []
    for run in PINN.get("runs", []):
        for r in run["records"]:
            for t in run.get("treatments", ["smooth"]):
                for n in run.get("steps", [25000]):
                    for seed in run.get("seeds", [0]):
                        runs.append((t, run["structure"], r, run["protocol"], seed, n))
    t5 = config.get("table5", {})
    for s, r, p in t5.get("cases", []):
        for t in t5.get("treatments", []):
            for n in t5.get("steps", []):
                for seed in t5.get("seeds", []):
                    runs.append((t, s, r, p, seed, n))
    for s, r, p, t, n, seed in config.get("figures", {}).get("fig4", []):
        runs.append((t, s, r, p, seed, n))
    t6 = config.get("table6", {})
    for r in t6.get("records", {}).values() if "pinn" in t6 else []:
        pn = t6["pinn"]
        runs.append(
            (
                pn["treatment"],
                t6["structure"],
                r,
                t6["protocol"],
                pn.get("seed", 0),
                pn["steps"],
            )
        )
    return [x for x in dict.fromkeys(runs) if _pinn_case_ok(x[1], x[2], x[3])]


PINN_RUNS = _pinn_runs()


def pinn_path(t, s, r, p, seed, steps, suffix=".json"):
    return f"results/identify/pinn_{t}/{s}/{r}/{p}_seed{seed}_steps{steps}{suffix}"


def pinn_inputs(kind):
    """Input function: record arrays, metadata or sensor files of a PINN case."""

    def files(w):
        recs = pinn_group(w.structure, w.record)
        if kind == "npz":
            return [f"results/records/{w.structure}/{x}.npz" for x in recs]
        if kind == "json":
            return [f"results/records/{w.structure}/{x}.json" for x in recs]
        return [f"results/sensors/{w.structure}/{x}/{w.protocol}.npz" for x in recs]

    return files


TABLE5 = [
    (t, s, r, p, seed, n)
    for s, r, p in config.get("table5", {}).get("cases", [])
    for t in config["table5"]["treatments"]
    for n in config["table5"]["steps"]
    for seed in config["table5"]["seeds"]
    if _pinn_case_ok(s, r, p)
]
FIG4 = [
    (t, s, r, p, seed, n)
    for s, r, p, t, n, seed in config.get("figures", {}).get("fig4", [])
    if _pinn_case_ok(s, r, p)
]

# ------------------------------------------------------- classical baselines
BASELINES = config.get("identify", {}).get("baselines", {})
BASELINE_METHODS = ["lm_shooting", "ukf", "pf_enkf"]
BASELINE_LIB = SIM_LIB + lib(
    "identification.py",
    "identifiability.py",
    "statics.py",
    "scoring.py",
    "problem_io.py",
    "sensors.py",
    "shooting.py",
    "filters.py",
)


def _case_ok(s, r, p):
    return (
        s in BUILT
        and (s, r) in set(RECORDS)
        and p in config.get("protocols", {}).get(s, {})
    )


def baseline_path(method, s, r, p, seed, suffix=".json"):
    return f"results/identify/{method}/{s}/{r}/{p}_seed{seed}{suffix}"


def _table6_runs():
    t6 = config.get("table6", {})
    if not t6:
        return []
    return [
        (m, t6["structure"], r, t6["protocol"], t6.get("seed", 0))
        for m in t6.get("methods", BASELINE_METHODS)
        for r in t6["records"].values()
    ]


BASELINE_RUNS = [
    x
    for x in dict.fromkeys(
        [
            (m, s, r, p, seed)
            for m in BASELINES.get("methods", {})
            for s, r, p in BASELINES.get("cases", [])
            for seed in BASELINES.get("seeds", [0])
        ]
        + _table6_runs()
    )
    if _case_ok(*x[1:4])
]
RESTARTS = [
    tuple(c) for c in BASELINES.get("restarts", {}).get("cases", []) if _case_ok(*c)
]
VARIANTS = [
    (v["method"], *c, study)
    for study, v in BASELINES.get("variants", {}).items()
    for c in v.get("cases", [])
    if _case_ok(*c)
]
LANDSCAPE = [
    tuple(c) for c in BASELINES.get("landscape", {}).get("cases", []) if _case_ok(*c)
]


TABLE6 = bool(config.get("table6")) and all(
    _case_ok(config["table6"]["structure"], r, config["table6"]["protocol"])
    for r in config["table6"]["records"].values()
)


def _baseline_params():
    return dict(
        noise_seed=lambda w: entry("protocols", w.structure, w.protocol).get(
            "noise_seed", 0
        ),
        sigma0=BASELINES.get("sigma0", 10.0),
        c0=BASELINES.get("c0", 0.3),
        sim=config["simulation"],
        outcome=config["identify"].get("outcome", {}),
    )


def _table6_inputs(kind):
    t6 = config.get("table6", {})

    def files(w):
        if not TABLE6:
            return []
        recs = [t6["records"]["taut"], t6["records"]["slack"]]
        s, p, seed = t6["structure"], t6["protocol"], t6.get("seed", 0)
        if kind == "pinn":
            pn = t6.get("pinn")
            if not pn:
                return []
            return [
                pinn_path(pn["treatment"], s, r, p, pn.get("seed", 0), pn["steps"])
                for r in recs
            ]
        if kind == "regression":
            return [
                f"results/identify/regression/{s}/{r}/fullstate_seed{seed}.json"
                for r in recs
                if (s, r) in set(REGRESSION)
            ]
        return [
            baseline_path(m, s, r, p, seed)
            for m in t6.get("methods", BASELINE_METHODS)
            for r in recs
        ]

    return files


# ------------------------------------------------------------ assessment
ASSESS = config.get("assessment", {})
ASSESS_SCAN = [s for s in ASSESS.get("scan", {}).get("structures", []) if s in BUILT]
ASSESS_RECORDS = [
    tuple(c) for c in ASSESS.get("records", []) if tuple(c) in set(RECORDS)
]
TABLE9 = [
    pinn_path(*c)
    for c in config.get("table9", {}).get("pinn", [])
    if tuple(c) in set(PINN_RUNS)
] + [
    baseline_path(*c)
    for c in config.get("table9", {}).get("baselines", [])
    if tuple(c) in set(BASELINE_RUNS)
]
FIGS1 = [s for s in config.get("figures", {}).get("figS1", []) if s in BUILT]
ASSESS_STEEL = [s for s in ASSESS.get("steel", {}).get("structures", []) if s in BUILT]
