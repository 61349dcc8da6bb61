"""Checkpoints of a training batch: its fingerprint, its state, the atomic write and guarded resume of a file.

:class:`CheckpointMixin`, mixed into :class:`~.trainer.PINNTrainer`, holds what a killed
run needs to resume and end bit for bit as an uninterrupted one (networks, physical
parameters, optimiser, scheduler, collocation generators, event windows, histories,
stopped members, kept parameters, step, wall time, step mode), keyed by a hash of what
defines the batch: a checkpoint of another configuration is ignored, an unreadable one
moved aside.  Its log lines go to the trainer's logger.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
from pathlib import Path

import torch

from ...data.runio import atomic_path

__all__ = ["CheckpointMixin"]

# the trainer's logger: a run's resume lines sit with its other training lines, under one name
log = logging.getLogger(f"{__package__}.trainer")


class CheckpointMixin:
    """Fingerprint, state and checkpoint file of a :class:`~.trainer.PINNTrainer`, from its attributes."""

    def fingerprint(self) -> str:
        """Hash of everything that defines the batch (settings, seeds, data, structure)."""
        h = hashlib.sha256()
        h.update(repr(dataclasses.asdict(self.settings)).encode())
        h.update(repr(self.seeds).encode())
        h.update(self.structure.digest().encode())
        for rec in self.recs:
            h.update(rec.a_train.numpy().tobytes())
            h.update(rec.tau_train.numpy().tobytes())
            h.update(repr(rec.forcing.spec).encode())
        h.update(repr((self.init_guess, self.net.lambda0.tolist())).encode())
        return h.hexdigest()[:16]

    def state_dict(self) -> dict:
        return {
            "step": self.step,
            "seeds": list(self.seeds),
            "net": self.net.state_dict(),
            "log_sigma": self.log_sigma.detach().clone(),
            "log_c": self.log_c.detach().clone(),
            "log_EA": None if self.log_EA is None else self.log_EA.detach().clone(),
            "log_fs": None if self.log_fs is None else self.log_fs.detach().clone(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "generators": [g.get_state() for g in self.gens],
            "events": [[ev.clone() for ev in r.events] for r in self.recs],
            "history": [list(h) for h in self.history],
            "diverged": list(self.diverged),
            "good": [p.clone() for p in self._good],
            "kept": [p.clone() for p in self._kept],
            "good_step": self._good_step,
            "elapsed": self.elapsed,
            "step_mode": self.step_mode,
        }

    def load_state_dict(self, st: dict) -> None:
        self.step = int(st["step"])
        self.net.load_state_dict(st["net"])
        with torch.no_grad():
            self.log_sigma.copy_(st["log_sigma"])
            self.log_c.copy_(st["log_c"])
            if self.log_EA is not None:
                self.log_EA.copy_(st["log_EA"])
            if self.log_fs is not None:
                self.log_fs.copy_(st["log_fs"])
        self.optimizer.load_state_dict(st["optimizer"])
        self.scheduler.load_state_dict(st["scheduler"])
        for g, state in zip(self.gens, st["generators"], strict=True):
            g.set_state(state)
        for r, evs in zip(self.recs, st["events"], strict=True):
            r.events = list(evs)
        self.history = [list(h) for h in st["history"]]
        self.diverged = list(st["diverged"])
        self._good = [p.clone() for p in st["good"]]
        self._kept = [p.clone() for p in st["kept"]]
        self._good_step = int(st["good_step"])
        self.elapsed = float(st["elapsed"])
        if st["step_mode"] == "eager":  # a resumed run keeps the step of its checkpoint
            self._compiled = False

    def save_checkpoint(self, path, fingerprint: str) -> None:
        """Write the batch's state atomically (a job killed mid-write leaves the previous checkpoint)."""
        with atomic_path(path) as tmp:
            torch.save({"fingerprint": fingerprint, **self.state_dict()}, tmp)

    def try_resume(self, path, fingerprint: str) -> bool:
        """Load a checkpoint of this very batch; ignore (with a log line) one of another run.

        An unreadable checkpoint (truncated, say, by a full disk) is renamed
        to ``<name>.corrupt``, with a warning naming both paths, and training
        starts afresh.
        """
        path = Path(path)
        if not path.exists():
            return False
        try:
            st = torch.load(path, weights_only=False)
            if not isinstance(st, dict):
                raise ValueError(f"holds a {type(st).__name__}, not a checkpoint dict")
        except Exception as exc:  # torch raises RuntimeError, EOFError, UnpicklingError, ...
            aside = path.with_name(path.name + ".corrupt")
            os.replace(path, aside)
            # torch's first sentence says what failed; the rest is generic advice
            reason = (str(exc).splitlines() or [type(exc).__name__])[0].split(". ")[0]
            log.warning(
                "checkpoint %s is unreadable (%s); moved it to %s and training from scratch",
                path,
                reason,
                aside,
            )
            return False
        if st.get("fingerprint") != fingerprint:
            log.info("checkpoint %s belongs to another run configuration; starting afresh", path)
            return False
        self.load_state_dict(st)
        log.info("resumed from checkpoint %s at step %d", path, self.step)
        return True
