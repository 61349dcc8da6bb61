"""The Cartesian simulator against the independent quaternion model (Cefalo and Mirats-Tur).

Two comparisons per record, both on the same structure, prestress and forcing:

* **State derivatives.**  At every ``stride``-th sample of the Cartesian run
  the state is carried over to the quaternion model (shortest-arc
  quaternions, angular velocities from the bar rates) and mapped back to node
  coordinates, so both models see one state exactly on the bar-length
  manifold; the nodal accelerations of the saddle-point system
  (:class:`~tensegrity_id.mechanics.dynamics.Dynamics`) and of the
  quaternion equations (``a'' + alpha b''``) are compared.  This is the
  paper's "reproduces the state derivatives of an independent code" check
  (the paper §2.1: 1e-14 against STEDY); its floor is round-off.
* **Trajectories.**  Both models integrated from rest with the same tight
  tolerances through their own taut-slack events: the largest node-position
  difference over the record (m, and relative to the largest node
  displacement), the transition counts and the largest difference of
  matched transition times, each model's energy-balance error, the
  quaternion norm drift and the Cartesian bar-length drift.  Its floor is the
  integrators' global error (both are adaptive Runge-Kutta runs at ``rtol``).
"""

from __future__ import annotations

import logging

import numpy as np

from .dynamics import Dynamics
from .quaternion import QuaternionModel, simulate_quaternion
from .simulate import simulate
from .structure import Structure

__all__ = [
    "crosscheck",
    "derivative_agreement",
    "transition_agreement",
    "summarize_crosschecks",
    "run_crosschecks",
]

log = logging.getLogger(__name__)


def _embed(q, n, dim):
    x = np.zeros(q.shape[:-1] + (n, 3))
    x[..., :dim] = q.reshape(q.shape[:-1] + (n, dim))
    return x


def derivative_agreement(
    dyn: Dynamics, model: QuaternionModel, rec, forcing=None, *, stride: int = 10
) -> dict:
    """Largest relative difference of the two models' nodal accelerations on a record's states.

    Returns ``{max_rel, max_abs, n_states}``: the largest difference on the
    free coordinates over the sampled states (m/s^2), and relative to the
    largest Cartesian acceleration over those states (a state at rest has
    accelerations at round-off, so a per-state ratio would measure noise).
    """
    n, dim = dyn.n, dyn.dim
    worst, scale, count = 0.0, 0.0, 0
    for m in range(0, len(rec.t), max(int(stride), 1)):
        x = rec.q[m].reshape(n, dim)
        v = rec.qd[m].reshape(n, dim)
        y = model.state_from_nodes(x, v)
        X, V, _ = model.kinematics(y)
        f = None if forcing is None else forcing(rec.t[m], n * dim)
        qf = X[:, :dim].ravel()[dyn.free]
        vf = V[:, :dim].ravel()[dyn.free]
        a_cart = dyn.accelerations(qf, vf, f, rec.taut[m])[0]
        a_quat = model.node_accelerations(y, rec.taut[m], f)[:, :dim].ravel()[dyn.free]
        scale = max(scale, float(np.abs(a_cart).max()))
        worst = max(worst, float(np.abs(a_cart - a_quat).max()))
        count += 1
    return {"max_rel": worst / max(scale, 1e-300), "max_abs": worst, "n_states": count}


def transition_agreement(times_a, cables_a, times_b, cables_b) -> dict:
    """Counts, whether the event sequences (cable by cable) agree, and the largest time difference.

    The time difference is taken over the common prefix of events that name
    the same cable (None when there is none).
    """
    na, nb = len(times_a), len(times_b)
    k = 0
    while k < min(na, nb) and int(cables_a[k]) == int(cables_b[k]):
        k += 1
    dt = float(np.abs(np.asarray(times_a[:k]) - np.asarray(times_b[:k])).max()) if k else None
    return {"cartesian": na, "quaternion": nb, "same_sequence": na == nb == k, "max_time_diff_s": dt}


