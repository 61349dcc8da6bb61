# Tables: CSV plus a Markdown rendering, every number from a rule.


rule make_table_s3:
    input:
        structures=paths(
            "structure", [{"structure": s} for s in config["table_s3"]["structures"]]
        ),
        assess=paths(
            "assess", [{"structure": s} for s in config["table_s3"]["structures"]]
        ),
        published="resources/published/table_s3.csv",
        lib=lib("make_table_s3"),
    output:
        csv=path("table", ".csv", table="table_s3"),
        md=path("table", ".md", table="table_s3"),
        totals=path("table_s3_totals"),
    log:
        logs("make_table_s3.log"),
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
        modal=paths("modal", [{"structure": s} for s in SHEET.modal]),
        records=paths("record", SHEET.records, ".json"),
        residual=rules.verify_residual.output.json if SHEET.records else [],
        lib=lib("make_table2"),
    output:
        csv=path("table", ".csv", table="table2"),
        md=path("table", ".md", table="table2"),
    log:
        logs("make_table2.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=500,
    params:
        records=[r["record"] for r in SHEET.records],
    script:
        "../scripts/make_table2.py"


rule make_table5:
    input:
        runs=paths("pinn", SHEET.table5, ".json"),
        lib=lib("make_table5"),
    output:
        csv=path("table", ".csv", table="table5"),
        md=path("table", ".md", table="table5"),
    log:
        logs("make_table5.log"),
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
        runs=paths("pinn", SHEET.pinn, ".json"),
        lib=lib("make_pinn_summary"),
    output:
        csv=path("table", ".csv", table="pinn_runs"),
        md=path("table", ".md", table="pinn_runs"),
    log:
        logs("make_pinn_summary.log"),
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
        pinn=paths("pinn", SHEET.table6_pinn, ".json"),
        baselines=paths("baseline", SHEET.table6_baselines, ".json"),
        regression=[
            path("regression", seed=TABLE6.get("seed", 0), **r)
            for r in SHEET.table6_regression
        ],
        published="resources/published/table6.csv",
        lib=lib("make_table6"),
    output:
        csv=path("table", ".csv", table="table6"),
        md=path("table", ".md", table="table6"),
    log:
        logs("make_table6.log"),
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
