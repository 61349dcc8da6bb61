"""Compare two ``results/`` trees of the workflow: the proof that a refactor changed nothing.

Usage::

    python tests/compare_results.py OLD NEW [--json REPORT] [--ignore-key KEY ...] [--no-default-ignores]
                                   [--rename OLD=NEW ...]

``OLD`` and ``NEW`` are two ``results/`` folders (or two working directories that each hold a
``results/`` folder).  Both trees are walked; every file is classified by its extension and compared:

* ``json``  parsed and compared recursively and exactly (floats bit for bit, ``NaN == NaN``, ``0.0 != -0.0``),
  except timing fields, ignored at any depth (see ``DEFAULT_IGNORED``), and the ``provenance``
  object at the top of a result file (what made it: the commit, the inputs' hashes), never compared:
  two runs at different commits that agree in every number differ there; the first differing path
  (e.g. ``errors.sigma_pct[3]``) is reported with both values.
* ``csv``   read with pandas: same columns, same shape, exactly equal values (``NaN == NaN``), except
  columns whose names match an ignored key (timing columns such as ``wall_s``).
* ``npz``   same array names, shapes, dtypes and exactly equal values (object arrays compared as lists).
* ``png``   decoded pixels (``matplotlib.image.imread``) equal; else the fraction of differing pixels.
* ``md``    exact text; the first differing line is reported (as ``text``), with a note when the
  differing lines differ only in numbers (e.g. timing columns of a table).
* ``pdf``   bytes with the embedded ``/CreationDate`` and ``/ModDate`` masked (matplotlib writes them).
* ``other`` bytes (first differing line when both are text).

Skipped: ``checkpoints/`` and ``benchmarks/`` (timings), hidden files and folders, temporary files.

Ignored keys are shell-style patterns matched against JSON keys and CSV column names;
``--ignore-key`` adds one (repeatable), ``--no-default-ignores`` drops the defaults.

Exit status: 0 when nothing differs and no file is missing on either side (PDF byte differences are
allowed), 1 otherwise, 2 on a usage error.  ``--json REPORT`` writes the summary as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_IGNORED = (
    "wall_s",
    "train_wall_s",
    "steps_per_s",
    "elapsed",
    "elapsed_s",
    "time_s",
    "*_wall_s",
    "wall_*",
    "sec_per_*",
    "*_seconds",
)
PROVENANCE_KEY = "provenance"
"""A result file's provenance object (``tensegrity_id.data.runio.PROVENANCE_KEY``): never compared."""
SKIP_DIRS = ("checkpoints", "benchmarks")
TEMP_SUFFIXES = ("~", ".tmp", ".temp", ".swp", ".swo", ".part", ".partial", ".bak", ".pyc")
TYPES = ("json", "csv", "npz", "png", "md", "pdf", "other")
STATUSES = ("equal", "different", "not_compared", "only_old", "only_new")
FAILING = ("different", "only_old", "only_new")
EXTENSIONS = {".json": "json", ".csv": "csv", ".npz": "npz", ".png": "png", ".md": "md", ".pdf": "pdf"}
MAX_REPR = 80
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\b(?:nan|NaN|inf|Inf)\b")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class FileResult:
    """The outcome for one relative path: its type, status (one of ``STATUSES``) and a detail line."""

    path: str
    type: str
    status: str
    detail: str = ""
    ignored_only: bool = False  # equal only after ignoring timing fields or provenance (the bytes differ)


