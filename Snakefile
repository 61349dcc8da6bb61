# Physics-informed identification of tensegrity prestress across taut-slack
# transitions: the study as a Snakemake workflow.  See README.md.

import sys
import warnings

from snakemake.utils import min_version, validate

from tensegrity_id.workflow.config_check import ConfigError, ConfigWarning, check_config
from tensegrity_id.workflow.config_files import ConfigFileError, read_config_file
from tensegrity_id.workflow.runsheet import RunSheet

min_version("9.0")

# Every config file read strictly first: a YAML error or a repeated key is
# named with its file and line (Snakemake's own reading names neither).
try:
    read_config_file("config/config.yaml")
except ConfigFileError as exc:
    sys.exit(f"Error: {exc}")


configfile: "config/config.yaml"


# A malformed config value, structure file or cross-reference stops here, in
# one line, before any job is scheduled; Snakemake's validation then fills in
# the defaults and the run sheet (every job as a row with named keys) is
# built once for the rule files.
try:
    for extra_config in workflow.overwrite_configfiles:
        read_config_file(extra_config)
    with warnings.catch_warnings(record=True) as config_warnings:
        warnings.simplefilter("always", ConfigWarning)
        check_config(config, "config/schema.yaml")
    for w in config_warnings:
        print(f"Warning: {w.message}", file=sys.stderr)
    validate(config, "config/schema.yaml", set_default=True)
    SHEET = RunSheet(config)
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


# Cheap rules run on the submitting host under a cluster executor.
localrules:
    all,
    make_table_s3,
    make_table2,
    plot_fig1,
    plot_record,
    plot_energy_balance,
    plot_fig3,
    plot_fig4,
    plot_fig5,
    make_table5,
    make_table6,
    make_pinn_summary,
    plot_baselines,
    plot_figS1,
    plot_figS2,
    plot_figS3,
    make_table9,
    make_table3,
    make_table4,
    make_silent_failures,
    make_seed_study,
    plot_fig6,
    plot_fig7,
    identify_hexprism_modal,
    plot_fig8,
    compute_simplex_model,
    make_table8,
    compute_damping_limit,
    plot_fig10,
    plot_fig11,
    make_table7,
    make_measured_validation,
    import_measured_record,
    make_measured_summary,
    identify_measured_peaks,
    make_force_scale_table,
    make_table1,
    make_tableS2,
    make_scorecard,
    plot_fig2,


