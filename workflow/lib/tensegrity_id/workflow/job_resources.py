"""A rule's cluster request, grown with each retry.

Each rule states its ``runtime`` (minutes) and ``mem_mb`` once, in its
``resources:`` block, for the first attempt (``**per_attempt(runtime=10,
mem_mb=1000)``, ``workflow/rules/*.smk``); the profiles set no per-rule
resources.  A job that fails is re-submitted (``retries`` in the profile)
with its request times the attempt number: a job killed at its time or
memory limit gets twice the limit on the second try, three times on the
third, instead of failing again at the same limit.

Snakemake evaluates a callable resource for each job with the arguments it
names; ``attempt`` is 1 for the first submission and grows by one per retry.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["SCALED", "per_attempt", "scaled", "pinn_expected_minutes", "pinn_priority"]

SCALED = ("runtime", "mem_mb")
"""The resources that grow with the attempt (minutes and megabytes); the others are passed as given."""


def scaled(base: int) -> Callable[..., int]:
    """A resource callable: ``base`` times the attempt number.

    Parameters
    ----------
    base : int
        The request of the first attempt (minutes for ``runtime``, MB for ``mem_mb``); positive.

    Examples
    --------
    >>> scaled(10)(None, attempt=1), scaled(10)(None, attempt=3)
    (10, 30)
    """
    if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
        raise ValueError(f"a resource request must be a positive whole number, not {base!r}")

    def request(wildcards, attempt):
        return base * attempt

    request.base = base
    return request


def per_attempt(**resources) -> dict:
    """A rule's ``resources:``, each of :data:`SCALED` grown with the attempt (:func:`scaled`).

    Both ``runtime`` (minutes) and ``mem_mb`` are required: a rule that left one
    out would take the cluster's default, which no retry would raise.

    Examples
    --------
    >>> r = per_attempt(runtime=10, mem_mb=1000)
    >>> r["runtime"](None, attempt=2), r["mem_mb"](None, attempt=2)
    (20, 2000)
    """
    missing = [k for k in SCALED if k not in resources]
    if missing:
        raise ValueError(f"per_attempt needs {' and '.join(missing)} (the first attempt's request)")
    return {k: scaled(v) if k in SCALED else v for k, v in resources.items()}


STEP_S = 0.007
"""Seconds of a training step per seed and record on one core (float32, the default 4 x 64 trunk)."""


def pinn_expected_minutes(steps: int, n_records: int, n_seeds: int, threads: int, settings: dict) -> float:
    """A physics-informed training job's expected wall time (minutes).

    :data:`STEP_S` a step per seed and record, scaled by the trunk's size against the default
    4 x 64 (width times depth: X3's 5 x 160 network measured 3.1 times the default's time a step,
    the ratio gives 3.1) and by the threads' speed-up (``threads ** 0.7``).  ``settings``: the job's
    network settings (``width``, ``depth``; absent keys take the defaults).
    """
    size = max(1.0, settings.get("width", 64) * settings.get("depth", 4) / (64 * 4))
    step_s = STEP_S * size * n_seeds / threads**0.7
    return steps * n_records * step_s / 60.0


def pinn_priority(minutes: float) -> int:
    """Snakemake's ``priority`` of a training job (higher starts first): its expected minutes, at
    least 1, so that the longest jobs start first and no core is left with a long job alone at the
    end; every other rule keeps the default 0."""
    return max(1, round(minutes))
