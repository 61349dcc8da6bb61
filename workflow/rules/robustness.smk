# Stage: robustness (the paper §4.9, §S5, §S6): model-form generators and their checks.
# Model-form records themselves are ordinary records with a `generator`
# (rule simulate_record); this file holds the generators' own verification.


rule compute_flexible_bar_convergence:
    input:
        structure=path(
            "structure",
            structure=STUDIES["robustness"]
            .get("flexible_bars", {})
            .get("structure", "x1"),
        ),
        lib=lib("compute_flexible_bar_convergence"),
    output:
        **catalog_outputs("flexible_bars"),
    log:
        logs("compute_flexible_bar_convergence.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            E_bar=STUDIES["robustness"].get("flexible_bars", {}).get("E_bar", []),
        ),
    script:
        "../scripts/compute_flexible_bar_convergence.py"


rule compute_member_model_adequacy:
    input:
        structures=paths("structure", ROWS["member_model"]),
        records=paths("record", ROWS["member_model_records"], ".npz"),
        lib=lib("compute_member_model_adequacy"),
    output:
        **catalog_outputs("member_model"),
    log:
        logs("compute_member_model_adequacy.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            structures=[r["structure"] for r in ROWS["member_model"]],
            records=ROWS["member_model_records"],
        ),
    script:
        "../scripts/compute_member_model_adequacy.py"


rule compute_bar_stiffness_sensitivity:
    input:
        structure=path(
            "structure",
            structure=STUDIES["robustness"]
            .get("bar_stiffness", {})
            .get("structure", "x1"),
        ),
        record=path(
            "record",
            ".json",
            structure=STUDIES["robustness"]
            .get("bar_stiffness", {})
            .get("structure", "x1"),
            record=STUDIES["robustness"]
            .get("bar_stiffness", {})
            .get("record", "taut_1pt"),
        ),
        lib=lib("compute_bar_stiffness_sensitivity"),
    output:
        **catalog_outputs("bar_stiffness"),
    log:
        logs("compute_bar_stiffness_sensitivity.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=20, mem_mb=2000),
    params:
        **canonical_params(
            E_bar=STUDIES["robustness"].get("bar_stiffness", {}).get("E_bar", []),
            t_end=STUDIES["robustness"]
            .get("bar_stiffness", {})
            .get("t_end", SIM["t_end"]),
            record=STUDIES["robustness"]
            .get("bar_stiffness", {})
            .get("record", "taut_1pt"),
        ),
    script:
        "../scripts/compute_bar_stiffness_sensitivity.py"


# An uncalibrated force channel (beyond the paper; config 'force_scale'): PINN
# rows with and without fit_force_scale, LM shooting with the force known or
# fitted (the baseline variants study 'force_scale').
rule make_force_scale_table:
    input:
        runs=paths(
            "pinn",
            [run for row in ROWS["bench_force_scale"] for run in row["runs"]],
            ".json",
        ),
        lm=force_scale_lm(),
        lib=lib("make_force_scale_table"),
    output:
        **catalog_outputs("force_scale"),
    log:
        logs("make_force_scale_table.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            rows=[
                {k: v for k, v in row.items() if k != "runs"}
                | {"n_runs": len(row["runs"])}
                for row in ROWS["bench_force_scale"]
            ],
            true_scale=force_scale_true(),
        ),
    script:
        "../scripts/make_force_scale_table.py"
