# Physics-informed identification of tensegrity prestress across taut-slack
# transitions: the study as a Snakemake workflow.  See README.md.

import sys
import warnings

from snakemake.utils import min_version

from tensegrity_id.workflow.config_check import ConfigError, ConfigWarning, check_config
from tensegrity_id.workflow.config_files import ConfigFileError, read_config_file

min_version("9.0")

# Every config file read strictly first: a YAML error or a repeated key is
# named with its file and line (Snakemake's own reading names neither).
try:
    read_config_file("config/config.yaml")
except ConfigFileError as exc:
    sys.exit(f"Error: {exc}")


configfile: "config/config.yaml"


# The config is validated once, here: a malformed value, structure file or
# cross-reference stops the run in one line before any job is scheduled; the
# schema's defaults are filled in and the run sheet (every job as a row with
# named keys) is built once for the rule files.
try:
    for extra_config in workflow.overwrite_configfiles:
        read_config_file(extra_config)
    with warnings.catch_warnings(record=True) as config_warnings:
        warnings.simplefilter("always", ConfigWarning)
        SHEET = check_config(config, "config/schema.yaml")
    for w in config_warnings:
        print(f"Warning: {w.message}", file=sys.stderr)
except (ConfigError, ConfigFileError, ValueError) as exc:
    sys.exit(f"Error: {exc}")


wildcard_constraints:
    structure="[a-z0-9_]+",
    record="[a-z0-9_]+",
    protocol="[a-z0-9_]+",
    threshold="[a-z0-9_]+",
    treatment="smooth|fb|event",
    steps="[0-9]+",
    seed="[0-9]+",
    variant="(_[a-z][a-z0-9.]*)?",


include: "workflow/rules/common.smk"
include: "workflow/rules/structures.smk"
include: "workflow/rules/records.smk"
include: "workflow/rules/identifiability.smk"
include: "workflow/rules/identification.smk"
include: "workflow/rules/assessment.smk"
include: "workflow/rules/robustness.smk"
include: "workflow/rules/validation.smk"
include: "workflow/rules/measured.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/figures.smk"


report: "workflow/report/workflow.rst"


# The run sheet's rows and scope flags, by the names the study catalog's
# entries use (workflow/catalog.yaml): `rule all` and `localrules` follow.
STUDY_ROWS = {
    "structures": [{"structure": s} for s in STRUCTURES],
    "records": SHEET.records,
    "thresholds": SHEET.thresholds,
    "sensors": SHEET.sensors,
    "modal": [{"structure": s} for s in SHEET.modal],
    "figure_records": SHEET.figure_records,
    "energy_records": SHEET.energy_records,
    "fisher": SHEET.fisher,
    "series": [{"structure": s} for s in SHEET.series],
    "grouping": SHEET.grouping,
    "pinn": SHEET.pinn,
    "pinn_groups": SHEET.pinn_groups,
    "seed_study": SHEET.studies["seed_study"],
    "baselines": SHEET.baselines,
    # the regression, the restarts and the variants run once, as seed 0
    "regression": [{**r, "seed": 0} for r in SHEET.regression],
    "restarts": [{**r, "seed": 0} for r in SHEET.restarts],
    "baseline_studies": [{**r, "seed": 0} for r in SHEET.baseline_studies],
    "landscape": SHEET.landscape,
    "measured": SHEET.measured,
    "peaks": [{"name": n, "structure": e["structure"]} for n, e in PEAKS.items()],
    "assess_scan": [{"structure": s} for s in SHEET.assess_scan],
    "assess_records": SHEET.assess_records,
    "assess_steel": [{"structure": s} for s in SHEET.assess_steel],
    "table1": SHEET.table1,
    "crosscheck": SHEET.crosscheck,
    "crosscheck_extra": SHEET.crosscheck_extra,
    "fig2": config["fig2"]["structure"] in SHEET.built,
    "fig3": SHEET.fig3,
    "fig4": SHEET.fig4,
    **{f"bench_{key}": SHEET.bench_tables[key] for key in BENCH_TABLES},
    "silent_rows": SHEET.silent_rows,
    "table5": SHEET.table5,
    "fig6": SHEET.studies["fig6"],
    "fig7": SHEET.studies["fig7"],
    "table6": SHEET.table6_on,
    "springrod": bool(config.get("springrod")),
    "table_s5_baselines": SHEET.table_s5_baselines,
    "force_scale": bool(SHEET.studies["force_scale"] or force_scale_lm()),
    "flexible_bars": bool(config["robustness"].get("flexible_bars")),
    "bar_stiffness": bool(config["robustness"].get("bar_stiffness")),
    "member_model": SHEET.member_model,
    "hexprism": bool(HEXPRISM),
    "simplex": bool(SIMPLEX),
    "hexprism_and_simplex": bool(HEXPRISM and SIMPLEX),
    "leg": bool(VALIDATION.get("leg")),
    "figS1": SHEET.figS1,
    "table9_pinn": SHEET.table9_pinn,
    "table9_baselines": SHEET.table9_baselines,
}
TARGETS = CATALOG.targets(STUDY_ROWS)

# Cheap rules run on the submitting host under a cluster executor.
workflow.localrules("all", *CATALOG.local_rules)


rule all:
    default_target: True
    input:
        **TARGETS,


include: "workflow/rules/report.smk"
