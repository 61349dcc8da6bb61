"""Screens of a measured record against its design model, before any identification.

A record can pass the import's file checks and its unit screen
(:func:`tensegrity_id.data.measured.screen_units`, factors of 100 and more)
and still be wrong in a way every method then fits with confidence: a force
in daN, one accelerometer in g, a channel wired with its sign reversed, two
columns exchanged, a channel that stuck, a corrupt sample, a stated noise
level the record does not carry.  The screens here name each of these at
start-up, from the design structure alone.

The nominal prediction (:func:`nominal_response`)
    The design structure's linear response to the recorded force, mode by
    mode: each constrained mode (:func:`~tensegrity_id.mechanics.modal.constrained_modes`,
    mass-normalised, ``phi_r^T M phi_r = 1``) is an oscillator

        q_r'' + c_r q_r' + w_r^2 q_r = phi_r^T f(t),    a = sum_r phi_r q_r'' ,

    with the modal damping ``c_r = phi_r^T C phi_r`` of the structure file's
    cable dampers (``C`` by a central difference of the accelerations in
    the velocity, so the bars' velocity-quadratic constraint terms cancel;
    the off-diagonal ``phi_r^T C phi_s`` are dropped), integrated exactly for
    a force linear between samples (first-order hold) from rest.  Costs
    milliseconds where a nonlinear simulation costs seconds, so every
    record is screened at start-up; a record with slack cables is
    predicted less well, and the screens below only speak where the
    prediction agrees with the record (the agreement is reported).

What the prediction is trusted for (the tolerances)
    Tried (``resources/records/screen_tolerances.py``) on the X1 frame and
    the 3-bar prism (every free coordinate a channel, 2 % noise) simulated
    at 0.7, 1 and 1.4 times their design prestress and 0.2, 1 and 5 times
    their design damping, under a harmonic (1 Hz), a broadband (to 10 Hz)
    and two impulsive forces (72 records, 5 s at 100 Hz), the measured level
    over the predicted one had a median over channels of 0.58 to 4.2, one
    channel over the median of the others 0.64 to 2.0, and the agreement
    defined below was never below -0.16. On the same records with a fault
    added, the screens below refused a force in daN in 69 of 72 (warned in
    3), accelerations in g in 71 (1), one channel in g or in mm/s^2, a stuck
    channel and a corrupt sample in all 72, a reversed channel in 66, two
    exchanged channels in 36 (none under the harmonic drive, which moves
    every channel alike; on the prism only under the shorter impulse), and
    warned of a noise level stated 4 times too high in all 72; the records
    without a fault drew one warning (a level 4.2 times the prediction) and
    no refusal. Hence:

    * **level**: a record is in SI units if its level ratio ``R`` lies within
      a factor ``LEVEL_TOLERANCE = 3`` of 1; a ratio within a factor
      ``UNIT_BAND = 2`` of a unit factor (``RECORD_SLIPS``: 10 for a force in
      daN or kgf, 1/9.81 for accelerations in g) is refused naming the unit;
      any other ratio beyond the factor 3 is a warning.  One channel whose
      ratio over the median of the others lies within a factor 2 of
      ``CHANNEL_SLIPS`` (1/9.81: in g; 100: cm/s^2; 1000: mm/s^2) is
      refused by name.
    * **agreement** of channel ``j`` with the prediction of channel ``k``,
      ``A_jk = 2 <m_j, g p_k> / (|m_j|^2 + |g p_k|^2)`` (means removed,
      the noise's energy taken out of ``|m_j|^2``, ``g`` the record's level
      ratio): 1 for the same shape and level, 0 unrelated, -1 reversed.
      A channel with ``A_jj <= -AGREEMENT`` (0.5) while the other channels
      agree (median ``>= AGREEMENT``) is refused as reversed; when every
      channel is reversed the force's sign, or a drive between a design and
      a real resonance, is as likely, and it is a warning.  Two channels
      whose exchange raises both agreements to ``>= AGREEMENT`` and their
      sum by at least 1, while the other channels (if any) agree (median
      ``>= AGREEMENT``), are refused as swapped, unless the model moves them
      alike (their predictions correlate by ``SAME_SHAPE = 0.9`` or more,
      either sign: there an exchange looks like a sign change).  The correct
      records above kept ``A_jj >= -0.16``.
    * **stuck**: an acceleration channel that holds one value exactly for
      at least ``max(8, 2 %)`` of the samples where the prediction moves by
      more than 3 noise standard deviations (or 3 quantisation steps) RMS is
      refused, naming the time it stuck from.  A force that is zero (a force
      window after a hammer impact) is not a fault and is not screened.
    * **noise**: a stated noise level differing from the record's own
      estimate (:func:`~tensegrity_id.data.measured.estimate_noise_std`) by
      more than ``NOISE_FACTOR = 2`` is a warning, unless the prediction's
      own fourth difference reaches half the stated level (the signal has
      content near the Nyquist frequency and the estimate is not a noise
      level).

Corrupt samples are found before these screens, by
:func:`tensegrity_id.data.outliers.screen_outliers`.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.signal import cont2discrete, lfilter, ss2tf

from ..mechanics.dynamics import Dynamics
from ..mechanics.modal import constrained_modes
from ..results.screening import NoiseCheck, RecordScreens, ScreenTolerances
from .record_csv import RecordFileError

__all__ = [
    "RecordScreenWarning",
    "LEVEL_TOLERANCE",
    "UNIT_BAND",
    "AGREEMENT",
    "SAME_SHAPE",
    "NOISE_FACTOR",
    "RECORD_SLIPS",
    "CHANNEL_SLIPS",
    "nominal_response",
    "screen_against_model",
]


LEVEL_TOLERANCE = 3.0
"""The design model predicts a correct record's level within this factor (module docstring)."""
UNIT_BAND = 2.0
"""A level ratio within this factor of a unit factor is taken for that unit slip."""
AGREEMENT = 0.5
"""Agreement with the prediction that counts as a fit (and its negative as reversed)."""
NOISE_FACTOR = 2.0
"""A stated noise level this far from the record's own estimate is a warning."""
SAME_SHAPE = 0.9
"""Two channels whose predictions correlate this much (either sign) are not tested for an exchange."""

