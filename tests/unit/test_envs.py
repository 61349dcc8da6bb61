"""The conda environment (envs/*.yaml) and the container image (Containerfile) against the lock.

Snakemake copies an environment file to ``.snakemake/conda/<hash>.yaml`` (or under
``--conda-prefix``) and creates the environment from the copy; conda writes the file's pip
section to a requirements file beside the copy and runs pip there.  A path in the pip section
resolves from that copy, not from the workflow, so the environment holds the lock's packages
only and the library reaches a job through Snakemake's search path (docs/deployment.md).
Conda's channels cannot be reached from our machines: the slow test below installs the pip
section as conda would, into a fresh virtual environment, from wheels on disk.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "lock.txt"
ENVS = sorted((ROOT / "envs").glob("*.yaml"))


from repo_scripts import sync_envs  # noqa: E402


def _pip_section(path: Path) -> list[str]:
    deps = yaml.safe_load(path.read_text())["dependencies"]
    sections = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    assert len(sections) == 1, f"{path.name}: one pip section"
    return sections[0]


def _version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_every_environment_file_has_its_extras():
    assert ENVS and {p.stem for p in ENVS} == set(sync_envs.ENV_EXTRAS)


@pytest.mark.parametrize("path", ENVS, ids=lambda p: p.name)
def test_environment_pins_equal_the_lock(path):
    """The pip section pins exactly the runtime part of the lock, each at the lock's version
    (``python requirements/sync_envs.py`` writes it), and Python is the lock's."""
    lines = _pip_section(path)
    pins = [ln for ln in lines if not ln.startswith("-")]
    expected = sync_envs.env_pins(path.stem)
    assert sorted(pins) == sorted(expected), (
        f"{path.name} differs from requirements/lock.txt: run python requirements/sync_envs.py\n"
        f"only in the file: {sorted(set(pins) - set(expected))}\n"
        f"only in the lock: {sorted(set(expected) - set(pins))}"
    )
    deps = yaml.safe_load(path.read_text())["dependencies"]
    assert f"python={sync_envs.python_version(LOCK)}" in deps
    assert sync_envs.env_pins(path.stem) and "torch==2.13.0+cpu" in pins
    assert f"--extra-index-url {sync_envs.TORCH_INDEX}" in lines


@pytest.mark.parametrize("path", ENVS, ids=lambda p: p.name)
def test_environment_names_no_path(path):
    """Nothing in the pip section depends on where the file lies: no path, no editable install
    (Snakemake creates the environment from a copy in .snakemake/conda/)."""
    for line in _pip_section(path):
        assert not re.search(r"(^-e\b|^--editable|\.\.|file:|^\.|^/|@ )", line), (
            f"{path.name}: '{line}' resolves from .snakemake/conda/, not from the workflow"
        )


