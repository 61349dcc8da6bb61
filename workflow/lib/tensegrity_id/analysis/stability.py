"""Stability and strength primitives of a prestress: tangent stiffness, class, utilisations (seed §3.5, §S5).

The definitions (tangent stiffness with rigid or flexible bars, the
classification tolerance, the strength checks and the material library) are
stated in :mod:`tensegrity_id.analysis.assessment`, which composes these
primitives into the assessment of a structure, a prestress scan, a record
and the steel design.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import null_space

from ..mechanics.dynamics import Dynamics
from ..mechanics.modal import stiffness_split
from ..mechanics.statics import (
    _unrestrained_rigid_modes,
    equilibrium_matrix,
    rigid_body_modes,
)
from ..mechanics.structure import Structure

__all__ = [
    "MATERIALS",
    "STEEL_DENSITY",
    "bar_force_densities",
    "stiffness",
    "classify",
    "utilisations",
    "size_sections",
]

MATERIALS = {
    "q345": {"E": 206e9, "yield": 300e6},
    "wire_rope": {"E": 76e9, "allowable": 600e6},
}
"""Member materials of the seed's library: Pa."""

STEEL_DENSITY = 7850.0
"""kg/m^3, structural steel (EN 1993-1-1, 3.2.6): the steel design's bar mass."""


def bar_force_densities(structure: Structure, sigma) -> np.ndarray:
    """Bar force densities (N/m, tension positive) in equilibrium with cable ``sigma`` and gravity.

    Least squares on the free rows of the equilibrium matrix; exact where the
    bars are statically determinate given the cables.
    """
    A = equilibrium_matrix(structure)
    rows = slice(None) if structure.free_standing else structure.free_mask
    nb = structure.n_bars
    rhs = -(A[rows, nb:] @ np.asarray(sigma, float) + structure.gravity_force[rows])
    sol, *_ = np.linalg.lstsq(A[rows, :nb], rhs, rcond=None)
    return sol


def _tangent_space(structure: Structure, dyn: Dynamics, rigid: bool, q_free=None) -> np.ndarray:
    blocks = []
    x = dyn.full(dyn.q0[dyn.free] if q_free is None else q_free)
    if rigid and structure.n_bars:
        blocks.append(dyn.constraint_jacobian(x)[:, dyn.free])
    if _unrestrained_rigid_modes(structure):
        blocks.append(rigid_body_modes(x)[structure.free_mask].T)
    return null_space(np.vstack(blocks)) if blocks else np.eye(dyn.n_free)


def stiffness(
    structure: Structure,
    sigma=None,
    bar_sigma=None,
    *,
    bars: str = "rigid",
    bar_E: float | None = None,
    q_free=None,
    taut=None,
    slack: str = "stress",
) -> dict:
    """Reduced ``K_t`` and ``K_M`` (N/m) on the admissible space ``N``; ``K_G`` on the free coordinates.

    ``K_G`` (the stress matrix, for the super-stability test) is taken on all
    free coordinates, less the rigid-body motions of a free-free form; its
    restriction to ``N`` is ``KG_reduced``.

    ``sigma`` defaults to the structure's prestress and ``bar_sigma`` to the
    bars' force densities in equilibrium with it; ``bars`` is ``"rigid"`` or
    ``"flexible"`` (then ``bar_E``, Pa, default Q345, with the bar radius).
    ``q_free`` and ``taut`` evaluate a frozen configuration of a record (the
    cable force densities then follow from the current lengths; pass the
    record's bar multipliers as ``bar_sigma``).  A slack cable drops out of
    the stress matrix; with ``slack="stress"`` (the seed's convention, §S5)
    it keeps its axial stiffness ``EA/l`` in ``K_M`` (it resists the
    re-extension that would make it taut), with ``slack="tangent"`` it drops
    out of ``K_M`` too (the one-sided tangent of the tension-only law at
    its slack side: the lower bound).
    """
    if bars not in ("rigid", "flexible"):
        raise ValueError(f"bars must be 'rigid' or 'flexible', got {bars!r}")
    if slack not in ("stress", "tangent"):
        raise ValueError(f"slack must be 'stress' or 'tangent', got {slack!r}")
    sigma = np.asarray(structure.sigma if sigma is None else sigma, float)
    if bar_sigma is None:
        bar_sigma = bar_force_densities(structure, sigma)
    dyn = Dynamics(structure, sigma=sigma)
    taut = np.ones(structure.n_cables, bool) if taut is None else np.asarray(taut, bool)
    Km, Kg = stiffness_split(dyn, q_free, np.asarray(bar_sigma, float), taut)
    if slack == "stress" and not taut.all():
        Km = stiffness_split(dyn, q_free, np.asarray(bar_sigma, float), np.ones_like(taut))[0]
    if bars == "flexible":
        E = MATERIALS["q345"]["E"] if bar_E is None else float(bar_E)
        area = np.pi * np.broadcast_to(structure.bar_radius, (structure.n_bars,)) ** 2
        A = equilibrium_matrix(structure)[:, : structure.n_bars]
        L = structure.bar_lengths
        Kb = (A * (E * area / L**3)) @ A.T  # sum EA/l u u^T with A's columns l u
        Km = Km + Kb[np.ix_(dyn.free, dyn.free)]
    N = _tangent_space(structure, dyn, bars == "rigid", q_free)
    R = _tangent_space(structure, dyn, False, q_free)  # free coordinates less free-free rigid motions
    sym = lambda K: 0.5 * (K + K.T)  # noqa: E731
    return {
        "Kt": sym(N.T @ (Km + Kg) @ N),
        "KM": sym(N.T @ Km @ N),
        "KG": sym(R.T @ Kg @ R),
        "KG_reduced": sym(N.T @ Kg @ N),
        "N": N,
        "S_free": sym(Kg),
        "bar_sigma": np.asarray(bar_sigma, float),
    }


