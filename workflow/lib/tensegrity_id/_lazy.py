"""Lazy exports for the package ``__init__`` files (PEP 562).

A package lists its public API as ``_EXPORTS`` (name -> defining module,
relative to the package) and attaches it with :func:`attach`; a name's
module is imported on first access.  So importing one module of a stage
does not import the whole stage (nor PyTorch), and the rule inputs computed
by :mod:`tensegrity_id.workflow.rule_inputs` follow the modules a script
really uses.
"""

from __future__ import annotations

import importlib

__all__ = ["attach"]


def attach(package: str, exports: dict[str, str]):
    """``(__getattr__, __dir__, __all__)`` for a package exporting ``exports`` lazily."""

    def __getattr__(name):
        if name in exports:
            return getattr(importlib.import_module(f".{exports[name]}", package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted([*exports, *importlib.import_module(package).__dict__])

    return __getattr__, __dir__, list(exports)
