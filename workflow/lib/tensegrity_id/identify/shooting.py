"""Levenberg–Marquardt shooting: time-domain model updating with the forward solver (the paper §3.4, §4.8).

Unknowns ``theta = (log sigma_1..n, log c)`` (one damper coefficient shared
by the cables, as in the PINN).  Every residual evaluation is a full forward
simulation of the verified solver (:func:`tensegrity_id.mechanics.simulate.simulate`)
from rest in the reference configuration ``q0`` under the known forcing, for
every record of the problem; the residual is the misfit of the simulated
sensor accelerations on the training samples, in units of the channel's
noise standard deviation,

    r = (a_sim(t_i; theta) - a_meas(t_i)) / s_n,ch ,

so ``chi2 = mean r^2`` is about 1 at the noise floor.  ``scipy.optimize.
least_squares(method="lm")`` (MINPACK) minimises ``sum r^2``; its Jacobian is
by forward differences with SciPy's own step rule, ``h_j = diff_step *
max(1, |theta_j|)`` in the log-parameters, default ``diff_step = sqrt(eps)``
(SciPy's default for "2-point"), computed here so that its columns can run
on several workers.  The step matters on slack-transition records: on the
X1 slack record the search from the paper's guess reaches the noise floor with
steps 1.5e-8 and 1e-5 and stops in different spurious minima with 1e-6,
1e-4 and 1e-3 (rule ``baseline_variants``, study ``lm_diff_step``); SciPy's default is kept as the
standard choice.

Spurious minimum flag (no exact parameters used): the final ``chi2`` above
``spurious_chi2`` (default 10, i.e. an RMS misfit above 3.2 noise standard
deviations) marks a minimum far above the noise floor.  Multi-start: with
``starts`` (a list of ``[sigma0, c0]`` guesses) every start is run and the
lowest misfit kept; all are reported.  A simulation that fails (more than
``max_sim_nfev`` right-hand-side evaluations in a stiff region, a chattering
cable) returns a large constant residual, so the search backs off.  A
start whose search stops on a linear-algebra failure (``LinAlgError``: a
misfit or Jacobian that is not finite) is reported with its message and an
infinite misfit, and the other starts go on; when every start fails the
run's outcome is ``diverged`` (the initial guess kept), and a failure of
the bounds leaves ``bounds`` empty with ``bounds_failure`` saying why.

Hyperparameters (Table 6): the shared initial guess and the difference step.
"""

from __future__ import annotations

import logging
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy.optimize import least_squares

from ..results.identification import KEY, Start
from .base import IdentificationMethod, IdentificationProblem, register
from .misfit import (
    _column,
    _sim_settings,
    sensor_records,
    shooting_fisher,
    shooting_residual,
)
from .scoring import simulated_prediction

__all__ = ["LMShooting", "PINNThenLM", "shooting_residual", "shooting_fisher", "misfit_landscape"]

log = logging.getLogger(__name__)


def _start_sigma(sigma0, n: int, fallback: float) -> np.ndarray:
    """A start's force densities: one shared value or one per cable (``None`` entries take ``fallback``)."""
    v = np.asarray([fallback if x is None else x for x in np.atleast_1d(np.asarray(sigma0, object))], float)
    v = np.broadcast_to(v, (n,)).copy()
    if not (np.isfinite(v).all() and (v > 0).all()):
        raise ValueError(f"LM start: force densities must be finite and positive, got {v}")
    return v


def _jsonable(sigma0):
    a = np.asarray(sigma0, object)
    return float(a) if a.ndim == 0 else [None if x is None else float(x) for x in a]


