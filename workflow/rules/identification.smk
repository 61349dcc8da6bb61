# Stage 4: identification (one interface; methods by name).


rule fit_regression:
    input:
        structure=path("structure"),
        record=path("record", ".npz"),
        record_json=path("record", ".json"),
        lib=lib("fit_regression"),
    output:
        **catalog_outputs("regression"),
    log:
        logs("fit_regression/{structure}/{record}/seed{seed}.log"),
    benchmark:
        benchmarks("fit_regression/{structure}/{record}/seed{seed}.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    script:
        "../scripts/fit_regression.py"


# PINN training jobs: a seed group (the runs that differ only in their seed)
# trains in jobs of at most identify.pinn.batch.seeds_per_job seeds, each one
# batch writing its seeds' result files; a rule per job (its outputs are those
# files), named after the group and its seeds (SHEET.pinn_jobs).
for job in SHEET.pinn_jobs:

    rule:
        name:
            job["rule"]
        input:
            structure=path("structure", **job),
            record_npz=pinn_inputs("npz", job),
            record_json=pinn_inputs("json", job),
            sensors=pinn_inputs("sensors", job),
            lib=lib("identify_pinn"),
        output:
            json=pinn_outputs(job, ".json"),
            history=pinn_outputs(job, "_history.csv"),
            series=pinn_outputs(job, "_series.npz"),
        log:
            logs(pinn_job_name(job, ".log")),
        benchmark:
            benchmarks(pinn_job_name(job, ".tsv"))
        priority: pinn_priority(pinn_expected(job))
        conda:
            "../../envs/core.yaml"
        threads: pinn_threads(job)
        resources:
            **per_attempt(runtime=pinn_runtime(job), mem_mb=pinn_mem_mb(job)),
        params:
            **canonical_params(
                seeds=job["seeds"],
                settings={
                    **PINN["settings"],
                    **SHEET.pinn_settings(job["variant"]),
                    "steps": job["steps"],
                },
                treatment=job["treatment"],
                protocol=job["protocol"],
                records=SHEET.pinn_records(job["structure"], job["record"]),
                variant=job["variant"],
                overrides=SHEET.pinn_settings(job["variant"]),
                problem=problem_options(PINN)(SimpleNamespace(**job)),
                checkpoint=path("pinn_checkpoint", **job),
                compile_cache=path("compile_cache"),
            ),
        script:
            "../scripts/identify_pinn.py"


# A seed group's summary, from its seeds' result files (whichever jobs wrote
# them): cheap, a local rule (workflow/catalog.yaml).
rule summarize_pinn_group:
    input:
        runs=pinn_group_runs,
        lib=lib("summarize_pinn_group"),
    output:
        **catalog_outputs("pinn_groups"),
    log:
        logs(
            "summarize_pinn_group/{treatment}/{structure}/{record}/{protocol}_steps{steps}{variant}.log"
        ),
    wildcard_constraints:
        treatment="smooth|fb|event",
        steps=r"\d+",
        variant=r"(_[A-Za-z0-9_.-]+)?",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    script:
        "../scripts/summarize_pinn_group.py"


rule verify_residual:
    input:
        structures=paths("structure", SHEET.record_structures()),
        records=paths("record", SHEET.records, ".npz"),
        metas=paths("record", SHEET.records, ".json"),
        lib=lib("verify_residual"),
    output:
        **catalog_outputs("residual_checks"),
    log:
        logs("verify_residual.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            beta=PINN["settings"].get("beta"),
            bias_structures=STUDIES["table2"]["bias_structures"],
            structures=[r["structure"] for r in SHEET.record_structures()],
            records=SHEET.records,
        ),
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
        **catalog_outputs("baselines"),
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
        **per_attempt(runtime=60, mem_mb=2000),
    params:
        **canonical_params(
            problem=problem_options(BASELINES),
            method=lambda w: w.method,
            options=baseline_options,
        ),
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
        **catalog_outputs("lm_restarts"),
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
        **per_attempt(runtime=120, mem_mb=2000),
    params:
        **canonical_params(
            problem=problem_options(BASELINES),
            method="lm_shooting",
            options=lambda w: {
                **(BASELINES["methods"].get("lm_shooting") or {}),
                **BASELINES.get("restarts", {}).get("options", {}),
                "starts": BASELINES.get("restarts", {}).get("starts"),
            },
        ),
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
        **catalog_outputs("landscapes"),
    log:
        logs("lm_landscape/{structure}/{record}/{protocol}.log"),
    benchmark:
        benchmarks("lm_landscape/{structure}/{record}/{protocol}.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=60, mem_mb=2000),
    params:
        **canonical_params(
            problem=problem_options(BASELINES),
            n_line=BASELINES["landscape"]["n_line"],
            n_grid=BASELINES["landscape"]["n_grid"],
        ),
    script:
        "../scripts/scan_shooting_landscape.py"


rule springrod_example:
    input:
        published=published("springrod_appendix_a.csv"),
        lib=lib("springrod_example"),
    output:
        **catalog_outputs("springrod"),
    log:
        logs("springrod_example.log"),
    benchmark:
        benchmarks("springrod_example.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=60, mem_mb=2000),
    params:
        **canonical_params(
            settings=STUDIES.get("springrod", {}),
        ),
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
        **catalog_outputs("baseline_variants"),
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
        **per_attempt(runtime=180, mem_mb=2000),
    params:
        **canonical_params(
            problem=problem_options(BASELINES),
            method=lambda w: w.method,
            options=lambda w: BASELINES["methods"].get(w.method) or {},
            variants=lambda w: BASELINES["variants"][w.study]["options"],
        ),
    script:
        "../scripts/identify_baseline.py"


# Levenberg-Marquardt shooting started from a physics-informed estimate (the
# hybrid beyond the paper): same record, noise realisation and sensors as the
# PINN run it starts from.
rule identify_pinn_lm:
    input:
        pinn=path("pinn", ".json"),
        structure=path("structure"),
        record_npz=lambda w: pinn_inputs("npz", dict(w.items())),
        record_json=lambda w: pinn_inputs("json", dict(w.items())),
        sensors=lambda w: pinn_inputs("sensors", dict(w.items())),
        lib=lib("identify_pinn_lm"),
    output:
        json=path("pinn_lm", ".json"),
    log:
        logs(
            "identify_pinn_lm/{structure}/{record}/{protocol}_{treatment}_seed{seed}_steps{steps}{variant}.log"
        ),
    benchmark:
        benchmarks(
            "identify_pinn_lm/{structure}/{record}/{protocol}_{treatment}_seed{seed}_steps{steps}{variant}.tsv"
        )
    wildcard_constraints:
        treatment="smooth|fb|event",
        seed=r"\d+",
        steps=r"\d+",
        variant=r"(_[A-Za-z0-9_.-]+)?",
    conda:
        "../../envs/core.yaml"
    threads: 2
    resources:
        **per_attempt(runtime=60, mem_mb=2000),
    params:
        **canonical_params(
            problem=problem_options(BASELINES),
            records=lambda w: SHEET.pinn_records(w.structure, w.record),
            options={
                **(BASELINES.get("methods", {}).get("lm_shooting") or {}),
                **(STUDIES.get("silent_failures", {}).get("lm") or {}),
            },
            fisher={
                k: config["analysis"]["fisher"][k]
                for k in ("rel_step", "floor", "null_tol")
            },
        ),
    script:
        "../scripts/identify_pinn_lm.py"