RECORD_SLIPS = (
    (
        10.0,
        "Is the force in daN or kgf (a factor 10 or 9.81)?",
        "multiply the force column(s) by 10 (daN) or 9.81 (kgf)",
    ),
    (
        1.0 / 9.81,
        "Are the accelerations in g (a factor 1/9.81)?",
        "multiply the acceleration columns by 9.81",
    ),
)
"""Level ratios of the whole record (measured over predicted) that a unit slip explains."""

CHANNEL_SLIPS = (
    (1.0 / 9.81, "in g (a factor 1/9.81)", "multiply it by 9.81"),
    (100.0, "in cm/s^2 (a factor 100)", "divide it by 100"),
    (1000.0, "in mm/s^2 (a factor 1000)", "divide it by 1000"),
)
"""Level ratios of one acceleration channel over the others' that a unit slip of that channel explains."""


class RecordScreenWarning(UserWarning):
    """A measured record that passes the screens but disagrees with its model or its config entry."""


def _free_index(structure, coords) -> np.ndarray:
    """Positions of global coordinates ``coords`` among the structure's free coordinates."""
    free = {int(c): i for i, c in enumerate(np.flatnonzero(structure.free_mask))}
    return np.array([free[int(c)] for c in coords], int)


def _warn(issued: list[str], message: str) -> None:
    issued.append(message)
    warnings.warn(message, RecordScreenWarning, stacklevel=3)


# ---------------------------------------------------------------------- nominal model
def _modal_damping(dyn: Dynamics, phi) -> np.ndarray:
    """``c_r = phi_r^T C phi_r`` (1/s) by a central difference of the accelerations in the velocity."""
    x0 = dyn.q0[dyn.free]
    h = 1e-3 / max(float(np.abs(phi).max()), 1e-300)
    out = np.empty(phi.shape[1])
    for r in range(phi.shape[1]):
        v = h * phi[:, r]
        dqdd = (dyn.accelerations(x0, v)[0] - dyn.accelerations(x0, -v)[0]) / (2 * h)
        out[r] = -phi[:, r] @ dyn.Mff @ dqdd
    return out


