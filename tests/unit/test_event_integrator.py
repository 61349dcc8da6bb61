"""The shared event-tracked integrator (mechanics/events.py): a closed-form switching oscillator, its
guards, and both bar models (rigid, elastic) integrating through it."""

import numpy as np
import pytest
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.mechanics import elastic_bars, events
from tensegrity_id.mechanics import simulate as simulate_mod
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.events import (
    SimulationError,
    flip_switch,
    integrate_with_events,
    output_times,
)

# One-sided spring: a unit mass at stretch x; the spring pulls back (x'' = -w^2 x) while taut (x > 0)
# and a constant force pulls it out (x'' = a) while slack.  From rest at x = A, taut:
#   taut  x = A cos(w t)                       -> slack at t1 = pi / (2 w), speed -A w
#   slack x = -A w (t - t1) + a (t - t1)^2 / 2 -> taut again at t1 + 2 A w / a, speed +A w
#   taut  x = A sin(w (t - t2))                -> slack again half a period pi / w later, ...
# so the events alternate slack, taut at t_n = pi / (2 w) + floor(n / 2) pi / w + ceil(n / 2) 2 A w / a
# (n = 0, 1, ...).
W, A, ACC = 2 * np.pi, 0.1, 9.81
T_SLACK = 2 * A * W / ACC  # 0.128 s of free flight per cycle


def _rhs(t, y, mode):
    return np.array([y[1], -(W**2) * y[0] if mode[0] else ACC])