def crosscheck(
    structure: Structure,
    forcing=None,
    *,
    t_end: float = 5.0,
    dt_out: float = 0.01,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    method: str = "DOP853",
    max_step: float | None = 0.05,
    stride: int = 10,
) -> dict:
    """Compare the two forward models on one structure and forcing (see the module docstring).

    ``max_step`` (s) caps both solvers' steps only as far as a short pulse
    from rest needs; below the cap each model chooses its own steps, so the
    trajectory difference measures the two integrations' global errors, not
    a shared step sequence (capping both at ``dt_out`` makes their steps
    identical and the difference falls to round-off, ~1e-13).

    Returns a plain-data dict: ``positions`` {max_diff_m, motion_scale_m,
    max_diff_rel}, ``derivatives`` {max_rel, n_states}, ``transitions``
    (:func:`transition_agreement`), ``energy_error_rel`` {cartesian,
    quaternion}, ``quaternion_norm_drift``, ``cartesian_length_drift_m``,
    ``wall_s`` {cartesian, quaternion}, ``n_samples``.
    """
    sim = {
        "t_end": t_end,
        "dt_out": dt_out,
        "rtol": rtol,
        "atol": atol,
        "method": method,
        "max_step": max_step,
    }
    dyn = Dynamics(structure)
    model = QuaternionModel(structure)
    rec = simulate(dyn, forcing, **sim)
    qrec = simulate_quaternion(model, forcing, **sim)
    if qrec.t.shape != rec.t.shape or np.abs(qrec.t - rec.t).max() > 1e-12:
        raise RuntimeError(f"structure '{structure.name}': the two models' output grids differ")
    xc = _embed(rec.q, dyn.n, dyn.dim)
    diff = np.linalg.norm(xc - qrec.x, axis=-1).max()
    motion = np.linalg.norm(xc - xc[0], axis=-1).max()
    checks = rec.checks(dyn)
    return {
        "n_samples": int(len(rec.t)),
        "positions": {
            "max_diff_m": float(diff),
            "motion_scale_m": float(motion),
            "max_diff_rel": float(diff / max(motion, 1e-300)),
        },
        "derivatives": derivative_agreement(dyn, model, rec, forcing, stride=stride),
        "transitions": transition_agreement(
            rec.transition_times, rec.transition_cables, qrec.transition_times, qrec.transition_cables
        ),
        "energy_error_rel": {"cartesian": checks["max_energy_error_rel"], "quaternion": qrec.energy_error()},
        "quaternion_norm_drift": float(qrec.norm_drift.max()),
        "cartesian_length_drift_m": checks["max_length_error_m"],
        "wall_s": {"cartesian": rec.stats["wall_s"], "quaternion": qrec.stats["wall_s"]},
        "nfev": {"cartesian": rec.stats["nfev"], "quaternion": qrec.stats["nfev"]},
    }


def summarize_crosschecks(rows: list[dict], tolerance: dict) -> dict:
    """Worst values over the records and the verdict against ``tolerance``.

    ``tolerance`` keys: ``position_rel``, ``derivative_rel``,
    ``transition_time_s``.  Passing also needs every record's two event
    sequences to agree.
    """

    def worst(key, sub):
        r = max(rows, key=lambda r: r[key][sub] if r[key][sub] is not None else -1.0)
        return r[key][sub], f"{r['structure']}/{r['record']}"

    pos, pos_at = worst("positions", "max_diff_rel")
    der, der_at = worst("derivatives", "max_rel")
    dts = [
        r["transitions"]["max_time_diff_s"] for r in rows if r["transitions"]["max_time_diff_s"] is not None
    ]
    dt = max(dts) if dts else None
    same = all(r["transitions"]["same_sequence"] for r in rows)
    ok = (
        pos <= tolerance["position_rel"]
        and der <= tolerance["derivative_rel"]
        and (dt is None or dt <= tolerance["transition_time_s"])
        and same
    )
    return {
        "n_records": len(rows),
        "max_position_diff_rel": pos,
        "max_position_diff_rel_at": pos_at,
        "max_position_diff_m": max(r["positions"]["max_diff_m"] for r in rows),
        "max_derivative_diff_rel": der,
        "max_derivative_diff_rel_at": der_at,
        "max_transition_time_diff_s": dt,
        "n_transitions": sum(r["transitions"]["cartesian"] for r in rows),
        "all_sequences_agree": same,
        "max_energy_error_rel": {
            m: max(r["energy_error_rel"][m] for r in rows) for m in ("cartesian", "quaternion")
        },
        "max_quaternion_norm_drift": max(r["quaternion_norm_drift"] for r in rows),
        "tolerance": dict(tolerance),
        "passed": bool(ok),
    }


def run_crosschecks(cases: list[dict], *, solver: dict, stride: int, tolerance: dict) -> dict:
    """Cross-check every case; the class-1 scope of all structures is checked before any run.

    Parameters
    ----------
    cases : list of dict
        ``{structure: Structure, record: str, source: str, forcing, t_end, dt_out}``.
    solver : dict
        ``method, rtol, atol, max_step`` for both models.
    stride : int
        State-derivative comparison at every ``stride``-th sample.
    tolerance : dict
        See :func:`summarize_crosschecks`.

    Returns ``{settings, records, summary}``: one row per case
    (:func:`crosscheck` plus its labels) and the worst values with the verdict.
    """
    for case in cases:  # a structure outside the model's scope stops before any simulation
        QuaternionModel(case["structure"])
    rows = []
    for n, case in enumerate(cases, 1):
        s = case["structure"]
        row = crosscheck(
            s, case["forcing"], t_end=case["t_end"], dt_out=case["dt_out"], stride=stride, **solver
        )
        rows.append({"structure": s.name, "record": case["record"], "source": case["source"], **row})
        log.info(
            "[%d/%d] %s/%s: positions %.3g m (%.3g relative), accelerations %.3g relative, "
            "transitions %d/%d (max dt %s s), energy %.3g/%.3g, norm drift %.3g, %.1f s + %.1f s",
            n,
            len(cases),
            s.name,
            case["record"],
            row["positions"]["max_diff_m"],
            row["positions"]["max_diff_rel"],
            row["derivatives"]["max_rel"],
            row["transitions"]["cartesian"],
            row["transitions"]["quaternion"],
            row["transitions"]["max_time_diff_s"],
            row["energy_error_rel"]["cartesian"],
            row["energy_error_rel"]["quaternion"],
            row["quaternion_norm_drift"],
            row["wall_s"]["cartesian"],
            row["wall_s"]["quaternion"],
        )
    summary = summarize_crosschecks(rows, tolerance) if rows else None
    return {"settings": {**solver, "derivative_stride": stride}, "records": rows, "summary": summary}
