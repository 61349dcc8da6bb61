"""The shooting misfit of a parameter vector and its Fisher information (LM shooting and the bounds).

A parameter vector ``theta = (log sigma_1..n, log c[, log force factors])``
is re-simulated from rest in ``q0`` under each record's known forcing (times
its force factors where they are parameters); the residual is the misfit
of the simulated sensor accelerations in units of each channel's noise
standard deviation.  :func:`shooting_fisher` turns its sensitivities into
Cramér–Rao bounds at a point, which needs no exact parameters: every method
reports them on a measured record (:mod:`tensegrity_id.identify.base`).
Kept apart from :mod:`.shooting` so that scoring a physics-informed run does
not depend on the LM method (:mod:`.bounds` calls :func:`shooting_fisher`);
uses :mod:`.force_scale` only, never :mod:`.scoring`.
"""

from __future__ import annotations

import logging
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.simulate import SimulationError, simulate_from_rest
from ..results.fisher import IdentifiedBounds
from .force_scale import with_force_scale

__all__ = ["FAILED_RESIDUAL", "shooting_residual", "sensor_records", "shooting_fisher"]

log = logging.getLogger(__name__)
FAILED_RESIDUAL = 1e3
"""Residual (noise standard deviations) of every sample when a simulation fails."""


def _simulate(structure, theta, forcing, sim):
    n = structure.n_cables
    dyn = Dynamics(structure, sigma=np.exp(theta[:n]), c=float(np.exp(theta[n])))
    return simulate_from_rest(dyn, forcing, **sim)


def _record_forcing(theta, rec: dict):
    """A record's forcing, times its fitted force factors where ``rec`` has ``fs`` (a slice of theta)."""
    fs = rec.get("fs")
    if fs is None:
        return rec["forcing"]
    return with_force_scale(rec["forcing"], np.exp(theta[fs]))


def shooting_residual(structure, theta, records: list[dict], sim: dict) -> np.ndarray:
    """Stacked residual over records; ``records`` hold ``forcing, channels, use, a, std`` (and
    ``fs``, the slice of ``theta`` holding the log force factors of a record's driven coordinates,
    when the force scale is fitted).

    Returns the residual (noise standard deviations) and never raises on a
    failed simulation (its entries are :data:`FAILED_RESIDUAL`).
    """
    out = []
    for rec in records:
        try:
            forcing = _record_forcing(theta, rec)
            a = _simulate(structure, theta, forcing, sim).qdd[:, rec["channels"]][rec["use"]]
            out.append(((a - rec["a"]) / rec["std"]).ravel())
        except SimulationError as exc:
            log.info("simulation failed at theta %s: %s", np.round(theta, 4), exc)
            out.append(np.full(rec["a"].size, FAILED_RESIDUAL))
    return np.concatenate(out)


def _sim_settings(problem, max_sim_nfev) -> dict:
    """Solver settings of a shooting simulation: the sensor grid of the first record unless set."""
    t = problem.records[0].sensors["t"]
    return {"t_end": float(t[-1]), "dt_out": float(t[1] - t[0]), **problem.sim, "max_nfev": int(max_sim_nfev)}


def _column(args):
    structure, theta, records, sim = args
    return shooting_residual(structure, theta, records, sim)


def sensor_records(problem, *, fit_force_scale=False, use="train") -> list[dict]:
    """Per record: forcing, channels, samples used, data, noise; ``fs`` (slice of theta) when the
    force scale is fitted.  ``use``: ``"train"`` (the search) or ``"kept"`` (every kept sample)."""
    out = []
    i = problem.structure.n_cables + 1
    for r in problem.records:
        s = r.sensors
        use_ = np.asarray(s["keep"]) & (np.asarray(s["train"]) if use == "train" else True)
        std = np.asarray(s["noise_std"], float)
        std = np.where(std > 0, std, 1.0)
        out.append(
            {
                "forcing": r.forcing,
                "channels": np.asarray(s["channels"], int),
                "use": use_,
                "a": np.asarray(s["noisy"], float)[use_],
                "std": std,
            }
        )
        if fit_force_scale:
            nf = len(r.forcing.coords)
            out[-1]["fs"] = slice(i, i + nf)
            i += nf
    return out


def shooting_fisher(
    problem,
    sigma,
    c: float,
    force_scale=None,
    *,
    rel_step: float = 1e-4,
    max_sim_nfev: int = 20_000,
    null_tol: float = 1e-8,
    workers: int = 1,
) -> IdentifiedBounds:
    """Fisher information and Cramér–Rao bounds of the sensor data at an identified point.

    The sensitivities of the re-simulated sensor accelerations (every kept
    sample, in noise standard deviations) to the log-parameters ``(log
    sigma, log c[, log force factors])``, by central differences of relative
    step ``rel_step``; the information ``J = S^T S`` is that of Gaussian
    noise with the sensors' standard deviations, converted to the natural
    parameters and summarised by
    :func:`tensegrity_id.analysis.identifiability.summarise_fisher` (near-null
    members dropped, e.g. a cable with both ends supported).  With
    ``force_scale`` (the identified factors) the factors are parameters too
    (names ``f_{k}``).  Needs no exact parameters.

    Returns the bounds (:class:`~tensegrity_id.results.fisher.IdentifiedBounds`:
    the summary without ``J`` and its eigenvectors, with ``crlb_max_pct``,
    ``crlb_max_parameter`` and the forward simulations taken, ``n_simulations``).
    """
    from ..analysis.identifiability import summarise_fisher  # noqa: PLC0415 (analysis imports identify)

    st = problem.structure
    fit_fs = force_scale is not None
    recs = sensor_records(problem, fit_force_scale=fit_fs, use="kept")
    sim = _sim_settings(problem, max_sim_nfev)
    theta = np.r_[np.log(np.asarray(sigma, float)), np.log(float(c))]
    names = [f"sigma_{k}" for k in range(st.n_cables)] + ["c"]
    if fit_fs:
        theta = np.r_[theta, np.log(np.asarray(force_scale, float))]
        names += [f"f_{k}" for k in range(len(force_scale))]
    jobs = []
    for j in range(theta.size):
        for sgn in (1.0, -1.0):
            v = theta.copy()
            v[j] += sgn * rel_step
            jobs.append((st, v, recs, sim))
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            cols = list(pool.map(_column, jobs))
    else:
        cols = [_column(a) for a in jobs]
    S = np.stack([(cols[2 * j] - cols[2 * j + 1]) / (2 * rel_step) for j in range(theta.size)], axis=1)
    vals = np.exp(theta)
    S = S / vals  # d a / d theta = (d a / d log theta) / theta
    return IdentifiedBounds.of(
        summarise_fisher(S.T @ S, vals, names, null_tol=null_tol),
        rel_step=rel_step,
        samples="every kept sample of every record",
        n_simulations=len(jobs) * len(recs),
    )
