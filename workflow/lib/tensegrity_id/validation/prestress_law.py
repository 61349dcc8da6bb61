"""Prestress from the first frequency of a mechanism mode (the paper §4.12, Eqs. 11-12, Table 8).

Measured law (the paper's Eq. 12)
    ``f^2 = A F + B`` with ``F`` the transducer force: a straight line in the
    force with an intercept ``B`` that the pin-jointed idealisation lacks
    (the joints' rotational stiffness).  Its local log-slope is
    ``d ln f / d ln F = A F / (2 (A F + B))``, below the ideal 1/2 of Eq. 11.

Prediction (Table 8)
    The model supplies the slope ``a`` (Hz^2 per newton of cross-cable force
    in the structure); the static force factor ``k`` maps the transducer
    reading onto the structure's force; one constant ``C`` (the joint
    stiffness, Hz^2) is fitted to the frequencies.  With ``C`` fitted
    leave-one-out, level ``i`` is predicted from the others only:

        C_{-i} = mean_{j != i} (f_j^2 - a k F_j),   F_i = (f_i^2 - C_{-i}) / (a k).

    Comparison fits: both constants free (``f^2 = alpha F + beta`` by least
    squares, leave-one-out, no model) and no constant (``C = 0``).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["local_log_slope", "power_law_exponent", "predict_forces", "prediction_summary"]


def local_log_slope(A: float, B: float, forces) -> np.ndarray:
    """``d ln f / d ln F`` of ``f^2 = A F + B`` at each force."""
    F = np.asarray(forces, float)
    return A * F / (2 * (A * F + B))


def power_law_exponent(frequencies, forces, *, level: float = 0.95) -> dict:
    """Least-squares exponent of ``f = c F^p`` (log-log line) with its two-sided confidence half-width."""
    x, y = np.log(np.asarray(forces, float)), np.log(np.asarray(frequencies, float))
    res = stats.linregress(x, y)
    half = stats.t.ppf(0.5 + level / 2, len(x) - 2) * res.stderr
    return {"exponent": float(res.slope), "half_width": float(half), "level": level}


def predict_forces(f2, forces, *, method: str, slope: float | None = None, force_factor: float | None = None):
    """Predicted transducer forces (N) from squared frequencies (Hz^2), one per level.

    Parameters
    ----------
    f2 : array_like, shape (n,), Hz^2
    forces : array_like, shape (n,), N
        Measured forces (used only by the leave-one-out fits, never for
        their own level).
    method : {'model_loo', 'free_loo', 'no_constant'}
    slope, force_factor : float
        Model slope ``a`` (Hz^2/N) and static force factor ``k`` (needed by
        ``model_loo`` and ``no_constant``).
    """
    f2, F = np.asarray(f2, float), np.asarray(forces, float)
    n = len(F)
    if n < 3:
        raise ValueError("at least three levels are needed for leave-one-out fits")
    out = np.empty(n)
    if method in ("model_loo", "no_constant"):
        if slope is None or force_factor is None:
            raise ValueError(f"method {method!r} needs the model slope and the force factor")
        ak = slope * force_factor
        for i in range(n):
            others = np.arange(n) != i
            C = np.mean(f2[others] - ak * F[others]) if method == "model_loo" else 0.0
            out[i] = (f2[i] - C) / ak
    elif method == "free_loo":
        for i in range(n):
            others = np.arange(n) != i
            alpha, beta = np.polyfit(F[others], f2[others], 1)
            out[i] = (f2[i] - beta) / alpha
    else:
        raise ValueError(f"unknown prediction method {method!r}")
    return out


def prediction_summary(predicted, measured) -> dict:
    """Errors of predicted forces: mean absolute (N), worst (N), RMS relative (%), per level."""
    p, m = np.asarray(predicted, float), np.asarray(measured, float)
    err = p - m
    rel = 100 * err / m
    return {
        "predicted_N": p.tolist(),
        "error_N": err.tolist(),
        "error_pct": rel.tolist(),
        "mean_abs_error_N": float(np.mean(np.abs(err))),
        "worst_abs_error_N": float(np.max(np.abs(err))),
        "rms_error_pct": float(np.sqrt(np.mean(rel**2))),
        "lowest_level_error_pct": float(rel[np.argmin(m)]),
    }
