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
