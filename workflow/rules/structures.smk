# Stage 1: structures, prestress and Maxwell counts.


rule generate_structure:
    input:
        lib=lib("generate_structure"),
        user_file=structure_file,
    output:
        **catalog_outputs("structures"),
    log:
        logs("generate_structure/{structure}.log"),
    benchmark:
        benchmarks("generate_structure/{structure}.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            spec=structure_spec,
        ),
    script:
        "../scripts/generate_structure.py"


rule compute_prism_feasibility:
    input:
        lib=lib("compute_prism_feasibility"),
    output:
        **catalog_outputs("prism_range"),
    log:
        logs("compute_prism_feasibility.log"),
    benchmark:
        benchmarks("compute_prism_feasibility.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            settings=STUDIES["prism_feasibility"],
        ),
    script:
        "../scripts/compute_prism_feasibility.py"
