"""The lock (requirements/lock.txt) against pyproject.toml's ranges, and who installs from it.

pyproject.toml gives compatible ranges, so the package installs beside other packages; the
lock pins every package the workflow, its tests and its documentation use, with hashes, and
is what the README's install command, ``.ci/run``, the conda environments and the container
image install.  The checks here need no network.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "lock.txt"


from repo_scripts import sync_envs  # noqa: E402


@pytest.fixture(scope="module")
def pins():
    return sync_envs.read_lock(LOCK)


def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _all_requirements() -> list[Requirement]:
    project = _project()
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    return [Requirement(r) for r in reqs]


def test_every_dependency_is_locked_within_its_range(pins):
    """Each requirement of pyproject.toml, its extras included, is in the lock at a version its
    range admits (the lock is what was tested; the range is what a user may install)."""
    for req in _all_requirements():
        pin = pins.get(sync_envs.canonical(req.name))
        assert pin is not None, f"{req.name} is not in requirements/lock.txt"
        assert req.specifier.contains(Version(pin.version), prereleases=True), (
            f"{req.name}=={pin.version} in the lock is outside pyproject.toml's range '{req.specifier}'"
        )


def test_ranges_have_lower_and_upper_bounds():
    """Compatible ranges: a tested lower bound and the next major release (or minor, before
    1.0) excluded; no exact pin."""
    for req in _all_requirements():
        ops = {s.operator for s in req.specifier}
        assert ">=" in ops and "<" in ops and "==" not in ops, f"{req}: give a range '>=low,<next'"


def test_every_locked_package_has_a_hash_and_one_version(pins):
    assert len(pins) > 50
    for name, pin in pins.items():
        assert pin.hashes, f"{name} has no --hash in the lock"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in pin.hashes), name


def test_the_lock_holds_pytorchs_cpu_build(pins):
    """The lock pins the CPU-only wheel, as requirements/torch-cpu.txt constrains it."""
    constraint = (ROOT / "requirements" / "torch-cpu.txt").read_text()
    pinned = re.search(r"(?m)^torch==(\S+)$", constraint)[1]
    assert pins["torch"].version == pinned and pinned.endswith("+cpu")
    torch_req = next(r for r in _all_requirements() if r.name == "torch")
    assert torch_req.specifier.contains(Version(pinned))


def test_the_header_names_the_command_that_renews_the_lock():
    head = LOCK.read_text().splitlines()[:3]
    command = " ".join(head)
    for part in ("uv pip compile pyproject.toml", "--generate-hashes", "--extra dev", "--extra slurm"):
        assert part in command, f"lock header: {part!r} missing"
    assert "--extra docs" in command and "-c requirements/torch-cpu.txt" in command


def test_ci_and_the_readme_install_from_the_lock():
    """.ci/run installs the lock with hashes, then the project with --no-deps; the README's
    install command does the same and names PyTorch's CPU index."""
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"pip install [^\n]*--require-hashes[^\n]*requirements/lock\.txt", ci)
    assert re.search(r"pip install [^\n]*--no-deps[^\n]*-e \.", ci)
    readme = (ROOT / "README.md").read_text()
    assert "--require-hashes -r requirements/lock.txt" in readme
    assert "--no-deps -e ." in readme
    assert sync_envs.TORCH_INDEX in readme
