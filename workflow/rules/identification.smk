# Stage 4: identification (one interface; methods by name).


rule fit_regression:
    input:
        structure="results/structures/{structure}.json",
        record="results/records/{structure}/{record}.npz",
        record_json="results/records/{structure}/{record}.json",
        lib=SIM_LIB + lib("identification.py", "regression.py", "identifiability.py"),
    output:
        json="results/identify/regression/{structure}/{record}/fullstate_seed{seed}.json",
    log:
        "logs/fit_regression/{structure}/{record}/seed{seed}.log",
    benchmark:
        "benchmarks/fit_regression/{structure}/{record}/seed{seed}.tsv"
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=10,
        mem_mb=1000,
    script:
        "../scripts/fit_regression.py"


rule identify_pinn:
    input:
        structure="results/structures/{structure}.json",
        record_npz=pinn_inputs("npz"),
        record_json=pinn_inputs("json"),
        sensors=pinn_inputs("sensors"),
        lib=PINN_LIB,
    output:
        json="results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}.json",
        history="results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}_history.csv",
        series="results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}_series.npz",
    log:
        "logs/identify_pinn/{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}.log",
    benchmark:
        "benchmarks/identify_pinn/{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}.tsv"
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        # about 10 ms per step and record on one core, plus margin
        runtime=lambda w: 10
        + int(int(w.steps) * len(pinn_group(w.structure, w.record)) / 3000),
        mem_mb=2000,
    params:
        settings=lambda w: {
            **PINN.get("settings", {}),
            "steps": int(w.steps),
        },
        records=lambda w: pinn_group(w.structure, w.record),
        noise_seed=lambda w: entry("protocols", w.structure, w.protocol).get(
            "noise_seed", 0
        ),
        sigma0=PINN.get("sigma0", 10.0),
        c0=PINN.get("c0", 0.3),
        sim=config["simulation"],
        outcome=config["identify"].get("outcome", {}),
        checkpoint=lambda w: f"results/checkpoints/pinn_{w.treatment}/{w.structure}/{w.record}/{w.protocol}_seed{w.seed}_steps{w.steps}.pt",
    script:
        "../scripts/identify_pinn.py"


rule verify_residual:
    input:
        structures=[
            f"results/structures/{s}.json"
            for s in dict.fromkeys(s for s, _ in RECORDS)
        ],
        records=[f"results/records/{s}/{r}.npz" for s, r in RECORDS],
        metas=[f"results/records/{s}/{r}.json" for s, r in RECORDS],
        lib=SIM_LIB + lib("residual.py"),
    output:
        json="results/values/residual_checks.json",
    log:
        "logs/verify_residual.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=10,
        mem_mb=1000,
    params:
        beta=PINN.get("settings", {}).get("beta", 800.0),
        bias_structures=config.get("verify_residual", {}).get("bias_structures", []),
    script:
        "../scripts/verify_residual.py"


rule identify_baseline:
    input:
        structure="results/structures/{structure}.json",
        record_npz="results/records/{structure}/{record}.npz",
        record_json="results/records/{structure}/{record}.json",
        sensors="results/sensors/{structure}/{record}/{protocol}.npz",
        lib=BASELINE_LIB,
    output:
        json="results/identify/{method}/{structure}/{record}/{protocol}_seed{seed}.json",
    log:
        "logs/identify_baseline/{method}/{structure}/{record}/{protocol}_seed{seed}.log",
    benchmark:
        "benchmarks/identify_baseline/{method}/{structure}/{record}/{protocol}_seed{seed}.tsv"
    wildcard_constraints:
        method="|".join(BASELINE_METHODS),
        seed=r"\d+",
    conda:
        "../../envs/core.yaml"
    threads: lambda w: 2 if w.method == "lm_shooting" else 1
    resources:
        runtime=60,
        mem_mb=2000,
    params:
        **_baseline_params(),
        options=lambda w: BASELINES.get("methods", {}).get(w.method) or {},
    script:
        "../scripts/identify_baseline.py"


