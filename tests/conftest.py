"""Shared fixtures: a seeded random generator, the repository root, a copy of the workflow,
and the X1 and X2 test structures (the study's benchmark frames, prestressed by LP at 25 N/m)."""

import copy
import os
import shutil
import subprocess
import sys
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


TEST_STUDY = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "config/test.yaml"]
"""The test study's command (``config/test.yaml``), run in a copy of the workflow."""


@pytest.fixture(scope="session")
def test_study(tmp_path_factory, copy_workflow) -> Path:
    """A copy of the workflow (with ``profiles/``) in which the test study ran once, to the end.

    Shared by the integration and the cluster tiers, which read it and never change it: a test
    that edits files or re-runs jobs works on its own copy (``copy_run``).  Run in one pytest
    command (``pytest -m "integration or slurm" tests/integration tests/cluster``, as ``.ci/run``
    does), the two tiers make the study once instead of twice."""
    wd = copy_workflow(tmp_path_factory.mktemp("test-study"), extra=("profiles",))
    proc = subprocess.run(TEST_STUDY, cwd=wd, capture_output=True, text=True, timeout=3000)
    if proc.returncode != 0:
        pytest.fail(f"the test study failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return wd


@pytest.fixture(scope="session")
def copy_run():
    """``copy_run(src, dest)``: a workflow and its run (``results/``, ``.snakemake/``) copied from
    ``src`` to ``dest`` with every file's modification time, so that Snakemake there finds nothing
    to do."""

    def copy(src: Path, dest: Path) -> Path:
        shutil.copytree(src, dest, symlinks=True)
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
