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

Encoding
    UTF-8 text, with or without a byte-order mark (Excel's "CSV UTF-8");
    ``.csv.gz`` is read compressed.  Columns separated by commas, or by
    semicolons or tabs (spreadsheet exports), with decimal points, or with
    decimal commas where the separator is a semicolon or a tab
    (:func:`sniff_dialect`).  A file is read from the path given,
    as given: an error names the file, the row and the column, and never
    echoes the file's content beyond one cell of a record.

Checks (each error names the file, and the row or column as the file writes it)
    not UTF-8 text (a compressed or Latin-1 file); an unknown column, node
    or axis; a channel on a coordinate a support fixes; a repeated channel;
    a non-increasing or irregular time axis; a value that is not a finite
    number, or beyond ``MAX_ABS`` in SI units; a dead channel (one
    constant value throughout); no force column where one is required;
    fewer samples than needed.  UFF-58: not a UFF file; a truncated file
    (a dataset without its closing delimiter, or with fewer values than
    its header declares).
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..mechanics.structure import Structure

__all__ = [
    "RecordFileError",
    "MeasuredRecord",
    "read_record",
    "read_record_csv",
    "read_record_uff",
    "sniff_dialect",
    "CHANNEL_KINDS",
    "MAX_ABS",
]

CHANNEL_KINDS = ("force", "acc", "disp")
_AXES = {"x": 0, "y": 1, "z": 2, "0": 0, "1": 1, "2": 2}

MAX_ABS = 1e15
"""Largest magnitude a sample may have (SI: N, m/s^2, m, s).  No structural test comes near it;
a larger value is a corrupt sample or a unit slip, and its square would overflow the checks."""


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
    labels : dict
        ``(kind, node, axis) -> column name as the file writes it`` (``acc:1:0``
        or ``acc:1:x``), for messages.
    dialect : dict
        How a CSV file was read: ``delimiter``, ``decimal``, ``name``
        (:func:`sniff_dialect`); empty for UFF.
    """

    t: np.ndarray
    channels: dict = field(default_factory=dict)
    source: str = ""
    labels: dict = field(default_factory=dict)
    dialect: dict = field(default_factory=dict)

    def label(self, kind: str, node: int, axis: int) -> str:
        """The column name of a channel as the file writes it."""
        return self.labels.get((kind, node, axis), f"{kind}:{node}:{'xyz'[axis]}")

    @property
    def dt(self) -> float:
        return float((self.t[-1] - self.t[0]) / (len(self.t) - 1))

    def stack(self, kind: str, coords) -> np.ndarray:
        """Channels of one kind at ``(node, axis)`` pairs, shape (n, len(coords))."""
        have = self.channels.get(kind, {})
        missing = [c for c in coords if tuple(c) not in have]
        if missing:
            node, axis = missing[0]
            present = ", ".join(self.label(kind, n, a) for n, a in sorted(have)) or "none of this kind"
            raise RecordFileError(
                f"{self.source}: no column '{kind}:{node}:{'xyz'[axis]}' (needed here; "
                f"the file has {present})"
            )
        return np.stack([have[tuple(c)] for c in coords], axis=1)


def _parse_header(name, header, structure):
    """The channels of a header row, ``[(kind, node, axis)]``, and their names as written."""
    if not header or header[0].strip() != "time":
        # the content is not echoed: a path read by mistake may be any file
        raise RecordFileError(
            f"{name}: the first row is not a record header: its first column must be 'time' (s), "
            "then one column per channel, named {kind}:{node}:{axis}"
        )
    cols, seen, labels = [], set(), []
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
        labels.append(label)
    return cols, labels


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
    text = _read_text(path)
    dialect = sniff_dialect(name, text)
    numbered = [
        (k, r)
        for k, r in enumerate(csv.reader(io.StringIO(text), delimiter=dialect["delimiter"]), start=1)
        if r and not r[0].lstrip().startswith("#")
    ]
    if not numbered:
        raise RecordFileError(f"{name}: the file is empty")
    comma = dialect["decimal"] == ","
    line_of = np.array([k for k, _ in numbered[1:]], int)  # the file's row of each sample
    rows = [r for _, r in numbered]
    cols, labels = _parse_header(name, rows[0], structure)
    if require_force and not any(k == "force" for k, _, _ in cols):
        raise RecordFileError(
            f"{name}: no 'force:{{node}}:{{axis}}' column; the applied force must be recorded"
        )
    data = np.empty((len(rows) - 1, len(cols) + 1))
    for n, (i, row) in enumerate(zip(line_of, rows[1:], strict=True)):
        if len(row) != len(cols) + 1:
            hint = ""
            if dialect["delimiter"] == "," and len(row) > len(cols) + 1 and not any("." in c for c in row):
                # decimal-comma numbers split at their commas into integer pieces: no point anywhere
                hint = (
                    ": are the numbers written with decimal commas ('0,25') in a file whose columns are "
                    "also separated by commas? Export with a decimal point, or with ';' between the columns"
                )
            raise RecordFileError(
                f"{name}: row {i} has {len(row)} values, the header names {len(cols) + 1}{hint}"
            )
        for j, v in enumerate(row):
            try:
                x = float(v.replace(",", ".") if comma else v)
            except ValueError:
                x = np.nan
            if not np.isfinite(x):
                label = "time" if j == 0 else labels[j - 1]
                cell = v.strip()
                shown = f"'{cell}'" if len(cell) <= 24 else "the value"
                hint = ""
                if not comma and _DECIMAL_COMMA.match(cell):
                    hint = (
                        ": a decimal comma in a file whose columns are separated by commas? Export with a "
                        "decimal point, or with ';' between the columns"
                    )
                raise RecordFileError(
                    f"{name}: row {i}, column '{label}': {shown} is not a finite number{hint}"
                )
            data[n, j] = x
    out = _checked(name, cols, labels, data, min_samples, regular_rtol, rows=line_of)
    return replace(out, dialect=dialect)


_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}
_DECIMAL_COMMA = re.compile(r"^\s*[-+]?\d*,\d+(?:[eE][-+]?\d+)?\s*$")


def sniff_dialect(name: str, text: str) -> dict:
    """The column separator and decimal mark of a record file's text.

    The header row (the first row that is not a ``#`` comment) must open
    with ``time`` followed by the separator: a comma, a semicolon or a tab
    (European spreadsheet exports write ``;`` or tabs, often with decimal
    commas).  With ``;`` or a tab, a data cell written ``0,25`` (a comma
    between digits and no point) makes the decimal mark a comma.  A header
    separated by spaces, or one whose first column is ``time`` with no
    known separator after it, is refused saying what was found.

    Returns
    -------
    dict
        ``delimiter`` (``","``, ``";"`` or ``"\\t"``), ``decimal``
        (``"."`` or ``","``) and ``name`` (``comma``, ``semicolon``, ``tab``).
    """
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return {"delimiter": ",", "decimal": ".", "name": "comma"}
    header = lines[0]
    found = [d for d in _DELIMITERS if header.split(d)[0].strip() == "time" and d in header]
    if not found:
        first = header.split()[0] if header.split() else ""
        if first == "time" and len(header.split()) > 1:
            raise RecordFileError(
                f"{name}: the header row separates its columns by spaces; a record file separates them by "
                "',' (or ';' or tabs, as spreadsheets export): save it as CSV, e.g. in a spreadsheet "
                "'Save as' CSV, or replace each run of spaces by one ','"
            )
        return {"delimiter": ",", "decimal": ".", "name": "comma"}  # the header check names the problem
    delim = found[0]
    decimal = "."
    if delim != ",":
        cells = [c for ln in lines[1:200] for c in ln.split(delim)]
        if any(_DECIMAL_COMMA.match(c) for c in cells):
            decimal = ","
            point = next((c.strip() for c in cells if "." in c), None)
            if point is not None:
                raise RecordFileError(
                    f"{name}: the columns are separated by {_DELIMITERS[delim]}s and the numbers use decimal "
                    f"commas, but a cell also holds a point ('{point[:24]}'): a thousands separator, or two "
                    "decimal marks? Export the numbers with one decimal mark and no thousands separator"
                )
    return {"delimiter": delim, "decimal": decimal, "name": _DELIMITERS[delim]}


def _read_text(path: Path) -> str:
    """The text of a record file: UTF-8 (a byte-order mark dropped), ``.gz`` decompressed."""
    name = str(path)
    if not path.is_file():
        raise RecordFileError(f"{name}: no such record file")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        if path.suffix.lower() != ".gz":
            raise RecordFileError(
                f"{name}: not a UTF-8 text file (a gzip archive): name it '{path.name}.gz' to have "
                "it read compressed, or decompress it"
            )
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise RecordFileError(f"{name}: a damaged gzip archive ({exc})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise RecordFileError(
            f"{name}: not a UTF-8 text file (line {line}: byte 0x{raw[exc.start]:02x}, e.g. Latin-1 "
            "or a binary file); save it as UTF-8 text"
        ) from None


def _checked(name, cols, labels, data, min_samples, regular_rtol, *, rows=None) -> MeasuredRecord:
    """Value, length and time-axis checks of parsed columns (``data[:, 0]`` the time); the record.

    ``rows`` are the file's row numbers of the samples (CSV), for messages;
    ``None`` names samples by their index (UFF).
    """

    def at(i):
        return f"row {int(rows[i])}" if rows is not None else f"sample {int(i)}"

    big = np.argwhere(np.abs(data) > MAX_ABS)
    if big.size:
        i, j = big[0]
        label = "time" if j == 0 else labels[j - 1]
        raise RecordFileError(
            f"{name}: {at(i)}, column '{label}': {data[i, j]:.3g} is beyond any "
            f"measured value ({MAX_ABS:.0e} in SI units); a corrupt sample or a unit slip"
        )
    if len(data) < min_samples:
        raise RecordFileError(f"{name}: {len(data)} samples, at least {min_samples} are needed")
    t = data[:, 0]
    dt = np.diff(t)
    bad = np.flatnonzero(dt <= 0)
    if bad.size:
        raise RecordFileError(
            f"{name}: {at(bad[0] + 1)}: time does not increase ({t[bad[0]]} -> {t[bad[0] + 1]})"
        )
    mean = (t[-1] - t[0]) / (len(t) - 1)
    off = np.flatnonzero(np.abs(dt - mean) > regular_rtol * mean)
    if off.size:
        raise RecordFileError(
            f"{name}: {at(off[0] + 1)}: irregular time step {dt[off[0]]:.6g} s "
            f"against the mean {mean:.6g} s; resample the record to a uniform step"
        )
    for j, label in enumerate(labels, start=1):
        if np.ptp(data[:, j]) == 0.0:
            raise RecordFileError(
                f"{name}: column '{label}' holds one value ({data[0, j]:g}) throughout: a dead channel; "
                "remove the column or repair the channel"
            )
    channels: dict = {k: {} for k in CHANNEL_KINDS}
    for j, (kind, node, axis) in enumerate(cols, start=1):
        channels[kind][(node, axis)] = data[:, j]
    return MeasuredRecord(t=t, channels=channels, source=name, labels=dict(zip(cols, labels, strict=True)))


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
    delimiters = _uff_delimiters(path)
    try:
        sets = pyuff.UFF(str(path)).read_sets()
    except Exception as exc:  # noqa: BLE001 (pyuff raises many kinds on a malformed file)
        raise RecordFileError(f"{name}: not a readable UFF file ({type(exc).__name__}: {exc})") from None
    sets = [sets] if isinstance(sets, dict) else list(sets)
    if delimiters % 2:
        raise RecordFileError(
            f"{name}: the file is truncated: its last dataset has no closing '-1' delimiter "
            f"({len(sets)} complete datasets before it); copy the file again"
        )
    sets = [d for d in sets if d.get("type") == 58]
    if not sets:
        raise RecordFileError(f"{name}: no dataset 58 (function at a node) in the file")
    labels, columns, t = [], [], None
    for k, d in enumerate(sets, start=1):
        where = f"{name}: dataset 58 number {k}"
        declared, held = int(d.get("num_pts", len(d["data"]))), len(d["data"])
        if held != declared:
            raise RecordFileError(
                f"{where}: {held} values where its header declares {declared}: the file is truncated "
                "or damaged; copy it again"
            )
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
    cols, labels = _parse_header(name, ["time", *labels], structure)
    if checks.get("require_force", True) and not any(k == "force" for k, _, _ in cols):
        raise RecordFileError(
            f"{name}: no excitation-force channel (data type 13); the applied force must be recorded"
        )
    data = np.column_stack([t, *columns])
    bad = np.argwhere(~np.isfinite(data))
    if bad.size:
        i, j = bad[0]
        raise RecordFileError(f"{name}: sample {int(i)} of '{(['time', *labels])[j]}' is not a finite number")
    return _checked(name, cols, labels, data, checks.get("min_samples", 32), checks.get("regular_rtol", 1e-3))


def _uff_delimiters(path: Path) -> int:
    """The number of ``-1`` delimiter lines of a UFF file (two per complete dataset).

    Raises if the file does not open as UFF does, with a delimiter line:
    a CSV or other text file named ``.unv`` is "not a UFF file".
    """
    lines = path.read_bytes().splitlines()
    first = next((ln.strip() for ln in lines if ln.strip()), b"")
    if first != b"-1":
        raise RecordFileError(
            f"{path}: not a UFF file (a UFF file opens with a line '    -1'); a CSV record is read "
            "under a name ending in .csv"
        )
    return sum(1 for ln in lines if ln.strip() == b"-1")


def read_record(path, structure: Structure, **checks) -> MeasuredRecord:
    """A record file by its extension: ``.uff``/``.unv`` (UFF-58), anything else CSV."""
    if Path(path).suffix.lower() in (".uff", ".unv"):
        return read_record_uff(path, structure, **checks)
    return read_record_csv(path, structure, **checks)
