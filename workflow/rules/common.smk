# Helpers shared by the rule files.

LIB = "workflow/lib/tensegrity_id"
STRUCTURES = list(
    dict.fromkeys(
        config["build"]
        + config["table_s3"]["structures"]
        + config["fig1"]["structures"]
    )
)


def lib(*modules):
    """Library modules a rule depends on (Snakemake tracks scripts, not imports)."""
    return [f"{LIB}/{m}" for m in modules]


STRUCTURE_LIB = lib(
    "structure.py",
    "structure_io.py",
    "schemas/structure.schema.json",
    "generators.py",
    "formfinding.py",
    "statics.py",
    "catalog.py",
)


def structure_spec(wildcards):
    """The config entry of one structure (its params re-run only its chain)."""
    return config["structures"][wildcards.structure]


def structure_file(wildcards):
    """A user structure file, when the entry names one, as a tracked input."""
    spec = config["structures"][wildcards.structure]
    return [spec["file"]] if "file" in spec else []
