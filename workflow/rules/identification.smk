# Stage 4: identification (one interface; methods by name).


rule fit_regression:
    input:
        structure=path("structure"),
        record=path("record", ".npz"),
        record_json=path("record", ".json"),
        lib=lib("fit_regression"),
    output:
        json=path("regression"),
    log:
        logs("fit_regression/{structure}/{record}/seed{seed}.log"),
    benchmark:
        benchmarks("fit_regression/{structure}/{record}/seed{seed}.tsv")
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
        structure=path("structure"),
        record_npz=pinn_inputs("npz"),
        record_json=pinn_inputs("json"),
        sensors=pinn_inputs("sensors"),
        lib=lib("identify_pinn"),
    output:
        json=path("pinn", ".json"),
        history=path("pinn", "_history.csv"),
        series=path("pinn", "_series.npz"),
    log:
        logs(
            "identify_pinn/{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}{variant}.log"
        ),
    benchmark:
        benchmarks(
            "identify_pinn/{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}{variant}.tsv"
        )
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        # about 10 ms per step and record on one core, plus margin
        runtime=lambda w: 10
        + int(int(w.steps) * len(SHEET.pinn_records(w.structure, w.record)) / 3000),
        mem_mb=2000,
    params:
        settings=lambda w: {
            **PINN["settings"],
            **SHEET.pinn_settings(w.variant.lstrip("_")),
            "steps": int(w.steps),
        },
        records=lambda w: SHEET.pinn_records(w.structure, w.record),
        variant=lambda w: w.variant.lstrip("_"),
        overrides=lambda w: SHEET.pinn_settings(w.variant.lstrip("_")),
        problem=problem_options(PINN),
        checkpoint=lambda w: path("pinn_checkpoint", **w),
    script:
        "../scripts/identify_pinn.py"


rule verify_residual:
    input:
        structures=paths("structure", SHEET.record_structures()),
        records=paths("record", SHEET.records, ".npz"),
        metas=paths("record", SHEET.records, ".json"),
        lib=lib("verify_residual"),
    output:
        json=path("residual_checks"),
    log:
        logs("verify_residual.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=10,
        mem_mb=1000,
    params:
        beta=PINN["settings"].get("beta"),
        bias_structures=config["verify_residual"]["bias_structures"],
        structures=[r["structure"] for r in SHEET.record_structures()],
        records=SHEET.records,
    script:
        "../scripts/verify_residual.py"


rule identify_baseline:
    input:
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        sensors=path("sensors"),
        lib=lib("identify_baseline"),
    output:
        json=path("baseline", ".json"),
    log:
        logs(
            "identify_baseline/{method}/{structure}/{record}/{protocol}_seed{seed}.log"
        ),
    benchmark:
        benchmarks(
            "identify_baseline/{method}/{structure}/{record}/{protocol}_seed{seed}.tsv"
        )
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
        problem=problem_options(BASELINES),
        method=lambda w: w.method,
        options=lambda w: BASELINES["methods"].get(w.method) or {},
    script:
        "../scripts/identify_baseline.py"


rule lm_restarts:
    input:
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        sensors=path("sensors"),
        lib=lib("identify_baseline"),
    output:
        json=path("baseline", "_restarts.json", method="lm_shooting"),
    log:
        logs("lm_restarts/{structure}/{record}/{protocol}_seed{seed}.log"),
    benchmark:
        benchmarks("lm_restarts/{structure}/{record}/{protocol}_seed{seed}.tsv")
    wildcard_constraints:
        seed=r"\d+",
    conda:
        "../../envs/core.yaml"
    threads: 2
    resources:
        runtime=120,
        mem_mb=2000,
    params:
        problem=problem_options(BASELINES),
        method="lm_shooting",
        options=lambda w: {
            **(BASELINES["methods"].get("lm_shooting") or {}),
            **BASELINES.get("restarts", {}).get("options", {}),
            "starts": BASELINES.get("restarts", {}).get("starts"),
        },
    script:
        "../scripts/identify_baseline.py"


rule lm_landscape:
    input:
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        sensors=path("sensors"),
        lib=lib("scan_shooting_landscape"),
    output:
        json=path("landscape"),
    log:
        logs("lm_landscape/{structure}/{record}/{protocol}.log"),
    benchmark:
        benchmarks("lm_landscape/{structure}/{record}/{protocol}.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=60,
        mem_mb=2000,
    params:
        problem=problem_options(BASELINES),
        n_line=BASELINES["landscape"]["n_line"],
        n_grid=BASELINES["landscape"]["n_grid"],
    script:
        "../scripts/scan_shooting_landscape.py"


rule springrod_example:
    input:
        published="resources/published/springrod_appendix_a.csv",
        lib=lib("springrod_example"),
    output:
        json=path("springrod"),
        csv=path("table", ".csv", table="springrod"),
        md=path("table", ".md", table="springrod"),
    log:
        logs("springrod_example.log"),
    benchmark:
        benchmarks("springrod_example.tsv")
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
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        sensors=path("sensors"),
        lib=lib("identify_baseline"),
    output:
        json=path("baseline", "_variants_{study}.json"),
    log:
        logs(
            "baseline_variants/{method}/{study}/{structure}/{record}/{protocol}_seed{seed}.log"
        ),
    benchmark:
        benchmarks(
            "baseline_variants/{method}/{study}/{structure}/{record}/{protocol}_seed{seed}.tsv"
        )
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
        problem=problem_options(BASELINES),
        method=lambda w: w.method,
        options=lambda w: BASELINES["methods"].get(w.method) or {},
        variants=lambda w: BASELINES["variants"][w.study]["options"],
    script:
        "../scripts/identify_baseline.py"
