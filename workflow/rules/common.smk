# Helpers shared by the rule files. The path provider, the run sheet, the
# library inputs and config look-ups.  Every result path is built here; every
# path of the workflow's own files (scripts, library, catalog, resources/)
# comes from WF (workflow/Snakefile: found from the workflow's location, so
# that the workflow also runs as a module of another one).
# Every rule's params pass through canonical_params (tensegrity_id.workflow.
# rule_params): mappings with sorted keys, so reordering the keys of a config
# section re-runs nothing, and a changed value re-runs the rules that use it.

from types import SimpleNamespace

from snakemake.exceptions import WorkflowError

from tensegrity_id.identify.base import C0, SIGMA0
from tensegrity_id.workflow.job_resources import (
    per_attempt,
    pinn_expected_minutes,
    pinn_priority,
)
from tensegrity_id.workflow.paths import result_path
from tensegrity_id.workflow.rule_inputs import library_inputs
from tensegrity_id.workflow.rule_params import canonical_params
from tensegrity_id.workflow.runsheet import BASELINE_METHODS
from tensegrity_id.workflow.study_rows import BENCH_TABLE_RULES
from tensegrity_id.workflow.study_catalog import load_catalog

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


# ---------------------------------------------------------- study catalog
# Every output of the study described once (workflow/catalog.yaml): rule
# all and localrules (Snakefile) and each artefact rule's outputs come from it.
CATALOG = load_catalog(WF.path("workflow/catalog.yaml"))


def catalog_outputs(artefact):
    """An artefact rule's outputs by name, its report() entry on the one the catalog names."""
    a = CATALOG[artefact]
    out = a.paths()
    if a.report:
        r = a.report
        out[r["output"]] = report(
            out[r["output"]],
            caption=f"../report/{r['caption']}",
            category=r["category"],
            subcategory=r["subcategory"],
            labels=r.get("labels", {}),
        )
    return out


def lib(script):
    """Library files that the script of a job imports, read from its code;
    Snakemake tracks scripts, not imports."""
    return library_inputs(WF.script(script), lib_root=WF.lib)


def published(name):
    """A published table or value file of the paper (resources/published/), an input."""
    return WF.path(f"resources/published/{name}")


# -------------------------------------------------------------- run sheet
# Every job as a row with named keys, validated once (Snakefile: SHEET).
# Each study's rows by the catalog's names (tensegrity_id.workflow.study_rows).
STRUCTURES = SHEET.structures
ROWS = SHEET.rows
STUDIES = config["studies"]
SIM = config["records"]["simulation"]
PINN = config.get("identify", {}).get("pinn", {})
BASELINES = config.get("identify", {}).get("baselines", {})
ASSESS = config.get("assessment", {})
TABLE6 = STUDIES.get("table6") or {}


def entry(section, *keys):
    """A config entry (``section`` dotted, e.g. ``records.suite``), or a clear
    error naming the unknown structure or entry."""
    node, where = config, section
    for key in section.split("."):
        node = node.get(key, {})
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


def study_row(study, row):
    """The row ``row`` of an identification study (seed_study, fig6, fig7)."""
    for r in ROWS[f"bench_{study}"]:
        if r["row"] == row:
            return r
    known = ", ".join(r["row"] for r in ROWS[f"bench_{study}"]) or "none"
    raise WorkflowError(f"no row '{row}' in the {study} config (known: {known})")


def study_params(study):
    """A study's rows for its script: labels and keys, and how many runs each row has."""
    return [
        {k: v for k, v in row.items() if k != "runs"} | {"n_runs": len(row["runs"])}
        for row in ROWS[f"bench_{study}"]
    ]


def study_runs(study):
    return paths(
        "pinn", [run for row in ROWS[f"bench_{study}"] for run in row["runs"]], ".json"
    )


def study_structure(study):
    rows = ROWS[f"bench_{study}"]
    return path("structure", structure=rows[0]["structure"]) if rows else []


def record_threshold(wildcards):
    """The threshold a record's amplitude refers to, if any."""
    spec = entry("records.suite", wildcards.structure, wildcards.record)
    if "threshold" not in spec:
        return []
    return [
        path("threshold", structure=wildcards.structure, threshold=spec["threshold"])
    ]


def record_reference(wildcards):
    """The record whose amplitude a record takes (``amplitude_of``), if any."""
    spec = entry("records.suite", wildcards.structure, wildcards.record)
    if "amplitude_of" not in spec:
        return []
    return [
        path(
            "record",
            ".json",
            structure=wildcards.structure,
            record=spec["amplitude_of"],
        )
    ]


