# Stage 5: structural assessment of a prestress (stability class, margin, utilisations).


rule assess_structure:
    input:
        structure="results/structures/{structure}.json",
        lib=STRUCTURE_LIB
        + lib("assessment.py", "modal.py", "dynamics.py", "cables.py", "runio.py"),
    output:
        json="results/assess/{structure}.json",
    log:
        "logs/assess_structure/{structure}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    params:
        settings=config.get("assessment", {}),
    script:
        "../scripts/assess_structure.py"


rule assess_prestress_scan:
    input:
        structure="results/structures/{structure}.json",
        lib=STRUCTURE_LIB
        + lib("assessment.py", "modal.py", "dynamics.py", "cables.py", "runio.py"),
    output:
        json="results/assess/scan/{structure}.json",
    log:
        "logs/assess_prestress_scan/{structure}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    params:
        scales=ASSESS.get("scan", {}).get("scales", [1.0, 0.5, 0.1, 0.0, -0.1, -1.0]),
        tol_rel=ASSESS.get("tol_rel", 1e-8),
    script:
        "../scripts/assess_prestress_scan.py"


rule assess_record:
    input:
        structure="results/structures/{structure}.json",
        record_npz="results/records/{structure}/{record}.npz",
        record_json="results/records/{structure}/{record}.json",
        lib=SIM_LIB + lib("assessment.py", "modal.py", "problem_io.py"),
    output:
        json="results/assess/records/{structure}/{record}.json",
    log:
        "logs/assess_record/{structure}/{record}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=10,
        mem_mb=1000,
    params:
        stride=ASSESS.get("record_stride", 1),
        tol_rel=ASSESS.get("tol_rel", 1e-8),
    script:
        "../scripts/assess_record.py"


rule assess_steel_design:
    input:
        structure="results/structures/{structure}.json",
        lib=STRUCTURE_LIB
        + lib("assessment.py", "modal.py", "dynamics.py", "cables.py", "runio.py"),
    output:
        json="results/assess/steel/{structure}.json",
    log:
        "logs/assess_steel_design/{structure}.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    params:
        steel=ASSESS.get("steel", {}),
        tol_rel=ASSESS.get("tol_rel", 1e-8),
    script:
        "../scripts/assess_steel_design.py"


rule plot_figS3:
    input:
        scans=[f"results/assess/scan/{s}.json" for s in ASSESS_SCAN],
        records=[f"results/assess/records/{s}/{r}.json" for s, r in ASSESS_RECORDS],
        steel=[f"results/assess/steel/{s}.json" for s in ASSESS_STEEL],
        lib=lib("assessment_plots.py"),
    output:
        pdf="results/figures/figS3_assessment.pdf",
        png="results/figures/figS3_assessment.png",
    log:
        "logs/plot_figS3.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_figS3.py"


rule make_table9:
    input:
        results=TABLE9,
        structures=sorted(
            {f"results/structures/{p.split('/')[3]}.json" for p in TABLE9}
        ),
        lib=STRUCTURE_LIB + lib("assessment.py", "modal.py", "dynamics.py", "tables.py"),
    output:
        csv="results/tables/table9.csv",
        md="results/tables/table9.md",
    log:
        "logs/make_table9.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/make_table9.py"


rule plot_figS2:
    input:
        assess=expand(
            "results/assess/{structure}.json",
            structure=config["table_s3"]["structures"],
        ),
        lib=lib("assessment_plots.py"),
    output:
        pdf="results/figures/figS2_spectra.pdf",
        png="results/figures/figS2_spectra.png",
    log:
        "logs/plot_figS2.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_figS2.py"


rule plot_figS1:
    input:
        structures=[f"results/structures/{s}.json" for s in FIGS1],
        assess=[f"results/assess/{s}.json" for s in FIGS1],
        lib=lib("plotting.py", "structure.py", "structure_io.py", "catalog.py"),
    output:
        pdf="results/figures/figS1_classic_forms.pdf",
        png="results/figures/figS1_classic_forms.png",
    log:
        "logs/plot_figS1.log",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        runtime=5,
        mem_mb=1000,
    script:
        "../scripts/plot_figS1.py"
