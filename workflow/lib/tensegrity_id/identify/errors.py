"""Parameter errors of an identified model against the exact parameters (§4.2).

Relative errors (%) over the *identifiable* cables only; cables with both
ends restrained (``inert_members``, e.g. the X1 base cable) are reported
apart, with their identified values, and never counted.  Used by
:func:`tensegrity_id.identify.scoring.score_result` (and for every start of
a multi-start method); imports nothing of :mod:`tensegrity_id.identify`.
"""

from __future__ import annotations

import numpy as np

from ..analysis.identifiability import structural_identifiability

__all__ = ["parameter_errors"]


def _pct(a, b) -> float:
    return float(100.0 * abs(a - b) / abs(b))


def parameter_errors(structure, identified: dict, exact: dict | None) -> dict:
    """Errors over identifiable cables; inert cables apart.

    Returns ``{"errors": {...}, "inert_members": [...], "identifiable": [...],
    "inert_values": {...}}``; ``errors.sigma_pct`` has ``None`` at inert
    cables and where a method left a cable undetermined.  Without exact
    parameters (``exact`` ``None``, a measured record) every error is ``None``.
    """
    inert = structural_identifiability(structure)["invisible"]
    sig = np.asarray(identified["sigma"], float)
    identifiable = [k for k in range(structure.n_cables) if k not in inert]
    pct = [None] * structure.n_cables
    if exact is not None:
        true = np.asarray(exact["sigma"], float)
        for k in identifiable:
            if np.isfinite(sig[k]):
                pct[k] = _pct(sig[k], true[k])
    counted = [p for p in pct if p is not None]
    errors = {
        "sigma_pct": pct,
        "sigma_max_pct": max(counted) if counted else None,
        "sigma_median_pct": float(np.median(counted)) if counted else None,
        "c_pct": _pct(identified["c"], exact["c"])
        if exact is not None and identified.get("c") is not None
        else None,
    }
    if identified.get("EA") is not None:
        errors["EA_pct"] = _pct(identified["EA"], exact["EA"]) if exact is not None else None
    if identified.get("force_scale") is not None:
        true_f = None if exact is None else exact.get("force_scale")
        errors["force_scale_pct"] = (
            None
            if true_f is None
            else [_pct(a, b) for a, b in zip(identified["force_scale"], true_f, strict=True)]
        )
    return {
        "errors": errors,
        "inert_members": [int(k) for k in inert],
        "identifiable": identifiable,
        "inert_values": {int(k): (float(sig[k]) if np.isfinite(sig[k]) else None) for k in inert},
    }