def noise_seed(wildcards):
    """The noise seed of a sensor protocol (a measured record's noise is its own: 0)."""
    if getattr(wildcards, "protocol", "measured") == "measured":
        return 0
    return entry("records.protocols", wildcards.structure, wildcards.protocol).get(
        "noise_seed", 0
    )


def true_force_scale(wildcards):
    """A protocol's force miscalibration (applied over recorded force), or None when exact."""
    protocol = getattr(wildcards, "protocol", "measured")
    if protocol == "measured":
        return None
    f = entry("records.protocols", wildcards.structure, protocol).get(
        "true_force_scale", 1.0
    )
    return None if f == 1.0 else f


def baseline_options(wildcards):
    """Options of a baseline method: identify.baselines.methods, and for a measured
    record its force_scale and LM starts (config 'measured')."""
    options = dict(BASELINES["methods"].get(wildcards.method) or {})
    e = SHEET.measured_entry(wildcards.structure, wildcards.record)
    if e is not None and wildcards.protocol == "measured":
        if e.get("force_scale") == "fit":
            options["force_scale"] = "fit"
        if e.get("starts") and wildcards.method == "lm_shooting":
            options["starts"] = [list(x) for x in e["starts"]]
    return options


def pinn_inputs(kind, group):
    """Record arrays, metadata or sensor files of a PINN seed group or job (its
    pooled records, or its one record)."""
    recs = SHEET.pinn_records(group["structure"], group["record"])
    if kind == "sensors":
        return [
            path(
                "sensors",
                structure=group["structure"],
                record=r,
                protocol=group["protocol"],
            )
            for r in recs
        ]
    return [
        path("record", f".{kind}", structure=group["structure"], record=r) for r in recs
    ]


def pinn_outputs(job, suffix):
    """One result file per seed of a PINN training job or seed group (the
    per-seed contract paths)."""
    return [path("pinn", suffix, **job, seed=seed) for seed in job["seeds"]]


def pinn_job_name(job, suffix):
    """Log and benchmark name of a PINN training job (named by its seeds)."""
    variant = f"_{job['variant']}" if job["variant"] else ""
    return (
        f"identify_pinn/{job['treatment']}/{job['structure']}/{job['record']}/"
        f"{job['protocol']}_seeds{job['label']}_steps{job['steps']}{variant}{suffix}"
    )


# A seed group (runs differing only in their random seed) by the path of its
# summary (rule summarize_pinn_group).
PINN_GROUP_AT = {path("pinn_group", **g): g for g in SHEET.pinn_groups}


def pinn_group_runs(wildcards):
    """The result files of every random seed of the group whose summary is asked
    for (written by one or more training jobs)."""
    out = path("pinn_group", **dict(wildcards.items()))
    if out not in PINN_GROUP_AT:
        raise WorkflowError(
            f"{out} is no seed group's summary in this config: no run of "
            "identify.pinn.runs or a study has these keys"
        )
    return pinn_outputs(PINN_GROUP_AT[out], ".json")


# Training jobs: a seed group trains in jobs of at most seeds_per_job seeds
# (config identify.pinn.batch; one by default), each job one batch whose
# threads and cluster requests follow its seeds.  A step costs about 7 ms per
# seed and record on one core (float32, X1; compiled 4.5-7 ms, eager 8-11 ms):
# the matrix products and the memory traffic of the Taylor streams both grow
# with the seeds, so a batch saves the per-run costs (process, data,
# compilation), not arithmetic, and a batch of eight costs more than eight
# runs of one seed (9.0-11.4x one seed); two threads run a batch of eight
# 1.6x faster than one (tests/benchmarks/bench_pinn.py; docs/performance.md,
# "The physics-informed network"; the groups: docs/methods/identification.md,
# "Seed groups: several random seeds, one summary").
PINN_BATCH = PINN.get("batch", {})


