"""A user's measured record as the workflow's record and sensor files.

A measured test (a shaker or hammer test: a file of applied forces and
accelerations, :mod:`tensegrity_id.data.record_csv`) becomes a record
beside the simulated ones: ``results/records/{structure}/{name}.npz`` and
``.json``, with the sensor data of protocol ``measured`` (every acceleration
channel of the file) in ``results/sensors/{structure}/{name}/measured.npz``.
Every identification method then reads it as it reads a simulated record;
what a measured record lacks is the simulated states (``q``, ``qd``,
``qdd``) and the exact parameters, so the methods are scored without them.

Conventions
    * Time is re-zeroed at the first kept sample (after ``t_start``
      trimming): the methods integrate from ``t = 0``.
    * The applied forces are a ``sampled`` forcing: a cubic spline through
      the recorded samples (not-a-knot), zero outside the record.
    * Noise (per acceleration channel, m/s^2): stated in the config entry,
      or estimated from the record as the robust standard deviation of its
      fourth difference, ``1.4826 MAD(Δ⁴a) / √70`` (the fourth difference of
      white noise has variance 70 σ²; that of a signal sampled at ``fs``
      well above its content is smaller by ``(2π f/fs)⁴``, and the median
      ignores the few samples of a taut-slack jerk).
    * The test must start at rest in the prestressed equilibrium (every
      method here assumes it).  At rest, the acceleration is the applied
      force's alone, ``a = P M⁻¹ F`` (the bars' constraint projection; the
      prestress cancels in equilibrium whatever its values), so the first
      samples of every channel are compared with it: a record that starts
      in motion differs by the order of its own amplitude and is refused.
    * Units are screened before that (:func:`screen_units`): the sampling
      rate against the design model's lowest natural frequency (time in
      ms?), and the measured accelerations against the design model's
      linear response to the recorded force (accelerations in mm/s^2, the
      force in kN, or one corrupt force sample?).
    * Corrupt samples are found before any screen
      (:mod:`tensegrity_id.data.outliers`), and finer slips after the
      start-at-rest check, against the design model's predicted response
      (:mod:`tensegrity_id.data.screening`): a force in daN or kgf, a
      channel in g, a reversed or swapped channel, a stuck channel, a
      stated noise level the record does not carry.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.excitation import sampled_forcing
from ..mechanics.modal import constrained_modes
from ..results.screening import RECORD_SCREENS
from .outliers import OUTLIER_ACTIONS, screen_outliers
from .record_csv import MeasuredRecord, RecordFileError
from .runio import write_json, write_npz
from .screening import _free_index, screen_against_model

__all__ = [
    "MeasuredEntryError",
    "MEASURED_PROTOCOL",
    "NOISE_METHOD",
    "estimate_noise_std",
    "rest_accelerations",
    "check_at_rest",
    "screen_units",
    "measured_record",
    "save_measured",
]


class MeasuredEntryError(RecordFileError):
    """A setting of a measured record's config entry that does not fit its file; ``field`` names it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


SPLIT_SEED_TAG = 7_310_009
"""Mixed into the seed of a measured record's training/held-out split (its own stream)."""

MEASURED_PROTOCOL = "measured"
"""The protocol name of a measured record's sensor data (every acceleration channel of the file)."""

NOISE_METHOD = "1.4826 MAD of the fourth difference / sqrt(70), per channel"
"""How the noise of a channel is estimated when the config states none (stored with the record)."""


def estimate_noise_std(y, order: int = 4) -> np.ndarray:
    """Noise standard deviation per column of ``y`` (n_t x n_ch) from its ``order``-th difference.

    The ``k``-th difference of white noise of variance σ² has variance
    ``C(2k, k) σ²``; the median absolute deviation (scaled by 1.4826, exact
    for Gaussian noise) keeps isolated jumps out of the estimate.
    """
    y = np.asarray(y, float)
    if y.ndim == 1:
        y = y[:, None]
    d = np.diff(y, n=order, axis=0)
    mad = np.median(np.abs(d - np.median(d, axis=0)), axis=0)
    return 1.4826 * mad / np.sqrt(comb(2 * order, order))


