"""Event-tracked integration of a piecewise-smooth system (the paper §2.1, §2.4-2.5).

One loop serves the rigid-bar (:mod:`~tensegrity_id.mechanics.simulate`) and
the elastic-bar (:mod:`~tensegrity_id.mechanics.elastic_bars`) models: the
state ``y`` is integrated by ``scipy.integrate.solve_ivp`` piece by piece with a
boolean mode vector fixed within a piece (the taut set), so the right-hand
side ``rhs(t, y, mode)`` is smooth there.  Switch ``k`` has a gap function
``g_k(t, y)`` (a cable's ``l_k - L0_k``), positive while ``mode[k]`` is on: one
terminal event per switch watches ``g_k`` downward while it is on and upward
while it is off.  At the first event of a piece the integration stops,
``on_event`` returns the new state and mode (by default the switch flips and
the state carries over), and the next piece starts from the event time.
Every event time, switch and new mode is recorded.

The quaternion model (:mod:`~tensegrity_id.mechanics.quaternion`) keeps its own
loop on purpose: it is the independent cross-check of this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

__all__ = ["SimulationError", "EventSolution", "output_times", "flip_switch", "integrate_with_events"]


class SimulationError(RuntimeError):
    """The forward simulation cannot start or failed; names time and cable."""


@dataclass
class EventSolution:
    """Samples and events of :func:`integrate_with_events`.

    Attributes
    ----------
    t : (n_t,) the output times;  y : (n_t, n_y) the state there;
    modes : (n_t, n_switches) bool, the mode of the piece that produced each sample;
    event_times : (n_events,);  event_switches : (n_events,) int;
    event_to_on : (n_events,) bool, the switch's mode after the event;
    nfev : right-hand-side evaluations;  pieces : integrated pieces.
    """

    t: np.ndarray
    y: np.ndarray
    modes: np.ndarray
    event_times: np.ndarray
    event_switches: np.ndarray
    event_to_on: np.ndarray
    nfev: int
    pieces: int


def output_times(t_end: float, dt_out: float) -> np.ndarray:
    """Output grid ``0, dt_out, ...`` rounded to 1e-12 s, never past ``t_end``."""
    t_out = np.round(np.arange(0.0, t_end + dt_out / 2, dt_out), 12)
    t_out = t_out[t_out <= t_end + 1e-12]  # no sample past the end when dt_out does not divide t_end
    t_out[-1] = min(t_out[-1], t_end)  # nor one rounded past it
    return t_out


def flip_switch(t, y, k, mode):
    """Default event action: switch ``k`` changes mode, the state carries over."""
    mode[k] = not mode[k]
    return y, mode


def _watchers(switches, mode):
    """Terminal solve_ivp events for one piece: ``g_k`` falling while on, rising while off."""
    out = []
    for k, g in enumerate(switches):

        def ev(t, y, _mode, g=g):
            return g(t, y)

        ev.terminal = True
        ev.direction = -1.0 if mode[k] else 1.0
        out.append(ev)
    return out


def integrate_with_events(
    rhs: Callable,
    y0,
    mode0,
    switches: Sequence[Callable],
    t_out,
    *,
    t_end: float,
    method: str,
    rtol: float,
    atol: float,
    max_step: float,
    jac: Callable | None = None,
    on_event: Callable = flip_switch,
    max_pieces: int = 100_000,
    max_nfev: int | None = None,
    label: str = "",
) -> EventSolution:
    """Integrate ``y' = rhs(t, y, mode)`` from ``t = t_out[0]`` to ``t_end`` through switching events.

    Parameters
    ----------
    rhs : callable ``rhs(t, y, mode) -> (n_y,)``
        Smooth for a fixed boolean ``mode`` (n_switches,).
    y0 : (n_y,);  mode0 : (n_switches,) bool
        The initial state and mode.
    switches : sequence of callables ``g_k(t, y) -> float``
        One per switch: positive while the switch is on; the event is its zero crossing
        (downward while on, upward while off).
    t_out : (n_t,) increasing output times in ``[t_out[0], t_end]``.
    t_end, method, rtol, atol, max_step
        Passed to ``solve_ivp`` for every piece (``t_span = (t_piece_start, t_end)``).
    jac : callable ``jac(t, y, mode)``, optional
        For the implicit methods.
    on_event : callable ``on_event(t, y, k, mode) -> (y, mode)``
        What happens at an event of switch ``k`` (gets copies; default :func:`flip_switch`).
    max_pieces, max_nfev : int
        Guards: :class:`SimulationError` after this many pieces (chattering) or
        right-hand-side evaluations (stiff parameters).
    label : str
        Prefix of the error messages (e.g. ``"structure 'x1'"``).
    """
    t_out = np.asarray(t_out, float)
    counters = {"nfev": 0, "pieces": 0}

    def counted(t, y, mode):
        counters["nfev"] += 1
        if max_nfev is not None and counters["nfev"] > max_nfev:
            raise SimulationError(
                f"{label}: more than {max_nfev} right-hand-side evaluations by t = {t:.4g} s "
                "(stiff at these parameters?)"
            )
        return rhs(t, y, mode)

    options = {} if jac is None else {"jac": jac}
    mode_now = np.array(mode0, bool)
    y = np.array(y0, float)
    t0 = float(t_out[0])
    ts, ys, modes = [], [], []
    ev_t, ev_k, ev_on = [], [], []
    while t0 < t_end - 1e-12:
        counters["pieces"] += 1
        if counters["pieces"] > max_pieces:
            raise SimulationError(f"{label}: more than {max_pieces} taut-slack events (chattering?)")
        mode = mode_now.copy()
        # the piece that ended at t0 stored every sample up to t0 (solve_ivp keeps t_eval <= the event)
        sel = t_out[(t_out >= t0) & (t_out <= t_end)]
        sol = solve_ivp(
            counted,
            (t0, t_end),
            y,
            method=method,
            rtol=rtol,
            atol=atol,
            t_eval=sel,
            events=_watchers(switches, mode),
            args=(mode,),
            max_step=max_step,
            **options,
        )
        if sol.status == -1:
            raise SimulationError(f"{label}: solver failed at t = {t0:.6g} s or later: {sol.message}")
        t_piece = np.asarray(sol.t, float)
        # a piece may hold no new sample (two events inside one output step, or an event on a
        # sample that the previous piece already stored): only pieces with new samples are kept
        keep = t_piece >= (ts[-1][-1] + 1e-12 if ts else -1.0)
        if keep.any():
            ts.append(t_piece[keep])
            ys.append(np.asarray(sol.y)[:, keep].T)
            modes.append(np.repeat(mode[None], keep.sum(), axis=0))
        if sol.status != 1:  # reached t_end
            break
        t_ev, k_ev = min((ev[0], k) for k, ev in enumerate(sol.t_events) if ev.size)
        y, mode_now = on_event(t_ev, sol.y_events[k_ev][0].copy(), k_ev, mode_now.copy())
        ev_t.append(t_ev)
        ev_k.append(k_ev)
        ev_on.append(bool(mode_now[k_ev]))
        t0 = t_ev
    t = np.concatenate(ts) if ts else np.zeros(0)
    if t.size != t_out.size or np.abs(t - t_out).max() > 1e-9:
        raise SimulationError(f"{label}: output grid incomplete ({t.size} of {t_out.size} samples)")
    return EventSolution(
        t=t,
        y=np.concatenate(ys),
        modes=np.concatenate(modes),
        event_times=np.array(ev_t, float),
        event_switches=np.array(ev_k, int),
        event_to_on=np.array(ev_on, bool),
        nfev=counters["nfev"],
        pieces=counters["pieces"],
    )