rule lm_restarts:
    input:
        structure="results/structures/{structure}.json",
        record_npz="results/records/{structure}/{record}.npz",
        record_json="results/records/{structure}/{record}.json",
        sensors="results/sensors/{structure}/{record}/{protocol}.npz",
        lib=BASELINE_LIB,
    output:
        json="results/identify/lm_shooting/{structure}/{record}/{protocol}_seed{seed}_restarts.json",
    log:
        "logs/lm_restarts/{structure}/{record}/{protocol}_seed{seed}.log",
    benchmark:
        "benchmarks/lm_restarts/{structure}/{record}/{protocol}_seed{seed}.tsv"
    wildcard_constraints:
        seed=r"\d+",
    conda:
        "../../envs/core.yaml"
    threads: 2
    resources:
        runtime=120,
        mem_mb=2000,
    params:
        **_baseline_params(),
        options=lambda w: {
            **(BASELINES.get("methods", {}).get("lm_shooting") or {}),
            **BASELINES.get("restarts", {}).get("options", {}),
            "starts": BASELINES.get("restarts", {}).get("starts"),
        },
    script:
        "../scripts/identify_baseline.py"


rule lm_landscape:
    input:
        structure="results/structures/{structure}.json",
        record_npz="results/records/{structure}/{record}.npz",
        record_json="results/records/{structure}/{record}.json",
        sensors="results/sensors/{structure}/{record}/{protocol}.npz",
        lib=BASELINE_LIB,
    output:
        json="results/values/lm_landscape/{structure}/{record}/{protocol}.json",
    log:
        "logs/lm_landscape/{structure}/{record}/{protocol}.log",
    benchmark:
        "benchmarks/lm_landscape/{structure}/{record}/{protocol}.tsv"
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=60,
        mem_mb=2000,
    params:
        **_baseline_params(),
        n_line=BASELINES.get("landscape", {}).get("n_line", 49),
        n_grid=BASELINES.get("landscape", {}).get("n_grid", 9),
    script:
        "../scripts/scan_shooting_landscape.py"


rule springrod_example:
    input:
        published="resources/published/springrod_appendix_a.csv",
        lib=lib("springrod.py", "tables.py", "runio.py"),
    output:
        json="results/identify/springrod/summary.json",
        csv="results/tables/springrod.csv",
        md="results/tables/springrod.md",
    log:
        "logs/springrod_example.log",
    benchmark:
        "benchmarks/springrod_example.tsv"
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=60,
        mem_mb=2000,
    params:
        settings=config.get("springrod", {}),
    script:
        "../scripts/springrod_example.py"


rule baseline_variants:
    input:
        structure="results/structures/{structure}.json",
        record_npz="results/records/{structure}/{record}.npz",
        record_json="results/records/{structure}/{record}.json",
        sensors="results/sensors/{structure}/{record}/{protocol}.npz",
        lib=BASELINE_LIB,
    output:
        json="results/identify/{method}/{structure}/{record}/{protocol}_seed{seed}_variants_{study}.json",
    log:
        "logs/baseline_variants/{method}/{study}/{structure}/{record}/{protocol}_seed{seed}.log",
    benchmark:
        "benchmarks/baseline_variants/{method}/{study}/{structure}/{record}/{protocol}_seed{seed}.tsv"
    wildcard_constraints:
        method="|".join(BASELINE_METHODS),
        study="[a-z0-9_]+",
    conda:
        "../../envs/core.yaml"
    threads: lambda w: 2 if w.method == "lm_shooting" else 1
    resources:
        runtime=180,
        mem_mb=2000,
    params:
        **_baseline_params(),
        options=lambda w: BASELINES.get("methods", {}).get(w.method) or {},
        variants=lambda w: BASELINES["variants"][w.study]["options"],
    script:
        "../scripts/identify_baseline.py"
