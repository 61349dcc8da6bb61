"""Fit metrics of a prediction: agreement with the data, not identification (§4.3).

The held-out metrics compare a method's predicted sensor accelerations with
the noisy data; the reconstruction error compares its predicted displacement
with the true motion at the unmeasured free coordinates.  Definitions:
:mod:`tensegrity_id.identify.scoring`.  Imports nothing of
:mod:`tensegrity_id.identify`.
"""

from __future__ import annotations

import numpy as np

from ..data.sensors import active_channels

__all__ = [
    "held_out_ratio",
    "train_misfit_ratio",
    "held_out_misfit_pct",
    "held_out_excess_pct",
    "unmeasured_coordinates",
    "reconstruction_pct",
]


def held_out_ratio(sensors: dict, a_pred) -> float | None:
    """Held-out over training mean squared misfit of the sensor accelerations."""
    if a_pred is None or "train" not in sensors:
        return None
    keep = sensors["keep"]
    r2 = (np.asarray(a_pred) - sensors["noisy"]) ** 2
    tr, ho = keep & sensors["train"], keep & ~sensors["train"]
    if not ho.any() or not tr.any():
        return None
    return float(r2[ho].mean() / r2[tr].mean())


def train_misfit_ratio(sensors: dict, a_pred) -> float | None:
    """Training mean squared misfit of the sensor accelerations over the noise variance (per channel).

    About 1 when the fit leaves the noise; well below 1 when the network fits the noise (the held-out
    ratio then grows).  Channels without signal (:func:`~tensegrity_id.data.sensors.active_channels`:
    a noise level of rounding size) are left out.  ``None`` without a prediction, a training mask or a
    noise level.
    """
    std = sensors.get("noise_std")
    if a_pred is None or "train" not in sensors or std is None:
        return None
    train = sensors["keep"] & sensors["train"]
    r2 = (np.asarray(a_pred) - sensors["noisy"]) ** 2
    var = np.broadcast_to(np.asarray(std, float) ** 2, r2.shape)
    cols = np.broadcast_to(active_channels(std), r2.shape[1:]) if r2.ndim == 2 else None
    if cols is not None:
        r2, var = r2[:, cols], var[:, cols]
    if not train.any() or not r2.size or not (var[train] > 0).all():
        return None
    return float(np.mean(r2[train] / var[train]))


def _held_out(sensors: dict, a_pred):
    """Measured held-out signal ``y`` and the mean squared misfit there, or ``None`` (nothing held out)."""
    if a_pred is None or "train" not in sensors:
        return None
    ho = sensors["keep"] & ~sensors["train"]
    if not ho.any():
        return None
    y = sensors["noisy"][ho]
    return y, float(np.mean((np.asarray(a_pred)[ho] - y) ** 2))


def held_out_misfit_pct(sensors: dict, a_pred) -> float | None:
    """RMS misfit on the held-out samples, % of the RMS measured signal there."""
    ho = _held_out(sensors, a_pred)
    if ho is None:
        return None
    y, r2 = ho
    return float(100.0 * np.sqrt(r2 / np.mean(y**2)))


def held_out_excess_pct(sensors: dict, a_pred) -> float | None:
    """RMS held-out misfit beyond the stated sensor noise, % of the RMS measured signal there."""
    ho = _held_out(sensors, a_pred)
    if ho is None:
        return None
    y, r2 = ho
    std = sensors.get("noise_std")
    floor = 0.0 if std is None else float(np.mean(np.broadcast_to(np.asarray(std, float) ** 2, y.shape)))
    return float(100.0 * np.sqrt(max(r2 - floor, 0.0) / np.mean(y**2)))


def unmeasured_coordinates(structure, channels) -> np.ndarray:
    """The free coordinates not among the sensor ``channels`` (sorted global indices)."""
    free = np.flatnonzero(structure.free_mask)
    return np.setdiff1d(free, np.asarray(channels, int))


def reconstruction_pct(structure, states: dict, channels, q_pred) -> float | None:
    """RMS displacement error at the unmeasured free coordinates, % of the RMS true motion."""
    if q_pred is None or states is None:
        return None
    cols = unmeasured_coordinates(structure, channels)
    if cols.size == 0:
        return None
    true = states["q"][:, cols] - structure.q0[cols]
    err = np.asarray(q_pred)[:, cols] - states["q"][:, cols]
    scale = np.sqrt(np.mean(true**2))
    return float(100.0 * np.sqrt(np.mean(err**2)) / scale) if scale > 0 else None
