"""What made a result file: the provenance object every JSON result carries.

A rule script builds it once, ``prov = job_provenance(snakemake)``, and hands
it to every JSON it writes (``record.write(path, provenance=prov)``,
``write_json(path, obj, provenance=prov)``); a library command that writes a
result builds it with :func:`provenance_of` from its own arguments.  The object::

    {"package": "tensegrity_id", "version": "0.1.0",
     "commit": "3f2c...e9" | "3f2c...e9-dirty" | "not a git checkout",
     "rule": "generate_structure",
     "config_sha256": "9a41...",
     "inputs": {"workflow/lib/tensegrity_id/mechanics/statics.py": "5be0...", ...}}

* ``version``: the package's ``__version__``;
* ``commit``: the commit checked out in the workflow's own clone, the folder
  that holds ``workflow/lib/tensegrity_id`` (found from this module's file,
  so a run from the clone and a module of another workflow pointing at the
  clone both find it) when a git work tree starts there (its ``.git``), with
  ``-dirty`` appended when a tracked file differs from that commit
  (uncommitted changes; untracked files do not count), as
  ``git describe --dirty`` writes it; ``"not a git checkout"`` when there is
  no such clone (a copy, a copy inside another project's repository, an
  installed package, the workflow fetched by Snakemake from a remote), no
  ``git``, or git fails.  Git runs once per process (one ``git status``,
  cached), under a timeout of :data:`GIT_TIMEOUT_S`;
* ``rule``: the job's rule (for a library command, the command);
* ``config_sha256``: the SHA-256 of the job's config as canonical JSON
  (sorted keys, no spaces, UTF-8; mapping keys as strings, a value JSON has
  no type for as its ``str``);
* ``inputs``: per input file, in the job's order, its SHA-256 (read in
  chunks); a folder's is the SHA-256 of its files' ``sha256sum`` lines
  (``<sha256>  <path in the folder>``, sorted by path, each ending in a
  newline); a path that is not there, ``None``.  Paths are named as the job
  names them, relative to the working directory; an absolute path is written
  relative to the working directory where it lies under it, else as
  ``<workflow>/<path in the clone>`` where it is one of the workflow's own
  files (a module's library), else as given.

The object is the same for the same inputs, config and commit: no time, host
name or absolute path of the workflow's own files.  Readers leave it out
(:func:`tensegrity_id.data.runio.read_json`, and the typed records do not
take it for a field); comparisons of result files ignore it.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__

__all__ = [
    "PACKAGE",
    "NOT_A_CHECKOUT",
    "WORKFLOW_PREFIX",
    "GIT_TIMEOUT_S",
    "provenance_of",
    "job_provenance",
    "workflow_root",
    "git_commit",
    "config_sha256",
    "file_sha256",
    "folder_sha256",
]

PACKAGE = "tensegrity_id"
NOT_A_CHECKOUT = "not a git checkout"
"""The ``commit`` of a workflow that is not a git clone of its own (or where git is absent or fails)."""
WORKFLOW_PREFIX = "<workflow>/"
"""How an input among the workflow's own files outside the working directory is named (a module)."""
GIT_TIMEOUT_S = 10.0
_CHUNK = 1 << 20
_GIT_ENV_DROP = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES")


def workflow_root() -> Path | None:
    """The folder holding ``workflow/lib/tensegrity_id`` (the clone), or ``None`` for a package
    installed elsewhere (not inside a workflow's ``workflow/lib``)."""
    package = Path(os.path.abspath(__file__)).parent.parent  # .../workflow/lib/tensegrity_id
    lib = package.parent
    if package.name != PACKAGE or lib.name != "lib" or lib.parent.name != "workflow":
        return None
    return lib.parent.parent


def git_commit(root=None) -> str:
    """The commit of the clone at ``root`` (default :func:`workflow_root`), ``-dirty`` appended
    when a tracked file has uncommitted changes; :data:`NOT_A_CHECKOUT` when ``root`` is not the
    top of a git work tree (a copy, a folder inside another project's repository), or git is
    missing, fails or takes longer than :data:`GIT_TIMEOUT_S`.  Git runs once per folder and
    process: the answer is cached."""
    root = workflow_root() if root is None else Path(os.path.abspath(root))
    return NOT_A_CHECKOUT if root is None else _git_commit(root)