@dataclass
class Report:
    """All file results of one comparison, with the settings used."""

    old: str
    new: str
    ignored: list[str]
    skipped_dirs: list[str] = field(default_factory=lambda: list(SKIP_DIRS))
    files: list[FileResult] = field(default_factory=list)

    def counts(self) -> dict[str, dict[str, int]]:
        """Per type, the number of files with each status."""
        table = {t: dict.fromkeys(STATUSES, 0) for t in TYPES}
        for r in self.files:
            table[r.type][r.status] += 1
        return table

    def with_status(self, *statuses: str) -> list[FileResult]:
        """The file results whose status is one of ``statuses``."""
        return [r for r in self.files if r.status in statuses]

    @property
    def ok(self) -> bool:
        """True when nothing differs and no file is missing (PDFs not compared are allowed)."""
        return not self.with_status(*FAILING)

    def exit_code(self) -> int:
        """0 when ``ok``, else 1."""
        return 0 if self.ok else 1

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data for ``--json``."""
        return {
            "old": self.old,
            "new": self.new,
            "ignored_keys": self.ignored,
            "skipped_dirs": self.skipped_dirs,
            "ok": self.ok,
            "exit_code": self.exit_code(),
            "counts": self.counts(),
            "different": [asdict(r) for r in self.with_status("different")],
            "only_old": [r.path for r in self.with_status("only_old")],
            "only_new": [r.path for r in self.with_status("only_new")],
            "pdf_not_compared": [r.path for r in self.with_status("not_compared")],
            "equal_after_ignoring": [r.path for r in self.files if r.ignored_only],
        }


# ---------------------------------------------------------------------------------------------- helpers


def is_ignored(name: Any, patterns: tuple[str, ...] | list[str]) -> bool:
    """Whether a JSON key or CSV column name matches one of the ignored-key patterns."""
    return isinstance(name, str) and any(fnmatchcase(name, p) for p in patterns)


def short(value: Any) -> str:
    """A repr of ``value`` cut to ``MAX_REPR`` characters (floats keep full precision)."""
    text = repr(value)
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


def file_type(path: str) -> str:
    """The comparison type of a file from its extension: one of ``TYPES``."""
    return EXTENSIONS.get(os.path.splitext(path)[1].lower(), "other")


def is_skipped_name(name: str) -> bool:
    """Hidden (leading dot) or temporary files and folders."""
    return name.startswith((".", "#")) or name.endswith(TEMP_SUFFIXES) or name == "__pycache__"


def is_skipped_dir(rel_parts: tuple[str, ...]) -> bool:
    """``checkpoints/`` and ``benchmarks/`` at the top of the tree, or right under a top ``results/``."""
    if len(rel_parts) == 1:
        return rel_parts[0] in SKIP_DIRS
    return len(rel_parts) == 2 and rel_parts[0] == "results" and rel_parts[1] in SKIP_DIRS


def walk(root: Path) -> set[str]:
    """The relative POSIX paths of the files under ``root`` that are compared."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        dirnames[:] = sorted(
            d for d in dirnames if not is_skipped_name(d) and not is_skipped_dir((*rel.parts, d))
        )
        for name in filenames:
            if not is_skipped_name(name):
                found.add((rel / name).as_posix())
    return found


def floats_equal(a: float, b: float) -> bool:
    """Bit-for-bit float equality, except that any NaN equals any NaN (and ``0.0 != -0.0``)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def is_missing(x: Any) -> bool:
    """None, NaN, pandas NA or NaT: the missing values that compare equal to each other."""
    if x is None:
        return True
    if isinstance(x, (float, np.floating)):
        return bool(np.isnan(x))
    try:
        import pandas as pd

        return x is pd.NA or x is pd.NaT
    except ImportError:  # pragma: no cover - pandas is a dependency
        return False


def values_equal(a: Any, b: Any) -> bool:
    """Exact equality of plain or numpy values, lists, tuples, dicts and arrays, with NaN equal to NaN."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        return a.shape == b.shape and a.dtype == b.dtype and array_diff(a, b) is None
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(values_equal(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and a.keys() == b.keys()
            and all(values_equal(a[k], b[k]) for k in a)
        )
    if is_missing(a) or is_missing(b):
        return is_missing(a) and is_missing(b) and type(a) is type(b)
    if isinstance(a, (float, np.floating)) and isinstance(b, (float, np.floating)):
        return type(a) is type(b) and floats_equal(float(a), float(b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _float_mask(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise bit-for-bit equality of two real float arrays (NaN equals NaN)."""
    nan = np.isnan(a) & np.isnan(b)
    return nan | ((a == b) & (np.signbit(a) == np.signbit(b)))


def equal_mask(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise exact equality of two arrays of the same shape and dtype."""
    kind = a.dtype.kind
    if kind == "f":
        return _float_mask(a, b)
    if kind == "c":
        return _float_mask(a.real, b.real) & _float_mask(a.imag, b.imag)
    if kind in "mM":
        return (np.isnat(a) & np.isnat(b)) | (a == b)
    if kind in "OV":  # objects and structured records: compared as lists
        flat = [values_equal(x, y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist(), strict=True)]
        return np.array(flat, dtype=bool).reshape(a.shape)
    return np.asarray(a == b, dtype=bool).reshape(a.shape)


def array_diff(a: np.ndarray, b: np.ndarray) -> tuple[int, tuple[int, ...], Any, Any] | None:
    """None if equal, else (number of differing elements, first differing index, old value, new value)."""
    diff = ~equal_mask(a, b)
    n = int(np.count_nonzero(diff))
    if n == 0:
        return None
    index = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(diff)[0]), a.shape))
    return n, index, a[index], b[index]


# ---------------------------------------------------------------------------------------- per type


def join_key(path: str, key: Any) -> str:
    """A JSON path extended by a key: ``a.b``, or ``a["odd key"]`` for keys that are not identifiers."""
    if isinstance(key, str) and _IDENT.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key)}]"


