"""What a training batch reports while it runs: the rows of its training history and its progress lines.

:class:`ProgressMixin`, mixed into :class:`~.trainer.PINNTrainer`, appends a history row
per member still training (step, loss terms, learning rates, physical parameters) and
writes a progress line: for one member its losses and parameters, for a batch the median
and range over the members still training, each line with the step rate and the time left.

Two readers, two outputs:

* **the log** (the job's log file, through the logger the trainer is given): a line every
  ``log_every`` steps, as before;
* **the console** (the job's standard error, which Snakemake shows in the terminal of
  ``snakemake --cores all``; a rule's ``log:`` does not capture a script's standard error):
  a short line, for long trainings only, at each further tenth of the steps but never
  within :data:`CONSOLE_GAP_S` seconds of the previous line (and at least every
  :data:`CONSOLE_MAX_GAP_S` seconds), and a last line when the training ends.  Under a
  cluster executor the same lines go to the job's cluster log.

The rate and the time left come from :class:`StepClock`: the steps after the first
:data:`WARMUP_STEPS` of the process, so the compilation of the step (seconds to minutes,
against milliseconds a step) is not averaged into the rate.  Averaged in, it made the
estimate of the time left several times, up to about twenty times, too long in the first
minutes of a run.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = [
    "CONSOLE_GAP_S",
    "CONSOLE_MAX_GAP_S",
    "WARMUP_STEPS",
    "ProgressMixin",
    "StepClock",
    "format_duration",
]

WARMUP_STEPS = 3
"""Steps of a process left out of its rate: the first compiles the step, the next few settle."""

CONSOLE_GAP_S = 30.0
"""Seconds between two console lines at least (the first comes this long after the start)."""

CONSOLE_MAX_GAP_S = 300.0
"""Seconds between two console lines at most while the training runs (checked at the log lines)."""


def format_duration(seconds: float) -> str:
    """``seconds`` as a person reads it: ``"45 s"``, ``"3 min 05 s"``, ``"2 h 04 min"``.

    Examples
    --------
    >>> format_duration(45.2), format_duration(185), format_duration(7440)
    ('45 s', '3 min 05 s', '2 h 04 min')
    """
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


class StepClock:
    """The step rate and the time left of a training, from its steps after warm-up.

    Parameters
    ----------
    warmup : int
        Steps, counted from :meth:`begin`, whose time the rate leaves out.
    clock : callable
        Seconds as a float (``time.perf_counter``; a test passes a fake clock).

    The rate is (steps since the warm-up ended) / (seconds since then); before any step
    after the warm-up it is unknown (``None``).  A resumed training calls :meth:`begin`
    again, and its warm-up (which compiles again) is left out again.
    """

    def __init__(self, *, warmup: int = WARMUP_STEPS, clock: Callable[[], float] = time.perf_counter):
        self.warmup = int(warmup)
        self._clock = clock
        self._start: tuple[int, float] | None = None
        self._warm: tuple[int, float] | None = None

    def now(self) -> float:
        return self._clock()

    def begin(self, step: int) -> None:
        """Training starts (or resumes) at ``step``."""
        self._start = (int(step), self._clock())
        self._warm = None

    def tick(self, step: int) -> None:
        """Step ``step`` has ended (call after every step)."""
        if self._warm is None and self._start is not None and step - self._start[0] >= self.warmup:
            self._warm = (int(step), self._clock())

    @property
    def started(self) -> float | None:
        """Clock reading at :meth:`begin` (``None`` before it)."""
        return None if self._start is None else self._start[1]

    @property
    def warmup_s(self) -> float | None:
        """Seconds the warm-up took (the compilation and the first steps), once it has ended."""
        if self._start is None or self._warm is None:
            return None
        return self._warm[1] - self._start[1]

    def rate(self, step: int) -> float | None:
        """Steps per second after the warm-up, or ``None`` while no such step has ended."""
        if self._warm is None or step <= self._warm[0]:
            return None
        return (step - self._warm[0]) / max(self._clock() - self._warm[1], 1e-9)

    def eta(self, step: int, total: int) -> float | None:
        """Seconds left to ``total`` steps at :meth:`rate` (``None`` while it is unknown)."""
        r = self.rate(step)
        return None if r is None else max(total - step, 0) / r


def _job_label() -> str:
    """The job's name for a console line, from its log file (``setup_log`` opens it): the path
    under ``logs/`` without the suffix (``identify_pinn/smooth/x1/taut_1pt/top_node_seeds0_steps12000``),
    else the file's stem; ``""`` without a log file."""
    for h in logging.getLogger().handlers:
        if isinstance(h, logging.FileHandler):
            parts = Path(h.baseFilename).with_suffix("").parts
            if "logs" in parts[:-1]:
                return "/".join(parts[len(parts) - parts[::-1].index("logs") :])
            return parts[-1]
    return ""


