"""The physics-informed identification as registered methods: ``pinn_smooth``, ``pinn_fb``, ``pinn_event``."""

from __future__ import annotations

from ..base import IdentificationMethod, IdentificationProblem, register
from .settings import PINNSettings
from .trainer import PINNTrainer

__all__ = ["PINNSmooth", "PINNComplementarity", "PINNEventAware"]


class _PINNMethod(IdentificationMethod):
    """The physics-informed identification through the common interface.

    Options are :class:`PINNSettings` fields; ``checkpoint`` (path) and
    ``progress`` (logger) are run controls, not hyperparameters.
    """

    treatment = "smooth"
    n_hyperparameters = 15
    """Trunk width, depth, Fourier count and spacing, tau_ic, displacement scale,
    collocation count, two learning rates, the cosine schedule, w_eom, w_b, beta,
    training length, and the shared initial guess (the seed counts 15)."""

    def __init__(self, *, checkpoint=None, progress=None, **settings):
        super().__init__(**settings)
        self.settings = PINNSettings.from_dict({**settings, "treatment": self.treatment})
        self.checkpoint = checkpoint
        self.progress = progress

    def _fit(self, problem: IdentificationProblem) -> dict:
        if problem.lambda0 is None:
            raise ValueError("the physics-informed identification needs the nominal multipliers lambda0")
        trainer = PINNTrainer(
            problem.structure,
            problem.records,
            self.settings,
            seed=problem.seed,
            lambda0=problem.lambda0,
            sigma0=problem.sigma0,
            c0=problem.c0,
        )
        params = trainer.train(checkpoint=self.checkpoint, progress=self.progress)
        predicted = [trainer.predict(i) for i in range(len(problem.records))]
        out = {
            "sigma": params["sigma"],
            "c": params["c"],
            "steps": self.settings.steps,
            "treatment": self.treatment,
            "train_wall_s": trainer.elapsed,
            "steps_per_s": self.settings.steps / max(trainer.elapsed, 1e-9),
            "final_losses": {k: v for k, v in trainer.history[-1].items() if k.startswith("L_")}
            if trainer.history
            else {},
            "predicted": predicted,
            "_history": trainer.history,
        }
        if "EA" in params:
            out["EA"] = params["EA"]
        if self.settings.treatment == "event":
            out["detected_transitions"] = [int(r.events.numel()) for r in trainer.recs]
        return out


@register
class PINNSmooth(_PINNMethod):
    """Smoothed (softplus) cable law: the primary treatment."""

    name = "pinn_smooth"
    treatment = "smooth"


@register
class PINNComplementarity(_PINNMethod):
    """Fischer-Burmeister complementarity with a tension head (seed §S1)."""

    name = "pinn_fb"
    treatment = "fb"
    n_hyperparameters = 17  # + the NCP weight and the nominal tension


@register
class PINNEventAware(_PINNMethod):
    """Smoothed law with collocation concentrated about detected transitions (seed §S1)."""

    name = "pinn_event"
    treatment = "event"
    n_hyperparameters = 18  # + detection interval, event fraction, window width
