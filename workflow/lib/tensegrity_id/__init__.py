"""tensegrity_id: physics-informed identification of tensegrity prestress.

The library behind the Snakemake workflow; scripts in ``workflow/scripts``
are thin wrappers around the functions exported here.
"""

from .catalog import (
    GENERATORS,
    CatalogError,
    build_geometry,
    build_structure,
    structure_from_report,
    structure_report,
)
from .config_check import ConfigError, check_config
from .feasibility import prism_feasible, prism_twist_range
from .formfinding import FormFindingError, find_superstable_form, force_density_matrix
from .identification import METHODS, IdentificationMethod, IdentificationProblem, RecordData, get_method
from .problem_io import load_problem
from .regression import FullStateRegression
from .statics import (
    RANK_TOL,
    PrestressError,
    StaticCounts,
    apply_prestress,
    counts,
    equilibrium_matrix,
    mechanism_basis,
    minimal_grounding,
    prestress_lp,
    prestress_selfstress,
    rigid_body_modes,
    self_stress_basis,
    static_residual,
)
from .structure import GRAVITY, Structure, StructureError
from .structure_io import (
    StructureFileError,
    load_structure,
    save_structure,
    structure_from_dict,
    structure_schema,
)

__version__ = "0.1.0"

_LAZY = {
    "Residual": "residual",
    "PINNSettings": "pinn",
    "PINNTrainer": "pinn",
    "PINNDivergenceError": "pinn",
    "TREATMENTS": "pinn",
}
"""Names whose modules import PyTorch: loaded on first access, so the other stages start fast."""


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GENERATORS",
    "GRAVITY",
    "METHODS",
    "FullStateRegression",
    "IdentificationMethod",
    "IdentificationProblem",
    "RecordData",
    "load_problem",
    "Residual",
    "PINNSettings",
    "PINNTrainer",
    "PINNDivergenceError",
    "TREATMENTS",
    "get_method",
    "RANK_TOL",
    "CatalogError",
    "ConfigError",
    "FormFindingError",
    "PrestressError",
    "StaticCounts",
    "Structure",
    "StructureError",
    "StructureFileError",
    "apply_prestress",
    "build_geometry",
    "build_structure",
    "check_config",
    "counts",
    "equilibrium_matrix",
    "find_superstable_form",
    "force_density_matrix",
    "load_structure",
    "mechanism_basis",
    "minimal_grounding",
    "prestress_lp",
    "prestress_selfstress",
    "prism_feasible",
    "prism_twist_range",
    "rigid_body_modes",
    "save_structure",
    "self_stress_basis",
    "static_residual",
    "structure_from_dict",
    "structure_from_report",
    "structure_report",
    "structure_schema",
    "__version__",
]
