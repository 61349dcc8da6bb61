"""The trainer of the physics-informed identification: a batch of independent seeds trained as one.

The method, its loss and the three transition treatments are described in
:mod:`tensegrity_id.identify.pinn`.

A batch of seeds
    One trainer trains ``M`` independent runs at once, one per seed: ``M``
    network initialisations (:class:`~.net.PINNNet` stacks them along a
    leading member axis), ``M`` noise realisations of the same records,
    ``M`` sets of physical parameters (``log_sigma`` of shape (M,
    n_cables), ``log_c`` and ``log_EA`` of shape (M,)), and per member its
    own collocation generator and event windows.  Each member's loss is
    normalised by its own data scale and reduced over its own points; the
    optimised objective is the plain sum of the member losses, so the
    gradient of member ``m`` is the gradient of its own loss, and Adam (an
    elementwise update, no clipping) steps every member independently.
    The single run is the batch of one.

    A member whose loss or parameters become non-finite is stopped: its
    parameters are put back to the last state with a finite loss, it is
    excluded from the objective from then on, and :attr:`diverged` says
    when and why; the other members finish.

Modules
    The trainer is assembled from the problem (:mod:`.problem`: records,
    residual, networks, physical parameters), the step (:mod:`.step`:
    sampling, loss, compiled gradients, and the notes on its speed),
    checkpoints (:mod:`.checkpoint`) and progress reporting
    (:mod:`.progress`); it holds the optimiser, the learning-rate schedule,
    the collocation generators, the stopping of diverged members and the loop.
"""

from __future__ import annotations

import logging
import math
import time

import torch

from ..base import C0, SIGMA0
from .checkpoint import CheckpointMixin
from .problem import seed_stream
from .progress import ProgressMixin
from .settings import PINNSettings
from .step import PINNStep

__all__ = ["PINNTrainer", "seed_stream"]

log = logging.getLogger(__name__)