@register
class LMShooting(IdentificationMethod):
    """Least-squares shooting with Levenberg–Marquardt over (log sigma, log c).

    Options: ``diff_step`` (sqrt(eps) = 1.49e-8, relative), ``max_nfev`` (residual evaluations per
    start, 200), ``starts`` (list of [sigma0, c0]; default the problem's
    guess), ``spurious_chi2`` (10), ``max_sim_nfev`` (20 000 right-hand-side
    evaluations per simulation), ``workers`` (1), ``xtol``/``ftol``
    (convergence tolerances, 1e-8), ``force_scale`` (``"fit"``: one factor
    per driven coordinate of every record multiplies the recorded force,
    identified with the other parameters from 1; ``None``: the force is
    taken as recorded), ``bounds`` (``"auto"``: the Cramér–Rao bounds at
    the identified parameters, :func:`shooting_fisher`, when the problem
    has no exact parameters or the force scale is fitted; ``True``,
    ``False``).
    """

    name = "lm_shooting"
    n_hyperparameters = 2
    defaults = {
        "diff_step": float(np.sqrt(np.finfo(float).eps)),
        "max_nfev": 200,
        "spurious_chi2": 10.0,
        "max_sim_nfev": 20_000,
        "workers": 1,
        "xtol": 1e-8,
        "ftol": 1e-8,
        "starts": None,
        "force_scale": None,
        "bounds": "auto",
    }

    def _records(self, problem: IdentificationProblem, **kw) -> list[dict]:
        return sensor_records(problem, **kw)

    def _starts(self, problem: IdentificationProblem, o: dict) -> list:
        """The ``[sigma0, c0]`` starts of the search (``sigma0`` one value or one per cable)."""
        return o.get("starts") or [[problem.sigma0, problem.c0]]

    def _fit(self, problem: IdentificationProblem) -> dict:
        o = self.resolved_options()
        st = problem.structure
        n = st.n_cables
        fit_fs = _fits_force_scale(o)
        recs = self._records(problem, fit_force_scale=fit_fs)
        n_fs = sum(len(r.forcing.coords) for r in problem.records) if fit_fs else 0
        sim = _sim_settings(problem, o["max_sim_nfev"])
        counter = {"n": 0}
        pool = ProcessPoolExecutor(max_workers=int(o["workers"])) if int(o["workers"]) > 1 else None
        last = {}

        def fun(theta):
            key = theta.tobytes()
            if key not in last:
                counter["n"] += len(recs)
                last.clear()
                last[key] = shooting_residual(st, theta, recs, sim)
            return last[key]

        def jac(theta):
            r0 = fun(theta)  # MINPACK evaluated it just before: taken from the cache
            h = float(o["diff_step"]) * np.maximum(1.0, np.abs(theta))
            jobs = []
            for j in range(theta.size):
                v = theta.copy()
                v[j] += h[j]
                jobs.append((st, v, recs, sim))
            counter["n"] += len(jobs) * len(recs)
            cols = list(pool.map(_column, jobs)) if pool else [_column(a) for a in jobs]
            steps = [job[1][j] - theta[j] for j, job in enumerate(jobs)]
            return np.stack([(c - r0) / hj for c, hj in zip(cols, steps, strict=True)], axis=1)

        starts = self._starts(problem, o)
        runs = []  # one Start per start
        try:
            for sigma0, c0 in starts:
                x0 = np.r_[np.log(_start_sigma(sigma0, n, problem.sigma0)), np.log(c0), np.zeros(n_fs)]
                n_before = counter["n"]
                try:
                    res = least_squares(
                        fun,
                        x0,
                        jac=jac,
                        method="lm",
                        max_nfev=int(o["max_nfev"]),
                        xtol=o["xtol"],
                        ftol=o["ftol"],
                    )
                except np.linalg.LinAlgError as exc:
                    runs.append(_failed_start(sigma0, c0, x0, n, fit_fs, exc, counter["n"] - n_before))
                    log.warning(
                        "start sigma0 %s c0 %g: %s",
                        np.round(np.asarray(sigma0, float), 3),
                        c0,
                        runs[-1].message,
                    )
                    continue
                chi2 = float(np.mean(res.fun**2))
                runs.append(
                    Start(
                        start=[_jsonable(sigma0), float(c0)],
                        sigma=np.exp(res.x[:n]).tolist(),
                        c=float(np.exp(res.x[n])),
                        force_scale=np.exp(res.x[n + 1 :]).tolist() if fit_fs else None,
                        chi2=chi2,
                        spurious=bool(chi2 > o["spurious_chi2"]),
                        status=int(res.status),
                        message=str(res.message),
                        n_simulations=counter["n"] - n_before,
                    )
                )
                log.info(
                    "start sigma0 %s c0 %g: chi2 %.4g (%s), %d simulations, sigma %s, c %.4g%s",
                    np.round(np.asarray(sigma0, float), 3),
                    c0,
                    chi2,
                    "spurious minimum" if chi2 > o["spurious_chi2"] else "at the noise floor",
                    runs[-1].n_simulations,
                    np.round(np.exp(res.x[:n]), 3),
                    np.exp(res.x[n]),
                    f", force scale {np.round(np.exp(res.x[n + 1 :]), 4)}" if fit_fs else "",
                )
        finally:
            if pool is not None:
                pool.shutdown()
        best = min(runs, key=lambda r: r.chi2)
        predicted = simulated_prediction(  # a failed prediction (also a LinAlgError) is None, said in the log
            st, problem.records, best.sigma, best.c, sim, best.force_scale
        )
        out = dict(
            sigma=best.sigma,
            c=best.c,
            predicted=predicted,
            n_forward_simulations=counter["n"],
            chi2=best.chi2,
            spurious_minimum=best.spurious,
            starts=runs,
        )
        if fit_fs:
            out["force_scale"] = best.force_scale
        if all(r.failed for r in runs):
            # every start failed: the run is the method's failure (outcome "diverged"), its guess kept
            out.update(diverged={"reason": best.message, "kept": "the initial guess"}, bounds=None)
            return out
        want = o.get("bounds", "auto")
        if want is False:
            out.update(bounds=None)  # asked for none (scoring adds none either)
        elif want is True or (want == "auto" and (problem.truth is None or fit_fs)):
            try:
                f = shooting_fisher(problem, best.sigma, best.c, best.force_scale, workers=int(o["workers"]))
            except np.linalg.LinAlgError as exc:
                out.update(bounds=None, bounds_failure=f"no Cramér-Rao bounds: {_linalg_message(exc)}")
                log.warning("no Cramér-Rao bounds: %s", _linalg_message(exc))
                return out
            out[KEY.n_forward_simulations] += f.n_simulations
            out.update(bounds=f)
            log.info(
                "Cramér-Rao bounds at the identified parameters (%%): %s",
                {k: round(100 * v, 3) for k, v in f.crlb_relative.items()},
            )
        return out


