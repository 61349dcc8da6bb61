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
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.excitation import sampled_forcing
from .record_csv import MeasuredRecord, RecordFileError
from .runio import write_json, write_npz

__all__ = [
    "MEASURED_PROTOCOL",
    "NOISE_METHOD",
    "estimate_noise_std",
    "rest_accelerations",
    "check_at_rest",
    "measured_record",
    "save_measured",
]

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
    dyn = Dynamics(structure)
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
) -> dict:
    """Check that a record starts at rest in the prestressed equilibrium; raise if it does not.

    Over the first ``max(2, window_s / dt)`` samples, each channel's
    acceleration must agree with the at-rest response to the recorded
    force (:func:`rest_accelerations`) within ``n_sigma`` noise standard
    deviations plus ``tolerance`` times the channel's RMS over the record
    (the motion a sample step adds).  Returns the check's numbers.
    """
    t = np.asarray(t, float)
    acc = np.asarray(acc, float)
    dt = float(t[1] - t[0])
    n0 = max(2, int(round(window_s / dt)))
    free = {int(c): i for i, c in enumerate(np.flatnonzero(structure.free_mask))}
    cols = [free[int(c)] for c in channels]
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
        node, axis = divmod(int(channels[worst]), structure.dim)
        raise RecordFileError(
            f"{source}: the record does not start at rest in the prestressed equilibrium: over its "
            f"first {n0} samples channel 'acc:{node}:{'xyz'[axis]}' differs from the at-rest response "
            f"to the recorded force by {gap[worst]:.3g} m/s^2 RMS (allowed {limit[worst]:.3g}: "
            f"{n_sigma:g} noise std + {tolerance:g} x the channel's RMS {rms[worst]:.3g}). Every "
            "method starts its model at rest; trim the record to start before the excitation "
            "('t_start') or record a quiet lead-in"
        )
    return out


def _channel_label(structure, kind, coord) -> str:
    node, axis = divmod(int(coord), structure.dim)
    return f"{kind}:{node}:{'xyz'[axis]}"


def _noise_from_entry(structure, noise, channels, acc, source) -> tuple[np.ndarray, str]:
    if noise is None:
        return estimate_noise_std(acc), NOISE_METHOD
    labels = [_channel_label(structure, "acc", c) for c in channels]
    if isinstance(noise, int | float):
        return np.full(len(channels), float(noise)), "stated (config 'noise', every channel)"
    unknown = sorted(set(noise) - set(labels))
    if unknown:
        raise RecordFileError(
            f"{source}: 'noise' names channel '{unknown[0]}', which the file does not record "
            f"(it has {', '.join(labels)})"
        )
    est = estimate_noise_std(acc)
    std = np.array([float(noise.get(lab, e)) for lab, e in zip(labels, est, strict=True)])
    return std, f"stated for {', '.join(sorted(noise))}; the others: {NOISE_METHOD}"


def measured_record(structure, rec: MeasuredRecord, entry: dict, *, name: str) -> dict:
    """A measured record as the workflow's arrays and metadata.

    Parameters
    ----------
    structure : Structure
        The structure the test was made on (its prestress is not used).
    rec : MeasuredRecord
        The checked file (:func:`tensegrity_id.data.record_csv.read_record_csv`).
    entry : dict
        The config entry: optional ``t_start``, ``t_end`` (s, in the file's
        time), ``noise`` (m/s^2: one number or ``{"acc:{node}:{axis}": std}``),
        ``train_fraction`` (0.7), ``split_seed`` (0), ``at_rest``
        (``{window_s, tolerance, n_sigma}``).

    Returns
    -------
    dict
        ``record`` (arrays of the record file), ``sensors`` (arrays of the
        sensor file), ``meta`` (the record's metadata).
    """
    src = rec.source
    t = rec.t
    t_start = float(entry.get("t_start", t[0]))
    t_end = float(entry.get("t_end", t[-1]))
    keep = (t >= t_start - 1e-12) & (t <= t_end + 1e-12)
    if keep.sum() < 32:
        raise RecordFileError(
            f"{src}: t_start {t_start:g} s / t_end {t_end:g} s keep {int(keep.sum())} samples; at least "
            "32 are needed"
        )
    t = t[keep] - t[keep][0]
    dim = structure.dim
    force = rec.channels.get("force", {})
    acc_ch = rec.channels.get("acc", {})
    if not acc_ch:
        raise RecordFileError(f"{src}: no 'acc:{{node}}:{{axis}}' column; identification needs accelerations")
    f_keys = sorted(force)
    a_keys = sorted(acc_ch)
    f_coords = np.array([dim * n + a for n, a in f_keys], int)
    a_coords = np.array([dim * n + a for n, a in a_keys], int)
    F = np.stack([force[k][keep] for k in f_keys], axis=1) if f_keys else np.zeros((t.size, 0))
    A = np.stack([acc_ch[k][keep] for k in a_keys], axis=1)
    noise_std, noise_method = _noise_from_entry(structure, entry.get("noise"), a_coords, A, src)
    f_full = np.zeros((t.size, structure.n_coords))
    f_full[:, f_coords] = F
    at_rest = check_at_rest(
        structure, t, f_full, A, a_coords, noise_std, source=src, **dict(entry.get("at_rest", {}))
    )
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
        "keep": np.ones(n, bool),
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
        },
        "spec": {},
        "forcing": {"kind": forcing.kind, "coords": list(forcing.coords), **forcing.spec},
        "channels": [_channel_label(structure, "acc", c) for c in a_coords],
        "noise_std": noise_std.tolist(),
        "noise_method": noise_method,
        "at_rest": at_rest,
        "regime": "measured",
        "checks": {"n_transitions": None},
        "exact_parameters": None,
    }
    return {"record": record, "sensors": sensors, "meta": meta}


def save_measured(out: dict, record_npz, record_json, sensors_npz) -> None:
    """Write :func:`measured_record`'s result as the workflow's record, metadata and sensor files."""
    write_npz(record_npz, **out["record"])
    write_npz(sensors_npz, **out["sensors"])
    write_json(record_json, out["meta"])
