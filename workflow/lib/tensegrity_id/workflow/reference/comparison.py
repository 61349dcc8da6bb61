"""Compare a run's results with a published reference, after checking the reference's own hashes."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np

from ...data.runio import read_json
from ...report.scorecard import SEED_K
from .manifest import ATOL, RTOL, listed_paths, sha256_of

__all__ = ["STATUSES", "BROKEN", "FileComparison", "CompareReport", "compare"]

TIMING = ("*wall*", "steps_per_s", "elapsed*", "time_s", "sec_per_*", "*_seconds")
"""Keys and columns that hold timings (ignored)."""
TIMED_CLAIM = re.compile(r"wall|sec_per")
STATUSES = (
    "equal",
    "within scatter",
    "different",
    "not compared",
    "not produced",
    "reference changed",
    "reference missing",
)
BROKEN = ("reference changed", "reference missing")
"""A reference file whose bytes are not those its manifest's sha256 records, or that is gone: the
reference itself is damaged, so nothing is compared against it and the comparison fails."""


# ------------------------------------------------------------------ compare
@dataclass
class FileComparison:
    path: str
    cls: str
    status: str  # one of STATUSES
    detail: str = ""


@dataclass
class CompareReport:
    reference: str
    results: str
    files: list[FileComparison] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)

    @property
    def compared(self) -> int:
        return sum(f.status in ("equal", "within scatter", "different") for f in self.files)

    def exit_code(self) -> int:
        bad = self.count("different") + sum(self.count(s) for s in BROKEN)
        return 0 if self.compared and not bad else 1

    def to_dict(self) -> dict:
        return {
            "reference": self.reference,
            "results": self.results,
            "counts": {s: self.count(s) for s in STATUSES},
            "files": [vars(f) for f in self.files],
        }


def _timing(key: str) -> bool:
    return any(fnmatchcase(str(key), p) for p in TIMING)


def _number(x):
    """A float for a numeric cell (numbers and numeric strings), else None."""
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, float, np.integer, np.floating)):
        return float(x)
    try:
        return float(str(x).strip())
    except ValueError:
        return None


class _Cells:
    """Walks two values cell by cell and keeps the worst verdict with its first differing cells."""

    def __init__(self, cls: str, rel_scatter: float | None):
        self.cls, self.rel = cls, rel_scatter
        self.status = "equal"
        self.notes: list[str] = []

    def _worse(self, status: str, where: str, a, b) -> None:
        order = ("equal", "within scatter", "different")
        if order.index(status) > order.index(self.status):
            self.status = status
        if status == "different" and len(self.notes) < 3:
            self.notes.append(f"{where}: reference {a!r}, here {b!r}")

    def cell(self, where: str, a, b) -> None:
        x, y = _number(a), _number(b)
        if x is None or y is None:
            if str(a) != str(b) and not (_is_missing(a) and _is_missing(b)):
                self._worse("different", where, a, b)
            return
        if (math.isnan(x) and math.isnan(y)) or x == y:
            return
        if not (math.isfinite(x) and math.isfinite(y)):
            self._worse("different", where, a, b)
            return
        if abs(x - y) <= ATOL + RTOL * abs(x):
            return
        if self.cls == "stochastic" and self.rel is not None and abs(x - y) <= SEED_K * self.rel * abs(x):
            self._worse("within scatter", where, a, b)
            return
        self._worse("different", where, a, b)

    def walk(self, where: str, a, b) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b), key=str):
                if _timing(k):
                    continue
                if k not in a or k not in b:
                    self._worse("different", f"{where}.{k}", a.get(k, "(absent)"), b.get(k, "(absent)"))
                else:
                    self.walk(f"{where}.{k}", a[k], b[k])
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                self._worse("different", f"{where} (length)", len(a), len(b))
                return
            for i, (u, v) in enumerate(zip(a, b, strict=True)):
                self.walk(f"{where}[{i}]", u, v)
        else:
            self.cell(where, a, b)


def _is_missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x)) or str(x).strip() in ("", "nan", "None")


def _compare_csv(ref: Path, here: Path, cells: _Cells) -> None:
    import pandas as pd

    a, b = (
        pd.read_csv(ref, dtype=str, keep_default_na=False),
        pd.read_csv(here, dtype=str, keep_default_na=False),
    )
    cols = [c for c in a.columns if not _timing(c)]
    if [c for c in b.columns if not _timing(c)] != cols or len(a) != len(b):
        cells._worse("different", "shape", f"{len(a)} rows {cols}", f"{len(b)} rows {list(b.columns)}")
        return
    for i in range(len(a)):
        if "id" in a.columns and TIMED_CLAIM.search(a["id"].iloc[i]):  # the scorecard's wall-time claims
            continue
        for c in cols:
            cells.cell(f"row {i} {c}", a[c].iloc[i], b[c].iloc[i])


def compare(results: Path, reference: Path) -> CompareReport:
    """Compare ``results`` (a run's ``results/`` folder) with a published reference.

    Every reference file is first checked against its manifest's sha256: one that changed after
    publishing (``reference changed``) or is gone (``reference missing``) is named, not compared,
    and fails the comparison.  Raises ``ValueError`` for a manifest whose paths leave the folder.
    """
    results, reference = Path(results), Path(reference)
    try:
        manifest = json.loads((reference / "MANIFEST.json").read_text())
    except ValueError as exc:
        raise ValueError(f"{reference / 'MANIFEST.json'}: not JSON ({exc}); restore it from git") from None
    refs = listed_paths(reference, manifest)
    rel = (manifest.get("seed_scatter") or {}).get("pooled")
    report = CompareReport(str(reference), str(results))
    for entry, ref in zip(manifest["files"], refs, strict=True):
        path, cls = entry["path"], entry.get("class", "deterministic")
        sub = ref.relative_to(reference)
        here = results / sub
        if not ref.is_file():
            report.files.append(FileComparison(path, cls, "reference missing", f"{ref} is gone"))
            continue
        digest = sha256_of(ref)
        if digest != entry.get("sha256"):
            detail = f"{ref}: sha256 {digest[:12]}…, the manifest records {str(entry.get('sha256'))[:12]}…"
            report.files.append(FileComparison(path, cls, "reference changed", detail))
            continue
        if not here.is_file():
            report.files.append(FileComparison(path, cls, "not produced"))
            continue
        cells = _Cells(cls, rel)
        suffix = sub.suffix
        if sha256_of(here) == digest:
            pass
        elif suffix == ".csv":
            _compare_csv(ref, here, cells)
        elif suffix == ".json":
            # read_json leaves out the provenance object (what made the file: the commit, the inputs'
            # hashes): it differs between runs at two commits whose numbers agree, and a reference
            # published before result files carried one has none
            cells.walk("", read_json(ref), read_json(here))
        else:  # markdown twins of the CSV tables and figures: compared through the tables and values
            twin = "a table's or a value file's twin, compared through it"
            report.files.append(FileComparison(path, cls, "not compared", twin))
            continue
        report.files.append(FileComparison(path, cls, cells.status, "; ".join(cells.notes)))
    return report