def rest_accelerations(structure, f_ext) -> np.ndarray:
    """Accelerations of the free coordinates at rest in the equilibrium under forces ``f_ext``.

    ``f_ext`` has shape (n_t, n_coords) (N).  The response is linear in the
    force and independent of the prestress's values: the at-rest
    acceleration with the force less the one without it (which removes
    any out-of-balance of the stated prestress).
    """
    # any prestress will do (it cancels): a structure without one gets unit force densities
    dyn = Dynamics(structure, sigma=None if structure.has_prestress else 1.0)
    x0 = dyn.q0[dyn.free]
    v0 = np.zeros_like(x0)
    base = dyn.accelerations(x0, v0)[0]
    return np.array([dyn.accelerations(x0, v0, f)[0] - base for f in np.atleast_2d(f_ext)])


def check_at_rest(
    structure,
    t,
    f_ext,
    acc,
    channels,
    noise_std,
    *,
    window_s: float = 0.02,
    tolerance: float = 0.1,
    n_sigma: float = 5.0,
    source: str = "",
    labels=None,
) -> dict:
    """Check that a record starts at rest in the prestressed equilibrium; raise if it does not.

    Over the first ``max(2, window_s / dt)`` samples, each channel's
    acceleration must agree with the at-rest response to the recorded
    force (:func:`rest_accelerations`) within ``n_sigma`` noise standard
    deviations plus ``tolerance`` times the channel's RMS over the record
    (the motion a sample step adds).  ``labels`` name the channels in
    messages (default ``acc:{node}:{axis}``).  Returns the check's numbers.
    """
    t = np.asarray(t, float)
    acc = np.asarray(acc, float)
    dt = float(t[1] - t[0])
    n0 = max(2, int(round(window_s / dt)))
    cols = _free_index(structure, channels)
    pred = rest_accelerations(structure, np.asarray(f_ext, float)[:n0])[:, cols]
    gap = np.sqrt(np.mean((acc[:n0] - pred) ** 2, axis=0))
    rms = np.sqrt(np.mean(acc**2, axis=0))
    limit = n_sigma * np.asarray(noise_std, float) + tolerance * rms
    worst = int(np.argmax(gap / limit))
    out = {
        "samples": n0,
        "gap": gap.tolist(),
        "limit": limit.tolist(),
        "passed": bool(np.all(gap <= limit)),
    }
    if not out["passed"]:
        label = labels[worst] if labels is not None else _channel_label(structure, "acc", channels[worst])
        raise RecordFileError(
            f"{source}: the record does not start at rest in the prestressed equilibrium: over its "
            f"first {n0} samples channel '{label}' differs from the at-rest response "
            f"to the recorded force by {gap[worst]:.3g} m/s^2 RMS (allowed {limit[worst]:.3g}: "
            f"{n_sigma:g} noise std + {tolerance:g} x the channel's RMS {rms[worst]:.3g}). Every "
            "method starts its model at rest; trim the record to start before the excitation "
            "('t_start') or record a quiet lead-in"
        )
    return out


def _channel_label(structure, kind, coord) -> str:
    node, axis = divmod(int(coord), structure.dim)
    return f"{kind}:{node}:{'xyz'[axis]}"


def _noise_from_entry(structure, noise, channels, acc, labels) -> tuple[np.ndarray, str, np.ndarray]:
    """Noise std per channel (stated or estimated), how it was found and which channels were stated;
    a zero estimate is refused."""
    if isinstance(noise, int | float):
        return (
            np.full(len(channels), float(noise)),
            "stated (config 'noise', every channel)",
            np.ones(len(channels), bool),
        )
    est = estimate_noise_std(acc)
    stated = {}
    if noise is not None:
        # a channel may be named as the file writes it or as acc:{node}:{x|y|z}
        canonical = {_channel_label(structure, "acc", c): k for k, c in enumerate(channels)}
        written = {lab: k for k, lab in enumerate(labels)}
        for key, value in noise.items():
            k = written.get(key, canonical.get(key))
            if k is None:
                raise MeasuredEntryError(
                    f"noise.{key}",
                    f"'noise' names channel '{key}', which the file does not record "
                    f"(it has {', '.join(labels)})",
                )
            stated[k] = float(value)
    std = np.array([stated.get(k, e) for k, e in enumerate(est)])
    zero = [k for k in range(len(std)) if not std[k] > 0]
    if zero:
        raise MeasuredEntryError(
            "noise",
            f"'noise': the noise of channel '{labels[zero[0]]}' estimates to 0 (a quantised channel?); "
            f"state it: noise: {{{labels[zero[0]]}: <std in m/s^2>}}",
        )
    mask = np.array([k in stated for k in range(len(std))], bool)
    if noise is None:
        return std, NOISE_METHOD, mask
    return std, f"stated for {', '.join(sorted(noise))}; the others: {NOISE_METHOD}", mask


