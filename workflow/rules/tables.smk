# Tables: CSV plus a Markdown rendering, every number from a rule.


rule make_tableS3:
    input:
        structures=paths("structure", [{"structure": s} for s in ROWS["tableS3"]]),
        assess=paths("assess", [{"structure": s} for s in ROWS["tableS3"]]),
        published=published("tableS3.csv"),
        lib=lib("make_tableS3"),
    output:
        **catalog_outputs("tableS3"),
    log:
        logs("make_tableS3.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    script:
        "../scripts/make_tableS3.py"


rule make_table2:
    input:
        modal=paths("modal", ROWS["modal"]),
        records=paths("record", SHEET.records, ".json"),
        residual=rules.verify_residual.output.json if SHEET.records else [],
        crosscheck=(
            rules.crosscheck_quaternion.output.json
            if ROWS["crosscheck"] or ROWS["crosscheck_extra"]
            else []
        ),
        lib=lib("make_table2"),
    output:
        **catalog_outputs("table2"),
    log:
        logs("make_table2.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            records=[r["record"] for r in SHEET.records],
        ),
    script:
        "../scripts/make_table2.py"


rule make_table5:
    input:
        runs=paths("pinn", ROWS["table5"], ".json"),
        lib=lib("make_table5"),
    output:
        **catalog_outputs("table5"),
    log:
        logs("make_table5.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    script:
        "../scripts/make_table5.py"


rule make_pinn_summary:
    input:
        runs=paths("pinn", SHEET.pinn, ".json"),
        lib=lib("make_pinn_summary"),
    output:
        **catalog_outputs("pinn_summary"),
    log:
        logs("make_pinn_summary.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    script:
        "../scripts/make_pinn_summary.py"


rule make_table6:
    input:
        pinn=paths("pinn", ROWS["table6_pinn"], ".json"),
        baselines=paths("baseline", ROWS["table6_baselines"], ".json"),
        regression=[
            path("regression", seed=TABLE6.get("seed", 0), **r)
            for r in ROWS["table6_regression"]
        ],
        published=published("table6.csv"),
        lib=lib("make_table6"),
    output:
        **catalog_outputs("table6"),
    log:
        logs("make_table6.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            records=TABLE6.get("records", {}),
        ),
    script:
        "../scripts/make_table6.py"


# Tables 3 and 4 (the paper §4.3-4.4) and the robustness Tables S1, S4-S6 (the
# paper §4.9, §S2, §S6): benchmark identification rows over their seeds, with the
# paper's values beside them (config studies.<table>).
for _table in BENCH_TABLE_RULES:

    rule:
        name:
            f"make_{_table}"
        input:
            runs=paths(
                "pinn",
                [run for row in ROWS[f"bench_{_table}"] for run in row["runs"]],
                ".json",
            ),
            published=published(f"{_table}.csv"),
            lib=lib("make_bench_table"),
        output:
            **catalog_outputs(_table),
        log:
            logs(f"make_{_table}.log"),
        conda:
            "../../envs/core.yaml"
        threads: 1
        resources:
            **per_attempt(runtime=5, mem_mb=500),
        params:
            **canonical_params(
                table=_table,
                rows=[
                    {k: v for k, v in row.items() if k != "runs"}
                    | {"n_runs": len(row["runs"])}
                    for row in ROWS[f"bench_{_table}"]
                ],
            ),
        script:
            "../scripts/make_bench_table.py"


# Table S5's companion (beyond the paper): the classical baselines on the
# model-form rows beside the PINN, each against its matched record.
rule make_tableS5_baselines:
    input:
        pinn=paths(
            "pinn",
            [run for row in ROWS["bench_tableS5"] for run in row["runs"]],
            ".json",
        ),
        baselines=paths("baseline", ROWS["tableS5_baselines"], ".json"),
        lib=lib("make_tableS5_baselines"),
    output:
        **catalog_outputs("tableS5_baselines"),
    log:
        logs("make_tableS5_baselines.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            rows=[
                {k: v for k, v in row.items() if k != "runs"}
                | {"n_runs": len(row["runs"])}
                for row in ROWS["bench_tableS5"]
            ],
            baselines=[[r["row"], r["method"]] for r in ROWS["tableS5_baselines"]],
        ),
    script:
        "../scripts/make_tableS5_baselines.py"


rule make_silent_failures:
    input:
        runs=paths("pinn", ROWS["pinn_lm"], ".json"),
        hybrid=paths("pinn_lm", ROWS["pinn_lm"], ".json"),
        lib=lib("make_silent_failures"),
    output:
        **catalog_outputs("silent_failures"),
    log:
        logs("make_silent_failures.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            rows=ROWS["silent_rows"],
            flags=STUDIES.get("silent_failures", {}).get("flags", {}),
        ),
    script:
        "../scripts/make_silent_failures.py"


rule make_seed_study:
    input:
        runs=lambda w: paths("pinn", study_row("seed_study", w.row)["runs"], ".json"),
        fisher=lambda w: path("fisher", **study_row("seed_study", w.row)),
        published=published("seed_study.yaml"),
        lib=lib("make_seed_study"),
    output:
        **catalog_outputs("seed_study"),
    log:
        logs("make_seed_study/{row}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            row=lambda w: {
                k: v for k, v in study_row("seed_study", w.row).items() if k != "runs"
            },
        ),
    script:
        "../scripts/make_seed_study.py"


# The specification study of the network (docs/pinn_specification.md): each
# unstated detail varied alone from the default, per record and seed.
rule make_pinn_spec_study:
    input:
        runs=paths(
            "pinn",
            [run for row in ROWS["bench_pinn_spec_study"] for run in row["runs"]],
            ".json",
        ),
        table3=published("table3.csv"),
        lib=lib("make_pinn_spec_study"),
    output:
        **catalog_outputs("pinn_spec_study"),
    log:
        logs("make_pinn_spec_study.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            rows=[
                {k: v for k, v in row.items() if k != "runs"}
                | {"n_runs": len(row["runs"]), "overrides": row["runs"][0]["settings"]}
                for row in ROWS["bench_pinn_spec_study"]
            ],
        ),
    script:
        "../scripts/make_pinn_spec_study.py"