def _closed_form_events(t_end):
    out, n = [], 0
    while True:
        t = np.pi / (2 * W) + (n // 2) * np.pi / W + ((n + 1) // 2) * T_SLACK
        if t > t_end:
            return np.array(out)
        out.append(t)
        n += 1


def _closed_form_x(t, ev):
    """Stretch at times t from the event list (the motion restarts at each event)."""
    x = np.empty_like(t)
    starts = np.concatenate([[0.0], ev])
    for i, t0 in enumerate(starts):
        sel = (t >= t0) & (t <= (starts[i + 1] if i + 1 < starts.size else np.inf))
        s = t[sel] - t0
        if i == 0:
            x[sel] = A * np.cos(W * s)
        elif i % 2:  # slack, from x = 0 at speed -A w
            x[sel] = -A * W * s + ACC * s**2 / 2
        else:  # taut, from x = 0 at speed +A w
            x[sel] = A * np.sin(W * s)
    return x


def test_one_sided_spring_events_and_samples_match_the_closed_form():
    t_end = 3.0
    t_out = output_times(t_end, 0.01)
    calls = []

    def on_event(t, y, k, mode):
        calls.append((t, k, bool(mode[k])))
        return flip_switch(t, y, k, mode)

    sol = integrate_with_events(
        _rhs,
        [A, 0.0],
        [True],
        [lambda t, y: y[0]],
        t_out,
        t_end=t_end,
        method="DOP853",
        rtol=1e-12,
        atol=1e-14,
        max_step=0.01,
        on_event=on_event,
        label="oscillator",
    )
    ev = _closed_form_events(t_end)
    assert ev.size == 10 and sol.event_times.size == ev.size
    # event location is a root of the dense output: the closed form to 1e-9 s at rtol 1e-12
    np.testing.assert_allclose(sol.event_times, ev, rtol=0, atol=1e-9)
    assert np.all(sol.event_switches == 0)
    np.testing.assert_array_equal(sol.event_to_on, np.arange(ev.size) % 2 == 1)  # slack, taut, ...
    assert [c[0] for c in calls] == list(sol.event_times) and all(c[2] for c in calls[::2])
    assert sol.pieces == ev.size + 1
    np.testing.assert_array_equal(sol.t, t_out)
    np.testing.assert_allclose(sol.y[:, 0], _closed_form_x(t_out, ev), rtol=0, atol=1e-9)
    # each sample carries the mode of its piece: taut exactly where the closed-form stretch is > 0
    inner = np.abs(_closed_form_x(t_out, ev)) > 1e-6
    np.testing.assert_array_equal(sol.modes[inner, 0], _closed_form_x(t_out, ev)[inner] > 0)


def test_on_event_may_change_the_state_and_the_guards_name_the_label():
    # at each taut event the mass is put back at rest at x = A / 2: a quarter period to the next
    # slack event, then a free flight of T_SLACK / 2 (it leaves x = 0 at speed -A w / 2)
    def reset(t, y, k, mode):
        y, mode = flip_switch(t, y, k, mode)
        return (np.array([A / 2, 0.0]) if mode[k] else y), mode

    t_out = output_times(1.0, 0.05)
    kw = {"t_end": 1.0, "method": "DOP853", "rtol": 1e-12, "atol": 1e-14, "max_step": 0.05}
    sol = integrate_with_events(_rhs, [A, 0.0], [True], [lambda t, y: y[0]], t_out, on_event=reset, **kw)
    q = np.pi / (2 * W)
    expected = np.cumsum([q, T_SLACK, q, T_SLACK / 2, q])
    np.testing.assert_allclose(sol.event_times, expected, rtol=0, atol=1e-9)
    with pytest.raises(SimulationError, match="osc: more than 2 taut-slack events"):
        integrate_with_events(
            _rhs, [A, 0.0], [True], [lambda t, y: y[0]], t_out, max_pieces=2, label="osc", **kw
        )
    with pytest.raises(SimulationError, match="osc: more than 10 right-hand-side evaluations"):
        integrate_with_events(
            _rhs, [A, 0.0], [True], [lambda t, y: y[0]], t_out, max_nfev=10, label="osc", **kw
        )


def test_output_times_never_pass_the_end():
    np.testing.assert_array_equal(output_times(1.0, 0.25), [0.0, 0.25, 0.5, 0.75, 1.0])
    t = output_times(1.0, 0.3)
    assert t[-1] == pytest.approx(0.9) and t.size == 4


@pytest.fixture
def count_calls(monkeypatch):
    """Count the shared loop's calls in each model module and solve_ivp's calls inside it."""
    counts = {"simulate": 0, "elastic_bars": 0, "solve_ivp": 0}

    def counted(key, fn):
        def wrapper(*args, **kwargs):
            counts[key] += 1
            return fn(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(simulate_mod, "integrate_with_events", counted("simulate", integrate_with_events))
    monkeypatch.setattr(elastic_bars, "integrate_with_events", counted("elastic_bars", integrate_with_events))
    monkeypatch.setattr(events, "solve_ivp", counted("solve_ivp", events.solve_ivp))
    return counts


def _slack_forcing(x1):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 40.0, "frequency": 1.0}
    return forcing_from_spec(x1, spec, t_end=0.6)


def test_both_bar_models_integrate_through_the_shared_loop(x1, count_calls):
    assert not hasattr(simulate_mod, "solve_ivp") and not hasattr(elastic_bars, "solve_ivp")
    f = _slack_forcing(x1)
    rec = simulate_mod.simulate(Dynamics(x1), f, t_end=0.6)
    assert count_calls == {"simulate": 1, "elastic_bars": 0, "solve_ivp": rec.stats["pieces"]}
    assert rec.n_transitions == 2 and rec.stats["pieces"] == 3  # cable 3 slackens at 0.43 s, back at 0.50 s
    model = elastic_bars.ElasticBarModel(x1, EA_bar=1e9 * np.pi * 0.05**2)
    erec = elastic_bars.simulate_elastic(model, f, t_end=0.6, rtol=1e-7, atol=1e-9, method="LSODA")
    assert count_calls["elastic_bars"] == 1 and count_calls["solve_ivp"] == 3 + erec.stats["pieces"]
    assert erec.n_transitions == 2
    np.testing.assert_array_equal(erec.transition_cables, rec.transition_cables)
    np.testing.assert_allclose(erec.transition_times, rec.transition_times, atol=1e-3)
