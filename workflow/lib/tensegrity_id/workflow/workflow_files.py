"""The workflow's own files, found from where the workflow lies, and the user's from where the run is.

The workflow runs in two ways: from its clone (``snakemake`` in the clone's
root, the root ``Snakefile`` including ``workflow/Snakefile``), or as a
module of another workflow (``module tensegrity: snakefile: ".../workflow/Snakefile"``,
as ``snakedeploy deploy-workflow`` writes it), where the working directory is
the user's project.  Two kinds of path follow:

* **the workflow's own files**: its default config and schema
  (``config/``), the study catalog, the scripts and the library
  (``workflow/``) and the shipped inputs (``resources/``); they lie beside
  ``workflow/Snakefile``, so they are found from its folder
  (``workflow.current_basedir`` in the Snakefile), never from the working
  directory;
* **the user's files**: their config, their structure files and records, and
  every output (``results/``, ``logs/``, ``benchmarks/``); these stay relative
  to the working directory.

A path of the workflow's own is written relative to the working directory
where the workflow lies under it (a run in the clone: ``workflow/lib/...``,
the paths a run has always recorded, so nothing re-runs), and absolute
elsewhere (a module: the working directory is the user's project).

The default config (``config/config.yaml``) is the base of every run: a
user's config, from ``--configfile`` or from the ``config:`` of a ``module``
statement, is an overlay of it (:func:`with_defaults`), as ``config/test.yaml``
is.  The default config names shipped inputs (``resources/...``): where the
working directory holds no such file, :meth:`WorkflowFiles.located` writes
them from the workflow's location; a file the user has there stays theirs.

The scripts run in new Python processes: :meth:`WorkflowFiles.export_lib`
puts the workflow's library on their ``PYTHONPATH``, so neither the Snakefile
nor a job needs the package installed from this clone (the Snakefile puts the
same folder on ``sys.path`` before its first import of the package).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

__all__ = ["OWN_FOLDER", "WorkflowFiles", "with_defaults"]

OWN_FOLDER = "resources"
"""The folder of shipped inputs: a config or catalog path under it names a file of the workflow."""


@dataclass(frozen=True)
class WorkflowFiles:
    """The workflow's files, from the folder that holds ``workflow/``, ``config/`` and ``resources/``.

    Parameters
    ----------
    root : path
        The workflow's root (the clone, or the module's copy of it), made absolute.
    """

    root: Path

    def __post_init__(self):
        object.__setattr__(self, "root", Path(os.path.abspath(self.root)))

    @classmethod
    def beside(cls, workflow_dir) -> WorkflowFiles:
        """The files of the workflow whose ``Snakefile`` lies in ``workflow_dir`` (``<root>/workflow``)."""
        workflow_dir = Path(os.path.abspath(workflow_dir))
        if not (workflow_dir / "rules").is_dir() or not (workflow_dir.parent / "config").is_dir():
            raise FileNotFoundError(
                f"{workflow_dir}: not the workflow/ folder of this workflow (no rules/ in it, or no "
                "config/ beside it); use the workflow from a clone or a local copy of it"
            )
        return cls(workflow_dir.parent)

    def path(self, rel: str) -> str:
        """The workflow's file ``rel`` (relative to its root, POSIX) as a path from the working directory.

        Relative where the workflow lies under the working directory, else absolute.

        Examples
        --------
        >>> import os
        >>> WorkflowFiles(os.getcwd()).path("workflow/catalog.yaml")
        'workflow/catalog.yaml'
        >>> WorkflowFiles("/opt/tensegrity").path("resources/published/table6.csv")  # doctest: +SKIP
        '/opt/tensegrity/resources/published/table6.csv'
        """
        root, cwd = self.root.resolve(), Path.cwd().resolve()
        if root == cwd or cwd in root.parents:
            return str(PurePosixPath(root.relative_to(cwd).as_posix(), rel))
        return str(self.root / rel)

    def own(self, path):
        """``path`` from the workflow's location where it names a shipped input (``resources/...``).

        For the paths the workflow itself names (its catalog's inputs, the claims'
        published tables); any other value is returned as given.
        """
        if isinstance(path, str) and PurePosixPath(path).parts[:1] == (OWN_FOLDER,):
            return self.path(path)
        return path

    def script(self, name: str) -> str:
        """The path of the script ``workflow/scripts/<name>.py``."""
        return self.path(f"workflow/scripts/{name}.py")

    @property
    def lib(self) -> str:
        """The folder holding the ``tensegrity_id`` package (``workflow/lib``)."""
        return self.path("workflow/lib")

    def located(self, config):
        """A config with its shipped inputs found: a copy of ``config``, each ``resources/...``
        path that names no file of the working directory written from the workflow's location.

        The default config names shipped inputs (the claims, the published tables, the
        measured facts); so does a copy of it in a user's project (``snakedeploy`` copies
        ``config/``).  A user's own ``resources/...`` file, present in the working
        directory, stays theirs.
        """
        if isinstance(config, dict):
            return {k: self.located(v) for k, v in config.items()}
        if isinstance(config, list):
            return [self.located(v) for v in config]
        if (
            isinstance(config, str)
            and PurePosixPath(config).parts[:1] == (OWN_FOLDER,)
            and not os.path.exists(config)
        ):
            return self.path(config)
        return config

    def export_lib(self) -> None:
        """Put the library first on ``PYTHONPATH``, so that the jobs' scripts import this
        workflow's ``tensegrity_id`` (a script runs in a new Python process).

        Under ``--software-deployment-method conda`` Snakemake clears ``PYTHONPATH``; the jobs
        then find the library on the search path Snakemake hands every script job (its own
        process's, where the Snakefile put ``workflow/lib`` first); ``envs/core.yaml`` holds
        only the lock's packages.
        """
        lib = str(self.root / "workflow" / "lib")
        rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != lib]
        os.environ["PYTHONPATH"] = os.pathsep.join([lib, *rest])


def with_defaults(config: Mapping, defaults: Mapping) -> dict:
    """``config`` as an overlay of ``defaults``: a new dict, neither argument changed.

    Mappings merge key by key (recursively); any other value, a list included,
    replaces the default's (Snakemake's own rule for ``--configfile`` over a
    ``configfile:``).  Merging a config that already holds its defaults changes
    nothing, so a run from the clone (where Snakemake has merged them) and a
    module (where the ``config:`` given is the user's alone) end with the same
    config.

    Examples
    --------
    >>> with_defaults({"a": {"x": 2}, "b": [3]}, {"a": {"x": 1, "y": 1}, "b": [1, 2]})
    {'a': {'x': 2, 'y': 1}, 'b': [3]}
    """
    out = copy.deepcopy(dict(defaults))
    for key, value in config.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = with_defaults(value, out[key])
        else:
            out[key] = copy.deepcopy(value)
    return out
