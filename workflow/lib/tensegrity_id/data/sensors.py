"""Sensor data: noisy accelerations at instrumented coordinates (the paper §2.4).

A sensor protocol (config ``protocols`` entry)::

    channels: [[1, 0], [1, 1]]   # [node, axis] of the instrumented coordinates
    noise: 0.02                  # std = 2 % of each channel's RMS
    noise_seed: 0                # separate from the dataset seed
    train_fraction: 0.7          # 70/30 time split for the held-out ratio
    split: random | blocks       # held-out samples drawn at random, or whole tenths of the record
    keep: all | intermittent     # intermittent: 25 % of samples, 3 dropouts

Output ``results/sensors/{structure}/{record}/{protocol}.npz``: ``t`` (s),
``channels`` (global coordinate indices), ``clean`` (n_t x n_ch, m/s^2),
``noise_std`` (n_ch, m/s^2), ``train`` and ``keep`` (bool masks over the
samples).

One noise path: the file holds no noise draw.  Every realisation, the
training seed 0's included, is drawn by :func:`noise_realization` when a
problem is loaded, from ``SeedSequence([NOISE_SEED_TAG, noise_seed])`` for
seed 0 and ``SeedSequence([NOISE_SEED_TAG, noise_seed, seed])`` for a seed
``s > 0``.  The train/held-out split is the draw that follows seed 0's noise
in its stream (so the split is the same for every seed).  A measured
record's sensor file holds its measured ``noisy`` data and no ``clean``.
"""

from __future__ import annotations

import numpy as np

from .records import drive_coords

__all__ = ["NOISE_SEED_TAG", "sensor_data", "intermittent_mask", "noise_realization", "active_channels"]

SPLIT_BLOCKS = 10
"""Blocks of a contiguous train/held-out split (``split: blocks``): whole tenths of the record."""
NOISE_SEED_TAG = 7_310_001
"""Mixed into noise seeds: noise streams differ from dataset and training streams."""


INACTIVE_RELATIVE_STD = 1e-12
"""A channel whose noise level is below this fraction of the largest one carries no signal."""


def active_channels(noise_std) -> np.ndarray:
    """Mask of the channels that carry a signal: a noise level above ``INACTIVE_RELATIVE_STD`` of the
    largest (the noise is 2 % of each channel's RMS, so a zero-RMS channel, say a node the bars hold
    still, has a noise level of rounding size)."""
    std = np.atleast_1d(np.asarray(noise_std, float))
    return std > INACTIVE_RELATIVE_STD * std.max()


def intermittent_mask(n: int, *, fraction: float = 0.25, n_dropouts: int = 3) -> np.ndarray:
    """Keep ``fraction`` of the samples in ``n_dropouts + 1`` equal blocks.

    The blocks are evenly spaced, separated by ``n_dropouts`` sensor-off
    windows, the first block starting at t = 0.
    """
    keep = np.zeros(n, bool)
    n_blocks = n_dropouts + 1
    block = max(1, int(round(fraction * n / n_blocks)))
    starts = np.linspace(0, n - block, n_blocks).round().astype(int)
    for s in starts:
        keep[s : s + block] = True
    return keep


def sensor_data(structure, record: dict, protocol: dict) -> dict:
    """Noisy accelerations of one record under one protocol (arrays, see module doc)."""
    channels = np.array(drive_coords(structure, protocol["channels"]), int)
    free = set(np.flatnonzero(structure.free_mask).tolist())
    held = [int(c) for c in channels if c not in free]
    if held:
        raise ValueError(f"protocol instruments coordinate {held[0]}, which is fixed by a support")
    clean = record["qdd"][:, channels]
    rms = np.sqrt(np.mean(clean**2, axis=0))
    std = float(protocol.get("noise", 0.02)) * rms
    rng = _noise_stream(int(protocol.get("noise_seed", 0)), 0)
    rng.standard_normal(clean.shape)  # seed 0's noise (drawn by noise_realization); the split follows it
    n = clean.shape[0]
    fraction = float(protocol.get("train_fraction", 0.7))
    if protocol.get("split", "random") == "blocks":  # contiguous tenths, drawn from the same stream
        block = np.arange(n) * SPLIT_BLOCKS // n
        train = np.isin(block, rng.permutation(SPLIT_BLOCKS)[: int(round(fraction * SPLIT_BLOCKS))])
    else:
        perm = rng.permutation(n)
        train = np.zeros(n, bool)
        train[perm[: int(round(fraction * n))]] = True
    keep = np.ones(n, bool) if protocol.get("keep", "all") == "all" else intermittent_mask(n)
    return {
        "t": record["t"],
        "channels": channels,
        "clean": clean,
        "noise_std": std,
        "train": train,
        "keep": keep,
    }


def _noise_stream(noise_seed: int, seed: int) -> np.random.Generator:
    """The random stream of the noise of training seed ``seed`` under a protocol's ``noise_seed``."""
    key = [NOISE_SEED_TAG, int(noise_seed)] + ([int(seed)] if seed else [])
    return np.random.default_rng(np.random.SeedSequence(key))


def noise_realization(sensors: dict, seed: int, noise_seed: int = 0) -> dict:
    """The sensor data with the noise realisation of training seed ``seed`` (``noisy``, m/s^2).

    The one place noise is drawn (module docstring): the clean accelerations
    plus white noise of the protocol's per-channel standard deviation, from
    the stream of ``(noise_seed, seed)``, so repeated identifications differ
    in noise as well as in network initialisation (the paper's §4.8).  The
    train/held-out split and the kept samples are those of the protocol.
    Measured data (no ``clean`` array) are returned unchanged.
    """
    if "clean" not in sensors:
        return dict(sensors)
    clean = sensors["clean"]
    noise = _noise_stream(noise_seed, seed).standard_normal(clean.shape)
    return {**sensors, "noisy": clean + noise * sensors["noise_std"]}
