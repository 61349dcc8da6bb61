"""Reference results: publish a finished run's outputs, and compare a run with them.

Publish (after a finished run, e.g. the paper grid)::

    python -m tensegrity_id.workflow.reference publish --results results \\
        --out resources/reference/paper --config config/paper.yaml \\
        --command "snakemake --cores 2 --configfile config/paper.yaml" \\
        --wall-s 14400 --cpu-s 27000 --peak-rss-mb 3100

copies ``results/tables/*.{csv,md}``, ``results/values/**.json`` and
``results/figures/**.png`` under ``--out`` (the same relative paths), and
writes ``MANIFEST.json``: every file with its sha256, size and class, the
commit, date, cores and library versions, the wall and CPU time, peak memory,
the command and the configs, and the run's seed scatter.

Compare (after your own run, on a laptop or a cluster)::

    python -m tensegrity_id.workflow.reference compare results \\
        [--reference resources/reference/paper] [--json report.json]

prints, per reference file found in ``results``: ``equal`` (to rounding),
``within scatter`` or ``different`` (with the first differing values), and
lists the reference files your run did not produce.  Exit status 0 when no
file is ``different`` and at least one was compared, 1 otherwise, 2 on a
usage error.

Classes.  A file is ``stochastic`` when the run produced it from an
identification result (a transitive input under ``results/identify/``, read
from Snakemake's own provenance records, ``.snakemake/metadata``): training
in float32 amplifies rounding differences between machines and libraries up to
the seed scatter.  Every other file is ``deterministic`` (structures, records,
Fisher and statics values) and must agree to ``RTOL``.  A stochastic number
is within scatter when ``|here - reference| <= SEED_K * s * |reference|``,
``s`` the run's pooled relative seed scatter (the median, over every seed
group of two or more seeds, of each metric's standard deviation over its
mean; recorded in the manifest), with ``SEED_K`` the scorecard's.  Labels
(outcomes, statuses) must be equal in either class.  Timing fields (wall
times, rates) are ignored.
"""

from __future__ import annotations

import argparse
import base64
import datetime as _dt
import hashlib
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np

from ..report.scorecard import SEED_K

__all__ = [
    "RTOL",
    "PUBLISHED",
    "classify",
    "seed_scatter",
    "publish",
    "compare",
    "CompareReport",
    "STATUSES",
    "main",
]

RTOL = 1e-6
"""Relative tolerance of deterministic numbers (rounding across machines and libraries)."""
ATOL = 1e-12
PUBLISHED = ("tables/*.csv", "tables/*.md", "values/**/*.json", "figures/**/*.png")
"""What a reference holds, as patterns under ``results/`` (no records, checkpoints or raw runs)."""
TIMING = ("*wall*", "steps_per_s", "elapsed*", "time_s", "sec_per_*", "*_seconds")
"""Keys and columns that hold timings (ignored)."""
TIMED_CLAIM = re.compile(r"wall|sec_per")
IDENTIFY = "results/identify/"
STATUSES = ("equal", "within scatter", "different", "not compared", "not produced")


# ------------------------------------------------------------------ provenance
def _metadata(workdir: Path) -> dict[str, list[str]]:
    """Output path -> its job's input paths, from Snakemake's ``.snakemake/metadata`` records."""
    out = {}
    folder = workdir / ".snakemake" / "metadata"
    if not folder.is_dir():
        return out
    for f in folder.rglob("*"):
        if not f.is_file():
            continue
        # the record's name is the output path, urlsafe-base64 encoded and, where longer than a file
        # name may be, split into folders whose names start with "@" (snakemake.persistence)
        parts = f.relative_to(folder).parts
        b64 = "".join(p[1:] if p.startswith("@") else p for p in parts)
        try:
            name = base64.urlsafe_b64decode(b64).decode()
            out[name] = list(json.loads(f.read_text()).get("input") or [])
        except (ValueError, UnicodeDecodeError, OSError):
            continue
    return out


