"""Rule params in one canonical form: a changed value re-runs a job, reordered keys do not.

Snakemake re-runs a job when its params change (``--rerun-triggers params``,
on by default), comparing the ``repr`` of each value with the one it recorded
(``.snakemake/metadata``).  A mapping's ``repr`` follows its insertion order,
which for a config section is the order its keys are written in, so moving
``rtol`` above ``t_end`` in ``records.simulation`` would re-run every
simulation and all that follows, with the same values.  Every rule therefore
passes its params through :func:`canonical_params` (``workflow/rules/*.smk``):
each mapping, at any depth, reaches the script and the metadata with its keys
sorted, and each tuple as a list.  Lists keep their order: the order of a list
is a value (the rows of a table, the channels of a protocol).  Numbers are
left as written (``25`` and ``25.0`` stay different values).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["canonical", "canonical_params"]


def canonical(value: Any) -> Any:
    """``value`` with every mapping's keys sorted and every tuple a list, recursively.

    Examples
    --------
    >>> canonical({"t_end": 5.0, "method": "LSODA", "drive": ({"b": 1, "a": 2},)})
    {'drive': [{'a': 2, 'b': 1}], 'method': 'LSODA', 't_end': 5.0}
    """
    if isinstance(value, Mapping):
        items = [(k, canonical(v)) for k, v in value.items()]
        try:
            items.sort(key=lambda kv: kv[0])
        except TypeError:  # keys of mixed types (e.g. int and str): by type, then text
            items.sort(key=lambda kv: (type(kv[0]).__name__, repr(kv[0])))
        return dict(items)
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


def _canonical_function(func: Callable) -> Callable:
    """A param function whose result is :func:`canonical`.  ``functools.wraps`` keeps its
    signature visible (``inspect.signature`` follows ``__wrapped__``), so Snakemake passes it the
    same arguments (``wildcards``, ``input``, ``output``, ``threads``, ``resources``) as before."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return canonical(func(*args, **kwargs))

    return wrapper


def canonical_params(**params: Any) -> dict[str, Any]:
    """A rule's params, each value canonical (a param function's result, once it is called).

    Used as ``params: **canonical_params(name=value, ...)`` in every rule.
    """
    return {
        name: _canonical_function(value) if callable(value) else canonical(value)
        for name, value in params.items()
    }