class PINNTrainer(PINNStep, CheckpointMixin, ProgressMixin):
    """Networks, physical parameters and optimiser of a batch of identification runs.

    Parameters
    ----------
    structure : Structure
        Geometry, supports, masses and nominal EA (its prestress is not read).
    records : list of RecordData, or one such list per seed
        Records with sensor data (noise realisation already chosen) and
        forcing; a single list is shared by every member.
    settings : PINNSettings
    seeds : int or sequence of int
        One run seed per member (network initialisation, collocation draws).
    lambda0 : ndarray, shape (n_bars,)
        Nominal static multipliers (N/m) for the multiplier head's start.
    reactions0 : ndarray, shape (n_fixed,), optional
        Nominal static support reactions (N), the start of the support multipliers
        (``residual_rows="all"``; without them, those balancing ``lambda0`` and the guess).
    sigma0, c0 : float
        Initial guesses (N/m, N s/m).

    Attributes
    ----------
    seeds : list of int
    history : list of list of dict
        Per member, a row every ``history_every`` steps.
    diverged : list of dict or None
        Per member, ``None`` or ``{"step", "reason", "kept_step"}``.
    step_mode : str
        ``"eager"`` or ``"compiled"`` (what the steps ran as).
    """

    def __init__(
        self,
        structure,
        records,
        settings: PINNSettings,
        *,
        seeds,
        lambda0,
        reactions0=None,
        sigma0=SIGMA0,
        c0=C0,
    ):
        super().__init__(
            structure,
            records,
            settings,
            seeds=seeds,
            lambda0=lambda0,
            reactions0=reactions0,
            sigma0=sigma0,
            c0=c0,
        )
        s, M = self.settings, self.n_members
        phys = [getattr(self, n) for n in self._phys_names]  # the physical parameters, in order
        self.optimizer = torch.optim.Adam(  # fused: one kernel for all tensors
            [
                {"params": list(self.net.parameters()), "lr": s.lr_net},
                {"params": phys, "lr": s.lr_params},
            ],
            fused=True,
        )
        steps = s.steps
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda k: 0.5 * (1.0 + math.cos(math.pi * min(k, steps) / steps))
        )
        self.gens = [torch.Generator().manual_seed(seed_stream(x, "collocation")) for x in self.seeds]
        self.step = 0
        self.history: list[list[dict]] = [[] for _ in self.seeds]
        self.diverged: list[dict | None] = [None] * M
        self.elapsed = 0.0
        self.step_mode = "eager"
        # last parameters with a finite loss, and the kept state of stopped members
        self._good = [p.detach().clone() for p in self.params]
        self._kept = [p.detach().clone() for p in self.params]
        self._good_step = 0
        self._constants()
        self._compiled = None

    @property
    def active(self) -> torch.Tensor:
        """Members still training, a bool tensor of shape (M,)."""
        return torch.tensor([d is None for d in self.diverged])

    # ---------------------------------------------------------- divergence
    def _stop(self, members, reason: str, out) -> None:
        """Stop members: keep their last good parameters, exclude them from the objective."""
        kept_step = self._good_step
        with torch.no_grad():
            for p, good, kept in zip(self.params, self._good, self._kept, strict=True):
                for m in members:
                    p[m] = good[m]
                    kept[m] = good[m]
        for m in members:
            self.diverged[m] = {"step": self.step, "reason": reason, "kept_step": kept_step}
            out.warning(
                "seed %d diverged at step %d: %s; stopped, its parameters of step %d kept "
                "(%d of %d members still training)",
                self.seeds[m],
                self.step,
                reason,
                kept_step,
                sum(d is None for d in self.diverged),
                self.n_members,
            )

    def _hold_stopped(self) -> None:
        """Put the stopped members' parameters back (Adam's moments would move them)."""
        idx = [m for m, d in enumerate(self.diverged) if d is not None]
        if idx:
            with torch.no_grad():
                for p, kept in zip(self.params, self._kept, strict=True):
                    p[idx] = kept[idx]

    def _finite_params(self) -> list[bool]:
        """Per member, whether its physical parameters are finite: one sum per tensor (finite when
        every entry is, short of an overflow of the logarithms, itself a divergence) read at once."""
        sums = [self.log_sigma.detach().sum(1), self.log_c.detach()]
        if self.log_EA is not None:
            sums.append(self.log_EA.detach())
        if self.log_fs is not None:
            sums.append(self.log_fs.detach().sum(1))
        return [all(map(math.isfinite, row)) for row in zip(*(t.tolist() for t in sums), strict=True)]

    # ------------------------------------------------------------ training
    def train(self, *, checkpoint=None, progress=None, until: int | None = None) -> list[dict]:
        """Run (or resume) the optimisation to ``settings.steps``; returns each member's parameters.

        Parameters
        ----------
        checkpoint : path, optional
            Checkpoint file of the whole batch: resumed from when it belongs
            to this batch, written every ``checkpoint_every`` steps (and when
            stopping at ``until``).
        progress : logging.Logger, optional
            Where progress lines go (default: this module's logger).
        until : int, optional
            Stop after this step (training in chunks); the schedule still
            spans ``settings.steps``.
        """
        s = self.settings
        stop = s.steps if until is None else min(int(until), s.steps)
        out = progress or log
        fp = self.fingerprint()
        if checkpoint is not None:
            self.try_resume(checkpoint, fp)
        t_start = time.perf_counter() - self.elapsed
        self._progress_begin()
        while self.step < stop:
            if s.treatment == "event" and self.step % s.event_every == 0:
                ev = self.detect_transitions()
                if s.log_every and self.step % s.log_every == 0:
                    counts = (
                        [len(e) for e in ev[0]] if self.n_members == 1 else [sum(map(len, e)) for e in ev]
                    )
                    out.info("step %d: %s transitions detected", self.step, counts)
            terms, grads = self._run_terms(*self.sample(), out)
            total = terms["total"]
            finite = [math.isfinite(v) for v in total.detach().tolist()]
            newly = [m for m in range(self.n_members) if self.diverged[m] is None and not finite[m]]
            all_live = not newly and all(d is None for d in self.diverged)
            if not all_live:
                live = self.active
                live[newly] = False
            if grads is not None:  # compiled: the gradients of the summed loss, already there
                for p, g in zip(self.params, grads, strict=True):
                    p.grad = g
            else:
                self.optimizer.zero_grad(set_to_none=True)
                if all_live:
                    total.sum().backward()
                else:
                    torch.where(live, total, torch.zeros_like(total)).sum().backward()
            if not all_live:  # stopped members take no step (nor a non-finite gradient)
                idx = torch.nonzero(~live)[:, 0]
                for p in self.params:
                    if p.grad is not None:
                        p.grad[idx] = 0.0
            if newly:
                detail = ", ".join(f"{k} {float(v.detach()[newly[0]]):.3g}" for k, v in terms.items())
                self._stop(newly, f"non-finite loss ({detail})", out)
            with torch.no_grad():
                for good, p in zip(self._good, self.params, strict=True):
                    good.copy_(p)
            self._good_step = self.step
            self.optimizer.step()
            self.scheduler.step()
            self.step += 1
            self._progress_tick()
            self._hold_stopped()
            bad = [m for m, ok in enumerate(self._finite_params()) if not ok]
            if bad:
                self._stop(bad, "non-finite parameter after the update", out)
            if s.history_every and (self.step % s.history_every == 0 or self.step == s.steps):
                self._record_history({k: v.detach() for k, v in terms.items()})
            if s.log_every and (self.step % s.log_every == 0 or self.step == s.steps):
                self.elapsed = time.perf_counter() - t_start
                self._progress(
                    out, {k: v.detach() for k, v in terms.items()}, self.step / max(self.elapsed, 1e-9)
                )
            if checkpoint is not None and s.checkpoint_every and self.step % s.checkpoint_every == 0:
                self.elapsed = time.perf_counter() - t_start
                self.save_checkpoint(checkpoint, fp)
        self.elapsed = time.perf_counter() - t_start
        if checkpoint is not None and self.step < s.steps:
            self.save_checkpoint(checkpoint, fp)
        return self.parameters_now()
