"""Measured-data validation from published values (the paper §4.10-§4.12).

Modules
    modal_fit (frequencies against a prestress scale and a cable-stiffness
    scale, distinct lines), hexprism (the hexagonal prism's modal
    identification), simplex (the Małyszko-Rutkiewicz simplex rebuilt:
    geometry, mass conventions, joint stiffness, mechanism mode, simulated
    strikes), frequency (first frequency by projection on the upper
    triangle's rotation), prestress_law (the measured mechanism law and the
    Table 8 predictions), damping (the identifiability limit on axial
    damping) and simplex_study (the studies a rule runs from a measured file).
"""

from .._lazy import attach

_EXPORTS = {
    "ModalFamily": "modal_fit",
    "distinct_lines": "modal_fit",
    "modal_identification": "hexprism",
    "hexprism_identification": "hexprism",
    "SimplexHardware": "simplex",
    "SimplexModel": "simplex",
    "simplex_structure": "simplex",
    "simplex_mass": "simplex",
    "simulate_strike": "simplex",
    "tangential_directions": "frequency",
    "project_rotation": "frequency",
    "first_frequency": "frequency",
    "predict_forces": "prestress_law",
    "local_log_slope": "prestress_law",
    "damping_limit": "damping",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