def screen_units(
    structure,
    t,
    f_ext,
    acc,
    channels,
    noise_std,
    *,
    labels,
    force_coords,
    force_labels,
    t_file=None,
    zeta: float = 0.1,
    ratio_limit: float = 100.0,
    source: str = "",
) -> dict:
    """Screen a record for a unit slip against the design model; raise naming the likely slip.

    Two checks, each against the prestressed design structure (its linear
    modes, :func:`~tensegrity_id.mechanics.modal.constrained_modes`):

    1. the sampling rate must exceed twice the lowest natural frequency
       (else no mode is resolved: the time is likely in ms);
    2. the RMS of the measured accelerations (less their noise) over the
       RMS of the design model's linear response to the recorded force,
       ``a(w) = sum_r phi_r phi_r^T F(w) (-w^2) / (w_r^2 - w^2 + 2 i zeta w_r w)``
       (a modal sum, computed by FFT; the channels the model sees excited),
       must lie within ``[1 / ratio_limit, ratio_limit]``.  The damping
       ratio ``zeta`` is deliberately broad (0.1) so that a model whose
       resonances sit off the real ones by a design-to-real prestress gap
       still predicts the level within a factor of a few: the screen is for
       factors of 1000 (mm/s^2 or kN for SI), not for 2.  Below the range,
       a force sample that carries most of its channel's energy is named
       as a corrupt sample.

    ``f_ext`` is the force on every coordinate, shape (n_t, n_coords), N;
    ``force_coords`` and ``force_labels`` the recorded force channels;
    ``labels`` the acceleration channels' names; ``t_file`` the file's time
    of each sample (messages).  Returns the screen's numbers: ``fs_hz``,
    ``f1_hz``, ``ratio`` (median over the excited channels).
    """
    t = np.asarray(t, float)
    t_file = t if t_file is None else np.asarray(t_file, float)
    acc = np.asarray(acc, float)
    f_ext = np.asarray(f_ext, float)
    dt = float(t[1] - t[0])
    fs = 1.0 / dt
    freq, phi = constrained_modes(Dynamics(structure))
    positive = freq[freq > 1e-9 * max(1.0, float(np.abs(freq).max()))]
    f1 = float(positive.min()) if positive.size else 0.0
    out = {"fs_hz": fs, "f1_hz": f1, "ratio": None, "zeta": zeta, "ratio_limit": ratio_limit}
    if f1 and fs < 2.0 * f1:
        raise RecordFileError(
            f"{source}: sampled at {fs:.4g} Hz (time step {dt:.4g} s), below twice the structure's lowest "
            f"natural frequency {f1:.4g} Hz (design prestress): no mode is resolved. Is the time in ms? "
            "The 'time' column must be in seconds"
        )
    n = t.size
    cols = _free_index(structure, channels)
    Ff = np.fft.rfft(f_ext[:, structure.free_mask], n=2 * n, axis=0)  # zero padded: no wrap-around
    w = 2 * np.pi * np.fft.rfftfreq(2 * n, dt)
    wr = 2 * np.pi * np.abs(freq)
    with np.errstate(invalid="ignore", divide="ignore"):
        H = -(w[:, None] ** 2) / (wr[None, :] ** 2 - w[:, None] ** 2 + 2j * zeta * wr[None, :] * w[:, None])
    H[0] = 0.0  # no static acceleration
    modal_force = Ff @ phi  # (n_w, n_modes)
    pred = np.fft.irfft((modal_force * H) @ phi[cols].T, n=2 * n, axis=0)[:n]
    rms_pred = np.sqrt(np.mean(pred**2, axis=0))
    rms_meas = np.sqrt(np.maximum(np.mean(acc**2, axis=0) - np.asarray(noise_std, float) ** 2, 0.0))
    seen = rms_pred > 1e-3 * rms_pred.max() if rms_pred.max() > 0 else np.zeros(len(cols), bool)
    if not seen.any():
        return out
    ratio = float(np.median(rms_meas[seen] / rms_pred[seen]))
    out["ratio"] = ratio
    level = (
        f"the accelerations are {ratio:.3g} x the design model's linear response to the recorded force "
        f"(median over {int(seen.sum())} channel(s); the screen allows 1/{ratio_limit:g} to {ratio_limit:g})"
    )
    if ratio > ratio_limit:
        raise RecordFileError(
            f"{source}: {level}. Are the accelerations in mm/s^2 or the force in kN? The record must be "
            "in SI units (m/s^2, N)"
        )
    if ratio < 1.0 / ratio_limit:
        for j, k in enumerate(force_coords):
            e = f_ext[:, k] ** 2
            i = int(np.argmax(e))
            if e[i] > 0.5 * e.sum():
                raise RecordFileError(
                    f"{source}: sample at t = {t_file[i]:.6g} s of '{force_labels[j]}' ({f_ext[i, k]:.3g} N) "
                    f"carries {100 * e[i] / e.sum():.3g} % of the channel's energy and {level}: a corrupt "
                    "sample? Repair or remove it"
                )
        raise RecordFileError(
            f"{source}: {level}. Is the force in mN, or the accelerations in km/s^2? The record must be "
            "in SI units (m/s^2, N)"
        )
    return out


