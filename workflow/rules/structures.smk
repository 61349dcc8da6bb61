# Stage 1: structures, prestress and Maxwell counts.


rule generate_structure:
    input:
        lib=STRUCTURE_LIB,
        user_file=structure_file,
    output:
        json="results/structures/{structure}.json",
    params:
        spec=structure_spec,
    log:
        "logs/generate_structure/{structure}.log",
    benchmark:
        "benchmarks/generate_structure/{structure}.tsv"
    threads: 1
    resources:
        runtime=10,
        mem_mb=1000,
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/generate_structure.py"


rule compute_prism_feasibility:
    input:
        lib=STRUCTURE_LIB + lib("feasibility.py"),
    output:
        json="results/values/prism_twist_range.json",
    params:
        settings=config["prism_feasibility"],
    log:
        "logs/compute_prism_feasibility.log",
    benchmark:
        "benchmarks/compute_prism_feasibility.tsv"
    threads: 1
    resources:
        runtime=10,
        mem_mb=1000,
    conda:
        "../../envs/core.yaml"
    script:
        "../scripts/compute_prism_feasibility.py"