rule all:
    default_target: True
    input:
        structures=paths("structure", [{"structure": s} for s in STRUCTURES]),
        table_s3=rules.make_table_s3.output,
        assess=paths("assess", [{"structure": s} for s in STRUCTURES]),
        assess_scan=paths("assess_scan", [{"structure": s} for s in SHEET.assess_scan]),
        assess_records=paths("assess_record", SHEET.assess_records),
        assess_steel=paths(
            "assess_steel", [{"structure": s} for s in SHEET.assess_steel]
        ),
        figS3=(
            rules.plot_figS3.output
            if SHEET.assess_scan or SHEET.assess_records or SHEET.assess_steel
            else []
        ),
        table9=(
            rules.make_table9.output
            if SHEET.table9_pinn or SHEET.table9_baselines
            else []
        ),
        figS2=rules.plot_figS2.output,
        figS1=rules.plot_figS1.output if SHEET.figS1 else [],
        fig1=rules.plot_fig1.output,
        prism_range=rules.compute_prism_feasibility.output,
        records=paths("record", SHEET.records, ".json"),
        thresholds=paths("threshold", SHEET.thresholds),
        sensors=paths("sensors", SHEET.sensors),
        modal=paths("modal", [{"structure": s} for s in SHEET.modal]),
        table2=rules.make_table2.output,
        crosscheck=(
            rules.crosscheck_quaternion.output
            if SHEET.crosscheck or SHEET.crosscheck_extra
            else []
        ),
        table1=(
            [path("table", ext, table="table1") for ext in (".csv", ".md")]
            if SHEET.table1
            else []
        ),
        tableS2=[path("table", ext, table="tableS2") for ext in (".csv", ".md")],
        scorecard=[path("table", ext, table="scorecard") for ext in (".csv", ".md")],
        fig2=(
            path("figure", ".png", figure="fig2_network")
            if config["fig2"]["structure"] in SHEET.built
            else []
        ),
        fisher=paths("fisher", SHEET.fisher),
        fig3=rules.plot_fig3.output if SHEET.fig3 else [],
        series=paths("series", [{"structure": s} for s in SHEET.series]),
        grouping=paths("grouping", SHEET.grouping),
        pinn=paths("pinn", SHEET.pinn, ".json"),
        pinn_groups=paths("pinn_group", SHEET.pinn_groups),
        table5=rules.make_table5.output if SHEET.table5 else [],
        bench_tables=[
            path("table", ext, table=name)
            for key, name in BENCH_TABLES.items()
            if SHEET.bench_tables[key]
            for ext in (".csv", ".md")
        ],
        tableS5_baselines=(
            rules.make_tableS5_baselines.output if SHEET.table_s5_baselines else []
        ),
        silent_failures=rules.make_silent_failures.output if SHEET.silent_rows else [],
        seed_study=paths("seed_study", SHEET.studies["seed_study"]),
        fig6=rules.plot_fig6.output if SHEET.studies["fig6"] else [],
        flexible_bars=(
            rules.compute_flexible_bar_convergence.output
            if config["robustness"].get("flexible_bars")
            else []
        ),
        bar_stiffness=(
            rules.compute_bar_stiffness_sensitivity.output
            if config["robustness"].get("bar_stiffness")
            else []
        ),
        member_model=(
            rules.compute_member_model_adequacy.output if SHEET.member_model else []
        ),
        fig7=rules.plot_fig7.output if SHEET.studies["fig7"] else [],
        hexprism_modal=rules.identify_hexprism_modal.output if HEXPRISM else [],
        fig8=rules.plot_fig8.output if HEXPRISM else [],
        simplex=(
            [
                rules.compute_simplex_model.output,
                rules.make_table8.output,
                rules.compute_damping_limit.output,
                rules.plot_fig10.output,
                rules.plot_fig11.output,
            ]
            if SIMPLEX
            else []
        ),
        measured_validation=(
            rules.make_measured_validation.output if HEXPRISM and SIMPLEX else []
        ),
        table7=rules.make_table7.output if VALIDATION.get("leg") else [],
        measured=[
            path("measured_summary", ext, **row)
            for row in SHEET.measured
            for ext in (".csv", ".md")
        ],
        peaks=[
            path("peaks", ".json", name=n, structure=e["structure"])
            for n, e in PEAKS.items()
        ],
        force_scale=(
            rules.make_force_scale_table.output
            if SHEET.studies["force_scale"] or force_scale_lm()
            else []
        ),
        pinn_summary=rules.make_pinn_summary.output if SHEET.pinn else [],
        fig4=rules.plot_fig4.output if SHEET.fig4 else [],
        fig5=rules.plot_fig5.output if SHEET.fig4 else [],
        regression=[path("regression", seed=0, **r) for r in SHEET.regression],
        baselines=paths("baseline", SHEET.baselines, ".json"),
        lm_restarts=[
            path("baseline", "_restarts.json", method="lm_shooting", seed=0, **c)
            for c in SHEET.restarts
        ],
        variants=[
            path("baseline", f"_variants_{v['study']}.json", seed=0, **v)
            for v in SHEET.baseline_studies
        ],
        landscapes=paths("landscape", SHEET.landscape),
        table6=rules.make_table6.output if SHEET.table6_on else [],
        springrod=rules.springrod_example.output if config.get("springrod") else [],
        baseline_figure=rules.plot_baselines.output if SHEET.landscape else [],
        record_figures=paths("record_figure", SHEET.figure_records, ".png"),
        energy_figures=paths("energy_figure", SHEET.energy_records, ".png"),


# after `rule all`: the scorecard reads the results files its inputs name
include: "workflow/rules/report.smk"
