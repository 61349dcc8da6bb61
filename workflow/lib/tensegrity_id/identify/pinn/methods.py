"""The physics-informed identification as registered methods: ``pinn_smooth``, ``pinn_fb``, ``pinn_event``."""

from __future__ import annotations

import logging
import time

import numpy as np

from ...results.identification import Batch, IdentificationResult
from ..base import IdentificationMethod, IdentificationProblem, register
from ..scoring import score_result
from .basis_coverage import record_coverage
from .settings import PINNSettings
from .trainer import PINNTrainer

log = logging.getLogger(__name__)

__all__ = ["PINNSmooth", "PINNComplementarity", "PINNEventAware", "check_batch"]


def check_batch(problems: list[IdentificationProblem]) -> None:
    """Problems that may train as one batch: the same structure, records, guesses; distinct seeds."""
    if not problems:
        raise ValueError("a batch needs at least one problem")
    ref = problems[0]
    for k, p in enumerate(problems[1:], 1):
        same = (
            p.structure.digest() == ref.structure.digest()
            and [r.name for r in p.records] == [r.name for r in ref.records]
            and (p.sigma0, p.c0) == (ref.sigma0, ref.c0)
            and np.array_equal(np.asarray(p.lambda0), np.asarray(ref.lambda0))
        )
        if not same:
            raise ValueError(
                f"problem {k} (seed {p.seed}) differs from the first in more than its seed; "
                "a batch trains runs that differ only in their seed"
            )


class _PINNMethod(IdentificationMethod):
    """The physics-informed identification through the common interface.

    Options are :class:`PINNSettings` fields; ``checkpoint`` (path) and
    ``progress`` (logger) are run controls, not hyperparameters.
    :meth:`run` fits one problem (a batch of one); :meth:`run_batch` fits
    problems that differ only in their seed as one batch.
    """

    treatment = "smooth"
    n_hyperparameters = 15
    """Trunk width, depth, Fourier count and spacing, tau_ic, displacement scale,
    collocation count, two learning rates, the cosine schedule, w_eom, w_b, beta,
    training length, and the shared initial guess (the paper counts 15)."""

    def __init__(self, *, checkpoint=None, progress=None, **settings):
        super().__init__(**settings)
        self.settings = PINNSettings.from_dict({**settings, "treatment": self.treatment})
        self.checkpoint = checkpoint
        self.progress = progress

    def _train(self, problems: list[IdentificationProblem]) -> list[dict]:
        check_batch(problems)
        ref = problems[0]
        self._log_basis_coverage(ref.records)
        if ref.lambda0 is None:
            raise ValueError("the physics-informed identification needs the nominal multipliers lambda0")
        trainer = PINNTrainer(
            ref.structure,
            [p.records for p in problems],
            self.settings,
            seeds=[p.seed for p in problems],
            lambda0=ref.lambda0,
            reactions0=ref.reactions0,
            sigma0=ref.sigma0,
            c0=ref.c0,
        )
        params = trainer.train(checkpoint=self.checkpoint, progress=self.progress)
        predicted = [trainer.predict(i) for i in range(len(ref.records))]  # per record, per member
        seeds = [p.seed for p in problems]
        outs = []
        for m, par in enumerate(params):
            hist = trainer.history[m]
            out = dict(
                sigma=par["sigma"],
                c=par["c"],
                steps=self.settings.steps,
                treatment=self.treatment,
                train_wall_s=trainer.elapsed,
                steps_per_s=trainer.step / max(trainer.elapsed, 1e-9),
                step_mode=trainer.step_mode,
                batch=Batch(seeds=seeds, size=len(seeds), train_wall_s=trainer.elapsed),
                diverged=trainer.diverged[m],
                final_losses={k: v for k, v in hist[-1].items() if k.startswith("L_")} if hist else {},
                predicted=[pred[m] for pred in predicted],
                history=hist,
            )
            if "EA" in par:
                out["EA"] = par["EA"]
            if "force_scale" in par:
                out["force_scale"] = par["force_scale"]
            if self.settings.treatment == "event":
                out.update(detected_transitions=[int(r.events[m].numel()) for r in trainer.recs])
            outs.append(out)
        return outs

    def _log_basis_coverage(self, records) -> None:
        """One line per record: does the Fourier basis reach the frequencies carrying its response?
        Information, not a warning, where some lie above the basis's band: they are left to the
        trunk's nonlinearity, which carries them for the default reading (measured on every
        benchmark record, docs/pinn_specification.md); nothing is changed."""
        out = self.progress or log
        s = self.settings
        try:
            rows = record_coverage(records, s)
        except (KeyError, ValueError) as exc:  # a record without uniform samples: not checked
            out.info("Fourier basis against the records' response frequencies: not checked (%s)", exc)
            return
        for name, cov in rows:
            out.info(
                "record %s: Fourier basis (%d %s terms), its f95, f99 and peaks: %s%s",
                name,
                s.n_fourier,
                s.fourier,
                cov.summary(),
                "" if cov.all_inside else " (left to the trunk's nonlinearity)",
            )

    def _fit(self, problem: IdentificationProblem) -> dict:
        return self._train([problem])[0]

    def run_batch(self, problems: list[IdentificationProblem]) -> list[IdentificationResult]:
        """Fit problems that differ only in their seed as one batch; one result record per problem.

        Each record's ``wall_s`` is the batch's training time (the job's
        cost); ``batch`` names the seeds trained together.
        """
        t0 = time.perf_counter()
        outs = self._train(list(problems))
        wall = time.perf_counter() - t0
        return [
            score_result(
                p,
                o,
                wall,
                method_name=self.name,
                n_hyperparameters=self.n_hyperparameters,
                options=self.options,
            )
            for p, o in zip(problems, outs, strict=True)
        ]


@register
class PINNSmooth(_PINNMethod):
    """Smoothed (softplus) cable law: the primary treatment."""

    name = "pinn_smooth"
    treatment = "smooth"


@register
class PINNComplementarity(_PINNMethod):
    """Fischer-Burmeister complementarity with a tension head (the paper §S1)."""

    name = "pinn_fb"
    treatment = "fb"
    n_hyperparameters = 17  # + the NCP weight and the nominal tension


@register
class PINNEventAware(_PINNMethod):
    """Smoothed law with collocation concentrated about detected transitions (the paper §S1)."""

    name = "pinn_event"
    treatment = "event"
    n_hyperparameters = 18  # + detection interval, event fraction, window width