def classify(workdir: Path, files: list[str]) -> dict[str, str]:
    """``stochastic`` or ``deterministic`` for each ``results/...`` path, from the run's provenance.

    Raises ``ValueError`` when the run left no provenance (no ``.snakemake/metadata``): without it
    a deterministic file cannot be told from a stochastic one.
    """
    meta = _metadata(workdir)
    if not meta:
        raise ValueError(
            f"{workdir}: no Snakemake provenance (.snakemake/metadata); publish from the working "
            "directory of the finished run"
        )
    memo: dict[str, bool] = {}

    def from_identify(path: str, seen: frozenset = frozenset()) -> bool:
        if path.startswith(IDENTIFY):
            return True
        if path in memo:
            return memo[path]
        if path in seen:
            return False
        memo[path] = any(from_identify(p, seen | {path}) for p in meta.get(path, []))
        return memo[path]

    return {f: "stochastic" if from_identify(f) else "deterministic" for f in files}


def seed_scatter(results: Path) -> dict:
    """The run's relative seed scatter: per metric, the median over seed groups (two or more seeds)
    of its standard deviation over its mean; ``pooled`` the median over all; ``groups`` their count."""
    per: dict[str, list[float]] = {}
    groups = 0
    for f in sorted((results / "identify").rglob("*_seeds_steps*.json")):
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        if int(d.get("n_seeds") or 0) < 2:
            continue
        groups += 1
        for block in ("errors", "fit"):
            for k, v in (d.get(block) or {}).items():
                if not isinstance(v, dict) or (v.get("n") or 0) < 2:
                    continue
                mean, std = v.get("mean"), v.get("std")
                if mean and std is not None and math.isfinite(mean) and math.isfinite(std):
                    per.setdefault(k, []).append(abs(std / mean))
    metrics = {k: float(np.median(v)) for k, v in sorted(per.items()) if not k.startswith("sigma_pct_")}
    pooled = [x for k, v in per.items() for x in v]
    return {"metrics": metrics, "pooled": float(np.median(pooled)) if pooled else None, "groups": groups}


# ------------------------------------------------------------------ publish
def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _published_files(results: Path) -> list[Path]:
    out = set()
    for pattern in PUBLISHED:
        out.update(p for p in results.glob(pattern) if p.is_file())
    return sorted(out)


def _git(cwd: Path, *args) -> str | None:
    try:
        return subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _versions() -> dict:
    out = {"python": platform.python_version()}
    for name in ("numpy", "scipy", "torch", "snakemake", "pandas"):
        try:
            out[name] = __import__(name).__version__
        except Exception:  # noqa: BLE001 (an absent or broken package: not recorded)
            out[name] = None
    return out