def classify(Kt, KG, *, tol_rel: float = 1e-8) -> dict:
    """Class from the signs of ``lambda_min(K_t)`` and ``lambda_min(K_G)`` against ``tol_rel ||K_G||``."""
    lt = float(np.linalg.eigvalsh(Kt)[0]) if len(Kt) else np.inf
    lg = float(np.linalg.eigvalsh(KG)[0]) if len(KG) else 0.0
    scale = float(np.linalg.norm(KG, 2)) if len(KG) else 0.0
    # relative to ||K_G||, and never below the round-off of K_t (zero prestress: an unbraced mechanism)
    tol = tol_rel * scale + 1e3 * np.finfo(float).eps * (float(np.linalg.norm(Kt, 2)) if len(Kt) else 0.0)
    if lt <= tol:
        cls = "unstable"
    elif lg >= -tol:
        cls = "super-stable"
    else:
        cls = "stable"
    return {"class": cls, "lambda_min": lt, "lambda_min_KG": lg, "tol": tol}


def utilisations(structure: Structure, sigma, bar_sigma, *, cable_area=None, materials=None) -> dict:
    """Cable and strut utilisations (seed §S5): ``U_c`` per cable, ``U_b`` per bar and their maxima."""
    mat = {**MATERIALS, **(materials or {})}
    c, b = mat["wire_rope"], mat["q345"]
    sigma = np.asarray(sigma, float)
    T = sigma * structure.cable_lengths
    Ac = (
        np.asarray(structure.cable_EA, float) / c["E"]
        if cable_area is None
        else np.broadcast_to(cable_area, T.shape)
    )
    Uc = np.maximum(T, 0.0) / (Ac * c["allowable"])
    Lb = structure.bar_lengths
    C = -np.asarray(bar_sigma, float) * Lb  # compression positive
    R = np.broadcast_to(np.asarray(structure.bar_radius, float), Lb.shape)
    Ab = np.pi * R**2
    Pcr = np.pi**2 * b["E"] * (np.pi * R**4 / 4) / Lb**2
    capacity = np.minimum(Ab * b["yield"], Pcr)
    Ub = np.maximum(C, 0.0) / capacity
    return {
        "cable_tension": T,
        "cable_area": Ac,
        "U_c": Uc,
        "U_c_max": float(Uc.max()) if Uc.size else 0.0,
        "strut_compression": C,
        "strut_capacity": capacity,
        "buckling_governs": Pcr < Ab * b["yield"],
        "U_b": Ub,
        "U_b_max": float(Ub.max()) if Ub.size else 0.0,
    }


def _solid_radius(P, L, materials=None):
    """Smallest solid circular radius (m) whose capacity ``min(A f_y, pi^2 E I / L^2)`` is ``P`` (N)."""
    b = {**MATERIALS, **(materials or {})}["q345"]
    P, L = np.asarray(P, float), np.asarray(L, float)
    r_yield = np.sqrt(P / (np.pi * b["yield"]))
    r_euler = (4.0 * P * L**2 / (np.pi**3 * b["E"])) ** 0.25  # pi^2 E (pi r^4 / 4) / L^2 = P
    return np.maximum(r_yield, r_euler)


def size_sections(structure: Structure, sigma, bar_sigma, *, U_c: float, U_b: float, materials=None) -> dict:
    """One cable area and one solid bar radius at which the governing members carry ``U_c`` and ``U_b``.

    The cable area is ``max T / (U_c sigma_all)``; the bar radius is the
    largest over the bars of the smallest solid radius whose capacity (yield
    or Euler, :func:`utilisations`) is ``C / U_b``.  Raises ``ValueError``
    for utilisations outside (0, 1] or a prestress without a tensioned cable
    or a compressed bar.
    """
    for name, u in (("U_c", U_c), ("U_b", U_b)):
        if not 0.0 < float(u) <= 1.0:
            raise ValueError(f"design utilisation {name} must be in (0, 1], got {u!r}")
    mat = {**MATERIALS, **(materials or {})}
    T = np.asarray(sigma, float) * structure.cable_lengths
    C = -np.asarray(bar_sigma, float) * structure.bar_lengths
    if T.max() <= 0 or C.max() <= 0:
        raise ValueError(f"structure '{structure.name}': sizing needs a tensioned cable and a compressed bar")
    area = float(T.max() / (float(U_c) * mat["wire_rope"]["allowable"]))
    comp = C > 0
    radius = float(_solid_radius(C[comp] / float(U_b), structure.bar_lengths[comp], materials).max())
    return {"cable_area": area, "bar_radius": radius}
