"""Settings of a physics-informed identification run (Table S2) and its treatments."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

__all__ = ["TREATMENTS", "TRAIN_SEED_TAG", "PINNSettings"]

TREATMENTS = {
    "smooth": "smoothed cable law",
    "fb": "Fischer-Burmeister NCP",
    "event": "event-aware collocation",
}
TRAIN_SEED_TAG = 4_150_003
"""Mixed into training seeds: training streams never equal dataset or noise streams."""


FOURIER_SPACINGS = ("geometric", "linear", "linear_pi")
"""Fourier frequency spacings of the time features (``identify.pinn.net.fourier_frequencies``)."""
INITS = ("torch", "glorot")
"""Trunk initialisations (``identify.pinn.net.PINNNet``): PyTorch's ``nn.Linear`` default, or Glorot."""
LAMBDA_INITS = ("exact", "guess")
"""The multiplier head's start: the static multipliers of the given prestress (the paper's, for
a synthetic benchmark), or those balancing the initial guess (what an application can compute)."""
EOM_SCALES = ("forcing", "weight")
"""The EOM residual's normaliser: the squared forcing amplitude (the paper's), or the squared
weight of the structure (records of gravity-loaded structures; the amplitude where it has none)."""
RESIDUAL_ROWS = ("all", "free")
"""The rows of the EOM residual: every coordinate, the supports' rows with their multipliers
(reactions) from the multiplier head (the paper's: the head "outputs the full vector" of Eq. 1's
multipliers), or the free coordinates only with the bar multipliers."""
TAU_IC_UNITS = ("scaled", "seconds")
"""The unit of the initial-condition window's ``tau_ic``: scaled time (the paper's
``s(tau) = (1 - exp(-tau/0.08))^2``), or seconds (``tau_ic / T_ref`` in scaled time)."""


@dataclass(frozen=True)
class PINNSettings:
    """Hyperparameters of a physics-informed identification run (defaults: Table S2).

    Errors name the config field (``identify.pinn.settings.<field>``).
    """

    treatment: str = "smooth"
    steps: int = 25_000
    width: int = 64
    depth: int = 4
    n_fourier: int = 8
    # the reading chosen by the registered comparison (docs/pinn_specification.md, "The decision"):
    # the basis pi (j + 1) per unit tau with a Glorot trunk; the other: geometric with torch
    fourier: str = "linear_pi"
    fourier_constant: bool = False
    init: str = "glorot"
    lambda_init: str = "exact"
    eom_scale: str = "forcing"
    residual_rows: str = "all"
    t_ref: float | None = None
    tau_ic: float = 0.08
    tau_ic_unit: str = "scaled"
    disp_scale: float = 0.1
    n_colloc: int = 256
    lr_net: float = 2e-3
    lr_params: float = 1e-2
    w_eom: float = 1.0
    w_bar: float = 100.0
    w_ncp: float = 10.0
    beta: float = 800.0
    identify_EA: bool = False
    EA0: float | None = None
    fit_force_scale: bool = False
    """One factor per driven coordinate multiplying the recorded force, trained with sigma and c."""
    event_every: int = 500
    event_fraction: float = 0.5
    event_width: float = 0.02
    event_grid: int = 2001
    log_every: int = 500
    history_every: int = 50
    checkpoint_every: int = 1000
    dtype: str = "float32"
    compile: bool = False
    """Fuse the step with ``torch.compile`` (falls back to the eager step without a C++ compiler)."""

    def __post_init__(self):
        def bad(name, why):
            raise ValueError(f"config field 'identify.pinn.settings.{name}': {why}")

        if self.treatment not in TREATMENTS:
            bad("treatment", f"{self.treatment!r} is not one of {', '.join(TREATMENTS)}")
        for name in ("steps", "width", "depth", "n_fourier", "n_colloc", "event_every", "event_grid"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                bad(name, f"must be a positive integer, got {v!r}")
        for name in ("log_every", "history_every", "checkpoint_every"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                bad(name, f"must be a non-negative integer (0 = off), got {v!r}")
        positive = ("tau_ic", "disp_scale", "lr_net", "lr_params", "beta", "event_width")
        for name in positive + ("w_eom", "w_bar", "w_ncp"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                bad(name, f"must be a number, got {v!r}")
            if (name in positive and v <= 0) or v < 0:
                bad(name, f"must be {'> 0' if name in positive else '>= 0'}, got {v!r}")
        if not 0.0 <= self.event_fraction <= 1.0:
            bad("event_fraction", f"must lie in [0, 1], got {self.event_fraction!r}")
        if self.EA0 is not None and not (isinstance(self.EA0, int | float) and self.EA0 > 0):
            bad("EA0", f"must be a positive number of newtons or null, got {self.EA0!r}")
        if self.fourier not in FOURIER_SPACINGS:
            bad("fourier", f"must be one of {', '.join(FOURIER_SPACINGS)}, got {self.fourier!r}")
        for name, options in (
            ("init", INITS),
            ("lambda_init", LAMBDA_INITS),
            ("eom_scale", EOM_SCALES),
            ("residual_rows", RESIDUAL_ROWS),
            ("tau_ic_unit", TAU_IC_UNITS),
        ):
            if getattr(self, name) not in options:
                bad(name, f"must be one of {', '.join(options)}, got {getattr(self, name)!r}")
        if self.t_ref is not None and not (isinstance(self.t_ref, int | float) and self.t_ref > 0):
            bad(
                "t_ref", f"must be a positive time in seconds or null (the record length), got {self.t_ref!r}"
            )
        for name in ("compile", "fourier_constant"):
            if not isinstance(getattr(self, name), bool):
                bad(name, f"must be true or false, got {getattr(self, name)!r}")
        if self.dtype not in ("float64", "float32"):
            bad("dtype", f"must be float64 or float32, got {self.dtype!r}")

    @classmethod
    def from_dict(cls, d: dict) -> PINNSettings:
        """Settings from a config mapping; an unknown key is an error naming it."""
        names = {f.name for f in dataclasses.fields(cls)}
        for key in d:
            if key not in names:
                raise ValueError(
                    f"config field 'identify.pinn.settings.{key}': unknown setting "
                    f"(known: {', '.join(sorted(names))})"
                )
        return cls(**d)