def nominal_response(structure, t, f_ext, channels) -> dict:
    """The design structure's linear acceleration response to the recorded force (module docstring).

    Parameters
    ----------
    structure : Structure
        With its design prestress and cable dampers.
    t : ndarray, shape (n_t,), s
        Uniform sample times.
    f_ext : ndarray, shape (n_t, n_coords), N
        The force on every coordinate.
    channels : sequence of int
        Global coordinates of the acceleration channels.

    Returns
    -------
    dict
        ``acc`` (ndarray, shape (n_t, n_channels), m/s^2), ``freq_hz`` and
        ``zeta`` (per mode: ``c_r / (2 w_r)``; ``nan`` for a rigid mode).
    """
    dyn = Dynamics(structure)
    freq, phi = constrained_modes(dyn)
    w2 = (2 * np.pi * freq) ** 2
    c = _modal_damping(dyn, phi)
    dt = float(t[1] - t[0])
    fm = np.asarray(f_ext, float)[:, structure.free_mask] @ phi
    qdd = np.zeros_like(fm)
    for r in range(phi.shape[1]):
        a_ = np.array([[0.0, 1.0], [-w2[r], -c[r]]])
        b_ = np.array([[0.0], [1.0]])
        c_ = np.array([[-w2[r], -c[r]]])
        d_ = np.array([[1.0]])
        ad, bd, cd, dd, _ = cont2discrete((a_, b_, c_, d_), dt, method="foh")
        num, den = ss2tf(ad, bd, cd, dd)
        qdd[:, r] = lfilter(num[0], den, fm[:, r])
    cols = _free_index(structure, channels)
    with np.errstate(divide="ignore", invalid="ignore"):
        zeta = np.where(w2 > 0, c / (2 * np.sqrt(np.abs(w2))), np.nan)
    return {"acc": qdd @ phi[cols].T, "freq_hz": np.abs(freq), "zeta": zeta}


# --------------------------------------------------------------------- model screens
def _band(ratio, factor, width=UNIT_BAND) -> bool:
    return factor / width <= ratio <= factor * width