def pinn_threads(job):
    per = PINN_BATCH.get("seeds_per_thread", 2)
    return max(1, min(PINN_BATCH.get("max_threads", 2), -(-len(job["seeds"]) // per)))


def pinn_expected(job):
    """The job's expected wall time (minutes, job_resources.pinn_expected_minutes)."""
    return pinn_expected_minutes(
        job["steps"],
        len(SHEET.pinn_records(job["structure"], job["record"])),
        len(job["seeds"]),
        pinn_threads(job),
        {**PINN["settings"], **SHEET.pinn_settings(job["variant"])},
    )


def pinn_runtime(job):
    """Minutes: three times the expected wall time, plus ten."""
    return 10 + int(3 * pinn_expected(job))


def pinn_mem_mb(job):
    return 1500 + 250 * len(job["seeds"])


def problem_options(section):
    """Param of the identification rules: how their problem is loaded, as keyword
    arguments of tensegrity_id.identify.problems.load_problem (plain values)."""

    def options(wildcards):
        f = true_force_scale(wildcards)  # only where set: other jobs keep their params
        return dict(
            **({"true_force_scale": f} if f is not None else {}),
            noise_seed=noise_seed(wildcards),
            sim=SIM,
            outcome_rule=config["identify"]["outcome"],
            sigma0=section.get("sigma0", SIGMA0),
            c0=section.get("c0", C0),
        )

    return options


def labels(rows, *keys):
    """Readable labels of run-sheet rows, e.g. ``x1/taut_1pt/top_node``."""
    return ["/".join(str(row[k]) for k in keys) for row in rows]


# ------------------------------------------------------- measured records
# Your own records (config measured.records, measured.peaks; workflow/rules/measured.smk).
# A record name is per structure: a measured record (config 'measured',
# workflow/rules/measured.smk) may share its name with a simulated record of
# another structure.  The record wildcard follows its structure's folder in
# every path ('.../{structure}/{record}...'), so each name is matched only
# after its own folder (a fixed-width look-behind) and only as a whole name.
MEASURED_PAIRS = [
    f"(?<=/{row['structure']}/){row['record']}(?![a-z0-9_])" for row in SHEET.measured
]
MEASURED_RE = "|".join(MEASURED_PAIRS) if MEASURED_PAIRS else "(?!x)x"  # none: never
NOT_MEASURED = "".join(f"(?!{pair})" for pair in MEASURED_PAIRS) + "[a-z0-9_]+"


def measured(wildcards):
    """The config entry of a measured record."""
    return SHEET.measured_entry(wildcards.structure, wildcards.record)


def measured_row(wildcards):
    """The run-sheet row of a measured record."""
    return next(
        r
        for r in SHEET.measured
        if (r["structure"], r["record"]) == (wildcards.structure, wildcards.record)
    )


def measured_results(wildcards):
    """Every identification result of a measured record (methods x seeds)."""
    row = measured_row(wildcards)
    return [
        path(
            "baseline",
            ".json",
            method=m,
            structure=row["structure"],
            record=row["record"],
            protocol="measured",
            seed=s,
        )
        for m in row["methods"]
        for s in row["seeds"]
    ]


PEAKS = {  # peak lists of built structures (the others are out of scope)
    row["name"]: config["measured"]["peaks"][row["name"]] for row in ROWS["peaks"]
}


# ------------------------------------------------------ uncalibrated force
# The force-scale study (config studies.force_scale; workflow/rules/robustness.smk).
FORCE_SCALE = STUDIES.get("force_scale") or {}


def force_scale_lm():
    """The LM variants file of the force-scale study, if configured."""
    return [
        path(
            "baseline",
            "_variants_force_scale.json",
            method="lm_shooting",
            seed=0,
            **case,
        )
        for case in ROWS["force_scale_lm"]
    ]


def force_scale_true():
    """The force miscalibration of the study's protocol."""
    rows = ROWS["bench_force_scale"]
    case = rows[0] if rows else FORCE_SCALE.get("lm")
    if not case:
        return 1.0
    return entry("records.protocols", case["structure"], case["protocol"]).get(
        "true_force_scale", 1.0
    )


# ---------------------------------------------------------------- report
def settings_run(structure, protocol=None):
    """A physics-informed run of the base settings (no variant) on ``structure``
    (and ``protocol``): Table S2 and Figure 2 state the settings it used.  Its
    first seed's result; none where no such run is configured."""
    rows = [
        r
        for r in SHEET.pinn
        if r["structure"] == structure
        and not r["variant"]
        and (protocol is None or r["protocol"] == protocol)
    ]
    return path("pinn", ".json", **rows[0]) if rows else []


def study_config():
    """The config sections Table S2 reads (a changed value re-runs only it)."""
    keys = ("structures", "build", "records")
    out = {k: config.get(k) for k in keys}
    pinn = config["identify"]["pinn"]
    out["identify"] = {
        "pinn": {k: pinn.get(k) for k in ("sigma0", "c0", "settings", "runs")}
    }
    return out


def published_tables():
    """The published tables (resources/published/*.csv) that the claims expand."""
    from tensegrity_id.report.scorecard import published_tables as tables

    return [WF.path(t) for t in tables(config["report"]["scorecard"]["claims"])]


def scorecard_sources():
    """The claims' results files that this configuration's default target produces.

    A file outside it (another config's run, left on disk) is never read: its
    claims count as not produced here.
    """
    from tensegrity_id.report.scorecard import claim_files, load_claims

    produced = {f for files in TARGETS.values() for f in files}
    claims = load_claims(config["report"]["scorecard"]["claims"], root=WF.path("."))
    return [f for f in claim_files(claims) if f in produced]
