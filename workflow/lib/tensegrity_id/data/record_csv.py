"""Measured records as CSV files: read and check before anything is computed.

Format (SI units; one row per sample)
    ``time`` (s), then one column per channel, named ``{kind}:{node}:{axis}``:
    ``force`` (applied force, N), ``acc`` (acceleration, m/s^2), ``disp``
    (displacement from the equilibrium, m); ``node`` is the structure's node
    index and ``axis`` is ``x``, ``y``, ``z`` or ``0``, ``1``, ``2``, as in
    structure files.

Checks (each error names the file, and the row or column)
    an unknown column, node or axis; a channel on a coordinate a support
    fixes; a repeated channel; a non-increasing or irregular time axis; a
    value that is not a finite number; no force column where one is
    required; fewer samples than needed.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..mechanics.structure import Structure

__all__ = ["RecordFileError", "MeasuredRecord", "read_record_csv", "CHANNEL_KINDS"]

CHANNEL_KINDS = ("force", "acc", "disp")
_AXES = {"x": 0, "y": 1, "z": 2, "0": 0, "1": 1, "2": 2}


class RecordFileError(ValueError):
    """A record file that cannot be used; the message names the file and the row or column."""


@dataclass(frozen=True)
class MeasuredRecord:
    """Channels of a measured record.

    Attributes
    ----------
    t : ndarray, shape (n,), s
    channels : dict
        ``kind -> {(node, axis): ndarray (n,)}``.
    source : str
    """

    t: np.ndarray
    channels: dict = field(default_factory=dict)
    source: str = ""

    @property
    def dt(self) -> float:
        return float((self.t[-1] - self.t[0]) / (len(self.t) - 1))

    def stack(self, kind: str, coords) -> np.ndarray:
        """Channels of one kind at ``(node, axis)`` pairs, shape (n, len(coords))."""
        have = self.channels.get(kind, {})
        missing = [c for c in coords if tuple(c) not in have]
        if missing:
            node, axis = missing[0]
            present = ", ".join(f"{kind}:{n}:{'xyz'[a]}" for n, a in sorted(have)) or "none of this kind"
            raise RecordFileError(
                f"{self.source}: no column '{kind}:{node}:{'xyz'[axis]}' (needed here; "
                f"the file has {present})"
            )
        return np.stack([have[tuple(c)] for c in coords], axis=1)


def _parse_header(name, header, structure):
    if not header or header[0].strip() != "time":
        raise RecordFileError(f"{name}: the first column must be 'time' (s), found {header[:1]}")
    cols, seen = [], set()
    for j, raw in enumerate(header[1:], start=2):
        label = raw.strip()
        parts = label.split(":")
        if len(parts) != 3 or parts[0] not in CHANNEL_KINDS:
            raise RecordFileError(
                f"{name}: column {j} '{label}' is not {{kind}}:{{node}}:{{axis}} with kind one of "
                f"{', '.join(CHANNEL_KINDS)}"
            )
        kind, node_s, axis_s = parts
        if not node_s.isdigit() or int(node_s) >= structure.n_nodes:
            raise RecordFileError(
                f"{name}: column {j} '{label}': node '{node_s}' is not one of the structure's nodes "
                f"0..{structure.n_nodes - 1}"
            )
        axis = _AXES.get(axis_s)
        if axis is None or axis >= structure.dim:
            raise RecordFileError(
                f"{name}: column {j} '{label}': axis '{axis_s}' is not one of {'xyz'[: structure.dim]}"
            )
        node = int(node_s)
        if structure.fixed[node, axis]:
            raise RecordFileError(
                f"{name}: column {j} '{label}': coordinate {'xyz'[axis]} of node {node} is fixed by a "
                "support; a fixed coordinate carries no channel"
            )
        if (kind, node, axis) in seen:
            raise RecordFileError(f"{name}: column {j} '{label}' repeats an earlier column")
        seen.add((kind, node, axis))
        cols.append((kind, node, axis))
    return cols


def read_record_csv(
    path,
    structure: Structure,
    *,
    require_force: bool = True,
    min_samples: int = 32,
    regular_rtol: float = 1e-3,
) -> MeasuredRecord:
    """Read and check a measured record file against the structure it belongs to.

    Parameters
    ----------
    path : str or Path
    structure : Structure
    require_force : bool
        At least one ``force`` column must be present (a forced test; a
        strike record with an unmeasured hammer passes ``False``).
    min_samples : int
    regular_rtol : float
        Largest deviation of a time step from the mean step, relative.
    """
    path = Path(path)
    name = str(path)
    if not path.is_file():
        raise RecordFileError(f"{name}: no such record file")
    with path.open(newline="") as fh:
        rows = list(csv.reader(fh))
    rows = [r for r in rows if r and not r[0].lstrip().startswith("#")]
    if not rows:
        raise RecordFileError(f"{name}: the file is empty")
    cols = _parse_header(name, rows[0], structure)
    if require_force and not any(k == "force" for k, _, _ in cols):
        raise RecordFileError(
            f"{name}: no 'force:{{node}}:{{axis}}' column; the applied force must be recorded"
        )
    data = np.empty((len(rows) - 1, len(cols) + 1))
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(cols) + 1:
            raise RecordFileError(f"{name}: row {i} has {len(row)} values, the header names {len(cols) + 1}")
        for j, v in enumerate(row):
            try:
                x = float(v)
            except ValueError:
                x = np.nan
            if not np.isfinite(x):
                label = "time" if j == 0 else ":".join(map(str, cols[j - 1]))
                raise RecordFileError(
                    f"{name}: row {i}, column '{label}': '{v.strip()}' is not a finite number"
                )
            data[i - 2, j] = x
    if len(data) < min_samples:
        raise RecordFileError(f"{name}: {len(data)} samples, at least {min_samples} are needed")
    t = data[:, 0]
    dt = np.diff(t)
    bad = np.flatnonzero(dt <= 0)
    if bad.size:
        raise RecordFileError(
            f"{name}: row {int(bad[0]) + 3}: time does not increase ({t[bad[0]]} -> {t[bad[0] + 1]})"
        )
    mean = (t[-1] - t[0]) / (len(t) - 1)
    off = np.flatnonzero(np.abs(dt - mean) > regular_rtol * mean)
    if off.size:
        raise RecordFileError(
            f"{name}: row {int(off[0]) + 3}: irregular time step {dt[off[0]]:.6g} s against the mean "
            f"{mean:.6g} s; resample the record to a uniform step"
        )
    channels: dict = {k: {} for k in CHANNEL_KINDS}
    for j, (kind, node, axis) in enumerate(cols, start=1):
        channels[kind][(node, axis)] = data[:, j]
    return MeasuredRecord(t=t, channels=channels, source=name)
