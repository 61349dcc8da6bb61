# Stage: robustness (seed 4.9, S5, S6): model-form generators and their checks.
# Model-form records themselves are ordinary records with a `generator`
# (rule simulate_record); this file holds the generators' own verification.


rule compute_flexible_bar_convergence:
    input:
        structure=path(
            "structure",
            structure=config["robustness"]
            .get("flexible_bars", {})
            .get("structure", "x1"),
        ),
        lib=lib("compute_flexible_bar_convergence"),
    output:
        json=path("flexible_bars"),
    log:
        logs("compute_flexible_bar_convergence.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    params:
        E_bar=config["robustness"].get("flexible_bars", {}).get("E_bar", []),
    script:
        "../scripts/compute_flexible_bar_convergence.py"
