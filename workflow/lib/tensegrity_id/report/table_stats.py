"""Summaries over the seeds of one table row, shared by the table builders.

Every identification table reduces the result records of a row's seeds to
one value per column: a mean over the seeds that hold a value
(:func:`mean_of`), their standard deviation (:func:`sd_of`), the outcome
labels with their counts (:func:`outcome_label`), and per run the held-out
misfit beyond the noise floor, the mean error over identifiable members and
the largest error over all members.  They read result records
(``tensegrity_id.identify``) only; no table is assembled here.
"""

from __future__ import annotations

from ..identify.seeds import seed_stats

__all__ = [
    "mean_of",
    "sd_of",
    "outcome_label",
    "held_out_excess",
    "identifiable_mean",
    "all_members_max",
]


def held_out_excess(res: dict) -> float | None:
    """Held-out misfit beyond the noise floor; the raw misfit for results scored before it existed."""
    return res.get("held_out_excess_pct", res.get("held_out_misfit_pct"))


def all_members_max(res: dict) -> float | None:
    """Largest force-density error (%) over every member, the inert ones included."""
    sig, true = res["identified"]["sigma"], res["exact"]["sigma"]
    vals = [100.0 * abs(s - t) / abs(t) for s, t in zip(sig, true, strict=True) if s is not None]
    return max(vals) if vals else None


def identifiable_mean(res: dict) -> float | None:
    """Mean absolute force-density error (%) over a run's identifiable members."""
    err = res["errors"].get("sigma_pct")
    if err is None:
        return None
    keep = res.get("identifiable", range(len(err)))
    vals = [abs(err[k]) for k in keep if err[k] is not None]
    return float(sum(vals) / len(vals)) if vals else None


def mean_of(values) -> float | None:
    """Mean of the values that are not ``None``; ``None`` when none is."""
    vals = [float(v) for v in values if v is not None]
    return float(sum(vals) / len(vals)) if vals else None


def sd_of(values) -> float | None:
    """Standard deviation over seeds (:func:`tensegrity_id.identify.seeds.seed_stats`)."""
    return seed_stats(values)["std"]


def outcome_label(results: list[dict]) -> str:
    """The runs' outcome labels: the one label, or each with its count (``identified x2, ...``)."""
    counts: dict = {}
    for r in results:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{k} x{n}" for k, n in counts.items())
