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
