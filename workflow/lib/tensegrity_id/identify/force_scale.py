"""Force-scale handling: the fitted factors of the driven coordinates' signals (one per coordinate).

A method that fits the force scale returns one flat list of factors, the
records in order and each record's driven coordinates in order; these
helpers split that list per record, apply a record's factors to its forcing
and name each factor.  Imports nothing of :mod:`tensegrity_id.identify`
(:mod:`.misfit`, :mod:`.resimulation` and :mod:`.scoring` all use it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # annotations only
    from .base import IdentificationProblem

__all__ = ["with_force_scale", "split_force_scale", "force_scale_labels"]


def with_force_scale(forcing, factors):
    """``forcing`` with its driven coordinates' signals times ``factors`` (on top of its own scale)."""
    if factors is None:
        return forcing
    base = np.ones(len(forcing.coords)) if forcing.scale is None else np.asarray(forcing.scale, float)
    return forcing.scaled(base * np.asarray(factors, float))


def split_force_scale(records, flat) -> list:
    """A flat list of force factors (records in order, driven coordinates in order) split per record."""
    if flat is None:
        return [None] * len(records)
    out, i = [], 0
    for r in records:
        n = len(r.forcing.coords)
        out.append(np.asarray(flat[i : i + n], float))
        i += n
    if i != len(flat):
        raise ValueError(f"{len(flat)} force factors for {i} driven coordinates")
    return out


def force_scale_labels(problem: IdentificationProblem) -> list[str]:
    """``{record}:force:{node}:{axis}`` of every driven coordinate (the order of a fitted force scale)."""
    dim = problem.structure.dim
    return [f"{r.name}:force:{c // dim}:{'xyz'[c % dim]}" for r in problem.records for c in r.forcing.coords]
