"""Analysis: identifiability before inversion (Fisher, CRLB, grouping), prestress series, assessment.

Modules
    identifiability (first-order resolvability, Fisher information, bounds),
    prestress_series (frequency against prestress level, cable grouping),
    stability (tangent stiffness, class, utilisation primitives) and
    assessment (a structure, a prestress scan, a record, the steel design).
"""

from .._lazy import attach

_EXPORTS = {
    "first_order_identifiability": "identifiability",
    "parameter_vector": "identifiability",
    "acceleration_sensitivities": "identifiability",
    "fisher_information": "identifiability",
    "summarise_fisher": "identifiability",
    "active_channels": "identifiability",
    "group_information": "identifiability",
    "modal_series": "prestress_series",
    "grouping_matrix": "prestress_series",
    "grouping_study": "prestress_series",
    "MATERIALS": "stability",
    "STEEL_DENSITY": "stability",
    "bar_force_densities": "stability",
    "stiffness": "stability",
    "classify": "stability",
    "utilisations": "stability",
    "size_sections": "stability",
    "assess": "assessment",
    "lowest_frequency": "assessment",
    "prestress_scan": "assessment",
    "class_along_record": "assessment",
    "error_propagation": "assessment",
    "steel_design": "assessment",
    "self_stress_family": "assessment",
    "assess_identified": "assessment",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
