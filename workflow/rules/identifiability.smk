# Stage 3: identifiability before inversion (Fisher information, CRLB).


rule compute_fisher:
    input:
        structure=path("structure"),
        record=path("record", ".json"),
        sensors=path("sensors"),
        lib=lib("compute_fisher"),
    output:
        **catalog_outputs("fisher"),
    log:
        logs("compute_fisher/{structure}/{record}/{protocol}.log"),
    benchmark:
        benchmarks("compute_fisher/{structure}/{record}/{protocol}.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 2
    resources:
        **per_attempt(runtime=30, mem_mb=2000),
    params:
        **canonical_params(
            fisher={
                k: v for k, v in config["analysis"]["fisher"].items() if k != "cases"
            },
            sim=SIM,
        ),
    script:
        "../scripts/compute_fisher.py"


rule compute_prism_series:
    input:
        structure=path("structure"),
        lib=lib("compute_prism_series"),
    output:
        **catalog_outputs("series"),
    log:
        logs("compute_prism_series/{structure}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            levels=config["analysis"]["prestress_series"]["levels"],
        ),
    script:
        "../scripts/compute_prism_series.py"


rule compute_grouping:
    input:
        structure=path("structure"),
        fisher=lambda w: path(
            "fisher",
            structure=w.structure,
            **entry("analysis.grouping", w.structure)["case"],
        ),
        lib=lib("compute_grouping"),
    output:
        **catalog_outputs("grouping"),
    log:
        logs("compute_grouping/{structure}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            group=lambda w: entry("analysis.grouping", w.structure)["cables"],
        ),
    script:
        "../scripts/compute_grouping.py"