def test_the_sync_script_finds_nothing_to_change():
    out = subprocess.run(
        [sys.executable, str(ROOT / "requirements" / "sync_envs.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr


# ------------------------------------------------------------------ the container image
KNOWN = {
    "FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME",
    "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL",
}  # fmt: skip
"""The Dockerfile reference's instructions."""


@pytest.fixture(scope="module")
def containerfile():
    dockerfile = pytest.importorskip("dockerfile")  # the dev extra: Docker's own (Go) parser
    return dockerfile.parse_file(str(ROOT / "Containerfile"))


def test_containerfile_parses_with_known_instructions(containerfile):
    """The file parses with BuildKit's parser; every instruction is one of the reference's, the
    first is FROM on a base pinned to a Python 3.11 release, and it builds one stage."""
    cmds = [c.cmd.upper() for c in containerfile]
    assert set(cmds) <= KNOWN, set(cmds) - KNOWN
    assert cmds[0] == "FROM" and cmds.count("FROM") == 1
    base = containerfile[0].value[0]
    assert re.fullmatch(r"docker\.io/library/python:3\.11\.\d+-slim-\w+", base), base
    for c in containerfile:
        if c.cmd.upper() == "RUN":
            assert not c.value[0].rstrip().endswith(("\\", "&&")), f"line {c.start_line}: unfinished RUN"


def test_containerfile_installs_the_lock_and_carries_the_version(containerfile):
    """COPY takes the lock from the build context (requirements/); pip installs it with its
    hashes and PyTorch's CPU index; the image's version label is the package's."""
    text = (ROOT / "Containerfile").read_text()
    assert "-f Containerfile requirements" in text  # the build context named in its header
    copies = [c.value for c in containerfile if c.cmd.upper() == "COPY"]
    assert copies and all((ROOT / "requirements" / v[0]).is_file() for v in copies), copies
    runs = " ".join(c.value[0] for c in containerfile if c.cmd.upper() == "RUN")
    assert "--require-hashes" in runs and "/opt/tensegrity-id/lock.txt" in runs
    assert sync_envs.TORCH_INDEX in runs and "g++" in runs
    labels = " ".join(" ".join(c.value) for c in containerfile if c.cmd.upper() == "LABEL")
    assert f'org.opencontainers.image.version "{_version()}"' in labels
    assert f"tensegrity-id-{_version()}.sif" in text


# ------------------------------------------------------------------ installed as Snakemake does
def _hashes(pin) -> str:
    return " ".join(f"--hash={h}" for h in pin.hashes)


def _wheelhouse(lines: list[str]) -> Path:
    """A folder holding a wheel for each pin (the lock's hashes checked when downloaded):
    ``TENSEGRITY_WHEELHOUSE``, or a cache folder that later runs reuse without a network."""
    house = Path(
        os.environ.get("TENSEGRITY_WHEELHOUSE") or Path.home() / ".cache" / "tensegrity-id" / "wheels"
    )
    house.mkdir(parents=True, exist_ok=True)
    have = {(sync_envs.canonical(w.name.split("-")[0]), w.name.split("-")[1]) for w in house.glob("*.whl")}
    pins = sync_envs.read_lock(LOCK)
    missing = []
    for line in lines:
        if not line.startswith("-"):
            pin = pins[sync_envs.canonical(line.split("==")[0])]
            if (pin.name, pin.version) not in have:
                missing.append(pin)
    if missing:
        req = house / "missing.txt"
        req.write_text("".join(f"{p.name}=={p.version} {_hashes(p)}\n" for p in missing))
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes"]
            + ["-r", str(req), "-d", str(house)],
            check=True,
        )
        req.unlink()
    return house


@pytest.mark.slow
@pytest.mark.parametrize("path", ENVS, ids=lambda p: p.name)
def test_environment_installs_from_its_copy_and_runs_a_rule(path, tmp_path, copy_workflow):
    """The environment file copied where Snakemake copies it, its pip section installed as
    conda installs it (a requirements file beside the copy, pip run in that folder) into a
    fresh virtual environment from wheels on disk; then the library imports from the
    workflow's folder (appended to the search path, as Snakemake's script preamble does) and
    one rule's script runs there (generate_structure, through debug_job)."""
    prefix = tmp_path / "project" / ".snakemake" / "conda"
    prefix.mkdir(parents=True)
    text = path.read_text()
    copy = prefix / (hashlib.sha256(text.encode()).hexdigest()[:32] + ".yaml")
    copy.write_text(text)
    lines = _pip_section(copy)
    requirements = prefix / "condaenv.test.requirements.txt"
    requirements.write_text("\n".join(lines))

    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    py = str(env_dir / "bin" / "python")
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environ.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(_wheelhouse(lines)))
    run = dict(env=environ, capture_output=True, text=True)
    out = subprocess.run([py, "-m", "pip", "install", "-U", "-r", requirements.name], cwd=prefix, **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    out = subprocess.run([py, "-m", "pip", "check"], **run)
    assert out.returncode == 0, out.stdout

    wf = copy_workflow(tmp_path / "wf")
    lib = str(wf / "workflow" / "lib")
    probe = (
        "import importlib.util, sys; assert importlib.util.find_spec('tensegrity_id') is None; "
        f"sys.path.append({lib!r}); import tensegrity_id, torch; "
        "print(tensegrity_id.__file__, torch.__version__)"
    )
    out = subprocess.run([py, "-c", probe], cwd=tmp_path, **run)
    assert out.returncode == 0, out.stderr
    where, torch_version = out.stdout.split()
    assert Path(where).is_relative_to(wf) and torch_version == "2.13.0+cpu"

    script = (
        f"import sys; sys.path.append({lib!r}); from tensegrity_id.workflow.debug_job import main; "
        "sys.exit(main(['results/structures/x1.json', '--run']))"
    )
    out = subprocess.run([py, "-c", script], cwd=wf, **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert (wf / "results" / "structures" / "x1.json").is_file()
