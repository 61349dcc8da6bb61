"""Training progress: the time left from the steps after the compilation, and the console line."""

from __future__ import annotations

import io
import logging
import re
import sys

import numpy as np
import pytest
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.runio import setup_log
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.base import RecordData
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer, progress
from tensegrity_id.identify.pinn.progress import StepClock, format_duration
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _run(clock: StepClock, fake: FakeClock, steps: int, compile_s: float, step_s: float, at: int):
    """Train ``steps`` steps on ``clock`` (the first taking ``compile_s`` more) and return the
    clock's estimate at step ``at`` with the true time left then."""
    clock.begin(0)
    estimate = None
    for k in range(1, steps + 1):
        fake.t += step_s + (compile_s if k == 1 else 0.0)
        clock.tick(k)
        if k == at:
            estimate = clock.eta(k, steps)
    return estimate, (steps - at) * step_s


def test_time_left_leaves_the_compilation_out():
    """A 46 s compilation against 6 ms steps (the X1 record on one core, from an empty compile
    cache): averaged in, the estimate at a tenth of 12 000 steps is over seven times the time
    left (sixteen at the first log line, step 500); from the steps after it, exact for steady
    steps."""
    fake = FakeClock()
    clock = StepClock(clock=fake)
    eta, left = _run(clock, fake, 12_000, compile_s=46.0, step_s=0.006, at=1200)
    assert eta == pytest.approx(left, rel=1e-9)
    averaged = (12_000 - 1200) / (1200 / (46.0 + 1200 * 0.006))
    assert averaged / left > 7  # what the line used to say at step 1200
    assert clock.warmup_s == pytest.approx(46.0 + 3 * 0.006)


def test_time_left_is_unknown_during_the_warm_up_and_restarts_on_resume():
    fake = FakeClock()
    clock = StepClock(warmup=3, clock=fake)
    clock.begin(500)
    for k in range(501, 504):
        fake.t += 20.0 if k == 501 else 0.01
        clock.tick(k)
        assert clock.rate(k) is None and clock.eta(k, 1000) is None
    fake.t += 0.01
    clock.tick(504)
    assert clock.rate(504) == pytest.approx(100.0)
    clock.begin(504)  # a resumed process compiles again
    assert clock.rate(504) is None and clock.warmup_s is None


def test_durations_read_as_a_person_writes_them():
    assert [format_duration(s) for s in (0.4, 59.6, 61, 3599, 3600, 7440)] == [
        "0 s",
        "1 min 00 s",
        "1 min 01 s",
        "59 min 59 s",
        "1 h 00 min",
        "2 h 04 min",
    ]


LINE = re.compile(r"step (\d+)/(\d+) \((\d+) %\), loss ([-+.e\d]+), (\d+) steps/s, ETA (\d+ (s|min|h)\b.*)$")
"""A console line during the training (after the job's name, when it has one)."""


@pytest.fixture(scope="module")
def taut(x1):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 10.0, "frequency": 1.0}
    f = forcing_from_spec(x1, spec)
    rec = simulate(Dynamics(x1), f)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    sens = sensor_data(x1, arrays, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0})
    return x1, RecordData("taut_1pt", f, noise_realization(sens, 0), arrays, rec.n_transitions)


def _trainer(taut, **kw) -> PINNTrainer:
    s, rd = taut
    small = {"width": 16, "depth": 2, "n_colloc": 32, "compile": False}  # a step of a few ms
    return PINNTrainer(s, [rd], PINNSettings(**small, **kw), seeds=0, lambda0=s.bar_sigma)


def test_a_long_training_prints_step_loss_and_time_left_on_the_console(taut, monkeypatch, caplog):
    """The console line at each further tenth once the gap has passed, the log line as
    before, and a closing line; a training shorter than the gap prints none."""
    monkeypatch.setattr(progress, "CONSOLE_GAP_S", 0.0)
    tr = _trainer(taut, steps=20, log_every=2)
    tr.console = io.StringIO()
    with caplog.at_level(logging.INFO, logger="tensegrity_id"):
        tr.train(progress=logging.getLogger("tensegrity_id.test_progress"))
    lines = tr.console.getvalue().splitlines()
    found = [LINE.search(ln) for ln in lines[:-1]]
    assert all(found), lines
    assert [int(m[1]) for m in found] == list(range(4, 20, 2))  # none during the warm-up
    assert all(np.isfinite(float(m[4])) for m in found)
    assert "training done, 20 steps in " in lines[-1] and "compiling and warming up" in lines[-1]
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("step ")]
    assert len(logged) == 10 and all("steps/s, ETA" in m for m in logged)

    monkeypatch.setattr(progress, "CONSOLE_GAP_S", 3600.0)
    quiet = _trainer(taut, steps=10, log_every=2)
    quiet.console = io.StringIO()
    quiet.train(progress=logging.getLogger("tensegrity_id.test_progress"))
    assert quiet.console.getvalue() == ""


def test_the_console_line_goes_to_standard_error_named_by_the_job_log(taut, monkeypatch, capsys, tmp_path):
    """A job's script opens its log with setup_log: the line starts with the log's path under logs/."""
    monkeypatch.setattr(progress, "CONSOLE_GAP_S", 0.0)
    log_file = tmp_path / "logs" / "identify_pinn" / "x1" / "seeds0.log"
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # setup_log sets it: restored after
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        log = setup_log(log_file)
        _trainer(taut, steps=20, log_every=10).train(progress=log)
    finally:
        for h in root.handlers:
            if h not in handlers:
                h.close()
        root.handlers[:] = handlers
        root.setLevel(level)
        logging.captureWarnings(False)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("identify_pinn/x1/seeds0: step 10/20 (50 %), loss ")
    assert err[-1].startswith("identify_pinn/x1/seeds0: training done, 20 steps")
    assert "step 10/20 loss" in log_file.read_text()  # the log line stays
