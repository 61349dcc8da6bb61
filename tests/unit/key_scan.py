"""The string constants of the library and the rule scripts, read with :mod:`ast`, for the tests
that police result keys (``test_result_keys.py``, ``test_result_keys_analysis.py``).

Not counted: docstrings, and the names in ``__all__`` and ``_EXPORTS`` (functions and modules,
not keys)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("workflow/lib", "workflow/scripts")
RECORDS_DIR = "workflow/lib/tensegrity_id/results/"
"""Where the keys are declared: not scanned."""

_NAME_TABLES = ("__all__", "_EXPORTS")


def _skipped(tree: ast.AST) -> set[int]:
    """ids of the constants not counted: docstrings and the names in the export tables."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(getattr(t, "id", None) in _NAME_TABLES for t in targets) and node.value:
                out.update(id(c) for c in ast.walk(node.value) if isinstance(c, ast.Constant))
    return out


def spelled(path: Path, keys: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(line, key)`` for every counted string constant of the file ``path`` that is one of ``keys``."""
    keys = set(keys)
    tree = ast.parse(path.read_text(), filename=str(path))
    skip = _skipped(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in keys
            and id(node) not in skip
        ):
            yield node.lineno, node.value


def scanned_files(root: Path = ROOT) -> Iterator[tuple[str, Path]]:
    """``(path relative to root, path)`` of every module scanned: the library outside the records,
    and the rule scripts."""
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if not rel.startswith(RECORDS_DIR) and "__pycache__" not in path.parts:
                yield rel, path


def spellings(keys: Iterable[str], root: Path = ROOT) -> Iterator[tuple[str, int, str]]:
    """``(file, line, key)`` for every counted string constant equal to a key, outside the records."""
    keys = set(keys)
    for rel, path in scanned_files(root):
        for line, key in spelled(path, keys):
            yield rel, line, key
