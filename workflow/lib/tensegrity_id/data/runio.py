"""Small I/O helpers for the rule scripts: logs and atomic JSON and ``.npz`` files."""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

__all__ = ["setup_log", "write_json", "write_npz", "read_json", "split_runs"]


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


def write_json(path, obj) -> None:
    """Write ``obj`` as JSON through a temporary file, so no partial file is left."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(obj, fh, indent=1, sort_keys=False)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_npz(path, **arrays) -> None:
    """Write arrays as a compressed ``.npz`` through a temporary file, so no partial file is left."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path):
    with open(path) as fh:
        return json.load(fh)


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
