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
diverged are listed apart and left out of the statistics.  A quantity that no
finished seed reports (an inert cable's error) has ``n = 0`` and ``None``
values.

A group's seeds may train in several jobs (``identify.pinn.batch.seeds_per_job``),
each one batch whose wall time every seed of it records (``wall_s``, with
the seeds in ``batch``).  The summary's ``wall_s`` is the sum of its jobs'
wall times, each batch counted once (s): what the group cost, in job-seconds,
however the jobs ran side by side; with the whole group as one job, that
job's wall time.  The rule ``summarize_pinn_group`` writes the summary from
the seeds' result files (:func:`summarize_seed_group`).
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from ..results.identification import (
    ERROR_SUMMARIES,
    FIT_METRICS,
    KEY,
    IdentificationResult,
    SeedGroupSummary,
    SeedStats,
)

__all__ = ["FIT_KEYS", "seed_stats", "seed_group_summary", "summarize_seed_group"]

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


_GROUP_FIELDS = ("method", "structure", "record", "protocol", "steps", "variant")
"""What the result records of one seed group share (they differ in their seed)."""


def _check_one_group(results: list[IdentificationResult], names: list[str]) -> None:
    """A ValueError naming the first record that is not of the first one's group, or repeats a seed."""
    if not results:
        raise ValueError("a seed group needs at least one result")
    first, seen = results[0], {}
    for r, name in zip(results, names, strict=True):
        for key in _GROUP_FIELDS:
            if getattr(r, key) != getattr(first, key):
                raise ValueError(
                    f"{name}: {key} {getattr(r, key)!r} differs from {names[0]}'s {getattr(first, key)!r}; "
                    "a seed group's records differ only in their seed"
                )
        if r.seed in seen:
            raise ValueError(f"{name}: seed {r.seed} is also {seen[r.seed]}'s")
        seen[r.seed] = name


def _jobs_wall_s(results: list[IdentificationResult]) -> float:
    """The wall times of the jobs that trained ``results``, each batch counted once (s)."""
    per_batch: dict = {}
    for r in results:
        key = tuple(r.batch.seeds) if r.batch is not None else (r.seed,)
        per_batch[key] = max(per_batch.get(key, 0.0), float(r.wall_s or 0.0))
    return sum(per_batch.values())


def seed_group_summary(results: list[IdentificationResult]) -> SeedGroupSummary:
    """The summary of a seed group's result records (see the module docstring).

    ``wall_s`` is the sum of the wall times of the jobs that trained them, each batch (the seeds
    its records' ``batch`` names) counted once.  Raises ValueError when a record is not of the
    first one's group (method, structure, record, protocol, steps, variant) or repeats a seed.
    """
    _check_one_group(results, [f"seed {r.seed}" for r in results])
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
        wall_s=_jobs_wall_s(results),
    )


def summarize_seed_group(paths: list[str | Path]) -> SeedGroupSummary:
    """The summary of a seed group from its seeds' result files (``..._seed{seed}_steps{steps}.json``).

    Parameters
    ----------
    paths : list of str or Path
        One result file per seed of the group, in the order of its seeds (the jobs that trained
        them may be several).

    Raises ValueError naming the file that is not of the first one's group or repeats a seed.
    """
    results = [IdentificationResult.load(p) for p in paths]
    _check_one_group(results, [str(p) for p in paths])
    return seed_group_summary(results)
