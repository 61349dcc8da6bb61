"""Stability and strength of a prestress (the paper §3.5, §S5): tangent stiffness, class, utilisations.

The definitions (tangent stiffness with rigid or flexible bars, the
classification tolerance, the strength checks and the material library) are
stated in :mod:`tensegrity_id.analysis.assessment`, which composes these
primitives into the assessment of a structure, a prestress scan, a record
and the steel design.  Two primitives go beyond the paper's formulation:
:func:`unsupported_stiffness`, whose margin does not depend on how a
free-standing form is grounded, and :func:`connelly_conditions`, Connelly's
sufficient condition for super stability.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import null_space

from ..mechanics.dynamics import Dynamics
from ..mechanics.formfinding import force_density_matrix
from ..mechanics.modal import stiffness_split
from ..mechanics.statics import (
    RANK_TOL,
    _unrestrained_rigid_modes,
    equilibrium_matrix,
    rigid_body_modes,
)
from ..mechanics.structure import Structure
from ..results.assessment import Classification, Connelly

__all__ = [
    "MATERIALS",
    "STEEL_DENSITY",
    "Stiffness",
    "Utilisations",
    "Sections",
    "bar_force_densities",
    "stiffness",
    "unsupported_stiffness",
    "connelly_conditions",
    "directions_on_conic",
    "classify",
    "utilisations",
    "size_sections",
]

MATERIALS = {
    "q345": {"E": 206e9, "yield": 300e6},
    "wire_rope": {"E": 76e9, "allowable": 600e6},
}
"""Member materials of the paper's library: Pa."""

STEEL_DENSITY = 7850.0
"""kg/m^3, structural steel (EN 1993-1-1, 3.2.6): the steel design's bar mass."""


@dataclass(frozen=True, eq=False)
class Stiffness:
    """The stiffness matrices of one prestress (N/m, :func:`stiffness`).

    ``Kt`` and ``KM`` reduced to the admissible space ``N`` (an orthonormal
    basis, one column per direction, over the free coordinates); ``KG`` on
    the free coordinates less a free-free form's rigid-body motions, and
    ``KG_reduced`` its restriction to ``N``; ``S_free`` the stress matrix on
    all free coordinates; ``bar_sigma`` (N/m) the bars' force densities used.
    """

    Kt: np.ndarray
    KM: np.ndarray
    KG: np.ndarray
    KG_reduced: np.ndarray
    N: np.ndarray
    S_free: np.ndarray
    bar_sigma: np.ndarray


@dataclass(frozen=True, eq=False)
class Utilisations:
    """Member strength checks of one prestress (:func:`utilisations`).

    Per cable: ``cable_tension`` (N), ``cable_area`` (m^2), ``U_c``; per
    bar: ``strut_compression`` (N, compression positive),
    ``strut_capacity`` (N), ``buckling_governs`` and ``U_b``; the largest
    ``U_c_max``, ``U_b_max`` (0 without members).
    """

    cable_tension: np.ndarray
    cable_area: np.ndarray
    U_c: np.ndarray
    U_c_max: float
    strut_compression: np.ndarray
    strut_capacity: np.ndarray
    buckling_governs: np.ndarray
    U_b: np.ndarray
    U_b_max: float