def _linalg_message(exc) -> str:
    return (
        f"linear algebra failed ({type(exc).__name__}: {exc}): the misfit or its Jacobian is not finite "
        "there (a corrupt sample, a non-finite force, or parameters beyond any physical value)"
    )


def _failed_start(sigma0, c0, x0, n: int, fit_fs: bool, exc, n_simulations: int) -> Start:
    """A start whose search stopped on a linear-algebra failure: its guess kept, its misfit infinite."""
    return Start(
        start=[_jsonable(sigma0), float(c0)],
        sigma=np.exp(x0[:n]).tolist(),
        c=float(np.exp(x0[n])),
        force_scale=np.exp(x0[n + 1 :]).tolist() if fit_fs else None,
        chi2=float("inf"),
        spurious=True,
        status=-1,
        message=f"this start stopped: {_linalg_message(exc)}",
        failed=True,
        n_simulations=n_simulations,
    )


def _fits_force_scale(o: dict) -> bool:
    v = o.get("force_scale")
    if v in (None, False, "none", "known"):
        return False
    if v in (True, "fit"):
        return True
    raise ValueError(f"force_scale is 'fit' or omitted (the force as recorded), got {v!r}")


def misfit_landscape(
    problem: IdentificationProblem, *, n_line: int = 49, n_grid: int = 9, max_sim_nfev: int = 20_000
):
    """The shooting misfit ``chi2`` on a line and a plane through the guess and the exact parameters.

    A diagnosis of the least-squares surface that uses the exact parameters
    (it explains a search, it is not part of one).  With ``g`` the guess and
    ``e`` the exact point in ``(log sigma, log c)``:

    * line: ``theta(s) = g + s (e - g)`` for ``s`` in ``[0, 1.2]``, ``n_line``
      points; the local minima of ``chi2(s)`` are counted;
    * plane: ``theta(s, d) = g + s (e_sigma - g_sigma) + d`` in ``log c`` with
      ``s`` in ``[0, 1.2]`` and ``log c`` from ``log c0 - 1`` to
      ``log c_exact + 2``, ``n_grid x n_grid`` points.

    Returns a dict of arrays (lists) and counts.
    """
    m = LMShooting(max_sim_nfev=max_sim_nfev)
    recs = m._records(problem)
    st = problem.structure
    n = st.n_cables
    sim = _sim_settings(problem, max_sim_nfev)
    g = np.r_[np.full(n, np.log(problem.sigma0)), np.log(problem.c0)]
    sig = np.asarray(problem.truth["sigma"], float)
    e = np.r_[np.log(np.where(sig > 0, sig, problem.sigma0)), np.log(problem.truth["c"])]

    def chi2(theta):
        return float(np.mean(shooting_residual(st, theta, recs, sim) ** 2))

    s_line = np.linspace(0.0, 1.2, int(n_line))
    line = np.array([chi2(g + s * (e - g)) for s in s_line])
    interior = (line[1:-1] < line[:-2]) & (line[1:-1] < line[2:])
    s_grid = np.linspace(0.0, 1.2, int(n_grid))
    logc = np.linspace(g[n] - 1.0, e[n] + 2.0, int(n_grid))
    plane = np.empty((len(logc), len(s_grid)))
    for i, lc in enumerate(logc):
        for j, s in enumerate(s_grid):
            th = g + s * (e - g)
            th[n] = lc
            plane[i, j] = chi2(th)
    return {
        "s_line": s_line.tolist(),
        "chi2_line": line.tolist(),
        "n_local_minima_line": int(interior.sum()),
        "local_minima_s": s_line[1:-1][interior].tolist(),
        "s_grid": s_grid.tolist(),
        "c_grid": np.exp(logc).tolist(),
        "chi2_plane": plane.tolist(),
        "guess": {"sigma": float(problem.sigma0), "c": float(problem.c0)},
        "exact": {"sigma": sig.tolist(), "c": float(problem.truth["c"])},
        "n_simulations": int(len(s_line) + plane.size),
    }


