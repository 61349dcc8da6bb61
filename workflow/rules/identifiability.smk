# Stage 3: identifiability before inversion (Fisher information, CRLB).


rule compute_fisher:
    input:
        structure="results/structures/{structure}.json",
        record="results/records/{structure}/{record}.json",
        sensors="results/sensors/{structure}/{record}/{protocol}.npz",
        lib=SIM_LIB + lib("identifiability.py", "statics.py"),
    output:
        json="results/fisher/{structure}/{record}/{protocol}.json",
    log:
        "logs/compute_fisher/{structure}/{record}/{protocol}.log",
    benchmark:
        "benchmarks/compute_fisher/{structure}/{record}/{protocol}.tsv"
    conda:
        "../../envs/core.yaml"
    threads: 2
    resources:
        runtime=30,
        mem_mb=2000,
    params:
        fisher={k: v for k, v in config["fisher"].items() if k != "cases"},
        sim=config["simulation"],
    script:
        "../scripts/compute_fisher.py"
