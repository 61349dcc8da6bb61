"""Summaries over the seeds of one table row, shared by the table builders.

Every identification table reduces the result records of a row's seeds to
one value per column: a mean over the seeds that hold a value
(:func:`mean_of`), their standard deviation (:func:`sd_of`), the outcome
labels with their counts (:func:`outcome_label`), and per run the mean
error over identifiable members and the largest error over all members.
They read result records
(:class:`~tensegrity_id.results.identification.IdentificationResult`) only;
no table is assembled here.
"""

from __future__ import annotations

from ..identify.seeds import seed_stats
from ..results.identification import IdentificationResult

__all__ = [
    "mean_of",
    "sd_of",
    "outcome_label",
    "identifiable_mean",
    "all_members_max",
]


def all_members_max(res: IdentificationResult) -> float | None:
    """Largest force-density error (%) over every member, the inert ones included."""
    sig, true = res.identified.sigma, res.exact.sigma
    vals = [100.0 * abs(s - t) / abs(t) for s, t in zip(sig, true, strict=True) if s is not None]
    return max(vals) if vals else None


def identifiable_mean(res: IdentificationResult) -> float | None:
    """Mean absolute force-density error (%) over a run's identifiable members."""
    err = res.errors.sigma_pct
    vals = [abs(err[k]) for k in res.identifiable if err[k] is not None]
    return float(sum(vals) / len(vals)) if vals else None


def mean_of(values) -> float | None:
    """Mean of the values that are not ``None``; ``None`` when none is."""
    vals = [float(v) for v in values if v is not None]
    return float(sum(vals) / len(vals)) if vals else None


def sd_of(values) -> float | None:
    """Standard deviation over seeds (:func:`tensegrity_id.identify.seeds.seed_stats`)."""
    return seed_stats(values).std


def outcome_label(results: list) -> str:
    """The runs' outcome labels: the one label, or each with its count (``identified x2, ...``)."""
    counts: dict = {}
    for r in results:
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{k} x{n}" for k, n in counts.items())
