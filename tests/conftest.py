"""Shared fixtures: a seeded random generator, the repository root, a copy of the workflow,
and the X1 and X2 test structures (the study's benchmark frames, prestressed by LP at 25 N/m)."""

import copy
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from tensegrity_id import build_structure

REPO = Path(__file__).resolve().parents[1]

X1_SPEC = {
    "generator": "xframe",
    "params": {"n_modules": 1},
    "prestress": {"method": "lp", "sigma_min": 25.0},
}
"""The one-module X-frame of the study (config ``structures.x1``)."""

X2_SPEC = {
    "generator": "xframe",
    "params": {"n_modules": 2},
    "prestress": {"method": "lp", "sigma_min": 25.0},
}
"""The two-module X-frame of the study (config ``structures.x2``)."""


def pytest_configure(config):
    """Under pytest-xdist each of the two workers computes on one core: PyTorch's intra-op threads
    would otherwise be twice the cores and the workers would take turns."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import torch

        torch.set_num_threads(1)


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


@pytest.fixture
def x1_spec() -> dict:
    """The X1 structure specification (a fresh copy: tests may edit it)."""
    return copy.deepcopy(X1_SPEC)


@pytest.fixture
def x2_spec() -> dict:
    """The X2 structure specification (a fresh copy: tests may edit it)."""
    return copy.deepcopy(X2_SPEC)


@pytest.fixture(scope="session")
def x1():
    """The X1 structure, built once (a frozen Structure with read-only arrays)."""
    return build_structure("x1", copy.deepcopy(X1_SPEC))


@pytest.fixture(scope="session")
def x2():
    """The X2 structure, built once (a frozen Structure with read-only arrays)."""
    return build_structure("x2", copy.deepcopy(X2_SPEC))
