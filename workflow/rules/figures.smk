# Figures: cheap rules, kept apart from the expensive ones.


rule plot_fig1:
    input:
        structures=expand(
            "results/structures/{structure}.json",
            structure=config["fig1"]["structures"],
        ),
        lib=lib("plotting.py", "structure.py", "structure_io.py", "catalog.py"),
    output:
        pdf="results/figures/fig1_structures.pdf",
        png="results/figures/fig1_structures.png",
    log:
        "logs/plot_fig1.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_fig1.py"


rule plot_record:
    input:
        npz="results/records/{structure}/{record}.npz",
        lib=lib("record_plots.py", "records.py"),
    output:
        pdf="results/figures/records/{structure}/{record}.pdf",
        png="results/figures/records/{structure}/{record}.png",
    log:
        "logs/plot_record/{structure}/{record}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_record.py"


rule plot_energy_balance:
    input:
        npz="results/records/{structure}/{record}.npz",
        lib=lib("record_plots.py", "records.py"),
    output:
        pdf="results/figures/figS4_energy/{structure}/{record}.pdf",
        png="results/figures/figS4_energy/{structure}/{record}.png",
    log:
        "logs/plot_energy_balance/{structure}/{record}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_energy_balance.py"


rule plot_fig3:
    input:
        fisher=[f"results/fisher/{s}/{r}/{p}.json" for s, r, p in FIG3],
        lib=lib("fisher_plots.py"),
    output:
        pdf="results/figures/fig3_identifiability.pdf",
        png="results/figures/fig3_identifiability.png",
    log:
        "logs/plot_fig3.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_fig3.py"


rule plot_fig4:
    input:
        runs=[pinn_path(*x) for x in FIG4],
        histories=[pinn_path(*x, suffix="_history.csv") for x in FIG4],
        lib=lib("pinn_plots.py"),
    output:
        pdf="results/figures/fig4_identification.pdf",
        png="results/figures/fig4_identification.png",
    log:
        "logs/plot_fig4.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_fig4.py"


rule plot_fig5:
    input:
        series=[pinn_path(*x, suffix="_series.npz") for x in FIG4],
        lib=lib("pinn_plots.py"),
    output:
        pdf="results/figures/fig5_resimulation.pdf",
        png="results/figures/fig5_resimulation.png",
    log:
        "logs/plot_fig5.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_fig5.py"


rule plot_baselines:
    input:
        landscapes=[
            f"results/values/lm_landscape/{s}/{r}/{p}.json" for s, r, p in LANDSCAPE
        ],
        pf=[
            baseline_path(*x)
            for x in BASELINE_RUNS
            if x[0] == "pf_enkf" and (x[1], x[2], x[3]) in set(LANDSCAPE)
        ],
        lib=lib("baseline_plots.py"),
    output:
        pdf="results/figures/baselines.pdf",
        png="results/figures/baselines.png",
    log:
        "logs/plot_baselines.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_baselines.py"
