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
