"""The excitation suite of the paper's §2.4: known external forcing f_ext(t).

Every forcing is a set of driven coordinates, each with a scalar signal
(newtons).  The random classes are generated from a fixed dataset seed on a
fine grid and interpolated linearly, so a record regenerates bit-identically.
Dataset streams are drawn from ``SeedSequence([DATASET_SEED_TAG, seed])``, so
they never coincide with the training streams whatever the seed numbers.

Classes
    ``harmonic``       p sin(2 pi f0 t)                           (Eq. 5)
    ``half_sine``      p sin(pi (t - t0)/duration) on [t0, t0 + duration]
    ``earthquake``     white noise, low-pass filtered (Butterworth, zero
                       phase), trapezoidal envelope, normalised to peak p
    ``noise``          stationary Gaussian white noise band-limited the
                       same way, normalised to RMS p
    ``multi_harmonic`` superposition of harmonics at 2-4 coordinates with
                       distinct amplitudes and frequencies
    ``sampled``        a measured force record (one signal per driven
                       coordinate), a cubic spline through the samples, zero
                       outside the record (``tensegrity_id.data.measured``)

Any forcing can carry a ``scale`` (one factor per driven coordinate): the
force a miscalibrated transducer reports times the factor is the force
applied (:meth:`Forcing.scaled`; identified with ``force_scale: fit``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.interpolate import CubicSpline
from scipy.signal import butter, sosfiltfilt

__all__ = ["Forcing", "make_forcing", "sampled_forcing", "FORCING_CLASSES", "DATASET_SEED_TAG"]

DATASET_SEED_TAG = 20_240_501
"""Mixed into every dataset seed so dataset streams never equal training streams."""

FORCING_CLASSES = ("harmonic", "half_sine", "earthquake", "noise", "multi_harmonic", "sampled")


@dataclass(frozen=True)
class Forcing:
    """External forcing on chosen coordinates.

    Attributes
    ----------
    coords : tuple of int
        Global coordinate indices (``dim * node + axis``).
    kind : str
        One of :data:`FORCING_CLASSES`.
    spec : dict
        The parameters that define it (stored with each record).
    scale : tuple of float, optional
        One factor per driven coordinate multiplying its signal (default 1).
    """

    coords: tuple
    kind: str
    spec: dict
    _grid: np.ndarray | None = field(default=None, repr=False, compare=False)
    _samples: np.ndarray | None = field(default=None, repr=False, compare=False)
    scale: tuple | None = None
    _interp: object | None = field(default=None, repr=False, compare=False)

    def scaled(self, factors) -> Forcing:
        """The same forcing with every driven coordinate's signal times its factor (replaces ``scale``)."""
        f = tuple(float(x) for x in np.broadcast_to(np.asarray(factors, float), (len(self.coords),)))
        return replace(self, scale=f)

    def signals(self, t):
        """Signal of every driven coordinate, shape (n_driven,) or (n_driven, n_t), N."""
        s = self._signals(np.asarray(t, float))
        if self.scale is None:
            return s
        s = np.asarray(s, float)
        return s * np.asarray(self.scale, float).reshape((-1,) + (1,) * (s.ndim - 1))

    def _signals(self, t):
        sp = self.spec
        if self.kind == "harmonic":
            return (sp["amplitude"] * np.sin(2 * np.pi * sp["frequency"] * t))[None]
        if self.kind == "multi_harmonic":
            a = np.asarray(sp["amplitudes"], float)
            f = np.asarray(sp["frequencies"], float)
            ph = np.asarray(sp.get("phases", np.zeros(len(a))), float)
            return a.reshape((-1,) + (1,) * t.ndim) * np.sin(
                2 * np.pi * f.reshape((-1,) + (1,) * t.ndim) * t + ph.reshape((-1,) + (1,) * t.ndim)
            )
        if self.kind == "half_sine":
            t0, d = sp.get("start", 0.1), sp["duration"]
            on = (t >= t0) & (t <= t0 + d)
            return (sp["amplitude"] * np.where(on, np.sin(np.pi * (t - t0) / d), 0.0))[None]
        # sampled classes: interpolation of the stored samples, zero outside them
        if self._interp is not None:  # a measured record: a spline, one row per driven coordinate
            inside = (t >= self._grid[0]) & (t <= self._grid[-1])
            return np.where(inside, self._interp(np.clip(t, self._grid[0], self._grid[-1])), 0.0)
        return np.interp(t, self._grid, self._samples, left=0.0, right=0.0)[None]

    def at(self, t, n_coords: int) -> np.ndarray:
        """External force on all coordinates at the times ``t``, shape (n_t, n_coords), N."""
        t = np.atleast_1d(np.asarray(t, float))
        F = np.zeros((t.size, n_coords))
        F[:, list(self.coords)] = np.asarray(self.signals(t)).reshape(len(self.coords), -1).T
        return F

    def __call__(self, t: float, n_coords: int) -> np.ndarray:
        """External force on all coordinates at time ``t``, shape (n_coords,), N."""
        f = np.zeros(n_coords)
        f[list(self.coords)] = self.signals(t)
        return f

    @property
    def amplitude(self) -> float:
        """The natural force scale p (N) used to normalise the EOM residual."""
        sp = self.spec
        if self.kind == "multi_harmonic":
            a = np.abs(np.asarray(sp["amplitudes"], float))
        elif self.kind == "sampled":  # per driven coordinate, its largest recorded value
            a = np.abs(self._samples).max(axis=1)
        else:
            a = np.full(len(self.coords), abs(float(sp["amplitude"])))
        if self.scale is not None:
            a = a * np.abs(np.asarray(self.scale, float))
        return float(a.max())


