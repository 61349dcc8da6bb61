"""One interface for every identification method, chosen by name from a registry.

An :class:`IdentificationProblem` holds what a method may use — the
structure's geometry, supports and known member properties, the known
forcing, the noisy sensor record and the initial guesses — and, kept apart,
the exact parameters, which are used only to score a finished run.  Every
method subclasses :class:`IdentificationMethod`: the public :meth:`~IdentificationMethod.run`
does the bookkeeping (timing, scoring, the result record) and a subclass
implements :meth:`~IdentificationMethod._fit`.

Result record (``results/identify/{method}/{structure}/{record}/{protocol}_seed{seed}.json``):
``method``, ``sigma`` (N/m, per cable; ``null`` where undetermined), ``c``
(N s/m), ``errors`` (relative %, identifiable cables only), ``max_sigma_err``,
``c_err``, ``identifiable`` (cable indices), ``wall_s``,
``n_forward_simulations``, ``n_hyperparameters`` (Table 6 definition).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .excitation import Forcing
from .identifiability import structural_identifiability
from .structure import Structure

__all__ = ["IdentificationProblem", "IdentificationMethod", "METHODS", "register", "get_method"]


@dataclass
class IdentificationProblem:
    """Inputs of one identification run.

    Attributes
    ----------
    structure : Structure
        Geometry, supports and known properties (EA, masses); its prestress
        is *not* read by the methods (use ``truth`` only for scoring).
    forcing : Forcing
        The known external force.
    sensors : dict
        ``t, channels, noisy, noise_std, train, keep`` (see sensors.py).
    states : dict, optional
        Full states ``q, qd, qdd`` and ``taut`` for full-state methods.
    sigma0, c0 : float
        Initial guesses (Table S2: 10 N/m and 0.3 N s/m).
    truth : dict
        ``sigma`` and ``c`` of the generating model, for scoring only.
    seed : int
    """

    structure: Structure
    forcing: Forcing | None
    sensors: dict
    truth: dict
    states: dict | None = None
    sigma0: float = 10.0
    c0: float = 0.3
    seed: int = 0
    sim: dict = field(default_factory=dict)


class IdentificationMethod:
    """Base class: subclasses set ``name``, ``n_hyperparameters`` and implement ``_fit``."""

    name = "base"
    n_hyperparameters = 0
    """Numeric or structural choices that are neither properties of the structure
    or record nor convergence tolerances (the seed's Table 6 definition)."""

    def __init__(self, **options):
        self.options = options

    def _fit(self, problem: IdentificationProblem) -> dict:
        """Return ``{"sigma": array, "c": float, "n_forward_simulations": int, ...}``."""
        raise NotImplementedError

    def run(self, problem: IdentificationProblem) -> dict:
        """Fit, time and score one problem; returns the result record."""
        t0 = time.perf_counter()
        out = self._fit(problem)
        wall = time.perf_counter() - t0
        sigma = np.asarray(out.pop("sigma"), float)
        c = float(out.pop("c"))
        ident = structural_identifiability(problem.structure)
        identifiable = [k for k in range(problem.structure.n_cables) if k not in ident["invisible"]]
        true_s = np.asarray(problem.truth["sigma"], float)
        errs = {int(k): float(100 * abs(sigma[k] - true_s[k]) / abs(true_s[k])) for k in identifiable}
        c_true = float(problem.truth["c"])
        return {
            "method": self.name,
            "structure": problem.structure.name,
            "seed": problem.seed,
            "sigma": [None if not np.isfinite(v) else float(v) for v in sigma],
            "c": c,
            "identifiable": identifiable,
            "errors": errs,
            "max_sigma_err": max(errs.values()) if errs else None,
            "c_err": float(100 * abs(c - c_true) / abs(c_true)),
            "wall_s": wall,
            "n_forward_simulations": int(out.pop("n_forward_simulations", 0)),
            "n_hyperparameters": self.n_hyperparameters,
            "options": self.options,
            **out,
        }


METHODS: dict[str, type[IdentificationMethod]] = {}
"""Identification methods by name."""


def register(cls):
    """Class decorator adding a method to :data:`METHODS`."""
    METHODS[cls.name] = cls
    return cls


def get_method(name: str, **options) -> IdentificationMethod:
    if name not in METHODS:
        raise KeyError(f"unknown identification method {name!r}; known: {', '.join(sorted(METHODS))}")
    return METHODS[name](**options)