@register
class PINNThenLM(LMShooting):
    """Levenberg-Marquardt shooting started from a physics-informed estimate (``pinn_lm``).

    A hybrid beyond the paper: the PINN's identified force
    densities and damper (option ``start_from = {"sigma": [...], "c": ...}``,
    the ``identified`` block of its result record; undetermined cables take
    the problem's guess) start the same shooting search as ``lm_shooting``,
    on the same record, noise realisation and sensors.  The shooting
    misfit is minimised from there, so a PINN estimate that sits on a
    practically non-unique valley of the finite-length training (a silent
    failure) is moved to the nearest shooting minimum; whether that is the
    exact parameter set is what the silent-failure table measures.
    ``start_source`` (free text, e.g. the PINN result file) is recorded.
    With ``fisher_at_start`` (the Fisher options ``rel_step``, ``floor``,
    ``null_tol``) the result also holds the Fisher information of the
    record's channels at the start (analysis/local_fisher.py), a signal that
    needs no exact parameters.
    """

    name = "pinn_lm"
    n_hyperparameters = 17
    """The PINN's 15 (Table 6) and the shooting's difference step and iteration cap."""
    defaults = {**LMShooting.defaults, "start_from": None, "start_source": None, "fisher_at_start": None}

    def _starts(self, problem: IdentificationProblem, o: dict) -> list:
        start = o.get("start_from")
        if not start or "sigma" not in start or start.get("c") is None:
            raise ValueError(
                "pinn_lm needs start_from = {'sigma': [...], 'c': ...} (a PINN's identified values)"
            )
        if len(start["sigma"]) != problem.structure.n_cables:
            raise ValueError(
                f"pinn_lm: start_from has {len(start['sigma'])} force densities, the structure "
                f"{problem.structure.n_cables} cables"
            )
        return [[list(start["sigma"]), float(start["c"])]]

    def _fit(self, problem: IdentificationProblem) -> dict:
        o = self.options
        out = super()._fit(problem)
        out.update(start_source=o.get("start_source"))
        if o.get("fisher_at_start") is not None:
            from ..analysis.local_fisher import local_fisher

            start = o["start_from"]
            f = local_fisher(
                problem, start["sigma"], start["c"], **o["fisher_at_start"], workers=o["workers"]
            )
            log.info(
                "Fisher at the start: condition %.4g, worst relative CRLB %.3g %% (%s), null members %s",
                f.condition_identifiable,
                f.crlb_max_pct,
                f.crlb_max_parameter,
                f.null_members,
            )
            out.update(fisher_at_start=f)
        return out
