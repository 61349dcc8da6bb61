"""Measured records as CSV (or UFF-58) files: read and check before anything is computed.

Format (SI units; one row per sample)
    ``time`` (s), then one column per channel, named ``{kind}:{node}:{axis}``:
    ``force`` (applied force, N), ``acc`` (acceleration, m/s^2), ``disp``
    (displacement from the equilibrium, m); ``node`` is the structure's node
    index and ``axis`` is ``x``, ``y``, ``z`` or ``0``, ``1``, ``2``, as in
    structure files.

UFF-58 (``.uff``, ``.unv``; read with the optional ``pyuff``)
    one function record (dataset 58, function type 1, time response, even
    abscissa) per channel: the response node is the structure's node index,
    the response direction 1, 2, 3 (x, y, z; negative for a reversed
    transducer, whose sign is flipped), the ordinate's specific data type
    12 (acceleration), 13 (excitation force) or 8 (displacement); SI units.
    Every channel must share the time axis.

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

__all__ = [
    "RecordFileError",
    "MeasuredRecord",
    "read_record",
    "read_record_csv",
    "read_record_uff",
    "CHANNEL_KINDS",
]

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
    return _checked(name, cols, data, min_samples, regular_rtol)


def _checked(name, cols, data, min_samples, regular_rtol) -> MeasuredRecord:
    """Length and time-axis checks of parsed columns (``data[:, 0]`` the time); the record."""
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


UFF_KINDS = {12: "acc", 13: "force", 8: "disp"}
"""UFF-58 ordinate specific data type -> channel kind."""


def read_record_uff(path, structure: Structure, **checks) -> MeasuredRecord:
    """Read a UFF-58 file of time responses (module docstring) with the checks of :func:`read_record_csv`."""
    path = Path(path)
    name = str(path)
    if not path.is_file():
        raise RecordFileError(f"{name}: no such record file")
    try:
        import pyuff  # noqa: PLC0415 (optional dependency)
    except ImportError:
        raise RecordFileError(
            f"{name}: reading UFF-58 needs the optional package pyuff (pip install pyuff); or export CSV"
        ) from None
    try:
        sets = pyuff.UFF(str(path)).read_sets()
    except Exception as exc:  # noqa: BLE001 (pyuff raises many kinds on a malformed file)
        raise RecordFileError(f"{name}: not a readable UFF file ({type(exc).__name__}: {exc})") from None
    sets = [sets] if isinstance(sets, dict) else list(sets)
    sets = [d for d in sets if d.get("type") == 58]
    if not sets:
        raise RecordFileError(f"{name}: no dataset 58 (function at a node) in the file")
    labels, columns, t = [], [], None
    for k, d in enumerate(sets, start=1):
        where = f"{name}: dataset 58 number {k}"
        if int(d.get("func_type", 0)) != 1:
            raise RecordFileError(f"{where}: function type {d.get('func_type')} is not 1 (time response)")
        kind = UFF_KINDS.get(int(d.get("ordinate_spec_data_type", 0)))
        if kind is None:
            raise RecordFileError(
                f"{where}: ordinate data type {d.get('ordinate_spec_data_type')} is not 12 (acceleration), "
                "13 (excitation force) or 8 (displacement)"
            )
        direction = int(d.get("rsp_dir", 0))
        if abs(direction) not in (1, 2, 3):
            raise RecordFileError(f"{where}: response direction {direction} is not +-1, +-2 or +-3 (x, y, z)")
        x = np.asarray(d["x"], float)
        if t is None:
            t = x
        elif x.shape != t.shape or not np.allclose(x, t, rtol=0, atol=1e-9 * max(1.0, abs(t[-1]))):
            raise RecordFileError(f"{where}: its time axis differs from the first channel's")
        labels.append(f"{kind}:{int(d['rsp_node'])}:{'xyz'[abs(direction) - 1]}")
        columns.append(np.sign(direction) * np.real(np.asarray(d["data"])).astype(float))
    cols = _parse_header(name, ["time", *labels], structure)
    if checks.get("require_force", True) and not any(k == "force" for k, _, _ in cols):
        raise RecordFileError(
            f"{name}: no excitation-force channel (data type 13); the applied force must be recorded"
        )
    data = np.column_stack([t, *columns])
    bad = np.argwhere(~np.isfinite(data))
    if bad.size:
        i, j = bad[0]
        raise RecordFileError(f"{name}: sample {int(i)} of '{(['time', *labels])[j]}' is not a finite number")
    return _checked(name, cols, data, checks.get("min_samples", 32), checks.get("regular_rtol", 1e-3))


def read_record(path, structure: Structure, **checks) -> MeasuredRecord:
    """A record file by its extension: ``.uff``/``.unv`` (UFF-58), anything else CSV."""
    if Path(path).suffix.lower() in (".uff", ".unv"):
        return read_record_uff(path, structure, **checks)
    return read_record_csv(path, structure, **checks)
