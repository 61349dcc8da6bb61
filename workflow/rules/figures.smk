# Figures: cheap rules, kept apart from the expensive ones.


rule plot_fig1:
    input:
        structures=paths("structure", [{"structure": s} for s in ROWS["fig1"]]),
        lib=lib("plot_fig1"),
    output:
        **catalog_outputs("fig1"),
    log:
        logs("plot_fig1.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_fig1.py"


rule plot_record:
    input:
        npz=path("record", ".npz"),
        lib=lib("plot_record"),
    output:
        **catalog_outputs("record_figures"),
    log:
        logs("plot_record/{structure}/{record}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_record.py"


rule plot_energy_balance:
    input:
        npz=path("record", ".npz"),
        lib=lib("plot_energy_balance"),
    output:
        **catalog_outputs("energy_figures"),
    log:
        logs("plot_energy_balance/{structure}/{record}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_energy_balance.py"


rule plot_fig3:
    input:
        fisher=paths("fisher", ROWS["fig3"]),
        seed_study=paths("seed_study", ROWS["bench_seed_study"]),
        lib=lib("plot_fig3"),
    output:
        **catalog_outputs("fig3"),
    log:
        logs("plot_fig3.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            labels=labels(ROWS["fig3"], "structure", "record", "protocol"),
        ),
    script:
        "../scripts/plot_fig3.py"


rule plot_fig4:
    input:
        runs=paths("pinn", ROWS["fig4"], ".json"),
        histories=paths("pinn", ROWS["fig4"], "_history.csv"),
        lib=lib("plot_fig4"),
    output:
        **catalog_outputs("fig4"),
    log:
        logs("plot_fig4.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_fig4.py"


rule plot_fig5:
    input:
        series=paths("pinn", ROWS["fig4"], "_series.npz"),
        lib=lib("plot_fig5"),
    output:
        **catalog_outputs("fig5"),
    log:
        logs("plot_fig5.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            labels=[
                f"pinn_{r['treatment']}/{r['structure']}/{r['record']}"
                for r in ROWS["fig4"]
            ],
        ),
    script:
        "../scripts/plot_fig5.py"


rule plot_baselines:
    input:
        landscapes=paths("landscape", ROWS["landscape"]),
        pf=paths(
            "baseline",
            [
                b
                for b in SHEET.baselines
                if b["method"] == "pf_enkf"
                and {k: b[k] for k in ("structure", "record", "protocol")}
                in ROWS["landscape"]
            ],
            ".json",
        ),
        lib=lib("plot_baselines"),
    output:
        **catalog_outputs("baselines_figure"),
    log:
        logs("plot_baselines.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_baselines.py"


rule plot_fig6:
    input:
        runs=study_runs("fig6"),
        fisher=paths(
            "fisher", [r for r in ROWS["bench_fig6"] if r.get("label") != "repeat"]
        ),
        structure=study_structure("fig6"),
        published=published("fig6.yaml"),
        lib=lib("plot_fig6"),
    output:
        **catalog_outputs("fig6"),
    log:
        logs("plot_fig6.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            rows=study_params("fig6"),
        ),
    script:
        "../scripts/plot_fig6.py"


rule plot_fig7:
    input:
        runs=study_runs("fig7"),
        fisher=paths("fisher", ROWS["bench_fig7"]),
        sensors=paths("sensors", ROWS["bench_fig7"][:1]),
        structure=study_structure("fig7"),
        published=published("fig7.yaml"),
        lib=lib("plot_fig7"),
    output:
        **catalog_outputs("fig7"),
    log:
        logs("plot_fig7.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            rows=study_params("fig7"),
        ),
    script:
        "../scripts/plot_fig7.py"
