"""Torch-side record data, collocation sampling and transition detection of a run."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

__all__ = ["RecordTensors", "prepare_records", "collocation_points", "sign_change_times"]


@dataclass
class RecordTensors:
    """Torch-side data of one record."""

    name: str
    forcing: object
    T: float
    T_ref: float
    p: float
    desc: torch.Tensor | None
    t: np.ndarray
    channels: np.ndarray
    ch_free: torch.Tensor
    tau_train: torch.Tensor
    a_train: torch.Tensor
    events: torch.Tensor


def prepare_records(records, pos: dict, *, t_ref: float | None, dtype) -> tuple[list[RecordTensors], float]:
    """Training tensors of every record and the pooled data scale (mean squared measured acceleration).

    Parameters
    ----------
    records : list of RecordData
        Records with sensor data (``t, channels, noisy, train, keep``) and forcing.
    pos : dict
        Coordinate index -> position among the free coordinates.
    t_ref : float or None
        Time scale of tau (s); ``None`` takes each record's length.
    dtype : torch.dtype
    """
    p_max = max(r.forcing.amplitude for r in records)
    recs: list[RecordTensors] = []
    a_sq = []
    R = len(records)
    for i, r in enumerate(records):
        sens = r.sensors
        for key in ("t", "channels", "noisy", "train", "keep"):
            if key not in sens:
                raise ValueError(f"record '{r.name}': sensor data lack '{key}'")
        t = np.asarray(sens["t"], float)
        held = [int(c) for c in sens["channels"] if int(c) not in pos]
        if held:
            raise ValueError(f"record '{r.name}': channel {held[0]} is not a free coordinate")
        if not np.isfinite(np.asarray(sens["noisy"], float)).all():
            raise ValueError(f"record '{r.name}': the sensor data contain NaN or infinite values")
        T = float(t[-1])
        T_ref = T if t_ref is None else float(t_ref)
        use = np.asarray(sens["train"]) & np.asarray(sens["keep"])
        a = np.asarray(sens["noisy"], float)[use]
        a_sq.append(a**2)
        desc = None
        if R > 1:
            onehot = np.eye(R)[i]
            desc = torch.as_tensor(np.r_[r.forcing.amplitude / p_max, onehot], dtype=dtype)
        recs.append(
            RecordTensors(
                name=r.name,
                forcing=r.forcing,
                T=T,
                T_ref=T_ref,
                p=float(r.forcing.amplitude),
                desc=desc,
                t=t,
                channels=np.asarray(sens["channels"], int),
                ch_free=torch.as_tensor([pos[int(c)] for c in sens["channels"]]),
                tau_train=torch.as_tensor(t[use] / T_ref, dtype=dtype)[:, None],
                a_train=torch.as_tensor(a, dtype=dtype),
                events=torch.zeros(0, dtype=dtype),
            )
        )
    data_scale = float(np.mean(np.concatenate([x.ravel() for x in a_sq])))
    if not data_scale > 0:
        raise ValueError("the measured accelerations are all zero: nothing to identify from")
    return recs, data_scale


def collocation_points(rec: RecordTensors, settings, gen: torch.Generator, dtype) -> torch.Tensor:
    """A fresh batch of ``settings.n_colloc`` collocation points (tau, shape (n, 1)) for one record.

    Uniform over the record; under the ``event`` treatment with detected
    transitions, ``event_fraction`` of the batch is drawn from Gaussian
    windows (std ``event_width`` s) about the transition times.
    """
    s = settings
    n = s.n_colloc
    n_ev = int(round(s.event_fraction * n)) if (s.treatment == "event" and rec.events.numel()) else 0
    tau = torch.rand(n - n_ev, 1, generator=gen, dtype=dtype) * (rec.T / rec.T_ref)
    if n_ev:
        idx = torch.randint(rec.events.numel(), (n_ev,), generator=gen)
        t = rec.events[idx] + s.event_width * torch.randn(n_ev, generator=gen, dtype=dtype)
        tau = torch.cat([tau, (t.clamp(0.0, rec.T) / rec.T_ref)[:, None]], 0)
    return tau


def sign_change_times(e: np.ndarray, t: np.ndarray) -> list[float]:
    """Times where a column of ``e`` (shape (n_t, n_cables)) changes sign, linearly interpolated."""
    times = []
    for k in range(e.shape[1]):
        idx = np.flatnonzero(np.sign(e[:-1, k]) != np.sign(e[1:, k]))
        for i in idx:
            w = e[i, k] / (e[i, k] - e[i + 1, k])
            times.append(t[i] + w * (t[i + 1] - t[i]))
    return times
