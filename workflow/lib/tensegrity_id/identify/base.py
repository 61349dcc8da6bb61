"""One interface for every identification method, chosen by name from a registry.

An :class:`IdentificationProblem` holds what a method may use — the
structure's geometry, supports and known member properties, the known
forcing and noisy sensor data of one or more records (:class:`RecordData`),
and the initial guesses — and, kept apart, the exact parameters, which are
used only to score a finished run.  Every method subclasses
:class:`IdentificationMethod`: the public :meth:`~IdentificationMethod.run`
does the bookkeeping (timing, scoring, fit metrics, the result record) and a
subclass implements :meth:`~IdentificationMethod._fit`.

Result record (``results/identify/{method}/{structure}/{record}/...json``)
    ``method, structure, record, protocol, seed, steps`` (iterative methods;
    else ``None``), ``identified: {sigma: [...], c, EA?, force_scale?,
    force_scale_channels?}``, ``exact: {sigma, c, EA, force_scale?}`` (``None``
    for a measured record, whose errors are then ``None`` and whose outcome
    is ``fit failure`` or ``None``), ``errors: {sigma_pct: [...], sigma_max_pct, sigma_median_pct,
    c_pct, EA_pct?}`` (identifiable cables only; ``None`` elsewhere),
    ``inert_members``, ``inert_values``, ``identifiable``,
    ``reconstruction_pct``, ``held_out_ratio``, ``held_out_misfit_pct``, ``resimulation_pct``,
    ``resimulation_chi2`` (needs no exact parameters),
    ``outcome`` with ``outcome_rule`` (``diverged`` for a run stopped by a
    non-finite loss), ``wall_s``, ``n_forward_simulations``,
    ``n_hyperparameters`` (the seed's Table 6 definition), ``options``, and
    method-specific extras.  Metrics are defined in :mod:`tensegrity_id.identify.scoring`.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field

import numpy as np

from ..mechanics.excitation import Forcing
from ..mechanics.structure import Structure
from .scoring import (
    classify_outcome,
    held_out_excess_pct,
    held_out_misfit_pct,
    held_out_ratio,
    outcome_rule_text,
    parameter_errors,
    reconstruction_pct,
    resimulate,
    resimulation_chi2,
    simulate_identified,
    split_force_scale,
    with_force_scale,
)

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
"""Initial guess of every cable force density, N/m (seed Table S2): the one default."""
C0 = 0.3
"""Initial guess of the damper coefficient, N s/m (seed Table S2): the one default."""


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
        multiplier estimate at static equilibrium (the seed's PINN uses the
        exact prestress of a synthetic benchmark for this initialisation only).
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
    """Base class: subclasses set ``name``, ``n_hyperparameters`` and implement ``_fit``."""

    name = "base"
    n_hyperparameters = 0
    """Numeric or structural choices that are neither properties of the structure
    or record nor convergence tolerances (the seed's Table 6 definition)."""

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
        ...}``: positions, accelerations and sensor accelerations the method predicts."""
        raise NotImplementedError

    def run(self, problem: IdentificationProblem) -> dict:
        """Fit, time and score one problem; returns the result record.

        The re-simulated series of the first record is returned under
        ``"_series"`` (arrays, for figures); pop it before writing JSON.
        """
        t0 = time.perf_counter()
        out = self._fit(problem)
        return self.score(problem, out, time.perf_counter() - t0)

    def score(self, problem: IdentificationProblem, out: dict, wall: float) -> dict:
        """The result record of a finished fit: ``out`` as :meth:`_fit` returns it, ``wall`` its time (s).

        Methods that fit several problems at once (a batch of seeds) score
        each problem with its own part of the fit.  A fit that reports
        ``diverged`` (a dict) has the outcome ``diverged``.
        """
        out = dict(out)
        st = problem.structure
        sigma = np.asarray(out.pop("sigma"), float)
        identified = {"sigma": sigma, "c": float(out.pop("c"))}
        ea = out.pop("EA", None)
        if ea is not None:
            identified["EA"] = float(ea)
        fs = out.pop("force_scale", None)
        if fs is not None:
            identified["force_scale"] = [float(v) for v in fs]
            identified["force_scale_channels"] = force_scale_labels(problem)
        exact = None
        if problem.truth is not None:
            exact = {
                "sigma": [float(v) for v in problem.truth["sigma"]],
                "c": float(problem.truth["c"]),
                "EA": float(np.mean(problem.truth.get("EA", st.cable_EA))),
            }
            if fs is not None:
                exact["force_scale"] = list(problem.truth.get("force_scale") or np.ones(len(fs)))
        scored = parameter_errors(st, identified, exact)
        if "bounds" not in out and (exact is None or fs is not None):
            out["bounds"] = _bounds(problem, identified)
        predicted = out.pop("predicted", None) or [None] * len(problem.records)
        scales = split_force_scale(problem.records, fs)
        held, misfit, excess, recon, resim, chi2, series = [], [], [], [], [], [], None
        for rec, pred, scale in zip(problem.records, predicted, scales, strict=True):
            pred = pred or {}
            forcing = with_force_scale(rec.forcing, scale)
            held.append(held_out_ratio(rec.sensors, pred.get("a")))
            misfit.append(held_out_misfit_pct(rec.sensors, pred.get("a")))
            excess.append(held_out_excess_pct(rec.sensors, pred.get("a")))
            ch = rec.sensors.get("channels", [])
            recon.append(reconstruction_pct(st, rec.states, ch, pred.get("q")))
            rs = rec_sim = None
            if rec.sensors and rec.forcing is not None:
                rec_sim = simulate_identified(st, forcing, identified, rec.sensors["t"], problem.sim)
                rs = resimulate(st, forcing, identified, rec.states, ch, problem.sim, rec_sim)
            resim.append(None if rs is None else rs["pct"])
            chi2.append(resimulation_chi2(rec.sensors, rec_sim))
            if series is None and rs is not None and rs.get("pct") is not None:
                series = {"record": rec.name, **rs}
                if pred.get("qdd") is not None:
                    series["network"] = np.asarray(pred["qdd"])[:, rs["coord"]]

        def pooled(values):
            vals = [v for v in values if v is not None]
            return float(np.mean(vals)) if vals else None

        ho, mf, ex, rc = pooled(held), pooled(misfit), pooled(excess), pooled(recon)
        sig_max = scored["errors"]["sigma_max_pct"]
        identified["sigma"] = [float(v) if np.isfinite(v) else None for v in sigma]
        result = {
            "method": self.name,
            "structure": st.name,
            "record": "+".join(r.name for r in problem.records),
            "protocol": None,
            "seed": problem.seed,
            "steps": out.pop("steps", None),
            "identified": identified,
            "exact": exact,
            **scored,
            "reconstruction_pct": rc,
            "held_out_ratio": ho,
            "held_out_misfit_pct": mf,
            "held_out_excess_pct": ex,
            "resimulation_pct": pooled(resim),
            "resimulation_chi2": pooled(chi2),
            "per_record": {
                r.name: {
                    "held_out_ratio": h,
                    "held_out_misfit_pct": m,
                    "held_out_excess_pct": e,
                    "reconstruction_pct": c,
                    "resimulation_pct": s,
                    "resimulation_chi2": x,
                    "n_transitions": r.n_transitions,
                }
                for r, h, m, e, c, s, x in zip(
                    problem.records, held, misfit, excess, recon, resim, chi2, strict=True
                )
            },
            "n_transitions": int(sum(r.n_transitions for r in problem.records)),
            "outcome": "diverged"
            if out.get("diverged")
            else classify_outcome(sig_max, ex, rc, problem.outcome_rule),
            "outcome_rule": outcome_rule_text(problem.outcome_rule),
            "wall_s": wall,
            "n_forward_simulations": int(out.pop("n_forward_simulations", 0)),
            "n_hyperparameters": self.n_hyperparameters,
            "options": self.options,
            **out,
        }
        for start in result.get("starts", []) if exact is not None else []:  # every start scored after
            e = parameter_errors(st, {"sigma": np.asarray(start["sigma"], float), "c": start["c"]}, exact)
            start["sigma_max_pct"], start["c_pct"] = e["errors"]["sigma_max_pct"], e["errors"]["c_pct"]
        if series is not None:
            result["_series"] = series
        return result


VARIANT_KEYS = (
    "identified",
    "errors",
    "chi2",
    "spurious_minimum",
    "n_forward_simulations",
    "wall_s",
    "outcome",
    "resimulation_chi2",
    "bounds",
)
"""What a sensitivity study keeps of each run (:func:`run_variants`)."""


def _bounds(problem: IdentificationProblem, identified: dict) -> dict | None:
    """Cramér–Rao bounds at the identified parameters (no exact values needed), or ``None``.

    Computed for every method where the exact parameters are unknown (a
    measured record) or a force scale was fitted: the shooting Fisher
    information of the sensor channels at the identified point
    (:func:`tensegrity_id.identify.misfit.shooting_fisher`).  ``None``
    without sensor data or where a parameter is undetermined or not positive.
    """
    sig = np.asarray(identified["sigma"], float)
    if not all(r.sensors for r in problem.records) or not (np.all(np.isfinite(sig)) and np.all(sig > 0)):
        return None
    from .misfit import shooting_fisher  # noqa: PLC0415 (scoring only where needed)

    try:
        f = shooting_fisher(problem, sig, identified["c"], identified.get("force_scale"))
    except (ValueError, np.linalg.LinAlgError) as exc:
        return {"failed": str(exc)}
    f.pop("n_simulations")
    return f


def force_scale_labels(problem: IdentificationProblem) -> list[str]:
    """``{record}:force:{node}:{axis}`` of every driven coordinate (the order of a fitted force scale)."""
    dim = problem.structure.dim
    return [f"{r.name}:force:{c // dim}:{'xyz'[c % dim]}" for r in problem.records for c in r.forcing.coords]


def run_variants(
    name: str, options: dict, variants: list[dict], problem: IdentificationProblem, log=None
) -> dict:
    """One method under several option sets (each merged over ``options``): a compact record per set."""
    rows, last = [], None
    for extra in variants:
        last = get_method(name, **{**options, **extra}).run(problem)
        rows.append({"options": extra, **{k: last.get(k) for k in VARIANT_KEYS}})
        if log:
            e = last["errors"]
            log.info(
                "%s %s: max sigma error %.3g %%, c error %.3g %%", name, extra, e["sigma_max_pct"], e["c_pct"]
            )
    head = ("method", "structure", "record", "seed", "exact", "inert_members")
    return {**{k: last[k] for k in head}, "variants": rows}


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
