"""Corrupt samples of a measured record: found before any other screen, refused or dropped.

One sample of 1e6 in an otherwise normal record passes the unit screen
(which compares the median level over channels) and takes a search to
non-physical parameters.  Screened here, before the noise is estimated and
the level compared (:func:`tensegrity_id.data.measured.measured_record`):

Per channel, the deviation of each sample from its neighbours' mean,
``d_i = x_i - (x_{i-1} + x_{i+1}) / 2``, in units of its robust standard
deviation ``1.4826 MAD(d)`` (floored at the channel's quantisation
step); a sample beyond ``OUTLIER_MAD = 50`` (Gaussian noise reaches 6
once in 10^9 samples) is a candidate.  An impact is not an outlier: a
force sample's instantaneous acceleration is ``P M^-1 f``
(:func:`~tensegrity_id.data.measured.rest_accelerations`, independent of
the prestress), so an acceleration candidate is an outlier only if the
force's deviations at that sample do not explain it, and a force
candidate only if an acceleration channel should see it (by 10 robust
standard deviations) and does not follow it within 50 %.  ``outliers:
refuse`` (the default) stops the import naming the sample; ``drop``
interpolates it from its neighbours and, for an acceleration, takes the
sample out of every fit (``keep`` false).

Why ``(x_{i-1} + x_{i+1}) / 2`` and not a running median: a running median
of five equals the sample itself on every monotone stretch, so the median
absolute deviation of ``x - med(x)`` is 0 on a smooth record.
"""

from __future__ import annotations

import logging

import numpy as np

from ..results.screening import ExplainedSample, OutlierReport, OutlierSample
from .record_csv import RecordFileError
from .screening import _free_index

__all__ = ["OUTLIER_ACTIONS", "OUTLIER_MAD", "screen_outliers"]

log = logging.getLogger(__name__)

OUTLIER_ACTIONS = ("refuse", "drop")
"""What the config entry's ``outliers`` may ask for (default ``refuse``)."""
OUTLIER_MAD = 50.0
"""A sample this many robust standard deviations from its neighbours' mean is an outlier candidate."""


def _deviation(x):
    """``x_i - (x_{i-1} + x_{i+1}) / 2`` per column (one-sided at the ends)."""
    d = np.empty_like(x)
    d[1:-1] = x[1:-1] - 0.5 * (x[:-2] + x[2:])
    d[0], d[-1] = x[0] - x[1], x[-1] - x[-2]
    return d


def _deviation_at(x, i):
    """:func:`_deviation` of sample ``i`` only, shape (n_columns,)."""
    if 0 < i < len(x) - 1:
        return x[i] - 0.5 * (x[i - 1] + x[i + 1])
    return x[i] - x[1] if i == 0 else x[i] - x[i - 1]


def _robust_deviation(x):
    """Deviation of each sample from its neighbours' mean and its robust standard deviation, per column.

    ``d_i = x_i - (x_{i-1} + x_{i+1}) / 2`` (one-sided at the ends): white
    noise of variance s^2 gives ``1.5 s^2``, a signal sampled at ``fs``
    ``(2 pi f / fs)^2 / 2`` of its amplitude, a single corrupt sample of
    height ``h`` the full ``h``.  The scale is ``1.4826 MAD(d)``, floored at
    the channel's quantisation step (its smallest nonzero change).
    """
    d = _deviation(x)
    scale = 1.4826 * np.median(np.abs(d - np.median(d, axis=0)), axis=0)
    steps = np.abs(np.diff(x, axis=0))
    quantum = np.array([s[s > 0].min() if (s > 0).any() else 0.0 for s in steps.T])
    floor = np.maximum(quantum, 1e-12 * np.abs(x).max(axis=0))
    return d, np.maximum(scale, np.where(floor > 0, floor, 1.0))


