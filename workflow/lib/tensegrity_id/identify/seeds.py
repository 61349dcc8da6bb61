"""Seed-group statistics (the paper §4.8): the spread of identifications that differ only in their seed.

A seed group is a set of result records (:mod:`tensegrity_id.identify.base`)
of one method, structure, record, protocol and settings, one per seed
(different network initialisation and noise realisation).  Its summary
holds, for every identified parameter and every error or fit metric, the
mean, the sample standard deviation (``ddof = 1``; ``None`` for one seed)
and the range over the seeds that finished; runs that diverged are listed
apart and left out of the statistics.

Summary document of a PINN seed group
(``results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seeds_steps{steps}[_{variant}].json``)::

    method, structure, record, protocol, steps, variant, seeds, n_seeds,
    diverged: [seed, ...], outcomes: {label: count},
    parameters: {"sigma_0": stats, ..., "c": stats, "EA"?: stats},     # N/m, N s/m, N
    errors: {"sigma_max_pct": stats, "sigma_median_pct": stats,
             "sigma_pct_0": stats, ..., "c_pct": stats, "EA_pct"?: stats},   # %
    fit: {"reconstruction_pct", "held_out_ratio", "held_out_misfit_pct", "held_out_excess_pct",
          "resimulation_pct"}
    wall_s: the batch's training time (s)

with ``stats = {"mean", "std", "min", "max", "n"}``; a quantity that no
finished seed reports (an inert cable's error) has ``n = 0`` and ``None``
values.
"""

from __future__ import annotations

import math
from collections import Counter

__all__ = ["FIT_KEYS", "seed_stats", "seed_group_summary"]

FIT_KEYS = (
    "reconstruction_pct",
    "held_out_ratio",
    "held_out_misfit_pct",
    "held_out_excess_pct",
    "resimulation_pct",
)


def seed_stats(values) -> dict:
    """Mean, sample standard deviation (ddof 1), range and count of the finite values given."""
    vals = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    n = len(vals)
    if not n:
        return {"mean": None, "std": None, "min": None, "max": None, "n": 0}
    mean = sum(vals) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1)) if n > 1 else None
    return {"mean": mean, "std": std, "min": min(vals), "max": max(vals), "n": n}


def seed_group_summary(results: list[dict]) -> dict:
    """The summary of a seed group's result records (see the module docstring)."""
    if not results:
        raise ValueError("a seed group needs at least one result")
    head = {k: results[0].get(k) for k in ("method", "structure", "record", "protocol", "steps", "variant")}
    seeds = [int(r["seed"]) for r in results]
    ok = [r for r in results if not r.get("diverged")]
    n_cables = len(results[0]["identified"]["sigma"])
    params = {f"sigma_{k}": seed_stats(r["identified"]["sigma"][k] for r in ok) for k in range(n_cables)}
    params["c"] = seed_stats(r["identified"]["c"] for r in ok)
    if any("EA" in r["identified"] for r in results):
        params["EA"] = seed_stats(r["identified"].get("EA") for r in ok)
    errors = {
        key: seed_stats(r["errors"].get(key) for r in ok)
        for key in ("sigma_max_pct", "sigma_median_pct", "c_pct")
    }
    errors.update(
        {f"sigma_pct_{k}": seed_stats(r["errors"]["sigma_pct"][k] for r in ok) for k in range(n_cables)}
    )
    if any("EA_pct" in r["errors"] for r in results):
        errors["EA_pct"] = seed_stats(r["errors"].get("EA_pct") for r in ok)
    return {
        **head,
        "seeds": seeds,
        "n_seeds": len(seeds),
        "diverged": [int(r["seed"]) for r in results if r.get("diverged")],
        "outcomes": dict(Counter(str(r.get("outcome")) for r in results)),
        "parameters": params,
        "errors": errors,
        "fit": {key: seed_stats(r.get(key) for r in ok) for key in FIT_KEYS},
        "exact": results[0].get("exact"),
        "wall_s": max(float(r.get("wall_s") or 0.0) for r in results),
    }
