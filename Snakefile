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
    row="[a-z0-9_]+",


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
include: "workflow/rules/catalog_rules.smk"


report: "workflow/report/workflow.rst"


# `rule all` and `localrules` follow the study catalog (workflow/catalog.yaml):
# each entry's rows (or scope) are named by the run sheet's jobs and the
# studies' rows (SHEET.rows, tensegrity_id.workflow.study_rows).
TARGETS = CATALOG.targets(
    {
        **ROWS,
        "records": SHEET.records,
        "thresholds": SHEET.thresholds,
        "sensors": SHEET.sensors,
        "pinn": SHEET.pinn,
        "pinn_groups": SHEET.pinn_groups,
        "baselines": SHEET.baselines,
        # the regression, the restarts and the variants run once, as seed 0
        **{
            k: [{**r, "seed": 0} for r in ROWS[k]]
            for k in ("regression", "restarts", "baseline_studies")
        },
    }
)

# Cheap rules run on the submitting host under a cluster executor.
workflow.localrules("all", *CATALOG.local_rules)


rule all:
    default_target: True
    input:
        **TARGETS,


include: "workflow/rules/report.smk"
