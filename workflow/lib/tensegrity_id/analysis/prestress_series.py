"""Frequency against prestress level, and member grouping (the paper §3.3, §4.6).

:func:`modal_series` follows the constrained frequencies of a zero-gravity
form as its self-stress is scaled, and fits ``ln f`` against ``ln s`` per
mode: the log-slope is half the geometric fraction of Eq. 11 (1/2 for a
pure mechanism, about 0 for a mode stiffened by member extension).

:func:`grouping_study` compares the static equilibrium sensitivity Gram
matrix and the dynamic Fisher information with and without a group of
cables sharing one value (``sigma = Gamma^T g``).
"""

from __future__ import annotations

import numpy as np

from ..data.records import record_structure
from ..mechanics.dynamics import Dynamics
from ..mechanics.modal import constrained_modes, geometric_fractions
from ..mechanics.statics import equilibrium_matrix
from ..mechanics.structure import Structure
from ..results.fisher import FisherSummary
from .identifiability import group_information

__all__ = ["modal_series", "grouping_matrix", "grouping_study"]


def modal_series(structure: Structure, levels) -> dict:
    """Frequencies (Hz) per level, per-mode log-slopes and the mechanism-law fit.

    ``levels`` multiply the structure's prestress (which must be a
    zero-gravity self-stress).  The mechanism fit is ``w1^2 = a s + b`` over
    the levels; ``intercept_rel`` is ``b`` over the mean of ``w1^2``.
    """
    levels = np.asarray(levels, float)
    freqs = np.array(
        [constrained_modes(Dynamics(record_structure(structure, {"prestress_scale": k})))[0] for k in levels]
    )
    slopes = np.polyfit(np.log(levels), np.log(np.abs(freqs)), 1)[0]
    w2 = (2 * np.pi * freqs[:, 0]) ** 2
    a, b = np.polyfit(levels, w2, 1)
    _, frac = geometric_fractions(Dynamics(structure))
    return {
        "levels": levels.tolist(),
        "frequencies_hz": freqs.tolist(),
        "log_slopes": slopes.tolist(),
        "geometric_fraction_at_base": frac.tolist(),
        "mechanism_fit": {"slope": float(a), "intercept": float(b), "intercept_rel": float(b / w2.mean())},
    }


def grouping_matrix(n_params: int, groups: list[list[int]]) -> np.ndarray:
    """Gamma with one row per group and one per ungrouped parameter."""
    grouped = {i for g in groups for i in g}
    rows = []
    for g in groups:
        r = np.zeros(n_params)
        r[list(g)] = 1.0
        rows.append(r)
    for i in range(n_params):
        if i not in grouped:
            r = np.zeros(n_params)
            r[i] = 1.0
            rows.append(r)
    return np.array(rows)


def grouping_study(structure: Structure, fisher: FisherSummary, group: list[int]) -> dict:
    """Static Gram and dynamic Fisher spectra with and without one cable group.

    ``fisher``: the record's Fisher analysis (a :class:`~tensegrity_id.results.fisher.FisherSummary`,
    such as the :class:`~tensegrity_id.results.fisher.FisherAnalysis` of its file).
    """
    A = equilibrium_matrix(structure)[structure.free_mask][:, structure.n_bars :]
    gram = A.T @ A
    Gs = grouping_matrix(structure.n_cables, [group])
    J = np.asarray(fisher.J, float)
    Gd = grouping_matrix(J.shape[0], [group])
    Jg = group_information(J, Gd)
    theta = np.asarray(fisher.theta, float)
    gval = (Gd @ theta) / Gd.sum(axis=1)  # group value: the mean of its members
    rel = np.sqrt(np.diag(np.linalg.inv(Jg))) / np.abs(gval)
    names = [fisher.names[int(np.flatnonzero(r)[0])] if r.sum() == 1 else "group" for r in Gd]
    return {
        "group": [int(i) for i in group],
        "static_gram_eigenvalues": np.linalg.eigvalsh(gram).tolist(),
        "static_grouped_min": float(np.linalg.eigvalsh(group_information(gram, Gs)).min()),
        "dynamic_lambda_min": float(np.linalg.eigvalsh(J).min()),
        "dynamic_grouped_lambda_min": float(np.linalg.eigvalsh(Jg).min()),
        "grouped_crlb_relative": dict(zip(names, rel.tolist(), strict=True)),
        "worst_grouped_sigma_bound_rel": float(max(v for n, v in zip(names, rel, strict=True) if n != "c")),
    }