def measured_record(structure, rec: MeasuredRecord, entry: dict, *, name: str) -> dict:
    """A measured record as the workflow's arrays and metadata.

    Parameters
    ----------
    structure : Structure
        The structure the test was made on (its design prestress and dampers serve the screens only).
    rec : MeasuredRecord
        The checked file (:func:`tensegrity_id.data.record_csv.read_record_csv`).
    entry : dict
        The config entry: optional ``t_start``, ``t_end`` (s, in the file's
        time), ``noise`` (m/s^2: one number or ``{"acc:{node}:{axis}": std}``),
        ``train_fraction`` (0.7), ``split_seed`` (0), ``at_rest``
        (``{window_s, tolerance, n_sigma}``), ``outliers`` (``"refuse"``, the
        default, or ``"drop"``: :func:`~tensegrity_id.data.screening.screen_outliers`).

    Returns
    -------
    dict
        ``record`` (arrays of the record file), ``sensors`` (arrays of the
        sensor file), ``meta`` (the record's metadata; its screens against
        the design model, ``record_screens``, the JSON object of a
        :class:`~tensegrity_id.results.screening.RecordScreens`).
    """
    src = rec.source
    t = rec.t
    t_start = float(entry.get("t_start", t[0]))
    t_end = float(entry.get("t_end", t[-1]))
    keep = (t >= t_start - 1e-12) & (t <= t_end + 1e-12)
    if keep.sum() < 32:
        raise MeasuredEntryError(
            "t_start" if "t_start" in entry else "t_end",
            f"t_start {t_start:g} s / t_end {t_end:g} s keep {int(keep.sum())} samples; at least 32 are "
            f"needed (the record '{src}' runs from {t[0]:g} to {t[-1]:g} s)",
        )
    t_file = t[keep]
    t = t_file - t_file[0]
    window = float(dict(entry.get("at_rest", {})).get("window_s", 0.02))
    if window > 0.5 * t[-1]:
        raise MeasuredEntryError(
            "at_rest.window_s",
            f"'at_rest.window_s' {window:g} s is more than half of the record '{src}' ({t[-1]:.4g} s as "
            "kept): the at-rest check looks at the first samples only; give a window of the quiet "
            "lead-in (default 0.02 s)",
        )
    dim = structure.dim
    force = rec.channels.get("force", {})
    acc_ch = rec.channels.get("acc", {})
    if not acc_ch:
        raise RecordFileError(f"{src}: no 'acc:{{node}}:{{axis}}' column; identification needs accelerations")
    f_keys = sorted(force)
    a_keys = sorted(acc_ch)
    f_coords = np.array([dim * n + a for n, a in f_keys], int)
    a_coords = np.array([dim * n + a for n, a in a_keys], int)
    a_labels = [rec.label("acc", *k) for k in a_keys]
    f_labels = [rec.label("force", *k) for k in f_keys]
    F = np.stack([force[k][keep] for k in f_keys], axis=1) if f_keys else np.zeros((t.size, 0))
    A = np.stack([acc_ch[k][keep] for k in a_keys], axis=1)
    action = entry.get("outliers", "refuse")
    if action not in OUTLIER_ACTIONS:
        raise MeasuredEntryError(
            "outliers", f"'outliers': {action!r} is not one of {', '.join(OUTLIER_ACTIONS)}"
        )
    outliers = screen_outliers(
        structure,
        t_file,
        F,
        A,
        force_coords=f_coords,
        acc_coords=a_coords,
        force_labels=f_labels,
        acc_labels=a_labels,
        action=action,
        source=src,
    )
    F, A = outliers["F"], outliers["A"]
    noise_std, noise_method, stated = _noise_from_entry(structure, entry.get("noise"), a_coords, A, a_labels)
    f_full = np.zeros((t.size, structure.n_coords))
    f_full[:, f_coords] = F
    units = None
    if structure.has_prestress:
        units = screen_units(
            structure,
            t,
            f_full,
            A,
            a_coords,
            noise_std,
            labels=a_labels,
            force_coords=f_coords,
            force_labels=f_labels,
            t_file=t_file,
            source=src,
        )
    at_rest = check_at_rest(
        structure,
        t,
        f_full,
        A,
        a_coords,
        noise_std,
        source=src,
        labels=a_labels,
        **dict(entry.get("at_rest", {})),
    )
    screens = screen_against_model(
        structure,
        t,
        f_full,
        A,
        a_coords,
        noise_std,
        labels=a_labels,
        force_labels=f_labels,
        t_file=t_file,
        stated=stated,
        source=src,
    )
    screens = screens.replace(outliers=outliers["report"])
    rng = np.random.default_rng(np.random.SeedSequence([SPLIT_SEED_TAG, int(entry.get("split_seed", 0))]))
    n = t.size
    train = np.zeros(n, bool)
    train[rng.permutation(n)[: int(round(float(entry.get("train_fraction", 0.7)) * n))]] = True
    forcing = sampled_forcing(t, f_coords, F, source=src)
    sensors = {
        "t": t,
        "channels": a_coords,
        "noisy": A,
        "noise_std": noise_std,
        "train": train,
        "keep": outliers["keep"],
    }
    record = {
        "t": t,
        "forcing": F,
        "forcing_coords": f_coords,
        "free": np.flatnonzero(structure.free_mask),
        "acc": A,
        "acc_coords": a_coords,
    }
    if "disp" in rec.channels and rec.channels["disp"]:
        d_keys = sorted(rec.channels["disp"])
        record["disp"] = np.stack([rec.channels["disp"][k][keep] for k in d_keys], axis=1)
        record["disp_coords"] = np.array([dim * n + a for n, a in d_keys], int)
    meta = {
        "structure": structure.name,
        "structure_digest": structure.digest(),
        "record": name,
        "measured": True,
        "source": {
            "file": src,
            "t_start": t_start,
            "t_end": t_end,
            "samples": int(n),
            "dt": float(t[1] - t[0]),
            "time_origin": "re-zeroed at the first kept sample",
            "dialect": dict(getattr(rec, "dialect", {}) or {}),
        },
        "spec": {},
        "forcing": {"kind": forcing.kind, "coords": list(forcing.coords), **forcing.spec},
        "channels": [_channel_label(structure, "acc", c) for c in a_coords],
        "channels_as_written": a_labels,
        "noise_std": noise_std.tolist(),
        "noise_method": noise_method,
        "at_rest": at_rest,
        "unit_screen": units,
        RECORD_SCREENS: screens.to_json(),
        "regime": "measured",
        "checks": {"n_transitions": None},
        "exact_parameters": None,
    }
    return {"record": record, "sensors": sensors, "meta": meta}


def save_measured(out: dict, record_npz, record_json, sensors_npz, *, provenance: dict | None = None) -> None:
    """Write :func:`measured_record`'s result as the workflow's record, metadata and sensor files
    (the metadata with ``provenance``: what made it, :mod:`tensegrity_id.results.provenance`)."""
    write_npz(record_npz, **out["record"])
    write_npz(sensors_npz, **out["sensors"])
    write_json(record_json, out["meta"], provenance=provenance)
