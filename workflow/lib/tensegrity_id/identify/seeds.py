"""Seed-group statistics (the paper §4.8): the spread of identifications that differ only in their seed.

A seed group is a set of result records
(:class:`~tensegrity_id.results.identification.IdentificationResult`) of one
method, structure, record, protocol and settings, one per seed (different
network initialisation and noise realisation).  Its summary
(:class:`~tensegrity_id.results.identification.SeedGroupSummary`, written to
``results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seeds_steps{steps}[_{variant}].json``)
holds, for every identified parameter (``sigma_{k}`` N/m, ``c`` N s/m,
``EA`` N) and every error (%: the largest, median, per cable
``sigma_pct_{k}``, damper, axial stiffness) or fit metric, the mean, the
sample standard deviation (``ddof = 1``; ``None`` for one seed), the range
and the count over the seeds that finished
(:class:`~tensegrity_id.results.identification.SeedStats`); runs that
diverged are listed apart and left out of the statistics; ``wall_s`` is the
batch's training time (s).  A quantity that no finished seed reports (an
inert cable's error) has ``n = 0`` and ``None`` values.
"""

from __future__ import annotations

import math
from collections import Counter

from ..results.identification import (
    ERROR_SUMMARIES,
    FIT_METRICS,
    KEY,
    IdentificationResult,
    SeedGroupSummary,
    SeedStats,
)

__all__ = ["FIT_KEYS", "seed_stats", "seed_group_summary"]

FIT_KEYS = FIT_METRICS
"""The fit metrics a seed group summarises."""


def seed_stats(values) -> SeedStats:
    """Mean, sample standard deviation (ddof 1), range and count of the finite values given."""
    vals = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    n = len(vals)
    if not n:
        return SeedStats(mean=None, std=None, min=None, max=None, n=0)
    mean = sum(vals) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1)) if n > 1 else None
    return SeedStats(mean=mean, std=std, min=min(vals), max=max(vals), n=n)


def seed_group_summary(results: list[IdentificationResult]) -> SeedGroupSummary:
    """The summary of a seed group's result records (see the module docstring)."""
    if not results:
        raise ValueError("a seed group needs at least one result")
    first = results[0]
    ok = [r for r in results if not r.diverged]
    n_cables = len(first.identified.sigma)
    params = {f"sigma_{k}": seed_stats(r.identified.sigma[k] for r in ok) for k in range(n_cables)}
    params[KEY.c] = seed_stats(r.identified.c for r in ok)
    if any(r.identified.EA is not None for r in results):
        params[KEY.EA] = seed_stats(r.identified.EA for r in ok)
    errors = {key: seed_stats(getattr(r.errors, key) for r in ok) for key in ERROR_SUMMARIES}
    errors.update({f"sigma_pct_{k}": seed_stats(r.errors.sigma_pct[k] for r in ok) for k in range(n_cables)})
    if any(r.identified.EA is not None for r in results):  # an EA error wherever EA was identified
        errors[KEY.EA_pct] = seed_stats(r.errors.EA_pct for r in ok)
    return SeedGroupSummary(
        method=first.method,
        structure=first.structure,
        record=first.record,
        protocol=first.protocol,
        steps=first.steps,
        variant=first.variant,
        seeds=[int(r.seed) for r in results],
        n_seeds=len(results),
        diverged=[int(r.seed) for r in results if r.diverged],
        outcomes=dict(Counter(str(r.outcome) for r in results)),
        parameters=params,
        errors=errors,
        fit={key: seed_stats(getattr(r, key) for r in ok) for key in FIT_METRICS},
        exact=first.exact,
        wall_s=max(float(r.wall_s or 0.0) for r in results),
    )