class ProgressMixin:
    """History rows and progress lines of a :class:`~.trainer.PINNTrainer`, from its attributes."""

    console = None
    """Where console lines go; ``None``: ``sys.stderr`` at the time of writing."""

    def _progress_begin(self) -> None:
        """Training starts or resumes in this process (the clock's warm-up starts again)."""
        self._clock = getattr(self, "_clock", None) or StepClock()
        self._clock.begin(self.step)
        self._console_at = (self._clock.now(), self.step * 10 // max(self.settings.steps, 1))
        self._console_lines = 0

    def _progress_tick(self) -> None:
        """One step has ended."""
        self._clock.tick(self.step)

    def _record_history(self, terms: dict) -> None:
        lr_net, lr_params = self.scheduler.get_last_lr()
        vals = {k: v.detach().numpy() for k, v in terms.items()}
        for m, p in enumerate(self.parameters_now()):
            if self.diverged[m] is not None:
                continue
            row = {"step": self.step, **{f"L_{k}": float(v[m]) for k, v in vals.items()}}
            row["lr_net"], row["lr_params"] = lr_net, lr_params
            row.update({f"sigma_{k}": float(v) for k, v in enumerate(p["sigma"])})
            row["c"] = p["c"]
            if "EA" in p:
                row["EA"] = p["EA"]
            for k, v in enumerate(p.get("force_scale", [])):
                row[f"force_scale_{k}"] = v
            self.history[m].append(row)

    def _progress(self, out, terms: dict, rate: float) -> None:
        """The log line (and, when due, the console line); ``rate`` (steps over the whole
        elapsed time) stands in while the clock has no rate after the warm-up yet."""
        s = self.settings
        clock = getattr(self, "_clock", None)
        warm_rate = None if clock is None else clock.rate(self.step)
        rate = warm_rate if warm_rate is not None else rate
        eta = (s.steps - self.step) / max(rate, 1e-9)
        params = self.parameters_now()
        live = [m for m, d in enumerate(self.diverged) if d is None] or list(range(self.n_members))
        tot = np.array([float(terms["total"][m]) for m in live])
        if clock is not None:
            self._console(tot, warm_rate, eta)
        if self.n_members == 1:
            p, v = params[0], {k: float(t[0]) for k, t in terms.items()}
            out.info(
                "step %d/%d loss %.3e (data %.3e, eom %.3e, bar %.3e%s) sigma %s c %.4g%s | "
                "%.1f steps/s, ETA %.0f s",
                self.step,
                s.steps,
                v["total"],
                v["data"],
                v["eom"],
                v["bar"],
                f", ncp {v['ncp']:.3e}" if "ncp" in v else "",
                np.array2string(p["sigma"], precision=3, separator=", "),
                p["c"],
                f" force scale {np.round(p['force_scale'], 4).tolist()}" if "force_scale" in p else "",
                rate,
                eta,
            )
            return
        sig = np.array([params[m]["sigma"] for m in live])
        c = np.array([params[m]["c"] for m in live])
        out.info(
            "step %d/%d, %d seeds%s: loss median %.3e [%.3e, %.3e]; sigma median %s, spread %s; "
            "c median %.4g [%.4g, %.4g] | %.1f steps/s, ETA %.0f s",
            self.step,
            s.steps,
            self.n_members,
            f" ({self.n_members - len(live)} stopped)" if len(live) < self.n_members else "",
            np.median(tot),
            tot.min(),
            tot.max(),
            np.array2string(np.median(sig, 0), precision=3, separator=", "),
            np.array2string(sig.max(0) - sig.min(0), precision=2, separator=", "),
            np.median(c),
            c.min(),
            c.max(),
            rate,
            eta,
        )

    def _console(self, tot: np.ndarray, warm_rate: float | None, eta: float) -> None:
        """A console line when one is due (see the module's docstring); the last step's line
        closes a training that has shown any."""
        s, clock = self.settings, self._clock
        now = clock.now()
        last_t, last_tenth = self._console_at
        tenth = self.step * 10 // max(s.steps, 1)
        done = self.step >= s.steps
        if done:
            due = self._console_lines > 0
        else:
            gap = now - last_t
            due = warm_rate is not None and (
                (tenth > last_tenth and gap >= CONSOLE_GAP_S) or gap >= CONSOLE_MAX_GAP_S
            )
        if not due:
            return
        self._console_at = (now, tenth)
        self._console_lines += 1
        label = _job_label()
        head = f"{label}: " if label else ""
        loss = f"loss {tot[0]:.3e}" if tot.size == 1 else f"loss median {np.median(tot):.3e}"
        warm = clock.warmup_s
        if done:
            text = (
                f"{head}training done, {self.step} steps in {format_duration(now - clock.started)}"
                f" ({format_duration(warm)} of it compiling and warming up), {loss}"
                if warm is not None
                else f"{head}training done, {self.step} steps, {loss}"
            )
        else:
            text = (
                f"{head}step {self.step}/{s.steps} ({100 * self.step / s.steps:.0f} %), {loss}, "
                f"{warm_rate:.0f} steps/s, ETA {format_duration(eta)}"
            )
        stream = self.console if self.console is not None else sys.stderr
        print(text, file=stream, flush=True)
