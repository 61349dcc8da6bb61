"""The conda environments' pip pins from the lock: write them, or check them.

From the repository root::

    python requirements/sync_envs.py           # rewrite the pip section of envs/*.yaml
    python requirements/sync_envs.py --check   # exit 1, naming each pin that differs

An environment holds the runtime part of ``requirements/lock.txt``: the packages that
``tensegrity-id`` needs (``[project] dependencies`` of ``pyproject.toml``) with the extras
that :data:`ENV_EXTRAS` names for it, and everything those need, found through the lock's
``# via`` annotations, each at the lock's version.  The lock's tools for development, the
documentation and SLURM stay out.  Run it after ``uv pip compile`` has renewed the lock (the
command is in the lock's header); ``tests/unit/test_envs.py`` fails while the two differ.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "lock.txt"
PYPROJECT = ROOT / "pyproject.toml"

ENV_EXTRAS = {"core": ("uff",)}
"""Each environment file (``envs/<name>.yaml``) and the extras of the package it carries."""

TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
"""PyTorch's CPU index: where the lock's ``torch==...+cpu`` comes from outside our machines."""

PROJECT = "tensegrity-id"

_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def canonical(name: str) -> str:
    """A distribution name as the package index compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass
class Pin:
    """One package of the lock: its version, its hashes and what needs it."""

    name: str
    version: str
    hashes: list[str] = field(default_factory=list)
    via: set[str] = field(default_factory=set)


def read_lock(path: Path = LOCK) -> dict[str, Pin]:
    """The lock's packages by canonical name (``uv pip compile --generate-hashes`` output)."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    in_via = False
    for raw in path.read_text().splitlines():
        line = raw.strip()
        m = _ENTRY.match(raw)
        if m:
            current = Pin(canonical(m[1]), m[2])
            if current.name in pins:
                raise ValueError(f"{path}: {m[1]} is pinned twice")
            pins[current.name] = current
            in_via = False
        elif current is not None and line.startswith("--hash="):
            current.hashes.append(line.removeprefix("--hash=").rstrip(" \\"))
        elif current is not None and line.startswith("# via"):
            rest = line.removeprefix("# via").strip()
            in_via = not rest
            if rest:
                current.via.add(_parent(rest))
        elif current is not None and in_via and line.startswith("#   "):
            current.via.add(_parent(line.removeprefix("#").strip()))
        else:
            in_via = False
    return pins


def _parent(text: str) -> str:
    """What a ``# via`` line names: a package, the project, or a constraint file."""
    if text.startswith("-"):
        return text
    if text.startswith(f"{PROJECT} "):
        return PROJECT
    m = _NAME.match(text)
    return canonical(m[0]) if m else text


def project_requirements(extras: tuple[str, ...] = (), path: Path = PYPROJECT) -> list[str]:
    """``[project] dependencies`` and the named extras of ``pyproject.toml``, as written."""
    project = tomllib.loads(path.read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in extras:
        reqs += project["optional-dependencies"][extra]
    return reqs


def runtime_closure(pins: dict[str, Pin], requirements: list[str]) -> dict[str, Pin]:
    """The pins that ``requirements`` need, directly or through other pins (the ``# via`` graph)."""
    want = {canonical(_NAME.match(r.strip())[0]) for r in requirements}
    missing = sorted(want - pins.keys())
    if missing:
        raise ValueError(f"requirements not in the lock: {', '.join(missing)}")
    grew = True
    while grew:
        grew = False
        for name, pin in pins.items():
            if name not in want and pin.via & want:
                want.add(name)
                grew = True
    return {n: pins[n] for n in sorted(want)}


def env_pins(env: str, pins: dict[str, Pin] | None = None) -> list[str]:
    """The pip lines of ``envs/<env>.yaml`` (``name==version``) that the lock gives."""
    pins = read_lock() if pins is None else pins
    closure = runtime_closure(pins, project_requirements(ENV_EXTRAS[env]))
    return [f"{p.name}=={p.version}" for p in closure.values()]


def python_version(path: Path = LOCK) -> str:
    """The Python ``major.minor`` the lock was compiled for (``--python-version`` in its header)."""
    m = re.search(r"--python-version (\d+\.\d+)", path.read_text())
    if not m:
        raise ValueError(f"{path}: no --python-version in the header")
    return m[1]


def render(env: str, text: str, pins: dict[str, Pin] | None = None) -> str:
    """``text`` (an environment file) with its pip section replaced by the lock's pins."""
    head, sep, _ = text.partition("  - pip:\n")
    if not sep:
        raise ValueError(f"envs/{env}.yaml: no '  - pip:' section")
    head = re.sub(r"(?m)^  - python=[\d.]+$", f"  - python={python_version()}", head)
    lines = [f"      - --extra-index-url {TORCH_INDEX}"] + [f"      - {p}" for p in env_pins(env, pins)]
    return head + sep + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file differs")
    args = ap.parse_args(argv)
    pins = read_lock()
    differ = []
    for env in ENV_EXTRAS:
        path = ROOT / "envs" / f"{env}.yaml"
        old = path.read_text()
        new = render(env, old, pins)
        if new == old:
            continue
        differ.append(path.relative_to(ROOT))
        if not args.check:
            path.write_text(new)
    verb = "differ from the lock" if args.check else "rewritten from the lock"
    for p in differ:
        print(f"{p}: {verb}", file=sys.stderr)
    return 1 if differ and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