@cache
def _git_commit(root: Path) -> str:
    # the clone's own repository only, not one that merely contains the folder (a copy of the
    # workflow inside another project): git would find that one from here
    if not (root / ".git").exists():
        return NOT_A_CHECKOUT
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV_DROP}
    env["GIT_OPTIONAL_LOCKS"] = "0"  # a status in each of many parallel jobs takes no index lock
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain=v2", "--branch", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            env=env,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return NOT_A_CHECKOUT
    if proc.returncode != 0:
        return NOT_A_CHECKOUT
    lines = proc.stdout.splitlines()
    head = next((ln.split()[2] for ln in lines if ln.startswith("# branch.oid ")), "")
    if len(head) not in (40, 64) or any(c not in "0123456789abcdef" for c in head):
        return NOT_A_CHECKOUT  # no commit yet ("(initial)")
    dirty = any(ln and not ln.startswith("#") for ln in lines)
    return f"{head}-dirty" if dirty else head


def _canonical(value: Any) -> Any:
    """``value`` as plain JSON data: mappings with string keys, tuples and sets as lists."""
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_canonical(v) for v in value), key=repr)
    return value


def config_sha256(config: Mapping) -> str:
    """The SHA-256 of ``config`` as canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(
        _canonical(config), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_sha256(path) -> str:
    """The SHA-256 of a file's bytes, read in chunks of 1 MiB."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def folder_sha256(path) -> str:
    """The SHA-256 of a folder's files: of their ``sha256sum`` lines ``<sha256>  <path>\\n``
    (POSIX paths inside the folder, sorted), so ``(cd DIR && find . -type f | sed 's|^\\./||' |
    LC_ALL=C sort | xargs -d '\\n' sha256sum) | sha256sum`` gives the same."""
    root = Path(path)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    text = "".join(f"{file_sha256(root / rel)}  {rel}\n" for rel in files)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _named(path: str, cwd: Path, root: Path | None) -> str:
    """An input's name: as given when relative; an absolute path relative to the working directory
    where under it, else ``<workflow>/...`` where among the workflow's files, else as given."""
    if not os.path.isabs(path):
        return path
    p = Path(os.path.normpath(path))
    for base, prefix in ((cwd, ""), (root, WORKFLOW_PREFIX)):
        if base is not None and (p == base or base in p.parents):
            return prefix + PurePosixPath(*p.relative_to(base).parts).as_posix()
    return path


def _digest(path: str) -> str | None:
    if os.path.isdir(path):
        return folder_sha256(path)
    if os.path.isfile(path):
        return file_sha256(path)
    return None


def provenance_of(rule: str, *, config: Mapping, inputs: Iterable) -> dict:
    """The provenance object of a job (module docstring): plain arguments, for a library command
    and for tests.

    Parameters
    ----------
    rule : str
        The rule's name, or the command of a library entry point that writes a result.
    config : mapping
        The config the job ran under (its hash is recorded, not the config).
    inputs : iterable of path
        The job's input files and folders, relative to the working directory (Snakemake's names).
    """
    cwd, root = Path(os.path.abspath(os.getcwd())), workflow_root()
    hashes: dict[str, str | None] = {}
    for path in inputs:
        path = os.fspath(path)
        hashes.setdefault(_named(path, cwd, root), _digest(path))
    return {
        "package": PACKAGE,
        "version": __version__,
        "commit": git_commit(root),
        "rule": str(rule),
        "config_sha256": config_sha256(config),
        "inputs": hashes,
    }


def job_provenance(job) -> dict:
    """The provenance object of a rule's job, from its script's ``snakemake`` object (any object
    with ``rule``, ``config`` and ``input``, the job's input files flattened in its order)."""
    return provenance_of(job.rule, config=job.config or {}, inputs=list(job.input))