@dataclass(frozen=True)
class Sections:
    """One cable area (m^2) and one solid bar radius (m): :func:`size_sections`."""

    cable_area: float
    bar_radius: float


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
) -> Stiffness:
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
    the stress matrix; with ``slack="stress"`` (the paper's convention, §S5)
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
    return Stiffness(
        Kt=sym(N.T @ (Km + Kg) @ N),
        KM=sym(N.T @ Km @ N),
        KG=sym(R.T @ Kg @ R),
        KG_reduced=sym(N.T @ Kg @ N),
        N=N,
        S_free=sym(Kg),
        bar_sigma=np.asarray(bar_sigma, float),
    )


def unsupported_stiffness(
    structure: Structure, sigma=None, bar_sigma=None, *, bars: str = "rigid", bar_E: float | None = None
) -> Stiffness:
    """:func:`stiffness` of the form with every support removed: a margin independent of the grounding.

    The structure's nodes are taken with all coordinates free; ``K_t = K_M +
    K_G`` is reduced to the admissible space ``N``: the null space of the
    bar-length constraint Jacobian (rigid bars) intersected with the
    orthogonal complement of the rigid-body motions (three translations and
    the infinitesimal rotations of the reference configuration; two and one
    in 2-D), in an orthonormal basis of ``R^(n d)``.  Arguments and the
    returned matrices are those of :func:`stiffness`; ``bar_sigma`` defaults to
    the bar force densities of ``structure`` as given.

    Why (for a free-standing form, whose prestress is a self-stress)
    ---------------------------------------------------------------
    A minimally (3-2-1) grounded form has its margin on ``N_g = {J dq = 0,
    dq_fixed = 0}``; this one on ``N_0 = {J dq = 0, R^T dq = 0}``, ``R``
    the rigid-body modes.  A 3-2-1 grounding holds each rigid-body motion
    exactly once, so every admissible ``dq`` splits uniquely as ``dq = g + R
    a`` with ``g`` in ``N_g`` (``J R = 0``: a rigid motion extends no bar),
    and ``P g`` (``P`` the orthogonal projector off ``R``) maps ``N_g`` onto
    ``N_0`` one to one.  When the member forces are a self-stress, ``K_t R =
    0``: ``K_M`` because a rigid motion extends no member, ``K_G = Omega (x)
    I_d`` because ``Omega 1 = 0`` (translations) and ``Omega X = 0``
    (rotations ``X W^T``, ``W`` skew).  Hence ``g^T K_t g = (P g)^T K_t (P
    g)``: the grounded and unsupported reductions are one quadratic form in
    two bases.  They are congruent (same inertia, so the class does not
    depend on the grounding, by Sylvester's law) but their eigenvalues
    differ, because an eigenvalue of ``N^T K N`` is a Rayleigh quotient in
    the metric of the basis.  The grounded basis measures a motion by the
    displacement of the free coordinates relative to three arbitrary nodes;
    this one by the Euclidean norm (metres) of the displacement of all
    coordinates with its rigid-body part removed, a choice made here (the
    paper states no normalisation) because it depends on no support.  Since
    ``|P g| <= |g|``, a stable form's unsupported ``lambda_min`` is at least
    its grounded one for every 3-2-1 grounding.  A prestress that is not a
    self-stress (a load, or reactions) leaves ``K_t R != 0`` and the
    invariance does not hold.
    """
    sigma = np.asarray(structure.sigma if sigma is None else sigma, float)
    if bar_sigma is None:
        bar_sigma = bar_force_densities(structure, sigma)
    free = structure.with_changes(fixed=np.zeros_like(structure.fixed), free_standing=True)
    return stiffness(free, sigma, bar_sigma, bars=bars, bar_E=bar_E)


def directions_on_conic(directions, *, tol_rel: float = 1e-8) -> bool:
    """Whether member directions lie on a conic at infinity (Connelly 1982).

    They do when a nonzero symmetric ``d x d`` matrix ``Q`` has ``u_k^T Q
    u_k = 0`` for every direction ``u_k``: then the affine map ``I + eps
    Q`` changes no member length to first order.  Each direction gives one
    linear equation in the ``d (d + 1) / 2`` entries of ``Q``; they lie on
    a conic when that system's smallest singular value is at most
    ``tol_rel`` times its largest (directions normalised to unit length).

    Parameters
    ----------
    directions : array_like, shape (n_members, d)
    """
    u = np.asarray(directions, float)
    u = u / np.linalg.norm(u, axis=1, keepdims=True)
    d = u.shape[1]
    pairs = [(a, b) for a in range(d) for b in range(a, d)]
    if len(u) < len(pairs):
        return True
    M = np.column_stack([(1.0 if a == b else 2.0) * u[:, a] * u[:, b] for a, b in pairs])
    sv = np.linalg.svd(M, compute_uv=False)
    return bool(sv[-1] <= tol_rel * sv[0])


def connelly_conditions(
    structure: Structure, sigma=None, bar_sigma=None, *, tol_rel: float = 1e-8, eq_tol: float = RANK_TOL
) -> Connelly:
    """Connelly's sufficient condition for super stability of a prestress.

    Connelly (1982, "Rigidity and energy", Invent. Math. 66; restated in
    Connelly & Guest 2022, "Frameworks, Tensegrities, and Symmetry"): a
    tensegrity with a proper self-stress ``omega`` (cables ``>= 0``, struts
    ``<= 0``) in ``R^d`` is super stable (universally rigid) when

    1. the stress matrix ``Omega`` (``n x n``, the force-density Laplacian
       :func:`tensegrity_id.mechanics.formfinding.force_density_matrix`, bars
       included) is positive semi-definite,
    2. its nullity is ``d + 1`` (only the affine images of the
       configuration: the constant vector and the ``d`` coordinate columns),
    3. the directions of the stressed members do not lie on a conic at
       infinity (:func:`directions_on_conic`).

    The paper's test (``K_G`` positive semi-definite on the free
    coordinates) is condition 1 for a form without supports, where ``K_G =
    Omega (x) I_d``.  The theorem presumes a proper self-stress of the
    unsupported framework (``proper``: no compressed cable, no stretched
    bar, after the step below).  A prestress that leans on supports is first
    made one: the reactions are taken up by the members that join two fully
    held nodes (their length cannot change, so their force density plays no
    part in the mechanics of the free coordinates), solved by least squares;
    ``self_stress`` reports whether the out-of-balance force on all
    coordinates then vanishes (relative to the largest member force, below
    ``eq_tol``).  A load (gravity) leaves it unbalanced: no verdict.

    Two-stage tower (``two_stage_tower``, base pinned, LP prestress).  Its
    prestress leans on the base: as given, ``Omega`` is indefinite
    (``-12.0`` N/m, twice) with nullity 3.  The three base cables take up
    the reactions (force density 10 -> 19.3 N/m); ``Omega`` is then positive
    semi-definite but of nullity ``5 > d + 1``: the null space is spanned by
    the level indicators ``1_B, 1_M, 1_T`` and the ``x``, ``y`` columns (the
    ``z`` column is constant per level), because at every node the force
    densities of the members to the other levels sum to zero (bar ``-37.3``
    each way against cables ``10 + 27.3``).  The one non-affine null vector
    moves the middle level as a block relative to the base and the top:
    the stress energy does not resist it.  The paper's test passes (``K_G``
    on the free coordinates is positive semi-definite, nullity 6: each free
    level translates as a block), Connelly's condition fails on the
    nullity; the tower is stable because the material stiffness resists
    those block translations.  Failing a sufficient condition does not prove
    the tower is not universally rigid.  Checked in
    ``tests/unit/test_stability_margins.py``.

    Returns
    -------
    Connelly
        ``self_stress``, ``proper`` (bool); ``ground_members_adjusted``
        (members whose force density took up reactions; 0 where they could
        not, and then ``Omega`` is that of the stress as given);
        ``out_of_balance`` (-, largest nodal force over the largest member
        force); ``lambda_min_Omega`` (N/m); ``nullity_Omega`` (eigenvalues
        within ``tol_rel ||Omega||`` of zero); ``nullity_required`` (``d +
        1``); ``psd``, ``conic``, ``super_stable`` (bool, all conditions
        met); ``force_densities`` (N/m, bars then cables: the stress tested).
    """
    sigma = np.asarray(structure.sigma if sigma is None else sigma, float)
    bar_sigma = bar_force_densities(structure, sigma) if bar_sigma is None else np.asarray(bar_sigma, float)
    t = np.concatenate([bar_sigma, sigma])  # bars first, as structure.members
    mem = structure.members
    A = equilibrium_matrix(structure)
    lengths = np.concatenate([structure.bar_lengths, structure.cable_lengths])
    force = max(float(np.abs(t * lengths).max()), np.finfo(float).tiny)
    held = structure.fixed.all(axis=1)
    ground = held[mem[:, 0]] & held[mem[:, 1]]
    adjusted = 0
    if np.abs(A @ t).max() > eq_tol * force and ground.any():
        trial = t.copy()
        trial[ground] += np.linalg.lstsq(A[:, ground], -(A @ t), rcond=None)[0]
        if np.abs(A @ trial).max() <= eq_tol * force:  # else a load remains: keep the stress as given
            t, adjusted = trial, int(ground.sum())
    out_of_balance = float(np.abs(A @ t).max()) / force
    Omega = force_density_matrix(structure.n_nodes, mem, t)
    w = np.linalg.eigvalsh(Omega)
    tol = tol_rel * max(float(np.abs(w).max()), np.finfo(float).tiny)
    stressed = np.abs(t) > tol_rel * np.abs(t).max()  # zero-force members do not enter the energy
    x = structure.nodes
    conic = directions_on_conic(x[mem[stressed, 1]] - x[mem[stressed, 0]], tol_rel=tol_rel)
    nb, tiny = structure.n_bars, tol_rel * np.abs(t).max()
    self_stress = bool(out_of_balance <= eq_tol)
    proper = bool((t[nb:] >= -tiny).all() and (t[:nb] <= tiny).all())
    psd = bool(w[0] >= -tol)
    nullity, required = int((np.abs(w) <= tol).sum()), structure.dim + 1
    return Connelly(
        self_stress=self_stress,
        proper=proper,
        ground_members_adjusted=adjusted,
        out_of_balance=out_of_balance,
        lambda_min_Omega=float(w[0]),
        nullity_Omega=nullity,
        nullity_required=required,
        psd=psd,
        conic=conic,
        force_densities=t.tolist(),
        super_stable=bool(self_stress and proper and psd and nullity == required and not conic),
    )


def classify(Kt, KG, *, tol_rel: float = 1e-8) -> Classification:
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
    return Classification(class_=cls, lambda_min=lt, lambda_min_KG=lg, tol=tol)


def utilisations(structure: Structure, sigma, bar_sigma, *, cable_area=None, materials=None) -> Utilisations:
    """Cable and strut utilisations (the paper §S5): ``U_c`` per cable, ``U_b`` per bar and their maxima."""
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
    return Utilisations(
        cable_tension=T,
        cable_area=Ac,
        U_c=Uc,
        U_c_max=float(Uc.max()) if Uc.size else 0.0,
        strut_compression=C,
        strut_capacity=capacity,
        buckling_governs=Pcr < Ab * b["yield"],
        U_b=Ub,
        U_b_max=float(Ub.max()) if Ub.size else 0.0,
    )


def _solid_radius(P, L, materials=None):
    """Smallest solid circular radius (m) whose capacity ``min(A f_y, pi^2 E I / L^2)`` is ``P`` (N)."""
    b = {**MATERIALS, **(materials or {})}["q345"]
    P, L = np.asarray(P, float), np.asarray(L, float)
    r_yield = np.sqrt(P / (np.pi * b["yield"]))
    r_euler = (4.0 * P * L**2 / (np.pi**3 * b["E"])) ** 0.25  # pi^2 E (pi r^4 / 4) / L^2 = P
    return np.maximum(r_yield, r_euler)


def size_sections(
    structure: Structure, sigma, bar_sigma, *, U_c: float, U_b: float, materials=None
) -> Sections:
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
    return Sections(cable_area=area, bar_radius=radius)
