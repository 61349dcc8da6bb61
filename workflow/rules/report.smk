# The study as a report: Tables 1 and S2 generated from the structures and the
# config, and the reproduction scorecard (every claim of the paper against the
# workflow's value).  Included after `rule all`: the scorecard reads only the
# results files this configuration's default target produces.


rule make_table1:
    input:
        structures=paths("structure", [{"structure": s} for s in ROWS["table1"]]),
        published=published("table1.csv"),
        lib=lib("make_table1"),
    output:
        **catalog_outputs("table1"),
    log:
        logs("make_table1.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            labels=STUDIES["table1"].get("labels", {}),
            levels=ROWS["table1_levels"],
        ),
    script:
        "../scripts/make_table1.py"


rule make_tableS2:
    input:
        benchmark=path("structure", structure=STUDIES["tableS2"]["benchmark"]),
        hexprism=(
            path("structure", structure="hexprism")
            if "hexprism" in SHEET.built
            else []
        ),
        run=settings_run(STUDIES["tableS2"]["benchmark"]),
        lib=lib("make_tableS2"),
    output:
        **catalog_outputs("tableS2"),
    log:
        logs("make_tableS2.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            config=study_config(),
        ),
    script:
        "../scripts/make_tableS2.py"


rule make_scorecard:
    input:
        claims=config["report"]["scorecard"]["claims"],
        published=published_tables(),
        sources=scorecard_sources(),
        lib=lib("make_scorecard"),
    output:
        **catalog_outputs("scorecard"),
    log:
        logs("make_scorecard.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            # the claims' published tables are named from the workflow's root
            root=WF.path("."),
        ),
    script:
        "../scripts/make_scorecard.py"


rule plot_fig2:
    input:
        structure=path("structure", structure=STUDIES["fig2"]["structure"]),
        run=settings_run(STUDIES["fig2"]["structure"], STUDIES["fig2"]["protocol"]),
        lib=lib("plot_fig2"),
    output:
        **catalog_outputs("fig2"),
    log:
        logs("plot_fig2.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            settings=PINN[
                "settings"
            ],  # where no run of the base settings is configured
            protocol=entry(
                "records.protocols",
                STUDIES["fig2"]["structure"],
                STUDIES["fig2"]["protocol"],
            ),
            t_end=SIM["t_end"],
        ),
    script:
        "../scripts/plot_fig2.py"
