"""One interface for every identification method, chosen by name from a registry.

An :class:`IdentificationProblem` holds what a method may use — the
structure's geometry, supports and known member properties, the known
forcing and noisy sensor data of one or more records (:class:`RecordData`),
and the initial guesses — and, kept apart, the exact parameters, which are
used only to score a finished run.  Every method subclasses
:class:`IdentificationMethod`: the public :meth:`~IdentificationMethod.run`
does the bookkeeping (fit, time, hand the fit to
:func:`~tensegrity_id.identify.scoring.score_result`, which builds the
result record) and a subclass implements :meth:`~IdentificationMethod._fit`.

Result record (``results/identify/{method}/{structure}/{record}/...json``)
    :class:`tensegrity_id.results.identification.IdentificationResult`: the
    identified and exact parameters, the errors over identifiable cables, the
    fit metrics (defined in :mod:`tensegrity_id.identify.scoring`), the
    outcome, the cost, and the method's own fields.  :func:`run_variants`
    gives a :class:`~tensegrity_id.results.identification.VariantsResult`.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field

import numpy as np

from ..mechanics.excitation import Forcing
from ..mechanics.structure import Structure
from ..results.identification import IdentificationResult, VariantRun, VariantsResult
from .scoring import score_result

__all__ = [
    "SIGMA0",
    "C0",
    "RecordData",
    "IdentificationProblem",
    "IdentificationMethod",
    "METHODS",
    "register",
    "get_method",
    "run_variants",
]


SIGMA0 = 10.0
"""Initial guess of every cable force density, N/m (the paper's Table S2): the one default."""
C0 = 0.3
"""Initial guess of the damper coefficient, N s/m (the paper's Table S2): the one default."""


@dataclass
class RecordData:
    """One record as an identification method sees it.

    Attributes
    ----------
    name : str
    forcing : Forcing or None
        The known external force.
    sensors : dict
        ``t`` (s), ``channels`` (global coordinates), ``noisy`` (n_t x n_ch,
        m/s^2), ``noise_std``, ``train`` and ``keep`` masks (sensors.py); empty
        for full-state methods.
    states : dict, optional
        The simulated states ``t, q, qd, qdd`` (all coordinates): inputs of
        full-state methods, otherwise used only for scoring.
    n_transitions : int
        Taut-slack transitions of the generating simulation (reporting only).
    """

    name: str
    forcing: Forcing | None
    sensors: dict = field(default_factory=dict)
    states: dict | None = None
    n_transitions: int = 0


@dataclass
class IdentificationProblem:
    """Inputs of one identification run.

    Attributes
    ----------
    structure : Structure
        Geometry, supports and known properties (EA, masses); its prestress
        is *not* read by the methods (``truth`` is for scoring only).
    records : list of RecordData
        One record, or several pooled with shared parameters.
    truth : dict or None
        ``sigma`` (N/m), ``c`` (N s/m), ``EA`` (N) of the generating model,
        ``force_scale`` where the recorded force is miscalibrated; ``None``
        for a measured record.
    sigma0, c0 : float
        Initial guesses (Table S2: 10 N/m and 0.3 N s/m).
    lambda0 : ndarray, optional
        Nominal static bar multipliers (N/m) for methods that start a
        multiplier estimate at static equilibrium (the paper's PINN uses the
        exact prestress of a synthetic benchmark for this initialisation only).
    reactions0 : ndarray, optional
        Nominal static support reactions (N) at the supported coordinates, from the same
        prestress: the start of the PINN's support multipliers.
    seed : int
        Training seed: network initialisation and noise realisation.
    sim : dict
        Forward-solver settings (re-simulation, shooting).
    outcome_rule : dict
        Thresholds of :func:`tensegrity_id.identify.scoring.classify_outcome`.
    """

    structure: Structure
    records: list
    truth: dict | None
    sigma0: float = SIGMA0
    c0: float = C0
    lambda0: np.ndarray | None = None
    reactions0: np.ndarray | None = None
    seed: int = 0
    sim: dict = field(default_factory=dict)
    outcome_rule: dict = field(default_factory=dict)

    def _single(self) -> RecordData:
        if len(self.records) != 1:
            raise ValueError(f"this method takes one record, got {len(self.records)}")
        return self.records[0]

    @property
    def forcing(self) -> Forcing | None:
        return self._single().forcing

    @property
    def sensors(self) -> dict:
        return self._single().sensors

    @property
    def states(self) -> dict | None:
        return self._single().states


class IdentificationMethod:
    """Base class: subclasses set ``name``, ``n_hyperparameters`` and implement ``_fit``.

    The class does the bookkeeping of an identification (options, timing);
    scoring a finished fit is :func:`tensegrity_id.identify.scoring.score_result`.
    """

    name = "base"
    n_hyperparameters = 0
    """Numeric or structural choices that are neither properties of the structure
    or record nor convergence tolerances (the paper's Table 6 definition)."""

    defaults: dict | None = None
    """Option names and default values; when set, unknown options are refused."""

    def __init__(self, **options):
        if self.defaults is not None:
            unknown = sorted(set(options) - set(self.defaults))
            if unknown:
                raise ValueError(
                    f"unknown option(s) {', '.join(unknown)} of method '{self.name}'; "
                    f"known: {', '.join(sorted(self.defaults))}"
                )
        self.options = options

    def resolved_options(self) -> dict:
        """The defaults updated by the options."""
        return {**(self.defaults or {}), **self.options}

    def _fit(self, problem: IdentificationProblem) -> dict:
        """Return ``{"sigma": array, "c": float, "EA"?: float, "n_forward_simulations": int,
        "predicted"?: [{"q", "qdd": (n_t, n_coords), "a": (n_t, n_ch)} per record], "steps"?: int,
        ...}``: positions, accelerations and sensor accelerations the method predicts; any other
        key is a field of :class:`~tensegrity_id.results.identification.IdentificationResult`
        (the method's own) or goes to its ``extra``."""
        raise NotImplementedError

    def run(self, problem: IdentificationProblem) -> IdentificationResult:
        """Fit, time and score one problem; returns the result record (module docstring).

        The re-simulated series of the first record is the record's ``series``
        (arrays, for figures; not written to its file).
        """
        t0 = time.perf_counter()
        out = self._fit(problem)
        return score_result(
            problem,
            out,
            time.perf_counter() - t0,
            method_name=self.name,
            n_hyperparameters=self.n_hyperparameters,
            options=self.options,
        )


def run_variants(
    name: str, options: dict, variants: list[dict], problem: IdentificationProblem, log=None
) -> VariantsResult:
    """One method under several option sets (each merged over ``options``): a compact record per set."""
    rows, last = [], None
    for extra in variants:
        last = get_method(name, **{**options, **extra}).run(problem)
        rows.append(
            VariantRun(
                options=extra,
                identified=last.identified,
                errors=last.errors,
                chi2=last.chi2,
                spurious_minimum=last.spurious_minimum,
                n_forward_simulations=last.n_forward_simulations,
                wall_s=last.wall_s,
                outcome=last.outcome,
                resimulation_chi2=last.resimulation_chi2,
                bounds=last.bounds,
                bounds_failure=last.bounds_failure,
            )
        )
        if log:
            e = last.errors
            log.info("%s %s: max sigma error %.3g %%, c error %.3g %%", name, extra, e.sigma_max_pct, e.c_pct)
    return VariantsResult(
        method=last.method,
        structure=last.structure,
        record=last.record,
        seed=last.seed,
        exact=last.exact,
        inert_members=last.inert_members,
        variants=rows,
    )


METHODS: dict[str, type[IdentificationMethod]] = {}
"""Identification methods by name."""


def register(cls):
    """Class decorator adding a method to :data:`METHODS`."""
    METHODS[cls.name] = cls
    return cls


_BUILTIN = {
    "regression": "regression",
    "lm_shooting": "shooting",
    "pinn_lm": "shooting",
    "ukf": "filters",
    "pf_enkf": "filters",
    "pinn_smooth": "pinn.methods",
    "pinn_fb": "pinn.methods",
    "pinn_event": "pinn.methods",
}
"""Modules defining the built-in methods, imported on first use (the PINN pulls in torch)."""


def get_method(name: str, **options) -> IdentificationMethod:
    """A method instance by registry name; built-in methods are loaded on demand."""
    if name not in METHODS and name in _BUILTIN:
        importlib.import_module(f"{__package__}.{_BUILTIN[name]}")
    if name not in METHODS:
        raise KeyError(f"unknown identification method {name!r}; known: {', '.join(sorted(METHODS))}")
    return METHODS[name](**options)
