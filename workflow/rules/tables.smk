# Tables: CSV plus a Markdown rendering, every number from a rule.


rule make_table_s3:
    input:
        structures=expand(
            "results/structures/{structure}.json",
            structure=config["table_s3"]["structures"],
        ),
        assess=expand(
            "results/assess/{structure}.json",
            structure=config["table_s3"]["structures"],
        ),
        published="resources/published/table_s3.csv",
        lib=lib("tables.py", "identifiability.py", "structure_io.py"),
    output:
        csv="results/tables/table_s3.csv",
        md="results/tables/table_s3.md",
        totals="results/values/table_s3_resolvable.json",
    log:
        "logs/make_table_s3.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    script:
        "../scripts/make_table_s3.py"


rule make_table2:
    input:
        modal=[f"results/modal/{s}.json" for s in MODAL],
        records=[f"results/records/{s}/{r}.json" for s, r in RECORDS],
        residual=rules.verify_residual.output.json if RECORDS else [],
        lib=lib("tables.py"),
    output:
        csv="results/tables/table2.csv",
        md="results/tables/table2.md",
    log:
        "logs/make_table2.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    script:
        "../scripts/make_table2.py"


rule make_table5:
    input:
        runs=[pinn_path(*x) for x in TABLE5],
        lib=lib("tables.py"),
    output:
        csv="results/tables/table5.csv",
        md="results/tables/table5.md",
    log:
        "logs/make_table5.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    script:
        "../scripts/make_table5.py"


rule make_pinn_summary:
    input:
        runs=[pinn_path(*x) for x in PINN_RUNS],
        lib=lib("tables.py"),
    output:
        csv="results/tables/pinn_runs.csv",
        md="results/tables/pinn_runs.md",
    log:
        "logs/make_pinn_summary.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    script:
        "../scripts/make_pinn_summary.py"


rule make_table6:
    input:
        pinn=_table6_inputs("pinn"),
        baselines=_table6_inputs("baselines"),
        regression=_table6_inputs("regression"),
        published="resources/published/table6.csv",
        lib=lib("tables.py"),
    output:
        csv="results/tables/table6.csv",
        md="results/tables/table6.md",
    log:
        "logs/make_table6.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    params:
        records=config.get("table6", {}).get("records", {}),
    script:
        "../scripts/make_table6.py"