def screen_outliers(
    structure,
    t_file,
    F,
    A,
    *,
    force_coords,
    acc_coords,
    force_labels,
    acc_labels,
    action: str = "refuse",
    source: str = "",
    threshold: float = OUTLIER_MAD,
) -> dict:
    """Find corrupt samples (module docstring); refuse, or drop them.

    Parameters
    ----------
    structure : Structure
    t_file : ndarray, shape (n_t,), s
        The file's time of each sample (messages).
    F : ndarray, shape (n_t, n_force), N
        The recorded forces on ``force_coords``.
    A : ndarray, shape (n_t, n_acc), m/s^2
        The recorded accelerations on ``acc_coords``.
    action : {"refuse", "drop"}
    threshold : float
        Robust standard deviations from the neighbours' mean (``OUTLIER_MAD``).

    Returns
    -------
    dict
        ``F``, ``A`` (copies, outliers interpolated when dropped), ``keep``
        (bool, shape (n_t,): false at a dropped acceleration sample) and
        ``report`` (an :class:`~tensegrity_id.results.screening.OutlierReport`:
        the outliers found, the candidates an impact explains, the action).
    """
    from .measured import rest_accelerations  # noqa: PLC0415 (measured imports this module)

    if action not in OUTLIER_ACTIONS:
        raise ValueError(f"outliers: {action!r} is not one of {', '.join(OUTLIER_ACTIONS)}")
    F, A = np.array(F, float), np.array(A, float)
    n = A.shape[0]
    sF = _robust_deviation(F)[1] if F.size else np.ones(F.shape[1])
    sA = _robust_deviation(A)[1]
    # instantaneous response of the acceleration channels to a unit force on each force channel
    cols = _free_index(structure, acc_coords)
    unit = np.zeros((len(force_coords), structure.n_coords))
    unit[np.arange(len(force_coords)), force_coords] = 1.0
    G = rest_accelerations(structure, unit)[:, cols] if len(force_coords) else np.zeros((0, len(cols)))
    found, explained, settled = {}, {}, set()

    def entry(kind, j, i, z, part=OutlierSample, **more):
        x = (F if kind == "force" else A)[:, j]
        return part(
            channel=(force_labels if kind == "force" else acc_labels)[j],
            kind=kind,
            column=int(j),
            index=int(i),
            t=float(t_file[i]),
            value=float(x[i]),
            robust_std=float(z),
            energy_pct=float(100.0 * x[i] ** 2 / max(float(np.sum(x**2)), 1e-300)),
            **more,
        )

    # largest first; a corrupt sample is replaced by its neighbours' mean in a working copy, so that
    # its neighbours (which it pulls by half its height) and a burst of several are judged again
    wF, wA = F.copy(), A.copy()
    for _ in range(10):
        zF = np.abs(_deviation(wF)) / sF if F.size else np.zeros_like(wF)
        zA = np.abs(_deviation(wA)) / sA
        cand = [(zA[i, k], "acc", k, i) for i, k in zip(*np.nonzero(zA > threshold), strict=True)]
        cand += [(zF[i, c], "force", c, i) for i, c in zip(*np.nonzero(zF > threshold), strict=True)]
        cand = sorted((c for c in cand if c[1:] not in settled), key=lambda c: -c[0])
        changed = False
        for _z, kind, j, i in cand:
            dF, dA = _deviation_at(wF, i), _deviation_at(wA, i)
            X, scale = (wF, sF) if kind == "force" else (wA, sA)
            z = abs((dF if kind == "force" else dA)[j]) / scale[j]
            if z <= threshold:
                continue
            if kind == "acc":
                follows = dF @ G[:, j] if len(G) else 0.0
                corrupt = abs(dA[j] - follows) / sA[j] > threshold
                verifiable = True
            else:
                expect = dF[j] * G[j]
                visible = np.abs(expect) / sA
                k = int(np.argmax(visible)) if visible.size else 0
                verifiable = bool(visible.size and visible[k] >= 10.0)
                corrupt = verifiable and abs(dA[k] - expect[k]) > 0.5 * abs(expect[k])
            key = (kind, j, i)
            if corrupt:
                found.setdefault(key, entry(kind, j, i, z))
                X[i, j] -= (dF if kind == "force" else dA)[j]  # the neighbours' mean
                changed = True
            else:
                settled.add(key)
                explained[key] = entry(kind, j, i, z, ExplainedSample, verifiable=verifiable)
        if not changed:
            break
    found, explained = list(found.values()), list(explained.values())
    found.sort(key=lambda e: (-e.robust_std, e.index))
    report = OutlierReport(threshold_robust_std=threshold, action=action, found=found, impacts=explained)
    keep = np.ones(n, bool)
    if found and action == "refuse":
        e = found[0]
        unit_s = "N" if e.kind == "force" else "m/s^2"
        why = (
            "the accelerations do not follow it"
            if e.kind == "force"
            else "the recorded force does not explain it"
        )
        more = f"; {len(found) - 1} more such sample(s)" if len(found) > 1 else ""
        raise RecordFileError(
            f"{source}: sample at t = {e.t:.6g} s of '{e.channel}' ({e.value:.3g} {unit_s}) carries "
            f"{e.energy_pct:.3g} % of the channel's energy and lies {e.robust_std:.3g} robust "
            f"standard deviations from its neighbours (sample index {e.index} of the kept record; "
            f"{why}{more}): a corrupt sample? Repair or remove it, or set 'outliers: drop' in the record's "
            "config entry to interpolate it from its neighbours and leave it out of the fit"
        )
    for kind, X in (("force", F), ("acc", A)):
        for j in {e.column for e in found if e.kind == kind}:
            bad = np.array(sorted(e.index for e in found if e.kind == kind and e.column == j))
            good = np.setdiff1d(np.arange(n), bad)
            X[bad, j] = np.interp(bad, good, X[good, j])
            if kind == "acc":
                keep[bad] = False
    for e in found:
        log.info(
            "dropped outlier: sample %d (t = %.6g s) of '%s' (%.3g)",
            e.index,
            e.t,
            e.channel,
            e.value,
        )
    return {"F": F, "A": A, "keep": keep, "report": report}
