"""tensegrity_id: physics-informed identification of tensegrity prestress.

The library behind the Snakemake workflow, in sub-packages by stage:

``mechanics``
    structures and structure files, generators, prestress (LP, self-stress),
    the tension-only cable law, constrained Cartesian dynamics, event-tracked
    simulation, modal analysis;
``data``
    records (specification, slackening thresholds, storage), sensor data, run I/O;
``analysis``
    identifiability (Fisher information, Cramér-Rao bounds, grouping),
    prestress series, structural assessment;
``identify``
    the identification interface and registry, problem loading, scoring, the
    physics residual, regression, LM shooting, filters, the spring-rod
    example, and ``identify.pinn`` (settings, data, network, trainer, methods);
``report``
    one plotting module per figure family and the table writer;
``workflow``
    workflow support: config checks, rule inputs, run sheets, cluster planning.

The names below are the user-facing API, loaded on first access (so
``import tensegrity_id`` is instant and PyTorch is imported only by the
physics-informed identification)::

    from tensegrity_id import build_structure, simulate, make_forcing, get_method
"""

from __future__ import annotations

from ._lazy import attach

__version__ = "0.1.0"

_EXPORTS = {
    # structures and prestress
    "Structure": "mechanics.structure",
    "StructureError": "mechanics.structure",
    "GRAVITY": "mechanics.structure",
    "StructureFileError": "mechanics.structure_io",
    "load_structure": "mechanics.structure_io",
    "save_structure": "mechanics.structure_io",
    "structure_from_dict": "mechanics.structure_io",
    "structure_schema": "mechanics.structure_io",
    "GENERATORS": "mechanics.catalog",
    "CatalogError": "mechanics.catalog",
    "build_structure": "mechanics.catalog",
    "build_geometry": "mechanics.catalog",
    "structure_report": "mechanics.catalog",
    "structure_from_report": "mechanics.catalog",
    "FormFindingError": "mechanics.formfinding",
    "find_superstable_form": "mechanics.formfinding",
    "force_density_matrix": "mechanics.formfinding",
    "prism_feasible": "mechanics.feasibility",
    "prism_twist_range": "mechanics.feasibility",
    "RANK_TOL": "mechanics.statics",
    "PrestressError": "mechanics.statics",
    "StaticCounts": "mechanics.statics",
    "apply_prestress": "mechanics.statics",
    "counts": "mechanics.statics",
    "equilibrium_matrix": "mechanics.statics",
    "mechanism_basis": "mechanics.statics",
    "minimal_grounding": "mechanics.statics",
    "prestress_lp": "mechanics.statics",
    "prestress_selfstress": "mechanics.statics",
    "rigid_body_modes": "mechanics.statics",
    "self_stress_basis": "mechanics.statics",
    "static_residual": "mechanics.statics",
    # dynamics and simulation
    "Dynamics": "mechanics.dynamics",
    "Forcing": "mechanics.excitation",
    "make_forcing": "mechanics.excitation",
    "simulate": "mechanics.simulate",
    "simulate_from_rest": "mechanics.simulate",
    "SimulationError": "mechanics.simulate",
    "constrained_modes": "mechanics.modal",
    # records and sensors
    "load_record": "data.records",
    "save_record": "data.records",
    "slackening_threshold": "data.records",
    "sensor_data": "data.sensors",
    # identifiability and assessment
    "first_order_identifiability": "analysis.identifiability",
    "fisher_information": "analysis.identifiability",
    "summarise_fisher": "analysis.identifiability",
    "assess": "analysis.assessment",
    "classify": "analysis.stability",
    "stiffness": "analysis.stability",
    # identification
    "METHODS": "identify.base",
    "IdentificationMethod": "identify.base",
    "IdentificationProblem": "identify.base",
    "RecordData": "identify.base",
    "get_method": "identify.base",
    "load_problem": "identify.problems",
    "FullStateRegression": "identify.regression",
    "Residual": "identify.residual",
    "PINNSettings": "identify.pinn.settings",
    "TREATMENTS": "identify.pinn.settings",
    "PINNTrainer": "identify.pinn.trainer",
}
"""Public name -> the module (under this package) that defines it."""


__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
__all__ = [*__all__, "__version__"]
