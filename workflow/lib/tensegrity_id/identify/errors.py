"""Parameter errors of an identified model against the exact parameters (§4.2).

Relative errors (%) over the *identifiable* cables only; cables with both
ends restrained (``inert_members``, e.g. the X1 base cable) are reported
apart, with their identified values, and never counted.  Used by
:func:`tensegrity_id.identify.scoring.score_result` (and for every start of
a multi-start method); imports nothing of :mod:`tensegrity_id.identify`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..analysis.identifiability import first_order_identifiability
from ..results.identification import Errors

__all__ = ["ParameterErrors", "parameter_errors"]


@dataclass(frozen=True)
class ParameterErrors:
    """The errors of an identified model and the cable sets they are counted over."""

    errors: Errors
    inert_members: list[int]
    """Cables with both ends restrained: never counted."""
    identifiable: list[int]
    inert_values: dict[str, float | None]
    """Identified force density (N/m) of each inert cable, by its index as a string (a JSON key)."""


def _pct(a, b) -> float:
    return float(100.0 * abs(a - b) / abs(b))


def parameter_errors(structure, identified: dict, exact: dict | None) -> ParameterErrors:
    """Errors over identifiable cables; inert cables apart.

    ``identified`` and ``exact`` hold ``sigma`` (N/m per cable; NaN where
    undetermined), ``c`` (N s/m) and optionally ``EA`` (N) and
    ``force_scale``.  ``errors.sigma_pct`` has ``None`` at inert cables and
    where a method left a cable undetermined.  Without exact parameters
    (``exact`` ``None``, a measured record) every error is ``None``.
    """
    inert = first_order_identifiability(structure).invisible
    sig = np.asarray(identified["sigma"], float)
    identifiable = [k for k in range(structure.n_cables) if k not in inert]
    pct = [None] * structure.n_cables
    if exact is not None:
        true = np.asarray(exact["sigma"], float)
        for k in identifiable:
            if np.isfinite(sig[k]):
                pct[k] = _pct(sig[k], true[k])
    counted = [p for p in pct if p is not None]
    ea_pct = fs_pct = None
    if identified.get("EA") is not None and exact is not None:
        ea_pct = _pct(identified["EA"], exact["EA"])
    true_f = None if exact is None else exact.get("force_scale")
    if identified.get("force_scale") is not None and true_f is not None:
        fs_pct = [_pct(a, b) for a, b in zip(identified["force_scale"], true_f, strict=True)]
    errors = Errors(
        sigma_pct=pct,
        sigma_max_pct=max(counted) if counted else None,
        sigma_median_pct=float(np.median(counted)) if counted else None,
        c_pct=_pct(identified["c"], exact["c"])
        if exact is not None and identified.get("c") is not None
        else None,
        EA_pct=ea_pct,
        force_scale_pct=fs_pct,
    )
    return ParameterErrors(
        errors=errors,
        inert_members=[int(k) for k in inert],
        identifiable=identifiable,
        inert_values={str(int(k)): (float(sig[k]) if np.isfinite(sig[k]) else None) for k in inert},
    )
