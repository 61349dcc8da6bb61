# Helpers shared by the rule files. The path provider, the run sheet, the
# library inputs and config look-ups.  Every result path is built here.

from snakemake.exceptions import WorkflowError

from tensegrity_id.identify.base import C0, SIGMA0
from tensegrity_id.workflow.paths import result_path
from tensegrity_id.workflow.rule_inputs import library_inputs
from tensegrity_id.workflow.runsheet import BASELINE_METHODS

# ------------------------------------------------------------------ paths
# pypsa-eur's resources()/logs()/benchmarks() style: one place that knows
# where things live (templates in tensegrity_id.workflow.paths).  path(kind,
# **keys) fills the keys it is given and leaves the others as wildcards, so
# one template serves rule outputs and the inputs that request rows.


def logs(name):
    """A rule's log path."""
    return f"logs/{name}"


def benchmarks(name):
    """A rule's benchmark path."""
    return f"benchmarks/{name}"


def path(kind, suffix="", **keys):
    """The result path of ``kind`` for the given keys (a run-sheet row works)."""
    return result_path(kind, suffix, **keys)


def paths(kind, rows, suffix=""):
    """One path per run-sheet row."""
    return [path(kind, suffix, **row) for row in rows]


def lib(script):
    """Library files that the script of a job imports, read from its code;
    Snakemake tracks scripts, not imports."""
    return library_inputs(f"workflow/scripts/{script}.py")


# -------------------------------------------------------------- run sheet
# Every job as a row with named keys, validated once (Snakefile: SHEET).
STRUCTURES = SHEET.structures
PINN = config.get("identify", {}).get("pinn", {})
BASELINES = config.get("identify", {}).get("baselines", {})
ASSESS = config.get("assessment", {})
TABLE6 = config.get("table6", {})


def entry(section, *keys):
    """A config entry, or a clear error naming the unknown structure or entry."""
    node, where = config.get(section, {}), section
    for key in keys:
        if key not in node:
            known = ", ".join(sorted(node)) or "none"
            raise WorkflowError(
                f"unknown name '{key}' under config '{where}' (known: {known}); "
                "add it to the config or check the requested path"
            )
        node, where = node[key], f"{where}.{key}"
    return node


def structure_spec(wildcards):
    """The config entry of one structure (its params re-run only its chain)."""
    return entry("structures", wildcards.structure)


def structure_file(wildcards):
    """A user structure file, when the entry names one, as a tracked input."""
    spec = entry("structures", wildcards.structure)
    return [spec["file"]] if "file" in spec else []


def record_threshold(wildcards):
    """The threshold a record's amplitude refers to, if any."""
    spec = entry("records", wildcards.structure, wildcards.record)
    if "threshold" not in spec:
        return []
    return [
        path("threshold", structure=wildcards.structure, threshold=spec["threshold"])
    ]


def noise_seed(wildcards):
    """The noise seed of a sensor protocol."""
    return entry("protocols", wildcards.structure, wildcards.protocol).get(
        "noise_seed", 0
    )


def pinn_inputs(kind):
    """Input function: record arrays, metadata or sensor files of a PINN case
    (a group of pooled records or one record)."""

    def files(w):
        recs = SHEET.pinn_records(w.structure, w.record)
        if kind == "sensors":
            return [
                path("sensors", structure=w.structure, record=r, protocol=w.protocol)
                for r in recs
            ]
        return [
            path("record", f".{kind}", structure=w.structure, record=r) for r in recs
        ]

    return files


def problem_options(section):
    """Param of the identification rules: how their problem is loaded, as keyword
    arguments of tensegrity_id.identify.problems.load_problem (plain values)."""

    def options(wildcards):
        return dict(
            noise_seed=noise_seed(wildcards),
            sim=config["simulation"],
            outcome_rule=config["identify"]["outcome"],
            sigma0=section.get("sigma0", SIGMA0),
            c0=section.get("c0", C0),
        )

    return options


def labels(rows, *keys):
    """Readable labels of run-sheet rows, e.g. ``x1/taut_1pt/top_node``."""
    return ["/".join(str(row[k]) for k in keys) for row in rows]