def json_diffs(a: Any, b: Any, ignored: tuple[str, ...], path: str = "") -> Iterator[tuple[str, str, str]]:
    """The differences of two parsed JSON values, depth first: (path, old, new) per difference.

    Keys matching ``ignored`` are skipped at any depth; key order does not matter; types must match
    (``1 != 1.0``, ``True != 1``)."""
    if type(a) is not type(b):
        yield path, short(a), short(b)
    elif isinstance(a, dict):
        keys_a = [k for k in a if not is_ignored(k, ignored)]
        keys_b = [k for k in b if not is_ignored(k, ignored)]
        for k in keys_a:
            if k not in b:
                yield join_key(path, k), short(a[k]), "<missing>"
            else:
                yield from json_diffs(a[k], b[k], ignored, join_key(path, k))
        for k in keys_b:
            if k not in a:
                yield join_key(path, k), "<missing>", short(b[k])
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from json_diffs(x, y, ignored, f"{path}[{i}]")
        if len(a) != len(b):
            yield path, f"<length {len(a)}>", f"<length {len(b)}>"
    elif isinstance(a, float):
        if not floats_equal(a, b):
            yield path, repr(a), repr(b)
    elif a != b:
        yield path, short(a), short(b)


def without_provenance(doc: Any) -> Any:
    """A parsed JSON document without its top-level provenance object (what made the file)."""
    if isinstance(doc, dict):
        return {k: v for k, v in doc.items() if k != PROVENANCE_KEY}
    return doc


def compare_json(old: Path, new: Path, ignored: tuple[str, ...]) -> str | None:
    """None if the JSON documents are equal (timing keys, provenance ignored), else the first difference."""
    a, b = (without_provenance(json.loads(p.read_text(encoding="utf-8"))) for p in (old, new))
    diffs = json_diffs(a, b, ignored)
    first = next(diffs, None)
    if first is None:
        return None
    n = 1 + sum(1 for _ in diffs)
    where, va, vb = first
    return f"json: {where or '<root>'}: old={va} new={vb} ({n} difference{'s' * (n > 1)})"


