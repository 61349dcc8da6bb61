"""Cramér–Rao bounds at an identified point: the shooting Fisher call of the scoring.

Every method reports them where the exact parameters are unknown (a
measured record) or a force scale was fitted
(:func:`tensegrity_id.identify.scoring.score_result`); they need no exact
values.  Uses :mod:`.misfit` only (never :mod:`.scoring` or :mod:`.base`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..results.fisher import IdentifiedBounds
from .misfit import shooting_fisher

if TYPE_CHECKING:  # annotations only
    from .base import IdentificationProblem

__all__ = ["identified_bounds"]


def identified_bounds(
    problem: IdentificationProblem, identified: dict
) -> tuple[IdentifiedBounds | None, str | None]:
    """Cramér–Rao bounds at the identified parameters (no exact values needed), and why there are none.

    Computed for every method where the exact parameters are unknown (a
    measured record) or a force scale was fitted: the shooting Fisher
    information of the sensor channels at the identified point
    (:func:`tensegrity_id.identify.misfit.shooting_fisher`).  Returns
    ``(bounds, None)``; ``(None, None)`` without sensor data or where a
    parameter is undetermined or not positive; ``(None, reason)`` where the
    Fisher information cannot be computed (the result's ``bounds_failure``).
    """
    sig = np.asarray(identified["sigma"], float)
    if not all(r.sensors for r in problem.records) or not (np.all(np.isfinite(sig)) and np.all(sig > 0)):
        return None, None
    try:
        return shooting_fisher(problem, sig, identified["c"], identified.get("force_scale")), None
    except (ValueError, np.linalg.LinAlgError) as exc:
        return None, f"no Cramér-Rao bounds: {exc}"
