# Your own records (config 'measured'): a measured file becomes a record of its
# structure, with protocol 'measured'; screened before, identified by the
# baseline rules unchanged, assessed and summarised after.


rule import_measured_record:
    input:
        structure=path("structure"),
        file=lambda w: measured(w)["file"],
        lib=lib("import_measured_record"),
    output:
        **catalog_outputs("measured_records"),
    log:
        logs("import_measured_record/{structure}/{record}.log"),
    wildcard_constraints:
        record=MEASURED_RE,
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            entry=measured,
        ),
    script:
        "../scripts/import_measured_record.py"


rule screen_measured_record:
    input:
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        sensors=path("sensors", protocol="measured"),
        lib=lib("screen_measured_record"),
    output:
        json=path("measured_screening"),
    log:
        logs("screen_measured_record/{structure}/{record}.log"),
    wildcard_constraints:
        record=MEASURED_RE,
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=20, mem_mb=1000),
    params:
        **canonical_params(
            problem=problem_options(BASELINES),
            fisher={
                k: config["analysis"]["fisher"][k]
                for k in ("rel_step", "floor", "null_tol")
            },
        ),
    script:
        "../scripts/screen_measured_record.py"


rule assess_measured_record:
    input:
        structure=path("structure"),
        screening=path("measured_screening"),
        results=measured_results,
        lib=lib("assess_measured_record"),
    output:
        json=path("measured_assessment"),
    log:
        logs("assess_measured_record/{structure}/{record}.log"),
    wildcard_constraints:
        record=MEASURED_RE,
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            tol_rel=ASSESS.get("tol_rel", 1e-8),
        ),
    script:
        "../scripts/assess_measured_record.py"


rule make_measured_summary:
    input:
        structure=path("structure"),
        record_json=path("record", ".json"),
        screening=path("measured_screening"),
        results=measured_results,
        assessment=path("measured_assessment"),
        lib=lib("make_measured_summary"),
    output:
        **catalog_outputs("measured_summaries"),
    log:
        logs("make_measured_summary/{structure}/{record}.log"),
    wildcard_constraints:
        record=MEASURED_RE,
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/make_measured_summary.py"


rule plot_measured_fit:
    input:
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        sensors=path("sensors", protocol="measured"),
        results=measured_results,
        lib=lib("plot_measured_fit"),
    output:
        **catalog_outputs("measured_fits"),
    log:
        logs("plot_measured_fit/{structure}/{record}.log"),
    wildcard_constraints:
        record=MEASURED_RE,
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=2000),
    script:
        "../scripts/plot_measured_fit.py"


rule identify_measured_peaks:
    input:
        structure=path("structure"),
        file=lambda w: PEAKS[w.name]["file"],
        lib=lib("identify_measured_peaks"),
    output:
        **catalog_outputs("peaks"),
    log:
        logs("identify_measured_peaks/{structure}/{name}.log"),
    wildcard_constraints:
        name=(
            "|".join(
                f"(?<=/{e['structure']}/peaks/){n}(?![a-z0-9_])"
                for n, e in PEAKS.items()
            )
            if PEAKS
            else "(?!x)x"
        ),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            tol_rel=ASSESS.get("tol_rel", 1e-8),
        ),
    script:
        "../scripts/identify_measured_peaks.py"
