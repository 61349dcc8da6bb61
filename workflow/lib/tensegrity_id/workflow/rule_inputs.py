"""The library files a rule depends on, read from its script's imports.

Snakemake re-runs a job when its script changes, not when a library module
the script imports changes; so every rule lists the library files it
depends on among its inputs.  Listing them by hand goes stale (29 of 37
rules once listed fewer modules than their scripts imported), so they are
computed here from the code itself:

* a script's ``tensegrity_id`` imports are read with :mod:`ast` (no code runs);
* every module reached is read in turn — absolute, relative and
  function-level imports alike, and the parent packages' ``__init__`` files
  that importing it executes — until nothing new is reached;
* a name imported from a package is resolved through the package's table
  of lazy exports (``_EXPORTS``, see :mod:`tensegrity_id._lazy`) to the
  module that defines it; package data (``mechanics/schemas/``) belongs to
  its package's ``__init__``.

The package ``__init__`` files import nothing eagerly, so the result is the
set of modules a script really uses: an edit to ``report/plot_pinn.py``
re-runs Figures 4-5 only, one to ``identify/filters.py`` the baselines and
not the physics-informed runs.  :func:`stage_files` lists a whole stage (a
sub-package) for the cases that want it.  A dynamically chosen module
(``identify.base.get_method`` loading a method by name) is not seen: a
script imports the modules of the methods it runs.

The result is deterministic (sorted paths under ``lib_root`` as given: relative
to the working directory in a run from the clone, absolute where the workflow
is a module of another, :mod:`tensegrity_id.workflow.workflow_files`) and
cached per process.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

__all__ = ["PACKAGE", "library_inputs", "stage_files", "imported_modules"]

PACKAGE = "tensegrity_id"


def _is_package(root: Path, dotted: str) -> bool:
    return (root / dotted.replace(".", "/") / "__init__.py").is_file()


def _is_module(root: Path, dotted: str) -> bool:
    return (root / (dotted.replace(".", "/") + ".py")).is_file() or _is_package(root, dotted)


def _file_of(root: Path, dotted: str) -> Path:
    if _is_package(root, dotted):
        return root / dotted.replace(".", "/") / "__init__.py"
    return root / (dotted.replace(".", "/") + ".py")


@cache
def _lazy_exports(root: Path, package: str) -> dict:
    """A package's ``_EXPORTS`` table (name -> module under the package), read statically."""
    tree = ast.parse(_file_of(root, package).read_text())
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(getattr(t, "id", None) == "_EXPORTS" for t in targets) and node.value is not None:
            return ast.literal_eval(node.value)
    return {}


def imported_modules(path, *, module: str | None = None, lib_root="workflow/lib") -> list[str]:
    """Dotted names of the ``tensegrity_id`` modules a source file imports (anywhere in it).

    Parameters
    ----------
    path : path
        A Python file (a workflow script or a library module).
    module : str, optional
        The file's own dotted module name, needed to resolve relative imports.
    lib_root : path
        The folder holding the ``tensegrity_id`` package.
    """
    root = Path(lib_root)
    tree = ast.parse(Path(path).read_text(), filename=str(path))
    is_pkg = Path(path).name == "__init__.py"
    out = []

    def add_from(base: str, names):
        for alias in names:
            sub = f"{base}.{alias.name}"
            if alias.name != "*" and _is_module(root, sub):
                out.append(sub)
            elif _is_package(root, base) and alias.name in _lazy_exports(root, base):
                out.append(f"{base}.{_lazy_exports(root, base)[alias.name]}")
            else:
                out.append(base)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == PACKAGE]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if module is None:
                    raise ValueError(f"{path}: a relative import needs the file's module name")
                parts = module.split(".")
                pkg = parts if is_pkg else parts[:-1]
                base_parts = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
                add_from(base, node.names)
            elif node.module and node.module.split(".")[0] == PACKAGE:
                add_from(node.module, node.names)
    return list(dict.fromkeys(out))


def stage_files(stage: str, *, lib_root="workflow/lib") -> list[Path]:
    """Every file of one stage, a sub-package such as ``tensegrity_id.mechanics`` (modules and data)."""
    folder = Path(lib_root) / stage.replace(".", "/")
    return sorted(f for f in folder.rglob("*") if f.is_file() and "__pycache__" not in f.parts)


def _files_of(root: Path, dotted: str) -> list[Path]:
    """A module's file; for a package its ``__init__`` and its data folders (not sub-packages)."""
    if not _is_package(root, dotted):
        return [_file_of(root, dotted)] if _is_module(root, dotted) else []
    folder = root / dotted.replace(".", "/")
    files = [folder / "__init__.py"]
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"):
        if not (sub / "__init__.py").exists():
            files += sorted(f for f in sub.rglob("*") if f.is_file() and "__pycache__" not in f.parts)
    return files


def _module_of(root: Path, path: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@cache
def _library_imports(root: Path, path: Path) -> tuple[str, ...]:
    """The imports of one library file, parsed once per process (every script's closure reads them)."""
    return tuple(imported_modules(path, module=_module_of(root, path), lib_root=root))


@cache
def _closure(root: Path, start: tuple[str, ...]) -> tuple[str, ...]:
    seen: set[str] = set()
    files: set[Path] = set()
    todo = list(start)
    while todo:
        dotted = todo.pop()
        if dotted in seen:
            continue
        seen.add(dotted)
        # importing a.b.c executes a/__init__ and a/b/__init__ first
        parts = dotted.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]
        for f in _files_of(root, dotted):
            files.add(f)
            if f.suffix == ".py":
                todo += _library_imports(root, f)
    return tuple(sorted(str(f) for f in files))


def library_inputs(script, *, lib_root="workflow/lib") -> list[str]:
    """Every library file a script depends on, as paths under ``lib_root`` (sorted).

    Parameters
    ----------
    script : path
        The rule's script, e.g. ``workflow/scripts/plot_fig4.py``.
    lib_root : path
        The folder holding the ``tensegrity_id`` package, as the rule's inputs
        name it (relative to the working directory, or absolute).

    Examples
    --------
    >>> files = library_inputs("workflow/scripts/plot_fig4.py")  # doctest: +SKIP
    >>> "workflow/lib/tensegrity_id/report/plot_pinn.py" in files  # doctest: +SKIP
    True
    """
    root = Path(lib_root)
    mods = imported_modules(script, lib_root=root)
    return list(_closure(root, tuple(mods))) if mods else []