def _levels(A, P, noise_std):
    rms_p = np.sqrt(np.mean(P**2, axis=0))
    rms_m = np.sqrt(np.maximum(np.mean(A**2, axis=0) - noise_std**2, 0.0))
    seen = rms_p > 1e-3 * rms_p.max() if rms_p.max() > 0 else np.zeros(A.shape[1], bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(seen, rms_m / np.where(seen, rms_p, 1.0), np.nan)
    return ratio, seen


def _screen_levels(issued, ratio, seen, labels, force_labels, source) -> float:
    """Unit factors of the record and of single channels (module docstring); raise or warn.

    Returns the record's level ratio (the median over the channels the model sees).
    """
    idx = np.flatnonzero(seen)
    R = float(np.median(ratio[idx]))
    model = (
        f"the design model predicts a correct record's level within a factor {LEVEL_TOLERANCE:g} "
        "(docs/own-records.md)"
    )
    for factor, question, fix in RECORD_SLIPS:
        if _band(R, factor):
            raise RecordFileError(
                f"{source}: the accelerations are {R:.3g} x the design model's linear response to the "
                f"recorded force ({', '.join(force_labels)}), median over {idx.size} channel(s); {model}. "
                f"{question} The record must be in SI units (m/s^2, N): {fix}"
            )
    if not 1.0 / LEVEL_TOLERANCE <= R <= LEVEL_TOLERANCE:
        _warn(
            issued,
            f"{source}: the accelerations are {R:.3g} x the design model's linear response to the "
            f"recorded force, median over {idx.size} channel(s): beyond the factor {LEVEL_TOLERANCE:g} of a "
            "record in SI units, yet not a known unit factor. Check the record's units and the structure "
            "file (bar masses, cable damping, prestress)",
        )
    if idx.size < 2:
        return R
    for k in idx:
        others = float(np.median(ratio[idx[idx != k]]))
        rel = ratio[k] / others
        if 1.0 / LEVEL_TOLERANCE <= ratio[k] <= LEVEL_TOLERANCE:
            continue  # this channel agrees with the model: another one is off
        for factor, unit, fix in CHANNEL_SLIPS:
            if _band(rel, factor):
                raise RecordFileError(
                    f"{source}: channel '{labels[k]}' is {ratio[k]:.3g} x the design model's response to the "
                    f"recorded force while the other channels are {others:.3g} x (median), {rel:.3g} times "
                    f"theirs; {model}. Is '{labels[k]}' {unit}? The record must be in SI units (m/s^2): {fix}"
                )
    return R


def _agreement(Am, P, g, noise_std):
    """``A[j, k]``: agreement of measured channel j with the prediction of channel k (module docstring)."""
    n = Am.shape[0]
    m = Am - Am.mean(axis=0)
    p = g * (P - P.mean(axis=0))
    em = np.maximum(np.sum(m**2, axis=0) - n * noise_std**2, 1e-300)
    ep = np.sum(p**2, axis=0)
    return 2.0 * (m.T @ p) / (em[:, None] + ep[None, :] + 1e-300)


def _screen_agreement(issued, A, P, g, noise_std, seen, labels, force_labels, source):
    """Reversed and swapped channels (module docstring); raise or warn.

    Returns the agreement per channel (``None`` where the model or the noise
    leaves none) and whether the model agrees (``None`` where no channel is
    compared).
    """
    snr_ok = np.mean((A - A.mean(axis=0)) ** 2, axis=0) >= 4.0 * noise_std**2
    idx = np.flatnonzero(seen & snr_ok)
    agreement = {labels[k]: None for k in range(A.shape[1])}
    if idx.size == 0:
        return agreement, None
    M = _agreement(A[:, idx], P[:, idx], g, noise_std[idx])
    diag = np.diag(M)
    for j, k in enumerate(idx):
        agreement[labels[k]] = float(diag[j])
    p = P[:, idx] - P[:, idx].mean(axis=0)
    p = p / np.maximum(np.linalg.norm(p, axis=0), 1e-300)
    alike = np.abs(p.T @ p)  # channels the model moves alike: an exchange is a sign change there
    for a in range(idx.size):
        for b in range(a + 1, idx.size):
            gain = M[a, b] + M[b, a] - M[a, a] - M[b, b]
            others = [j for j in range(idx.size) if j not in (a, b)]
            trusted = not others or np.median(diag[others]) >= AGREEMENT
            if min(M[a, b], M[b, a]) >= AGREEMENT and gain >= 1.0 and alike[a, b] < SAME_SHAPE and trusted:
                ja, jb = labels[idx[a]], labels[idx[b]]
                raise RecordFileError(
                    f"{source}: channels '{ja}' and '{jb}' fit the design model's response to the recorded "
                    f"force better exchanged (agreement as recorded {M[a, a]:.2f} and {M[b, b]:.2f}, "
                    f"exchanged {M[a, b]:.2f} and {M[b, a]:.2f}; 1 = the model's shape and level): swapped "
                    "columns? Exchange the two column names in the file's header"
                )
    reversed_ = [j for j in range(idx.size) if diag[j] <= -AGREEMENT]
    rest = [j for j in range(idx.size) if j not in reversed_]
    model_agrees = bool(rest and np.median(diag[rest]) >= AGREEMENT)
    if reversed_ and model_agrees:
        j = min(reversed_, key=lambda j: diag[j])
        raise RecordFileError(
            f"{source}: channel '{labels[idx[j]]}' runs against the design model's response to the recorded "
            f"force (agreement {diag[j]:.2f}, the other channels {np.median(diag[rest]):.2f} median; 1 = the "
            "model's shape and level, -1 reversed): its sign reversed? Multiply the column by -1 (or correct "
            "the transducer's direction)"
        )
    if reversed_ and not rest:
        _warn(
            issued,
            f"{source}: every acceleration channel runs against the design model's response to the "
            f"recorded force (agreement {np.median(diag):.2f} median; -1 = reversed): is the force channel "
            f"{', '.join(repr(f) for f in force_labels)} reversed (or every accelerometer)? A drive "
            "between a design and a real resonance can do the same",
        )
    return agreement, model_agrees


def _screen_stuck(A, P, g, noise_std, seen, labels, t_file, source):
    """Acceleration channels that hold one value where the model moves (module docstring); raise."""
    n = A.shape[0]
    min_run = max(8, int(np.ceil(0.02 * n)))
    for k in np.flatnonzero(seen):
        x = A[:, k]
        same = np.abs(np.diff(x)) <= 1e-12 * max(float(np.abs(x).max()), 1e-300)
        if not same.any():
            continue
        steps = np.abs(np.diff(x))
        quantum = float(steps[steps > 0].min()) if (steps > 0).any() else 0.0
        edges = np.flatnonzero(np.diff(np.r_[0, same.astype(int), 0]))
        for i0, i1 in zip(edges[::2], edges[1::2], strict=True):  # samples i0..i1 hold one value
            if i1 - i0 + 1 < min_run:
                continue
            moves = float(np.sqrt(np.mean((g * P[i0 : i1 + 1, k]) ** 2)))
            if moves <= 3.0 * max(float(noise_std[k]), quantum):
                continue
            span = (
                f"from t = {t_file[i0]:.6g} s (sample index {i0}) to the end ({n - i0} samples)"
                if i1 == n - 1
                else f"from t = {t_file[i0]:.6g} s to {t_file[i1]:.6g} s (sample indices {i0} to {i1})"
            )
            fix = (
                f"Keep the record before it (t_end below {t_file[i0]:.6g}) or remove the column"
                if i1 == n - 1
                else "Repair the channel or remove the column"
            )
            raise RecordFileError(
                f"{source}: channel '{labels[k]}' holds one value ({x[i0]:.6g}) {span}, where the design "
                f"model predicts motion of {moves:.3g} m/s^2 RMS: a dead or stuck channel? {fix}"
            )


def _screen_noise(issued, A, P, g, noise_std, stated, labels, source) -> dict[str, NoiseCheck]:
    """Stated noise against the record's own estimate (module docstring); warn.  Per stated channel."""
    from .measured import estimate_noise_std  # noqa: PLC0415 (measured imports this module)

    est = estimate_noise_std(A)
    signal = estimate_noise_std(g * P) if P is not None else np.zeros_like(est)
    rows, off = {}, []
    for k in np.flatnonzero(stated):
        reliable = bool(signal[k] < 0.5 * noise_std[k])
        ratio = float(est[k] / noise_std[k])
        rows[labels[k]] = NoiseCheck(
            stated=float(noise_std[k]), estimated=float(est[k]), ratio=ratio, reliable=reliable
        )
        if reliable and not 1.0 / NOISE_FACTOR <= ratio <= NOISE_FACTOR:
            off.append(f"'{labels[k]}' {est[k]:.3g} m/s^2 against {noise_std[k]:.3g} stated ({ratio:.3g} x)")
    if off:
        _warn(
            issued,
            f"{source}: the noise the record carries (its own estimate) differs from the noise stated in "
            f"'noise' by more than a factor {NOISE_FACTOR:g}: {'; '.join(off)}. The misfit's units and the "
            "bounds follow the stated value (stated too low: chi2 large and bounds too narrow; too high: the "
            "reverse); state the noise the record carries, or omit 'noise' to use the estimate",
        )
    return rows


def screen_against_model(
    structure,
    t,
    f_ext,
    A,
    channels,
    noise_std,
    *,
    labels,
    force_labels,
    t_file=None,
    stated=None,
    source: str = "",
) -> RecordScreens:
    """Screen a record against its design model's prediction (module docstring): raise or warn.

    Parameters
    ----------
    structure : Structure
        The design structure (with its prestress; a structure without one
        is screened for its stated noise only).
    t : ndarray, shape (n_t,), s
    f_ext : ndarray, shape (n_t, n_coords), N
    A : ndarray, shape (n_t, n_ch), m/s^2
    channels : sequence of int
        Global coordinates of the acceleration channels.
    noise_std : ndarray, shape (n_ch,), m/s^2
        Stated or estimated.
    labels, force_labels : list of str
        The channels' names as the file writes them (messages).
    t_file : ndarray, shape (n_t,), optional
        The file's time of each sample (messages; default ``t``).
    stated : ndarray of bool, shape (n_ch,), optional
        Channels whose noise the config states (compared with the estimate).

    Returns
    -------
    RecordScreens
        ``level_ratio``, ``level_ratios``, ``agreement`` (per channel),
        ``model_agrees``, ``noise`` (per stated channel), ``warnings`` (the
        messages also issued as :class:`RecordScreenWarning`), the
        tolerances; no ``outliers`` (:func:`~tensegrity_id.data.outliers.screen_outliers`
        reports them, and :func:`~tensegrity_id.data.measured.measured_record` adds them).
    """
    t = np.asarray(t, float)
    t_file = t if t_file is None else np.asarray(t_file, float)
    A = np.asarray(A, float)
    noise_std = np.asarray(noise_std, float)
    stated = np.zeros(A.shape[1], bool) if stated is None else np.asarray(stated, bool)
    issued: list[str] = []
    found: dict = {}  # the screens' results, as RecordScreens fields
    P, g = None, 1.0  # no prediction: the noise is screened against the record alone
    if structure.has_prestress:
        pred = nominal_response(structure, t, f_ext, channels)["acc"]
        ratio, seen = _levels(A, pred, noise_std)
        if seen.any():
            level = _screen_levels(issued, ratio, seen, labels, force_labels, source)
            found.update(
                level_ratio=level,
                level_ratios=[None if not s else float(r) for r, s in zip(ratio, seen, strict=True)],
            )
            if 0.01 <= level <= 100.0:  # the unit screen's range: beyond it the model predicts nothing here
                P, g = pred, level
                _screen_stuck(A, P, g, noise_std, seen, labels, t_file, source)
                agreement, model_agrees = _screen_agreement(
                    issued, A, P, g, noise_std, seen, labels, force_labels, source
                )
                found.update(agreement=agreement, model_agrees=model_agrees)
    noise = _screen_noise(issued, A, P, g, noise_std, stated, labels, source)
    return RecordScreens(
        model="linear modal response of the design structure (its prestress and cable dampers)",
        tolerances=ScreenTolerances(
            level=LEVEL_TOLERANCE, unit_band=UNIT_BAND, agreement=AGREEMENT, noise_factor=NOISE_FACTOR
        ),
        warnings=issued,
        noise=noise,
        **found,
    )
