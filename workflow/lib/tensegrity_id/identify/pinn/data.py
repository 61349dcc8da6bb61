"""Torch-side record data, collocation sampling and transition detection of a run."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

__all__ = ["RecordTensors", "prepare_records", "pick_channels", "collocation_points", "sign_change_times"]


@dataclass
class RecordTensors:
    """Torch-side data of one record, for every member of a batch.

    The sample times, channels, training samples and forcing are the
    record's (shared by the members); the measured accelerations are each
    member's own noise realisation, and the detected transitions each
    member's own.
    """

    name: str
    forcing: object
    T: float
    T_ref: float
    p: float
    desc: torch.Tensor | None
    t: np.ndarray
    channels: np.ndarray
    ch_pick: object
    """How the loss picks the channels from the free coordinates (last axis): their
    positions as an index tensor, or for a single channel a slice (``pick_channels``)."""
    tau_train: torch.Tensor
    a_train: torch.Tensor
    """Training accelerations, shape (n_members, n_train, n_channels), m/s^2."""
    events: list
    """Per member: detected transition times (s), a tensor of shape (n_events,)."""


def _check_same(where: str, name: str, ref, other, what: str) -> None:
    if not np.array_equal(np.asarray(ref), np.asarray(other)):
        raise ValueError(
            f"{where}: record '{name}' has other {what} than the first member's; a batch "
            "trains one record set with several noise realisations"
        )


def prepare_records(
    records, pos: dict, *, t_ref: float | None, dtype
) -> tuple[list[RecordTensors], torch.Tensor]:
    """Training tensors of every record and each member's data scale (mean squared measured acceleration).

    Parameters
    ----------
    records : list of list of RecordData
        Per member, the records with sensor data (``t, channels, noisy,
        train, keep``) and forcing; every member holds the same records
        (times, channels, training samples, forcing) with its own noise.
    pos : dict
        Coordinate index -> position among the free coordinates.
    t_ref : float or None
        Time scale of tau (s); ``None`` takes each record's length.
    dtype : torch.dtype

    Returns
    -------
    recs : list of RecordTensors
    data_scale : tensor, shape (n_members,)
        Per member, the mean squared measured acceleration over its training
        samples, pooled over records and channels ((m/s^2)^2).
    """
    first = records[0]
    p_max = max(r.forcing.amplitude for r in first)
    R = len(first)
    for m, member in enumerate(records):
        if len(member) != R:
            raise ValueError(f"batch member {m} has {len(member)} records, the first member {R}")
    recs: list[RecordTensors] = []
    a_sq = [[] for _ in records]
    for i, r in enumerate(first):
        sens = r.sensors
        for key in ("t", "channels", "noisy", "train", "keep"):
            if key not in sens:
                raise ValueError(f"record '{r.name}': sensor data lack '{key}'")
        t = np.asarray(sens["t"], float)
        held = [int(c) for c in sens["channels"] if int(c) not in pos]
        if held:
            raise ValueError(f"record '{r.name}': channel {held[0]} is not a free coordinate")
        T = float(t[-1])
        T_ref = T if t_ref is None else float(t_ref)
        use = np.asarray(sens["train"]) & np.asarray(sens["keep"])
        a_members = []
        for m, member in enumerate(records):
            other = member[i]
            where = f"batch member {m}"
            for key, what in (
                ("t", "sample times"),
                ("channels", "channels"),
                ("train", "training samples"),
                ("keep", "kept samples"),
            ):
                _check_same(where, r.name, sens[key], other.sensors[key], what)
            if repr(other.forcing.spec) != repr(r.forcing.spec):
                raise ValueError(f"{where}: record '{r.name}' has another forcing than the first member's")
            noisy = np.asarray(other.sensors["noisy"], float)
            if not np.isfinite(noisy).all():
                raise ValueError(f"record '{r.name}': the sensor data contain NaN or infinite values")
            a = noisy[use]
            a_sq[m].append(a**2)
            a_members.append(a)
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
                ch_pick=pick_channels([pos[int(c)] for c in sens["channels"]]),
                tau_train=torch.as_tensor(t[use] / T_ref, dtype=dtype)[:, None],
                a_train=torch.stack([torch.as_tensor(a, dtype=dtype) for a in a_members]),
                events=[torch.zeros(0, dtype=dtype) for _ in records],
            )
        )
    scale = [float(np.mean(np.concatenate([x.ravel() for x in sq]))) for sq in a_sq]
    if not all(v > 0 for v in scale):
        raise ValueError("the measured accelerations are all zero: nothing to identify from")
    return recs, torch.as_tensor(scale, dtype=dtype)


def pick_channels(free: list[int]):
    """The index the loss takes the measured channels with: a one-element slice for a single
    channel, else the index tensor.

    TorchInductor (torch 2.13, CPU) miscompiles the backward of a one-element
    advanced index over a batch of two or more seeds: its scatter is tiled with
    a wrong stride and writes out of bounds (the one-sensor protocol crashed
    with four seeds and corrupted the heap with two). A slice selects the same
    values and keeps that kernel out of the graph. Several channels keep the
    index: their compiled step is unchanged (same parameters to the bit after
    30 steps of a four-seed batch) and agrees with the eager step.
    """
    if len(free) == 1:
        return slice(free[0], free[0] + 1)
    return torch.as_tensor(free)


def collocation_points(rec: RecordTensors, events, settings, gen: torch.Generator, dtype) -> torch.Tensor:
    """A fresh batch of ``settings.n_colloc`` collocation points (tau, shape (n, 1)) for one record.

    Uniform over the record; under the ``event`` treatment with detected
    transitions (``events``, s), ``event_fraction`` of the batch is drawn
    from Gaussian windows (std ``event_width`` s) about the transition times.
    """
    s = settings
    n = s.n_colloc
    n_ev = int(round(s.event_fraction * n)) if (s.treatment == "event" and events.numel()) else 0
    tau = torch.rand(n - n_ev, 1, generator=gen, dtype=dtype) * (rec.T / rec.T_ref)
    if n_ev:
        idx = torch.randint(events.numel(), (n_ev,), generator=gen)
        t = events[idx] + s.event_width * torch.randn(n_ev, generator=gen, dtype=dtype)
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