def compare_csv(old: Path, new: Path, ignored: tuple[str, ...]) -> str | None:
    """None if the tables are equal (timing columns ignored), else the first difference."""
    import pandas as pd

    a = pd.read_csv(old)
    b = pd.read_csv(new)
    cols_a, cols_b = [str(c) for c in a.columns], [str(c) for c in b.columns]
    if cols_a != cols_b:
        only_a = [c for c in cols_a if c not in cols_b]
        only_b = [c for c in cols_b if c not in cols_a]
        if only_a or only_b:
            return f"csv: columns differ: only old {only_a}, only new {only_b}"
        return f"csv: column order differs: old {cols_a}, new {cols_b}"
    if a.shape != b.shape:
        return f"csv: shape differs: old {a.shape}, new {b.shape}"
    n_cells, first = 0, None
    for j, col in enumerate(a.columns):
        if is_ignored(str(col), ignored):
            continue
        sa, sb = a.iloc[:, j], b.iloc[:, j]
        if sa.dtype != sb.dtype:
            first = first or f"column {str(col)!r}: dtype old {sa.dtype}, new {sb.dtype}"
            n_cells += len(sa)
            continue
        if sa.dtype.kind in "fc":
            mask = equal_mask(sa.to_numpy(), sb.to_numpy())
        else:
            pairs = zip(sa.tolist(), sb.tolist(), strict=True)
            mask = np.array([values_equal(x, y) for x, y in pairs], dtype=bool)
        bad = np.flatnonzero(~mask)
        if bad.size:
            n_cells += int(bad.size)
            if first is None:
                i = int(bad[0])
                first = f"column {str(col)!r} row {i}: old={short(sa.iloc[i])} new={short(sb.iloc[i])}"
    if first is None:
        return None
    return f"csv: {first} ({n_cells} differing cell{'s' * (n_cells > 1)})"


