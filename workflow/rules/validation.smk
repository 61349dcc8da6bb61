# Stage: measured-data validation from published values (the paper §4.10-4.12):
# the hexagonal prism's modal identification, the rebuilt simplex (model,
# frequency extraction, Table 8, the damping limit) and Table 7 as a
# published reference.  Inputs in resources/measured/ (no raw record is
# public); measured strike records plug in through validation.simplex.records.

VALIDATION = config.get("validation", {})
HEXPRISM = VALIDATION.get("hexprism", {})
SIMPLEX = VALIDATION.get("simplex", {})
SIMPLEX_RECORDS = {int(k): v for k, v in SIMPLEX.get("records", {}).items()}


rule identify_hexprism_modal:
    input:
        structure=path("structure", structure=HEXPRISM.get("structure", "hexprism")),
        measured=HEXPRISM.get("measured", []),
        lib=lib("identify_hexprism_modal"),
    output:
        **catalog_outputs("hexprism_modal"),
    log:
        logs("identify_hexprism_modal.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            assignment=HEXPRISM.get("assignment"),
            alternative=HEXPRISM.get("alternative"),
        ),
    script:
        "../scripts/identify_hexprism_modal.py"


rule plot_fig8:
    input:
        structure=path("structure", structure=HEXPRISM.get("structure", "hexprism")),
        modal=rules.identify_hexprism_modal.output.json,
        lib=lib("plot_fig8"),
    output:
        **catalog_outputs("fig8"),
    log:
        logs("plot_fig8.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_fig8.py"


rule compute_simplex_model:
    input:
        measured=SIMPLEX.get("measured", []),
        lib=lib("compute_simplex_model"),
    output:
        **catalog_outputs("simplex_model"),
    log:
        logs("compute_simplex_model.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            cable_EA=SIMPLEX.get("cable_EA"),
        ),
    script:
        "../scripts/compute_simplex_model.py"


rule validate_simplex_extraction:
    input:
        measured=SIMPLEX.get("measured", []),
        lib=lib("validate_simplex_extraction"),
    output:
        json=path("simplex_extraction"),
        npz=path("simplex_strikes"),
    log:
        logs("validate_simplex_extraction.log"),
    benchmark:
        benchmarks("validate_simplex_extraction.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=20, mem_mb=1000),
    params:
        **canonical_params(
            cable_EA=SIMPLEX.get("cable_EA"),
            strike=SIMPLEX.get("strike", {}),
        ),
    script:
        "../scripts/validate_simplex_extraction.py"


rule make_table8:
    input:
        measured=SIMPLEX.get("measured", []),
        model=rules.compute_simplex_model.output.json,
        published=published("table8.csv"),
        records=[SIMPLEX_RECORDS[k] for k in sorted(SIMPLEX_RECORDS)],
        lib=lib("make_table8"),
    output:
        **catalog_outputs("table8"),
    log:
        logs("make_table8.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            cable_EA=SIMPLEX.get("cable_EA"),
            record_levels=sorted(SIMPLEX_RECORDS),
        ),
    script:
        "../scripts/make_table8.py"


rule compute_damping_limit:
    input:
        measured=SIMPLEX.get("measured", []),
        lib=lib("compute_damping_limit"),
    output:
        **catalog_outputs("damping_limit"),
    log:
        logs("compute_damping_limit.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    params:
        **canonical_params(
            cable_EA=SIMPLEX.get("cable_EA"),
            zeta_rotational=SIMPLEX.get("zeta_rotational", 0.02),
        ),
    script:
        "../scripts/compute_damping_limit.py"


rule plot_fig10:
    input:
        measured=SIMPLEX.get("measured", []),
        extraction=rules.validate_simplex_extraction.output.json,
        strikes=rules.validate_simplex_extraction.output.npz,
        lib=lib("plot_fig10"),
    output:
        **catalog_outputs("fig10"),
    log:
        logs("plot_fig10.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    params:
        **canonical_params(
            cable_EA=SIMPLEX.get("cable_EA"),
        ),
    script:
        "../scripts/plot_fig10.py"


rule plot_fig11:
    input:
        model=rules.compute_simplex_model.output.json,
        table=rules.make_table8.output.csv,
        prestress=rules.make_table8.output.json,
        lib=lib("plot_fig11"),
    output:
        **catalog_outputs("fig11"),
    log:
        logs("plot_fig11.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=1000),
    script:
        "../scripts/plot_fig11.py"


rule make_table7:
    input:
        published=VALIDATION.get("leg", {}).get("published", []),
        lib=lib("make_table7"),
    output:
        **catalog_outputs("table7"),
    log:
        logs("make_table7.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    script:
        "../scripts/make_table7.py"


rule make_measured_validation:
    input:
        hexprism=rules.identify_hexprism_modal.output.json,
        model=rules.compute_simplex_model.output.json,
        extraction=rules.validate_simplex_extraction.output.json,
        prestress=rules.make_table8.output.json,
        damping=rules.compute_damping_limit.output.json,
        published=published("measured_validation.yaml"),
        rows=published("measured_validation_rows.yaml"),
        lib=lib("make_measured_validation"),
    output:
        **catalog_outputs("measured_validation"),
    log:
        logs("make_measured_validation.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=5, mem_mb=500),
    script:
        "../scripts/make_measured_validation.py"
