# Stage 5: structural assessment of a prestress (stability class, margin, utilisations).


rule assess_structure:
    input:
        structure=path("structure"),
        lib=lib("assess_structure"),
    output:
        **catalog_outputs("assess"),
    log:
        logs("assess_structure/{structure}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            settings=config.get("assessment", {}),
        ),
    script:
        "../scripts/assess_structure.py"


rule assess_prestress_scan:
    input:
        structure=path("structure"),
        lib=lib("assess_prestress_scan"),
    output:
        **catalog_outputs("assess_scan"),
    log:
        logs("assess_prestress_scan/{structure}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            scales=lambda w: ASSESS["scan"]["scales"],
            tol_rel=ASSESS["tol_rel"],
        ),
    script:
        "../scripts/assess_prestress_scan.py"


rule assess_record:
    input:
        structure=path("structure"),
        record_npz=path("record", ".npz"),
        record_json=path("record", ".json"),
        lib=lib("assess_record"),
    output:
        **catalog_outputs("assess_records"),
    log:
        logs("assess_record/{structure}/{record}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=20, mem_mb=1000),
    params:
        **canonical_params(
            stride=ASSESS["record_stride"],
            tol_rel=ASSESS["tol_rel"],
        ),
    script:
        "../scripts/assess_record.py"


rule assess_steel_design:
    input:
        structure=path("structure"),
        lib=lib("assess_steel_design"),
    output:
        **catalog_outputs("assess_steel"),
    log:
        logs("assess_steel_design/{structure}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    params:
        **canonical_params(
            steel=ASSESS.get("steel", {}),
            tol_rel=ASSESS["tol_rel"],
        ),
    script:
        "../scripts/assess_steel_design.py"


rule plot_figS3:
    input:
        scans=paths("assess_scan", ROWS["assess_scan"]),
        records=paths("assess_record", ROWS["assess_records"]),
        steel=paths("assess_steel", ROWS["assess_steel"]),
        lib=lib("plot_figS3"),
    output:
        **catalog_outputs("figS3"),
    log:
        logs("plot_figS3.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_figS3.py"


rule make_table9:
    input:
        results=paths("pinn", ROWS["table9_pinn"], ".json")
        + paths("baseline", ROWS["table9_baselines"], ".json"),
        structures=paths(
            "structure",
            [
                {"structure": s}
                for s in dict.fromkeys(
                    r["structure"]
                    for r in ROWS["table9_pinn"] + ROWS["table9_baselines"]
                )
            ],
        ),
        lib=lib("make_table9"),
    output:
        **catalog_outputs("table9"),
    log:
        logs("make_table9.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/make_table9.py"


rule plot_figS2:
    input:
        assess=paths("assess", [{"structure": s} for s in ROWS["tableS3"]]),
        lib=lib("plot_figS2"),
    output:
        **catalog_outputs("figS2"),
    log:
        logs("plot_figS2.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_figS2.py"


rule plot_figS1:
    input:
        structures=paths("structure", [{"structure": s} for s in ROWS["figS1"]]),
        assess=paths("assess", [{"structure": s} for s in ROWS["figS1"]]),
        lib=lib("plot_figS1"),
    output:
        **catalog_outputs("figS1"),
    log:
        logs("plot_figS1.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_figS1.py"
