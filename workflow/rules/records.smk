# Stage 2: forward records, slackening thresholds, sensor data, modal analysis.


rule compute_threshold:
    input:
        structure=path("structure"),
        lib=lib("compute_threshold"),
    output:
        **catalog_outputs("thresholds"),
    log:
        logs("compute_threshold/{structure}/{threshold}.log"),
    benchmark:
        benchmarks("compute_threshold/{structure}/{threshold}.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=30, mem_mb=1000),
    params:
        **canonical_params(
            spec=lambda w: entry("records.thresholds", w.structure, w.threshold),
            sim=SIM,
        ),
    script:
        "../scripts/compute_threshold.py"


rule simulate_record:
    input:
        structure=path("structure"),
        threshold=record_threshold,
        reference=record_reference,
        lib=lib("simulate_record"),
    output:
        **catalog_outputs("records"),
    log:
        logs("simulate_record/{structure}/{record}.log"),
    benchmark:
        benchmarks("simulate_record/{structure}/{record}.tsv")
    wildcard_constraints:
        record=NOT_MEASURED,
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=20, mem_mb=1000),
    params:
        **canonical_params(
            spec=lambda w: entry("records.suite", w.structure, w.record),
            sim=SIM,
        ),
    script:
        "../scripts/simulate_record.py"


rule make_sensor_data:
    input:
        structure=path("structure"),
        record=path("record", ".npz"),
        lib=lib("make_sensor_data"),
    output:
        **catalog_outputs("sensors"),
    log:
        logs("make_sensor_data/{structure}/{record}/{protocol}.log"),
    wildcard_constraints:
        protocol="(?!measured(?![a-z0-9_]))[a-z0-9_]+",
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=500),
    params:
        **canonical_params(
            protocol=lambda w: entry("records.protocols", w.structure, w.protocol),
        ),
    script:
        "../scripts/make_sensor_data.py"


rule compute_modal:
    input:
        structure=path("structure"),
        lib=lib("compute_modal"),
    output:
        **catalog_outputs("modal"),
    log:
        logs("compute_modal/{structure}.log"),
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=10, mem_mb=1000),
    script:
        "../scripts/compute_modal.py"


rule crosscheck_quaternion:
    input:
        structures=paths("structure", ROWS["crosscheck_structures"]),
        records=paths("record", ROWS["crosscheck"], ".json"),
        lib=lib("crosscheck_quaternion"),
    output:
        **catalog_outputs("crosscheck"),
    log:
        logs("crosscheck_quaternion.log"),
    benchmark:
        benchmarks("crosscheck_quaternion.tsv")
    conda:
        "../../envs/core.yaml"
    threads: 1
    resources:
        **per_attempt(runtime=20, mem_mb=1000),
    params:
        **canonical_params(
            structures=[r["structure"] for r in ROWS["crosscheck_structures"]],
            records=ROWS["crosscheck"],
            extra=ROWS["crosscheck_extra"],
            sim=SIM,
            settings=STUDIES["crosscheck"],
        ),
    script:
        "../scripts/crosscheck_quaternion.py"