def _load_npz(path: Path) -> dict[str, np.ndarray]:
    """All arrays of an ``.npz`` file (object arrays are unpickled only when present)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except ValueError:
        with np.load(path, allow_pickle=True) as z:
            return {k: z[k] for k in z.files}


def compare_npz(old: Path, new: Path) -> str | None:
    """None if both archives hold the same arrays (names, shapes, dtypes, values), else the first one."""
    a, b = _load_npz(old), _load_npz(new)
    if sorted(a) != sorted(b):
        only_a = sorted(set(a) - set(b))
        only_b = sorted(set(b) - set(a))
        return f"npz: array names differ: only old {only_a}, only new {only_b}"
    for name in sorted(a):
        x, y = a[name], b[name]
        if x.shape != y.shape:
            return f"npz: {name}: shape old {x.shape}, new {y.shape}"
        if x.dtype != y.dtype:
            return f"npz: {name}: dtype old {x.dtype}, new {y.dtype}"
        d = array_diff(x, y)
        if d is not None:
            n, index, va, vb = d
            return (
                f"npz: {name}{list(index)}: old={short(va)} new={short(vb)} ({n} of {x.size} elements differ)"
            )
    return None


def compare_png(old: Path, new: Path) -> str | None:
    """None if the decoded pixels are equal, else the fraction of differing pixels."""
    from matplotlib.image import imread

    a, b = imread(old), imread(new)
    if a.shape != b.shape:
        return f"png: shape old {a.shape}, new {b.shape}"
    if a.dtype != b.dtype:
        return f"png: dtype old {a.dtype}, new {b.dtype}"
    mask = ~equal_mask(a, b)
    if a.ndim == 3:
        mask = mask.any(axis=2)
    n = int(np.count_nonzero(mask))
    if n == 0:
        return None
    row, col = (int(i) for i in np.argwhere(mask)[0])
    return f"png: {n} of {mask.size} pixels differ ({n / mask.size:.3%}); first at row {row}, col {col}"


def text_diff(a: str, b: str) -> str:
    """The first differing line of two different texts, the number of differing lines, and whether the
    differing lines differ only in numbers (e.g. timing columns of a table)."""
    la, lb = a.splitlines(), b.splitlines()
    bad = [i for i, (x, y) in enumerate(zip(la, lb, strict=False)) if x != y]
    if not bad and len(la) == len(lb):
        return "text: differs only in line endings or a trailing newline"
    parts = []
    if bad:
        i = bad[0]
        parts.append(f"first at line {i + 1}: old={short(la[i])} new={short(lb[i])}")
    n = len(bad) + abs(len(la) - len(lb))
    parts.append(f"{n} differing line{'s' * (n > 1)}")
    if len(la) != len(lb):
        parts.append(f"line count old {len(la)}, new {len(lb)}")
    elif all(_NUMBER.sub("#", la[i]) == _NUMBER.sub("#", lb[i]) for i in bad):
        parts.append("numbers only")
    return "text: " + "; ".join(parts)


def mask_markdown_tables(text: str, ignored: tuple[str, ...]) -> str:
    """The text with the cells of ignored columns (by their header) blanked in every Markdown table."""
    lines = text.splitlines()
    out, header = [], None
    for k, line in enumerate(lines):
        if not line.startswith("|"):
            header = None
            out.append(line)
            continue
        cells = line.strip().strip("|").split("|")
        nxt = lines[k + 1] if k + 1 < len(lines) else ""
        if header is None and nxt.startswith("|") and set(nxt.replace("|", "").strip()) <= {"-", ":", " "}:
            header = [c.strip() for c in cells]
        elif header is not None and len(cells) == len(header):
            cells = ["" if is_ignored(h, ignored) else c for h, c in zip(header, cells, strict=True)]
        out.append("|" + "|".join(cells) + "|")
    return "\n".join(out)


def compare_md(old: Path, new: Path, ignored: tuple[str, ...]) -> str | None:
    """Markdown compared as text after blanking ignored (timing) table columns; None when equal."""
    a = old.read_text(encoding="utf-8", errors="replace")
    b = new.read_text(encoding="utf-8", errors="replace")
    ma, mb = mask_markdown_tables(a, ignored), mask_markdown_tables(b, ignored)
    return None if ma == mb else text_diff(a, b)


_PDF_DATES = re.compile(rb"/(CreationDate|ModDate) *\(D:[^)]*\)")


def compare_pdf(old: Path, new: Path) -> str | None:
    """PDFs compared byte for byte with their embedded dates masked; None when equal."""
    a, b = (_PDF_DATES.sub(b"", p.read_bytes()) for p in (old, new))
    if a == b:
        return None
    offset = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"pdf: bytes differ beyond the embedded dates (sizes {len(a)}, {len(b)}; first at byte {offset})"


def compare_bytes(old: Path, new: Path) -> str:
    """A description of how two files with different bytes differ (first line when both are text)."""
    a, b = old.read_bytes(), new.read_bytes()
    try:
        return text_diff(a.decode("utf-8"), b.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    offset = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"bytes: sizes old {len(a)}, new {len(b)}; first difference at byte {offset}"


def compare_file(old: Path, new: Path, rel: str, ignored: tuple[str, ...]) -> FileResult:
    """Compare one file present in both trees by the rules of its type."""
    kind = file_type(rel)
    if old.read_bytes() == new.read_bytes():
        return FileResult(rel, kind, "equal")
    try:
        if kind == "json":
            detail = compare_json(old, new, ignored)
        elif kind == "csv":
            detail = compare_csv(old, new, ignored)
        elif kind == "npz":
            detail = compare_npz(old, new)
        elif kind == "png":
            detail = compare_png(old, new)
        elif kind == "pdf":
            detail = compare_pdf(old, new)
        elif kind == "md":
            detail = compare_md(old, new, ignored)
        else:
            detail = compare_bytes(old, new)
    except Exception as exc:  # an unreadable file is reported, not raised
        detail = f"{kind}: could not compare: {type(exc).__name__}: {exc}"
    if detail is None:
        return FileResult(
            rel, kind, "equal", "equal after ignoring timing fields or provenance", ignored_only=True
        )
    return FileResult(rel, kind, "different", detail)


def renamed(rel: str, renames: dict[str, str]) -> str:
    """An OLD tree's path under the NEW tree's names: each ``old -> new`` substring replaced once."""
    for a, b in renames.items():
        rel = rel.replace(a, b)
    return rel


def compare_trees(
    old: Path,
    new: Path,
    ignored: tuple[str, ...] | list[str] = DEFAULT_IGNORED,
    renames: dict[str, str] | None = None,
) -> Report:
    """Compare every file of the two trees; the files only on one side are reported too.

    ``renames`` maps a substring of OLD's paths to its NEW spelling (a renamed
    output): the file is compared with its renamed counterpart and reported
    under the NEW name.
    """
    ignored = tuple(ignored)
    old, new = Path(old), Path(new)
    origin = {renamed(rel, renames or {}): rel for rel in walk(old)}
    files_old, files_new = set(origin), walk(new)
    report = Report(old=str(old), new=str(new), ignored=list(ignored))
    for rel in sorted(files_old | files_new):
        if rel not in files_new:
            report.files.append(FileResult(origin[rel], file_type(rel), "only_old"))
        elif rel not in files_old:
            report.files.append(FileResult(rel, file_type(rel), "only_new"))
        else:
            report.files.append(compare_file(old / origin[rel], new / rel, rel, ignored))
    return report


# ---------------------------------------------------------------------------------------------- output


def format_report(report: Report) -> str:
    """The human-readable summary: settings, counts per type, the differing and missing files, the verdict."""
    lines = [
        f"OLD: {report.old}",
        f"NEW: {report.new}",
        f"ignored keys/columns: {', '.join(report.ignored) or '(none)'}",
        f"skipped: {', '.join(d + '/' for d in report.skipped_dirs)}, hidden and temporary files",
        "",
    ]
    lines.append(
        f"{'type':<6}{'equal':>11}{'different':>11}{'only-old':>11}{'only-new':>11}{'pdf-not-compared':>18}"
    )
    counts = report.counts()
    totals = dict.fromkeys(STATUSES, 0)
    for t in TYPES:
        c = counts[t]
        for s in STATUSES:
            totals[s] += c[s]
        lines.append(_count_row(t, c))
    lines.append(_count_row("total", totals))
    sections = [
        ("different", report.with_status("different"), True),
        ("only in OLD", report.with_status("only_old"), False),
        ("only in NEW", report.with_status("only_new"), False),
        ("pdf not compared (bytes differ)", report.with_status("not_compared"), False),
    ]
    for title, items, with_detail in sections:
        if items:
            lines += ["", f"{title} ({len(items)}):"]
            lines += [f"  {r.path}: {r.detail}" if with_detail else f"  {r.path}" for r in items]
    modulo = [r.path for r in report.files if r.ignored_only]
    if modulo:
        lines += ["", f"{len(modulo)} file(s) equal only after ignoring timing fields or provenance"]
    lines += ["", "RESULT: " + ("IDENTICAL" if report.ok else "DIFFERENT") + f" (exit {report.exit_code()})"]
    return "\n".join(lines)


def _count_row(name: str, c: dict[str, int]) -> str:
    """One row of the counts table."""
    return (
        f"{name:<6}{c['equal']:>11}{c['different']:>11}{c['only_old']:>11}{c['only_new']:>11}"
        f"{c['not_compared']:>18}"
    )


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    parser = argparse.ArgumentParser(
        prog="compare_results.py",
        description="Compare two results/ trees of the workflow (timing fields ignored).",
    )
    parser.add_argument("old", metavar="OLD", type=Path, help="the reference results/ tree")
    parser.add_argument("new", metavar="NEW", type=Path, help="the results/ tree to check")
    parser.add_argument("--json", metavar="REPORT", type=Path, help="also write the report as JSON here")
    parser.add_argument(
        "--ignore-key",
        metavar="KEY",
        action="append",
        default=[],
        help="a JSON key / CSV column to ignore (shell pattern, e.g. '*_wall_s'); repeatable; "
        f"added to the defaults: {', '.join(DEFAULT_IGNORED)}",
    )
    parser.add_argument("--no-default-ignores", action="store_true", help="ignore only the --ignore-key keys")
    parser.add_argument(
        "--rename",
        metavar="OLD=NEW",
        action="append",
        default=[],
        help="a renamed output: OLD's paths containing OLD are compared with NEW's paths with NEW there "
        "(e.g. table_s3=tableS3); repeatable",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; print the summary; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    for root in (args.old, args.new):
        if not root.is_dir():
            parser.error(f"not a directory: {root}")
    ignored = ([] if args.no_default_ignores else list(DEFAULT_IGNORED)) + args.ignore_key
    if any("=" not in r for r in args.rename):
        parser.error("--rename takes OLD=NEW")
    renames = dict(r.split("=", 1) for r in args.rename)
    report = compare_trees(args.old, args.new, tuple(dict.fromkeys(ignored)), renames)
    print(format_report(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
