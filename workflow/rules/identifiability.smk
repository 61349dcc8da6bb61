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


rule compute_prism_series:
    input:
        structure="results/structures/{structure}.json",
        lib=SIM_LIB + lib("modal.py", "prestress_series.py"),
    output:
        json="results/values/{structure}_series_modal.json",
        pdf="results/figures/{structure}_series_logslope.pdf",
        png="results/figures/{structure}_series_logslope.png",
    log:
        "logs/compute_prism_series/{structure}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    params:
        levels=config["prestress_series"]["levels"],
    script:
        "../scripts/compute_prism_series.py"


rule compute_grouping:
    input:
        structure="results/structures/{structure}.json",
        fisher=lambda w: "results/fisher/{}/{}/{}.json".format(
            w.structure, *entry("grouping", w.structure)["case"]
        ),
        lib=lib("prestress_series.py", "identifiability.py"),
    output:
        json="results/values/grouping_{structure}.json",
    log:
        "logs/compute_grouping/{structure}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    params:
        group=lambda w: entry("grouping", w.structure)["cables"],
    script:
        "../scripts/compute_grouping.py"
