"""Forward simulation with taut-slack event tracking (the paper §2.1, §2.4-2.5).

The index-1 equations of :class:`~tensegrity_id.mechanics.dynamics.Dynamics` are
integrated with ``scipy.integrate.solve_ivp`` (explicit Runge-Kutta) mode by
mode by the shared event loop :func:`~tensegrity_id.mechanics.events.integrate_with_events`
(also used by the elastic-bar model): within a piece the taut set is fixed, so
the right-hand side is smooth; one terminal event per cable watches
``l_k - L0_k`` (downward for a taut cable, upward for a slack one).  At an
event the integration stops, the cable's mode flips, and a new piece starts
from the event state.  Every transition time and cable is recorded.  No projection onto the constraint
manifold is applied: the bar-length drift is measured and stored instead.

The state carries the work ``W`` of the external and damping forces, so the
energy balance ``|E(t) - W(t) - E(0)|`` is evaluated from integrated
quantities only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .dynamics import Dynamics
from .events import SimulationError, integrate_with_events, output_times
from .excitation import Forcing

__all__ = ["SimulationError", "Record", "simulate", "simulate_from_rest", "check_initial_state"]


@dataclass
class Record:
    """One simulated record (arrays over the output times).

    Attributes
    ----------
    t : (n_t,) s;  q, qd, qdd : (n_t, n_coords) m, m/s, m/s^2 (all coordinates);
    lam : (n_t, n_bars) N/m;  tension : (n_t, n_cables) N (elastic, sigma l);
    taut : (n_t, n_cables) bool;  transition_times : (n_events,) s;
    transition_cables : (n_events,) int;  transition_to_taut : (n_events,) bool;
    energy : dict of (n_t,) arrays T, Vg, Vs, W (J);  forcing : (n_t, n_driven) N;
    stats : solver statistics.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    lam: np.ndarray
    tension: np.ndarray
    taut: np.ndarray
    transition_times: np.ndarray
    transition_cables: np.ndarray
    transition_to_taut: np.ndarray
    energy: dict
    forcing: np.ndarray
    stats: dict = field(default_factory=dict)

    @property
    def n_transitions(self) -> int:
        return len(self.transition_times)

    def checks(self, dyn: Dynamics) -> dict:
        """Constraint drift and energy balance along the record (the paper §2.5)."""
        viol = np.abs(dyn.constraint_violation(self.q[:, dyn.free]))
        k = np.unravel_index(np.argmax(viol), viol.shape)[1] if viol.size else 0
        e = self.energy
        E = e["T"] + e["Vg"] + e["Vs"]
        err = np.abs(E - e["W"] - E[0])
        scale = max(np.abs(e["T"]).max(), np.abs(e["Vs"] - e["Vs"][0]).max(), np.abs(e["W"]).max(), 1e-300)
        return {
            "max_length_violation": float(viol.max()) if viol.size else 0.0,
            "max_length_error_m": float(viol.max() / 2 * dyn.bar_lengths[k]) if viol.size else 0.0,
            "max_energy_error_J": float(err.max()),
            "max_energy_error_rel": float(err.max() / scale),
            "n_transitions": self.n_transitions,
        }


def check_initial_state(dyn: Dynamics, q0_free, v0_free, *, tol: float = 1e-9, at_rest: bool = True) -> None:
    """Admissible start: R(q0) = 0, grad R q0' = 0 and, at rest, static balance."""
    viol = np.abs(dyn.constraint_violation(q0_free))
    if viol.size and viol.max() > tol:
        k = int(np.argmax(viol))
        raise SimulationError(
            f"structure '{dyn.structure.name}': initial state violates the length of bar {k} "
            f"(relative {viol[k]:.3g})"
        )
    x, v = dyn.full(q0_free, v0_free)
    J = dyn.constraint_jacobian(x)[:, dyn.free]
    vel = np.abs(J @ v0_free) / dyn.bar_lengths**2 if len(J) else np.zeros(0)
    if vel.size and vel.max() > tol:
        raise SimulationError(
            f"structure '{dyn.structure.name}': initial velocity stretches bar {int(np.argmax(vel))}"
        )
    if not at_rest:
        return
    res = dyn.static_residual()
    scale = max(np.abs(dyn.G).max(), (dyn.K * dyn.params.L_ref).max() * 1e-3, 1e-12)
    if np.abs(res).max() > 1e-7 * scale:
        i = int(np.argmax(np.abs(res)))
        raise SimulationError(
            f"structure '{dyn.structure.name}': the start q0 is not a static equilibrium "
            f"(out-of-balance {np.abs(res).max():.3g} N at free coordinate {int(dyn.free[i])})"
        )


