# Physics-informed identification of tensegrity prestress across taut-slack
# transitions: the study as a Snakemake workflow.  See README.md.

import sys

from snakemake.utils import min_version, validate

from tensegrity_id.config_check import ConfigError, check_config

min_version("9.0")


configfile: "config/config.yaml"


# A malformed config value or structure file stops here, in one line, before
# any job is scheduled; then Snakemake's own validation fills in defaults.
try:
    check_config(config, "config/schema.yaml")
except ConfigError as exc:
    sys.exit(f"Error: {exc}")
validate(config, "config/schema.yaml", set_default=True)


wildcard_constraints:
    structure="[a-z0-9_]+",
    record="[a-z0-9_]+",
    protocol="[a-z0-9_]+",
    threshold="[a-z0-9_]+",
    treatment="smooth|fb|event",
    steps="[0-9]+",
    seed="[0-9]+",


include: "workflow/rules/common.smk"
include: "workflow/rules/structures.smk"
include: "workflow/rules/records.smk"
include: "workflow/rules/identifiability.smk"
include: "workflow/rules/identification.smk"
include: "workflow/rules/assessment.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/figures.smk"


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


rule all:
    default_target: True
    input:
        structures=expand("results/structures/{structure}.json", structure=STRUCTURES),
        table_s3=rules.make_table_s3.output,
        assess=expand("results/assess/{structure}.json", structure=STRUCTURES),
        assess_scan=[f"results/assess/scan/{s}.json" for s in ASSESS_SCAN],
        assess_records=[
            f"results/assess/records/{s}/{r}.json" for s, r in ASSESS_RECORDS
        ],
        assess_steel=[f"results/assess/steel/{s}.json" for s in ASSESS_STEEL],
        figS3=(
            rules.plot_figS3.output
            if ASSESS_SCAN or ASSESS_RECORDS or ASSESS_STEEL
            else []
        ),
        table9=rules.make_table9.output if TABLE9 else [],
        figS2=rules.plot_figS2.output,
        figS1=rules.plot_figS1.output if FIGS1 else [],
        fig1=rules.plot_fig1.output,
        prism_range=rules.compute_prism_feasibility.output,
        records=[f"results/records/{s}/{r}.json" for s, r in RECORDS],
        thresholds=[f"results/thresholds/{s}/{t}.json" for s, t in THRESHOLDS],
        sensors=[f"results/sensors/{s}/{r}/{p}.npz" for s, r, p in SENSORS],
        modal=[f"results/modal/{s}.json" for s in MODAL],
        table2=rules.make_table2.output,
        fisher=[f"results/fisher/{s}/{r}/{p}.json" for s, r, p in FISHER],
        fig3=rules.plot_fig3.output if FIG3 else [],
        series=[f"results/values/{s}_series_modal.json" for s in SERIES],
        grouping=[f"results/values/grouping_{s}.json" for s in GROUPING],
        pinn=[pinn_path(*x) for x in PINN_RUNS],
        table5=rules.make_table5.output if TABLE5 else [],
        pinn_summary=rules.make_pinn_summary.output if PINN_RUNS else [],
        fig4=rules.plot_fig4.output if FIG4 else [],
        fig5=rules.plot_fig5.output if FIG4 else [],
        regression=[
            f"results/identify/regression/{s}/{r}/fullstate_seed0.json"
            for s, r in REGRESSION
        ],
        baselines=[baseline_path(*x) for x in BASELINE_RUNS],
        lm_restarts=[
            baseline_path("lm_shooting", s, r, p, 0, "_restarts.json")
            for s, r, p in RESTARTS
        ],
        variants=[
            baseline_path(m, s, r, p, 0, f"_variants_{v}.json")
            for m, s, r, p, v in VARIANTS
        ],
        landscapes=[
            f"results/values/lm_landscape/{s}/{r}/{p}.json" for s, r, p in LANDSCAPE
        ],
        table6=rules.make_table6.output if TABLE6 else [],
        springrod=rules.springrod_example.output if config.get("springrod") else [],
        baseline_figure=rules.plot_baselines.output if LANDSCAPE else [],
        record_figures=[
            f"results/figures/records/{s}/{r}.png" for s, r in FIGURE_RECORDS
        ],
        energy_figures=[
            f"results/figures/figS4_energy/{s}/{r}.png" for s, r in ENERGY_RECORDS
        ],
