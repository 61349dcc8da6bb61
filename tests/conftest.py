"""Shared fixtures: a seeded random generator, the repository root, a copy of the workflow."""

import shutil
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def rng():
    """A seeded generator for tests that draw random numbers."""
    return np.random.default_rng(0)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def copy_workflow(repo):
    """``copy_workflow(dest, extra=())``: the workflow's files (and ``extra`` items) copied into ``dest``."""

    def copy(dest: Path, extra=()) -> Path:
        dest.mkdir(parents=True, exist_ok=True)
        for item in ("Snakefile", "workflow", "config", "resources", "envs", *extra):
            src = repo / item
            (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / item)
        return dest

    return copy