def _clear_previous(out: Path) -> None:
    """Remove a previous reference's files (those its manifest lists) before publishing anew; refuse a
    non-empty folder without a manifest, so a mistyped ``--out`` loses nothing."""
    if not out.exists():
        return
    manifest = out / "MANIFEST.json"
    if not manifest.is_file():
        if any(out.iterdir()):
            raise ValueError(
                f"{out}: not empty and no MANIFEST.json; pass --out an empty or a reference folder"
            )
        return
    for entry in json.loads(manifest.read_text()).get("files", []):
        (out / Path(entry["path"]).relative_to("results")).unlink(missing_ok=True)
    manifest.unlink()
    for d in sorted((p for p in out.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(d.iterdir()):
            d.rmdir()


def publish(
    results: Path,
    out: Path,
    *,
    command: str,
    configs: list[str],
    wall_s: float | None = None,
    cpu_s: float | None = None,
    peak_rss_mb: float | None = None,
    date: str | None = None,
    notes: list[str] | None = None,
) -> dict:
    """Copy a finished run's published files to ``out`` and write ``out/MANIFEST.json``; returns it.

    ``notes``: how the run was made where one command does not say it all (a
    run resumed across sessions, how the CPU time was counted), kept verbatim.
    """
    results = Path(results)
    workdir = results.resolve().parent
    files = _published_files(results)
    if not files:
        raise ValueError(f"{results}: nothing to publish (no tables, values or figures)")
    rel = [f"results/{p.relative_to(results).as_posix()}" for p in files]
    classes = classify(workdir, rel)
    _clear_previous(Path(out))
    entries = []
    for p, r in zip(files, rel, strict=True):
        dest = out / p.relative_to(results)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, dest)
        entries.append({"path": r, "sha256": _sha256(p), "bytes": p.stat().st_size, "class": classes[r]})
    manifest = {
        "command": command,
        "configs": list(configs),
        "commit": _git(workdir, "rev-parse", "HEAD"),
        "date": date or _dt.date.today().isoformat(),
        "machine": {
            "cores": os.cpu_count(),
            "platform": platform.platform(),
            "processor": platform.processor(),
        },
        "versions": _versions(),
        "wall_s": wall_s,
        "cpu_s": cpu_s,
        "peak_rss_mb": peak_rss_mb,
        "notes": list(notes or []),
        "seed_scatter": seed_scatter(results),
        "seed_k": SEED_K,
        "rtol": RTOL,
        "files": entries,
    }
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


# ------------------------------------------------------------------ compare
@dataclass
class FileComparison:
    path: str
    cls: str
    status: str  # equal | within scatter | different | not compared | not produced
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
        return 0 if self.compared and not self.count("different") else 1

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
    """Compare ``results`` (a run's ``results/`` folder) with a published reference."""
    results, reference = Path(results), Path(reference)
    manifest = json.loads((reference / "MANIFEST.json").read_text())
    rel = (manifest.get("seed_scatter") or {}).get("pooled")
    report = CompareReport(str(reference), str(results))
    for entry in manifest["files"]:
        path, cls = entry["path"], entry["class"]
        sub = Path(path).relative_to("results")
        ref, here = reference / sub, results / sub
        if not here.is_file():
            report.files.append(FileComparison(path, cls, "not produced"))
            continue
        cells = _Cells(cls, rel)
        suffix = sub.suffix
        if _sha256(here) == entry["sha256"]:
            pass
        elif suffix == ".csv":
            _compare_csv(ref, here, cells)
        elif suffix == ".json":
            cells.walk("", json.loads(ref.read_text()), json.loads(here.read_text()))
        else:  # markdown twins of the CSV tables and figures: compared through the tables and values
            twin = "a table's or a value file's twin, compared through it"
            report.files.append(FileComparison(path, cls, "not compared", twin))
            continue
        report.files.append(FileComparison(path, cls, cells.status, "; ".join(cells.notes)))
    return report


# ------------------------------------------------------------------ command line
def _print(report: CompareReport) -> None:
    width = max((len(f.path) for f in report.files), default=10)
    for f in report.files:
        if f.status in ("not produced", "not compared"):
            continue
        line = f"{f.path:<{width}}  {f.cls:<13}  {f.status}"
        print(line + (f"  ({f.detail})" if f.detail and f.status == "different" else ""))
    counts = report.to_dict()["counts"]
    print(
        f"\n{report.compared} files compared with {report.reference}: "
        + ", ".join(f"{counts[k]} {k}" for k in ("equal", "within scatter", "different"))
        + f"; {counts['not compared']} figures and Markdown twins not compared; "
        + f"{counts['not produced']} reference files not produced by this run"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tensegrity_id.workflow.reference", description=__doc__.splitlines()[0]
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("publish", help="copy a finished run's outputs into a reference folder")
    p.add_argument("--results", default="results", type=Path)
    p.add_argument("--out", default="resources/reference/paper", type=Path)
    p.add_argument("--command", required=True, help="the command that produced the run")
    p.add_argument("--config", action="append", default=[], help="a config file of the run (repeatable)")
    p.add_argument("--wall-s", type=float)
    p.add_argument("--cpu-s", type=float)
    p.add_argument("--peak-rss-mb", type=float)
    p.add_argument("--date")
    p.add_argument("--note", action="append", default=[], help="a note on how the run was made (repeatable)")
    c = sub.add_parser("compare", help="compare a run's results/ with a reference")
    c.add_argument("results", type=Path)
    c.add_argument("--reference", default="resources/reference/paper", type=Path)
    c.add_argument("--json", type=Path, help="also write the report as JSON")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "publish":
            m = publish(
                args.results,
                args.out,
                command=args.command,
                configs=args.config,
                wall_s=args.wall_s,
                cpu_s=args.cpu_s,
                peak_rss_mb=args.peak_rss_mb,
                date=args.date,
                notes=args.note,
            )
            print(f"published {len(m['files'])} files to {args.out} (MANIFEST.json)")
            if m["commit"] is None:
                print("warning: the run's folder is no git working tree; no commit recorded", file=sys.stderr)
            return 0
        if not (args.reference / "MANIFEST.json").is_file():
            raise ValueError(f"{args.reference}: no MANIFEST.json; pass --reference the published folder")
        if not args.results.is_dir():
            raise ValueError(f"{args.results}: not a folder; pass your run's results/ folder")
        report = compare(args.results, args.reference)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _print(report)
    if args.json:
        args.json.write_text(json.dumps(report.to_dict(), indent=1) + "\n")
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
