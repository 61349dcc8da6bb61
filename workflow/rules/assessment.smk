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
