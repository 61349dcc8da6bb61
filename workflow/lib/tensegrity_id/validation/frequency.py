"""First frequency of strike records by projection on the upper triangle's rotation (the paper §4.12).

Projection
    The three free-node accelerations ``a_n`` (three axes each) are projected
    onto the tangential unit vectors ``t_n`` of the upper triangle (its rigid
    rotation about the vertical axis through its centroid),
    ``r(t) = (1/3) sum_n t_n . a_n(t)`` (m/s^2, the mean tangential
    acceleration).  For the threefold-symmetric simplex the flexural
    (doubly degenerate) modes carry no net rotation, so the projection
    removes them by construction, whatever their frequency; only the
    symmetric modes remain, of which the rotational mechanism is the lowest.

Frequency
    The spectrum of ``r`` after the strike (zero-padded FFT, rectangular
    window) gives the peak in a search band; a damped sinusoid
    ``A exp(-d t) sin(2 pi f t + p)`` fitted by least squares to the
    low-pass filtered signal, started from the peak, refines it.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares
from scipy.signal import butter, sosfiltfilt

__all__ = ["tangential_directions", "project_rotation", "spectral_peak", "first_frequency"]


def tangential_directions(top_nodes) -> np.ndarray:
    """Unit tangential vectors of a rotation about the vertical axis, shape (n_nodes, 3)."""
    x = np.asarray(top_nodes, float)
    r = x - x.mean(axis=0)
    t = np.stack([-r[:, 1], r[:, 0], np.zeros(len(r))], axis=1)
    norm = np.linalg.norm(t, axis=1)
    if (norm < 1e-12 * max(np.abs(x).max(), 1.0)).any():
        raise ValueError("a node lies on the rotation axis; the tangential direction is undefined")
    return t / norm[:, None]


def project_rotation(acc, directions) -> np.ndarray:
    """Mean tangential acceleration, shape (n_t,).

    Parameters
    ----------
    acc : array_like, shape (n_t, n_nodes, 3), m/s^2
    directions : array_like, shape (n_nodes, 3), unit vectors
    """
    acc = np.asarray(acc, float)
    d = np.asarray(directions, float)
    if acc.ndim != 3 or acc.shape[1:] != d.shape:
        raise ValueError(f"accelerations of shape {acc.shape} do not match {d.shape[0]} nodes x 3 axes")
    return np.einsum("tnd,nd->t", acc, d) / d.shape[0]


def spectral_peak(signal, dt: float, band, *, pad: int = 16):
    """Frequency (Hz) of the largest spectral peak in ``band``, refined by a parabola on log magnitude."""
    x = np.asarray(signal, float) - np.mean(signal)
    n = len(x) * pad
    spec = np.abs(np.fft.rfft(x, n))
    freq = np.fft.rfftfreq(n, dt)
    sel = np.flatnonzero((freq >= band[0]) & (freq <= band[1]))
    if sel.size < 3:
        raise ValueError(f"the band {band} Hz holds fewer than three spectral lines")
    k = sel[np.argmax(spec[sel])]
    if k in (sel[0], sel[-1]):
        return float(freq[k])
    a, b, c = np.log(spec[k - 1 : k + 2] + 1e-300)
    shift = 0.5 * (a - c) / (a - 2 * b + c)
    return float(freq[k] + shift * (freq[1] - freq[0]))


def first_frequency(t, signal, *, band=(0.5, 30.0), t_start: float = 0.0) -> dict:
    """First (rotational) frequency of a projected strike signal.

    Parameters
    ----------
    t : array_like, shape (n_t,), s, uniform
    signal : array_like, shape (n_t,)
        The projected acceleration (:func:`project_rotation`).
    band : (float, float), Hz
        Where the rotational peak is searched.
    t_start : float, s
        Start of the free decay (after the strike).

    Returns
    -------
    dict: ``frequency_hz`` (refined), ``peak_hz`` (spectral), ``decay_per_s``.
    """
    t = np.asarray(t, float)
    dt = float(np.median(np.diff(t)))
    keep = t >= t_start
    tt, x = t[keep] - t[keep][0], np.asarray(signal, float)[keep]
    f0 = spectral_peak(x, dt, band)
    sos = butter(4, min(3.0 * f0, 0.45 / dt), fs=1.0 / dt, output="sos")
    y = sosfiltfilt(sos, x - x.mean())
    i0 = len(y) // 20  # the filter's edge transient
    tt, y = tt[i0:], y[i0:]
    amp = np.abs(y).max()

    def resid(p):
        a, d, f, ph = p
        return a * np.exp(-d * tt) * np.sin(2 * np.pi * f * tt + ph) - y

    starts = [(amp, 0.1, f0, ph) for ph in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    best = min(
        (
            least_squares(resid, s, bounds=([0, -5.0, 0.8 * f0, -10], [10 * amp, 50.0, 1.2 * f0, 20]))
            for s in starts
        ),
        key=lambda r: r.cost,
    )
    return {
        "frequency_hz": float(best.x[2]),
        "peak_hz": f0,
        "decay_per_s": float(best.x[1]),
        "fit_residual_rel": float(np.sqrt(2 * best.cost / len(y)) / (np.std(y) + 1e-300)),
    }
