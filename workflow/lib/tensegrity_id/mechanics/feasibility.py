"""Prestress feasibility of the gravity-loaded triplex prism against twist.

The paper's §2.3: with the base pinned, gravity on and every cable force density at
least ``sigma_min``, the LP of :func:`tensegrity_id.mechanics.statics.prestress_lp`
finds a prestress with all bars in compression from just above the 30 deg
self-stress twist to about 58 deg, and none outside.  This module scans the
twist and locates both ends of the feasible interval by bisection.
"""

from __future__ import annotations

import numpy as np

from .generators import prism
from .statics import PrestressError, prestress_lp

__all__ = ["prism_feasible", "prism_twist_range"]


def prism_feasible(twist_deg: float, *, sigma_min: float = 1.0, **prism_kwargs) -> bool:
    """True when an LP prestress exists with every bar in compression.

    ``prism_kwargs`` go to :func:`~tensegrity_id.mechanics.generators.prism`; gravity
    defaults to 9.81 m/s^2 (the gravity-loaded benchmark).
    """
    s = prism(3, twist_deg=twist_deg, **{"gravity": 9.81, **prism_kwargs})
    try:
        _, bar_sigma = prestress_lp(s, sigma_min=sigma_min)
    except PrestressError:
        return False
    return bool((bar_sigma < 0).all())


def _bisect(f, a, b, tol):
    fa = f(a)
    while b - a > tol:
        c = 0.5 * (a + b)
        if f(c) == fa:
            a = c
        else:
            b = c
    return 0.5 * (a + b)


def prism_twist_range(
    *,
    sigma_min: float = 1.0,
    lo: float = 5.0,
    hi: float = 85.0,
    step: float = 0.5,
    tol: float = 1e-3,
    **prism_kwargs,
) -> dict:
    """Feasible twist interval of the gravity prism, degrees.

    Returns ``{"twist_min_deg", "twist_max_deg", "scan_deg", "scan_feasible"}``;
    the interval ends are located to ``tol`` degrees.
    """
    kw = prism_kwargs
    grid = np.arange(lo, hi + step / 2, step)
    ok = np.array([prism_feasible(t, sigma_min=sigma_min, **kw) for t in grid])
    if not ok.any():
        raise PrestressError(f"gravity prism: no feasible twist in [{lo}, {hi}] deg")
    first, last = np.flatnonzero(ok)[[0, -1]]
    if not ok[first : last + 1].all():
        raise PrestressError("gravity prism: the feasible twists do not form one interval")
    f = lambda t: prism_feasible(t, sigma_min=sigma_min, **kw)  # noqa: E731
    tmin = grid[first] if first == 0 else _bisect(f, grid[first - 1], grid[first], tol)
    tmax = grid[last] if last == len(grid) - 1 else _bisect(f, grid[last], grid[last + 1], tol)
    return {
        "sigma_min": sigma_min,
        "twist_min_deg": float(tmin),
        "twist_max_deg": float(tmax),
        "scan_deg": grid.tolist(),
        "scan_feasible": ok.tolist(),
    }