def _band_limited(rng, t_end, dt, cutoff):
    n = int(round(t_end / dt)) + 1
    grid = np.arange(n) * dt
    white = rng.standard_normal(n)
    sos = butter(4, cutoff, fs=1.0 / dt, output="sos")
    return grid, sosfiltfilt(sos, white)


def make_forcing(kind: str, coords, *, t_end: float = 5.0, seed: int | None = None, **spec) -> Forcing:
    """Build a forcing of class ``kind`` on global coordinates ``coords``.

    Parameters (by class)
    ---------------------
    harmonic:       amplitude (N), frequency (Hz)
    half_sine:      amplitude, duration (s), start (s, default 0.1)
    earthquake:     amplitude (peak, N), seed, cutoff (Hz, default 5),
                    rise, hold (s; trapezoid rises over ``rise``, holds,
                    then decays linearly to ``t_end``), dt (s, default 1e-3)
    noise:          amplitude (RMS, N), seed, cutoff (Hz, default 5), dt
    multi_harmonic: amplitudes, frequencies (one per coordinate), phases
    """
    coords = tuple(int(c) for c in np.atleast_1d(coords))
    if kind not in FORCING_CLASSES:
        raise ValueError(f"forcing kind {kind!r} is not one of {', '.join(FORCING_CLASSES)}")
    if kind == "sampled":
        raise ValueError("a sampled forcing is built from its samples (tensegrity_id.data.measured)")
    if kind == "multi_harmonic":
        if not 2 <= len(coords) <= 4:
            raise ValueError("multi_harmonic forcing drives 2 to 4 coordinates")
        if len(spec["amplitudes"]) != len(coords) or len(spec["frequencies"]) != len(coords):
            raise ValueError("multi_harmonic needs one amplitude and one frequency per coordinate")
        return Forcing(coords, kind, {k: list(map(float, v)) for k, v in spec.items()})
    if len(coords) != 1:
        raise ValueError(f"{kind} forcing drives exactly one coordinate")
    if kind in ("harmonic", "half_sine"):
        return Forcing(coords, kind, {k: float(v) for k, v in spec.items()})
    if seed is None:
        raise ValueError(f"{kind} forcing needs a dataset seed")
    dt = float(spec.get("dt", 1e-3))
    cutoff = float(spec.get("cutoff", 5.0))
    rng = np.random.default_rng(np.random.SeedSequence([DATASET_SEED_TAG, int(seed)]))
    grid, x = _band_limited(rng, t_end, dt, cutoff)
    amp = float(spec["amplitude"])
    if kind == "earthquake":
        rise, hold = float(spec.get("rise", 0.5)), float(spec.get("hold", 2.0))
        env = np.clip(np.minimum(grid / rise, 1.0), 0.0, 1.0)
        decay = (t_end - grid) / max(t_end - rise - hold, 1e-12)
        env = np.where(grid > rise + hold, np.clip(decay, 0.0, 1.0), env)
        x = x * env
        x = amp * x / np.abs(x).max()
    else:
        x = amp * x / np.sqrt(np.mean(x**2))
    full = {"amplitude": amp, "cutoff": cutoff, "dt": dt, "seed": int(seed), "t_end": float(t_end)}
    if kind == "earthquake":
        full.update(rise=float(spec.get("rise", 0.5)), hold=float(spec.get("hold", 2.0)))
    return Forcing(coords, kind, full, grid, x)


def sampled_forcing(t, coords, samples, *, source: str = "") -> Forcing:
    """The recorded forces as a ``sampled`` forcing (a cubic spline through the samples, zero outside).

    A spline, not linear interpolation: the force between samples is
    unknown either way, and a kink at every sample makes the adaptive
    integrator's steps, and so a finite-difference Jacobian of the
    simulated response (LM shooting, the bounds), jump with the
    parameters (on the X1 round trip, LM from the paper's guess stalled at
    a misfit of 5e4 noise variances with linear interpolation).

    ``samples`` has shape (n_t, n_driven) (N); the specification stored with
    the record names the source and a digest of the samples, not the samples.
    """
    t = np.ascontiguousarray(t, float)
    x = np.ascontiguousarray(np.asarray(samples, float).T)
    digest = hashlib.sha256(t.tobytes() + x.tobytes()).hexdigest()[:16]
    spec = {
        "source": source,
        "digest": digest,
        "n_samples": int(t.size),
        "dt": float((t[-1] - t[0]) / (t.size - 1)),
        "amplitude": float(np.abs(x).max()) if x.size else 0.0,
    }
    interp = CubicSpline(t, x, axis=1) if x.size else None
    return Forcing(tuple(int(c) for c in coords), "sampled", spec, t, x, _interp=interp)
