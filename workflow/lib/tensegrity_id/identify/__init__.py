"""Identification: one interface for every method, chosen by name from a registry.

Modules
    ``base`` (the problem, the method interface, the registry ``METHODS``
    with ``get_method``), ``problems`` (a problem from the workflow's files),
    ``scoring`` (errors, fit metrics, the outcome rule), ``residual`` (the
    physics residual, PyTorch), ``regression`` (the full-state regression of
    Wang, Aanjaneya and Bekris), ``shooting`` (Levenberg-Marquardt shooting),
    ``filters`` (joint UKF, particle filter around an EnKF), ``springrod``
    (Wang et al.'s spring-rod example), ``seeds`` (statistics of a seed group)
    and the sub-package ``pinn``.

Names are loaded on first access and methods on first use by
:func:`get_method`, so importing this package imports nothing else (no
PyTorch).
"""

from .._lazy import attach

_EXPORTS = {
    "SIGMA0": "base",
    "C0": "base",
    "RecordData": "base",
    "IdentificationProblem": "base",
    "IdentificationMethod": "base",
    "METHODS": "base",
    "register": "base",
    "get_method": "base",
    "run_variants": "base",
    "load_problem": "problems",
    "load_sensors": "problems",
    "OUTCOME_RULE": "scoring",
    "score_result": "scoring",
    "parameter_errors": "scoring",
    "ParameterErrors": "errors",
    "held_out_ratio": "scoring",
    "train_misfit_ratio": "scoring",
    "held_out_misfit_pct": "scoring",
    "held_out_excess_pct": "scoring",
    "reconstruction_pct": "scoring",
    "resimulate": "scoring",
    "simulated_prediction": "scoring",
    "classify_outcome": "scoring",
    "outcome_rule_text": "scoring",
    "Residual": "residual",
    "LAWS": "residual",
    "verify_against_simulator": "residual",
    "verify_on_record": "residual",
    "smoothing_bias": "residual",
    "FullStateRegression": "regression",
    "full_state_regression": "regression",
    "LMShooting": "shooting",
    "shooting_residual": "shooting",
    "misfit_landscape": "shooting",
    "UnscentedFilter": "filters",
    "scaled_sigma_weights": "filters",
    "sym_sqrt": "filters",
    "bound_eigenvalues": "filters",
    "normalise_log_weights": "filters",
    "effective_sample_size": "filters",
    "systematic_resample": "filters",
    "rk4_step": "filters",
    "JointUKF": "filters",
    "EnKFParticleFilter": "filters",
    "SpringRod": "springrod",
    "regress_ratios": "springrod",
    "black_box_fit": "springrod",
    "make_trajectories": "springrod",
    "run_example": "springrod",
    "example_table": "springrod",
    "seed_group_summary": "seeds",
    "summarize_seed_group": "seeds",
    "seed_stats": "seeds",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
