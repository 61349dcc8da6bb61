"""The reference's manifest: what a reference holds, each file's class from the run's provenance,
the run's seed scatter, and the manifest's file paths checked to stay inside their folder."""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path, PurePosixPath

import numpy as np

from ...results.identification import SeedGroupSummary

__all__ = [
    "RTOL",
    "ATOL",
    "PUBLISHED",
    "classify",
    "seed_scatter",
    "sha256_of",
    "listed_paths",
    "published_files",
]

RTOL = 1e-6
"""Relative tolerance of deterministic numbers (rounding across machines and libraries)."""
ATOL = 1e-12
PUBLISHED = ("tables/*.csv", "tables/*.md", "values/**/*.json", "figures/**/*.png")
"""What a reference holds, as patterns under ``results/`` (no records, checkpoints or raw runs)."""
IDENTIFY = "results/identify/"


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
        try:  # a file that is unreadable, or of another schema version, is left out
            d = SeedGroupSummary.load(f)
        except (OSError, ValueError):
            continue
        if d.n_seeds < 2:
            continue
        groups += 1
        for block in (d.errors, d.fit):
            for k, v in block.items():
                if v.n < 2:
                    continue
                mean, std = v.mean, v.std
                if mean and std is not None and math.isfinite(mean) and math.isfinite(std):
                    per.setdefault(k, []).append(abs(std / mean))
    metrics = {k: float(np.median(v)) for k, v in sorted(per.items()) if not k.startswith("sigma_pct_")}
    pooled = [x for k, v in per.items() for x in v]
    return {"metrics": metrics, "pooled": float(np.median(pooled)) if pooled else None, "groups": groups}


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes (:func:`tensegrity_id.results.provenance.file_sha256`)."""
    from ...results.provenance import file_sha256

    return file_sha256(path)


def published_files(results: Path) -> list[Path]:
    out = set()
    for pattern in PUBLISHED:
        out.update(p for p in results.glob(pattern) if p.is_file())
    return sorted(out)


def listed_paths(folder: Path, manifest: dict) -> list[Path]:
    """The files a manifest lists, as paths inside ``folder``.

    Raises ``ValueError``, before anything is read or removed, for an entry that is not a relative
    ``results/...`` path or that leaves ``folder`` (``..``, an absolute path, a link out of it): a
    doctored or corrupt manifest must not steer a deletion or a comparison elsewhere.
    """
    root = folder.resolve()
    out = []
    for i, entry in enumerate(manifest.get("files") or []):
        raw = entry.get("path") if isinstance(entry, dict) else None
        p = PurePosixPath(raw) if isinstance(raw, str) else None
        if p is None or p.is_absolute() or p.parts[:1] != ("results",) or ".." in p.parts or len(p.parts) < 2:
            raise ValueError(
                f"{folder / 'MANIFEST.json'}: files[{i}].path {raw!r} is not a path inside the reference "
                "(results/<folder>/<file>, no '..'); the manifest is corrupt: restore it from git"
            )
        target = folder / Path(*p.parts[1:])
        if root not in target.resolve().parents:
            raise ValueError(
                f"{folder / 'MANIFEST.json'}: files[{i}].path {raw!r} resolves outside {folder} "
                "(a link?); the manifest or the folder is corrupt: restore it from git"
            )
        out.append(target)
    return out
