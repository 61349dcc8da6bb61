"""Publish a finished run's tables, values and figures as a reference, never losing the previous one."""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ...report.scorecard import SEED_K
from .manifest import RTOL, classify, listed_paths, published_files, seed_scatter, sha256_of

__all__ = ["publish"]


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


def _previous(out: Path) -> tuple[dict | None, list[Path]]:
    """A previous reference in ``out``: its manifest and its listed files (checked), or ``(None, [])``
    for an absent or empty folder; a non-empty folder without a manifest is refused, so a mistyped
    ``--out`` loses nothing."""
    if not out.exists():
        return None, []
    if not out.is_dir():
        raise ValueError(f"{out}: not a folder; pass --out an empty or a reference folder")
    manifest = out / "MANIFEST.json"
    if not manifest.is_file():
        if any(out.iterdir()):
            raise ValueError(
                f"{out}: not empty and no MANIFEST.json; pass --out an empty or a reference folder"
            )
        return None, []
    try:
        previous = json.loads(manifest.read_text())
    except ValueError as exc:
        raise ValueError(f"{manifest}: not JSON ({exc}); restore it from git before publishing") from None
    return previous, listed_paths(out, previous)


def _retire(old: Path, listed: list[Path], kept: list[Path]) -> Path | None:
    """Remove a swapped-out previous reference: the files its manifest listed, the manifest, the
    files carried over into the new one (``kept``) and then its empty folders.  Anything else is
    left where it is and the folder returned (``None`` when it is gone)."""
    for p in [*listed, old / "MANIFEST.json", *kept]:
        p.unlink(missing_ok=True)
    for d in sorted((p for p in old.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(d.iterdir()):
            d.rmdir()
    if any(old.iterdir()):
        return old
    old.rmdir()
    return None


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
    replace: bool = False,
) -> dict:
    """Copy a finished run's published files to ``out`` and write ``out/MANIFEST.json``; returns it.

    Nothing already published is lost by a mistake:

    * a non-empty ``out`` without a manifest is refused, and so is a manifest any of whose paths
      leaves ``out`` (checked before anything is written);
    * a run that lacks files the previous reference lists (a partial run published over the
      paper-scale one) is refused with the missing files named, unless ``replace``;
    * the new reference is written whole into a temporary folder beside ``out`` (files, then the
      manifest) and swapped in by renames only then; files in ``out`` that the previous manifest
      does not list (notes of your own) are carried over.  A failure before the swap leaves ``out``
      as it was and removes only the temporary folder.

    ``notes``: how the run was made where one command does not say it all (a
    run resumed across sessions, how the CPU time was counted), kept verbatim.
    """
    results, out = Path(results), Path(out)
    workdir = results.resolve().parent
    files = published_files(results)
    if not files:
        raise ValueError(f"{results}: nothing to publish (no tables, values or figures)")
    rel = [f"results/{p.relative_to(results).as_posix()}" for p in files]
    previous, listed = _previous(out)
    if previous is not None and not replace:
        missing = sorted({f["path"] for f in previous.get("files") or []} - set(rel))
        if missing:
            shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
            raise ValueError(
                f"{results}: the run lacks {len(missing)} of the {len(previous['files'])} files the "
                f"reference in {out} lists ({shown}); publishing it would replace a more complete "
                "reference with a less complete one. Publish elsewhere (--out), finish the run, or "
                "pass --replace to replace it all the same"
            )
    classes = classify(workdir, rel)
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.publishing-", dir=out.parent))
    try:
        entries = []
        for p, r in zip(files, rel, strict=True):
            dest = stage / p.relative_to(results)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, dest)
            entries.append(
                {"path": r, "sha256": sha256_of(dest), "bytes": dest.stat().st_size, "class": classes[r]}
            )
        kept = []
        if previous is not None:  # files of the user's own in the old folder travel with the reference
            ours = {p.resolve() for p in listed} | {(out / "MANIFEST.json").resolve()}
            for p in sorted(out.rglob("*")):
                if p.is_file() and p.resolve() not in ours:
                    dest = stage / p.relative_to(out)
                    if dest.exists():
                        raise ValueError(
                            f"{p}: not listed in the previous manifest, but the run publishes a file "
                            "of that name; move it out of the reference folder first"
                        )
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(p, dest)
                    kept.append(p.relative_to(out))
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
        (stage / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)  # the temporary folder is ours alone
        raise
    if not out.exists():
        stage.rename(out)
        return manifest
    # the swap: the old folder aside, the new one in its place, then the old one retired
    old = out.parent / f".{out.name}.previous-{stage.name.rsplit('-', 1)[-1]}"
    out.rename(old)
    try:
        stage.rename(out)
    except BaseException:
        old.rename(out)
        shutil.rmtree(stage, ignore_errors=True)
        raise
    left = _retire(old, [old / p.relative_to(out) for p in listed], [old / k for k in kept])
    if left is not None:
        print(f"warning: {left} holds files neither manifest lists; left there", file=sys.stderr)
    return manifest