def simulate(
    dyn: Dynamics,
    forcing: Forcing | None,
    *,
    t_end: float = 5.0,
    dt_out: float = 0.01,
    rtol: float = 1e-8,
    atol: float = 1e-8,
    method: str = "RK45",
    max_pieces: int = 100_000,
    max_nfev: int | None = None,
    q0=None,
    v0=None,
    max_step: float | None = None,
) -> Record:
    """Integrate from rest at the prestressed equilibrium.

    Parameters
    ----------
    dyn : Dynamics
    forcing : Forcing or None
        Known external force; its coordinates must be free.
    t_end, dt_out : float, s
        Record length and output step.
    rtol, atol : float
        Solver tolerances (1e-8 default; 1e-10 for reference runs).
    method : str
        An explicit Runge-Kutta method of ``solve_ivp`` (RK45, DOP853, RK23).
    max_nfev : int, optional
        Stop with :class:`SimulationError` after this many right-hand-side
        evaluations (a guard for searches that wander into stiff parameter
        regions; the reference records need about 3000).
    max_step : float, s, optional
        Largest solver step (default ``dt_out``), so that short pulses
        starting from rest are never stepped over.
    q0, v0 : ndarray, shape (n_coords,), optional
        A different initial state (default: rest at the reference
        configuration, which must be a static equilibrium).  It must satisfy
        the bar and support constraints.
    """
    name = dyn.structure.name
    n_coords = dyn.q0.size
    max_step = dt_out if max_step is None else max_step
    if forcing is not None:
        fixed = [c for c in forcing.coords if c not in set(dyn.free.tolist())]
        if fixed:
            c = fixed[0]
            raise SimulationError(
                f"structure '{name}': forcing acts on coordinate {c} (node {c // dyn.dim}, axis "
                f"{'xyz'[c % dyn.dim]}), which is fixed by a support"
            )
    nf = dyn.n_free
    at_rest = q0 is None and v0 is None
    if q0 is not None:
        held = np.setdiff1d(np.arange(n_coords), dyn.free)
        if np.abs(np.asarray(q0, float)[held] - dyn.q0[held]).max(initial=0.0) > 0:
            raise SimulationError(f"structure '{name}': q0 moves a supported coordinate")
    q0f = (dyn.q0 if q0 is None else np.asarray(q0, float))[dyn.free].copy()
    v0f = np.zeros(nf) if v0 is None else np.asarray(v0, float)[dyn.free].copy()
    check_initial_state(dyn, q0f, v0f, at_rest=at_rest)
    t_out = output_times(t_end, dt_out)
    fext = (lambda t: forcing(t, n_coords)) if forcing is not None else (lambda t: None)

    def rhs(t, y, taut):
        qf, vf = y[:nf], y[nf : 2 * nf]
        fe = fext(t)
        qdd, _, pdamp = dyn.accelerations(qf, vf, fe, taut)
        pext = 0.0 if fe is None else float(fe[dyn.free] @ vf)
        return np.concatenate([vf, qdd, [pext + pdamp]])

    def gap(k):
        def g(t, y):
            x = dyn.full(y[:nf])
            s = dyn.Cc[k] @ x
            return float(np.sqrt(s @ s) - dyn.L0[k])

        return g

    x0 = dyn.full(q0f)
    taut = np.sqrt(((dyn.Cc @ x0) ** 2).sum(-1)) > dyn.L0
    wall = time.perf_counter()
    sol = integrate_with_events(
        rhs,
        np.concatenate([q0f, v0f, [0.0]]),
        taut,
        [gap(k) for k in range(len(dyn.L0))],
        t_out,
        t_end=t_end,
        method=method,
        rtol=rtol,
        atol=atol,
        max_step=max_step,
        max_pieces=max_pieces,
        max_nfev=max_nfev,
        label=f"structure '{name}'",
    )
    wall = time.perf_counter() - wall
    t, Y, mode_at = sol.t, sol.y, sol.modes
    qf, vf, W = Y[:, :nf], Y[:, nf : 2 * nf], Y[:, -1]
    nt = t.size
    qdd = np.zeros((nt, nf))
    lam = np.zeros((nt, len(dyn.bar_lengths)))
    for i in range(nt):
        qdd[i], lam[i], _ = dyn.accelerations(qf[i], vf[i], fext(t[i]), mode_at[i])
    x, v = dyn.full(qf, vf)
    _, length, _, _, sig, _ = dyn.cable_state(x, v, mode_at)
    T, Vg, Vs = dyn.energies(qf, vf, mode_at)
    q_all = x.reshape(nt, -1)
    qd_all = np.zeros_like(q_all)
    qd_all[:, dyn.free] = vf
    qdd_all = np.zeros_like(q_all)
    qdd_all[:, dyn.free] = qdd
    forcing_t = forcing.signals(t).T if forcing is not None else np.zeros((nt, 0))
    return Record(
        t=t,
        q=q_all,
        qd=qd_all,
        qdd=qdd_all,
        lam=lam,
        tension=sig * length,
        taut=mode_at,
        transition_times=sol.event_times,
        transition_cables=sol.event_switches,
        transition_to_taut=sol.event_to_on,
        energy={"T": T, "Vg": Vg, "Vs": Vs, "W": W},
        forcing=forcing_t,
        stats={
            "method": method,
            "rtol": rtol,
            "atol": atol,
            "nfev": sol.nfev,
            "pieces": sol.pieces,
            "wall_s": wall,
        },
    )


def simulate_from_rest(dyn: Dynamics, forcing: Forcing | None, **sim) -> Record:
    """Integrate from rest in the reference configuration ``q0``, balanced or not.

    A model with perturbed or identified parameters starts where the
    identified model does: at rest in ``q0``, which is an equilibrium only of
    the exact prestress (Fisher sensitivities, shooting, re-simulation).
    """
    return simulate(dyn, forcing, q0=dyn.q0, v0=np.zeros_like(dyn.q0), **sim)
