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

__all__ = ["SCALED", "per_attempt", "scaled"]

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
