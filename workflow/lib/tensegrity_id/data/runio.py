"""Small I/O helpers for the rule scripts: logs, and every output file written atomically.

Every file a rule writes goes through :func:`atomic_path`: the content is
written to a temporary file in the target's folder (same file system, so
``os.replace`` is atomic), which replaces the target only when complete.
An interrupted or failed write leaves no partial file and the previous file
untouched.  The finished file gets the mode ``0o666 & ~umask`` that a plain
``open()`` would give (``tempfile.mkstemp`` makes 0600 files, unreadable to
the group on a shared project folder).

A JSON result file may carry a ``provenance`` object (:data:`PROVENANCE_KEY`:
what made it, :mod:`tensegrity_id.results.provenance`): :func:`write_json`
writes it first where given, and :func:`read_json` leaves it out, so that no
reader takes it for a result (nor copies it into its own output).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import numpy as np

__all__ = [
    "PROVENANCE_KEY",
    "setup_log",
    "atomic_path",
    "write_text",
    "write_bytes",
    "write_json",
    "write_npz",
    "write_csv",
    "save_figure",
    "read_json",
    "split_runs",
]

PROVENANCE_KEY = "provenance"
"""The key of a result file's provenance object (what made the file; not a result): first in a
plain JSON file, after the schema in a typed record (:mod:`tensegrity_id.results.record`)."""

_UMASK_LOCK = threading.Lock()


def setup_log(path, name: str = "tensegrity_id") -> logging.Logger:
    """Send the library's log records (and warnings) to ``path``."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, mode="w")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)
    logger = logging.getLogger(name)

    def _log_uncaught(kind, value, tb):
        logger.error("failed: %s: %s", kind.__name__, value, exc_info=(kind, value, tb))
        sys.__excepthook__(kind, value, tb)

    sys.excepthook = _log_uncaught
    return logger


def _file_mode() -> int:
    """``0o666 & ~umask``: the mode ``open()`` gives a new file (the umask is read, then restored)."""
    with _UMASK_LOCK:  # os.umask can only be read by setting it
        mask = os.umask(0o077)
        os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_path(path) -> Iterator[Path]:
    """A temporary path next to ``path``; it replaces ``path`` when the block ends without error.

    The temporary name keeps ``path``'s suffix (``.fig4.pdf.k2x9.tmp.pdf``),
    so writers that choose the format from the name (matplotlib's
    ``savefig``, ``np.savez``) write the right one.  On an exception the
    temporary file is removed and ``path`` (if it existed) is left as it was.
    Missing parent folders are created.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}")
    os.close(fd)
    tmp = Path(tmp)
    try:
        yield tmp
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path, text: str) -> None:
    """Write ``text`` (UTF-8) atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_bytes(path, data: bytes) -> None:
    """Write ``data`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_json(path, obj, *, provenance: Mapping | None = None) -> None:
    """Write ``obj`` as JSON (indent 1, trailing newline) atomically.

    With ``provenance`` (a result file: what made it, from
    :func:`tensegrity_id.results.provenance.job_provenance`), ``obj`` must be a
    JSON object; the provenance is written first, under :data:`PROVENANCE_KEY`.
    """
    if provenance is not None:
        if not isinstance(obj, Mapping):
            raise TypeError(f"{path}: provenance goes into a JSON object, not a {type(obj).__name__}")
        if PROVENANCE_KEY in obj:
            raise ValueError(f"{path}: the object already has a {PROVENANCE_KEY!r} key")
        obj = {PROVENANCE_KEY: dict(provenance), **obj}
    with atomic_path(path) as tmp, open(tmp, "w") as fh:
        json.dump(obj, fh, indent=1, sort_keys=False)
        fh.write("\n")


def write_npz(path, **arrays) -> None:
    """Write arrays as a compressed ``.npz`` atomically."""
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez_compressed(fh, **arrays)


def write_csv(df, path, **to_csv) -> None:
    """Write a DataFrame with ``df.to_csv(path, **to_csv)`` atomically."""
    with atomic_path(path) as tmp:
        df.to_csv(tmp, **to_csv)


def save_figure(fig, paths, **savefig) -> None:
    """Save a matplotlib figure to each of ``paths`` atomically, in the format of each suffix.

    ``savefig`` options (``dpi``, ``bbox_inches``) are passed on; the
    format is given explicitly from the target's suffix, not the
    temporary name's.
    """
    for p in [paths] if isinstance(paths, str | os.PathLike) else paths:
        fmt = Path(p).suffix.lstrip(".") or None
        with atomic_path(p) as tmp:
            fig.savefig(tmp, format=fmt, **savefig)


def read_json(path, *, provenance: bool = False):
    """The JSON document in ``path``; a top-level :data:`PROVENANCE_KEY` object is left out
    (what made the file, not a result) unless ``provenance`` is true."""
    with open(path) as fh:
        doc = json.load(fh)
    if not provenance and isinstance(doc, dict):
        doc.pop(PROVENANCE_KEY, None)
    return doc


def split_runs(rows, runs) -> tuple[list[dict], list[list]]:
    """Table rows (each with ``n_runs``) and the flat run list of their inputs, as rows and run groups.

    Returns the rows without ``n_runs`` and, per row, its ``n_runs`` runs in order.
    """
    out_rows, groups, k = [], [], 0
    for row in rows:
        row = dict(row)
        n = row.pop("n_runs")
        out_rows.append(row)
        groups.append(list(runs[k : k + n]))
        k += n
    if k != len(runs):
        raise ValueError(f"the rows name {k} runs, the inputs hold {len(runs)}")
    return out_rows, groups
