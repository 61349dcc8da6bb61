"""Structural assessment of a prestress: stability class, margin and member utilisations (seed §3.5, §S5).

Tangent stiffness (seed Eq. 14)
    ``K_t = K_M + K_G`` about the prestressed equilibrium, on the free
    coordinates.  ``K_M = sum_m (E_m A_m / l_m) u_m u_m^T`` (member extension;
    ``D = diag(E A / l)``) and ``K_G = S = sum_m sigma_m C_m`` with ``C_m`` the
    member's incidence block ``[[I, -I], [-I, I]]`` — the stress matrix, linear
    in the force densities.  For the cable law of this study this is the exact
    Hessian of the strain energy (:mod:`tensegrity_id.modal`).

    * rigid bars (default, the model of the identification): the bars carry
      their static force densities as constraint multipliers and enter ``S``
      only (the constraint-Hessian form); the stiffness is reduced to the
      tangent space of the bar constraints, ``N^T K N`` with ``N`` an
      orthonormal basis of ``{J_f dq = 0}``;
    * flexible bars: each bar adds ``E_b A_b / l u u^T`` to ``K_M``; no
      reduction.

    For a free-free form the rigid-body motions are removed from the space as
    well.  The margin is ``lambda_min(K_t)`` (N/m), in that orthonormal basis.

Classification (seed §S5)
    With ``tol = tol_rel * ||K_G||_2`` (plus the round-off level of ``K_t``):
    super-stable when ``lambda_min(K_t) > tol`` and ``lambda_min(K_G) >= -tol``
    (the stress matrix, bars included, positive semi-definite on the free
    coordinates); stable when ``lambda_min(K_t) > tol`` but ``K_G`` is
    indefinite; unstable otherwise (zero prestress leaves a mechanism unbraced).  Reported alongside:
    prestress stability on the infinitesimal mechanisms ``U_m`` of the
    equilibrium matrix (``lambda_min(U_m^T S U_m)``) and on the null space of
    ``K_M`` (the projected test).

Strength
    Cable tension ``T = sigma l`` against ``A_c * allowable`` (``U_c``); strut
    compression ``C = -sigma_b l_b`` against the smaller of yield ``A_b f_y`` and
    Euler buckling ``pi^2 E_b I / (K l)^2`` with ``I = pi R^4 / 4``, ``K = 1``
    (``U_b``).  Material library (Ma et al., seed Table S2): Q345 bars
    ``E = 206 GPa``, yield 300 MPa; wire-rope cables ``E = 76 GPa``, allowable
    600 MPa.  The cable area is ``EA / E_c`` unless given.

Steel design (seed §S5, the X2 frame rebuilt with steel members)
    :func:`steel_design` takes the structure's zero-gravity self-stress (the
    minimum-total-force-density LP, which is the self-stress itself where
    there is only one), scales it to a design maximum cable tension, gives
    the members the library's steel (uniform cable area, solid bars of one
    radius, density 7850 kg/m^3) and traces class, margin and utilisations as
    the prestress is raised.  The seed states neither section: they are
    either given or sized (:func:`size_sections`) so that the governing cable
    and strut carry stated design utilisations at the design tension — in
    that case the design-point utilisations are inputs, not results.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import null_space

from .dynamics import Dynamics
from .modal import stiffness_split
from .statics import _unrestrained_rigid_modes, equilibrium_matrix, mechanism_basis, rigid_body_modes
from .structure import Structure

__all__ = [
    "MATERIALS",
    "bar_force_densities",
    "stiffness",
    "classify",
    "utilisations",
    "assess",
    "lowest_frequency",
    "prestress_scan",
    "class_along_record",
    "error_propagation",
    "size_sections",
    "steel_design",
    "self_stress_family",
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


def assess(
    structure: Structure, sigma=None, *, bars: str = "rigid", tol_rel: float = 1e-8, cable_area=None
) -> dict:
    """Stability class, margin, prestress-stability checks and utilisations of one prestress."""
    sigma = np.asarray(structure.sigma if sigma is None else sigma, float)
    k = stiffness(structure, sigma, bars=bars)
    out = classify(k["Kt"], k["KG"], tol_rel=tol_rel)
    Um = mechanism_basis(structure)
    out["n_mechanisms"] = int(Um.shape[1])
    out["lambda_min_mechanisms"] = (
        float(np.linalg.eigvalsh(Um.T @ k["S_free"] @ Um)[0]) if Um.shape[1] else None
    )
    w, V = np.linalg.eigh(k["KM"])
    U0 = V[:, np.abs(w) <= 1e-9 * max(np.abs(w).max(), 1e-300)]
    out["lambda_min_KM_null"] = (
        float(np.linalg.eigvalsh(U0.T @ k["KG_reduced"] @ U0)[0]) if U0.shape[1] else None
    )
    out["bars"] = bars
    u = utilisations(structure, sigma, k["bar_sigma"], cable_area=cable_area)
    out.update(
        {"U_c_max": u["U_c_max"], "U_b_max": u["U_b_max"], "U_c": u["U_c"].tolist(), "U_b": u["U_b"].tolist()}
    )
    out["bar_sigma"] = k["bar_sigma"].tolist()
    out["eigenvalues_Kt"] = np.linalg.eigvalsh(k["Kt"]).tolist()
    out["eigenvalues_KG"] = np.linalg.eigvalsh(k["KG"]).tolist()
    return out


def lowest_frequency(structure: Structure, *, bars: str = "rigid") -> tuple[float, float]:
    """Lowest non-zero frequency (Hz) from ``K_t`` with the consistent mass, and from the modal analysis.

    The first uses :func:`stiffness` (the assessment's own reduction); the
    second :func:`tensegrity_id.modal.constrained_modes` (the dynamics'
    linearisation): agreement checks the two formulations (seed §S5: 0.2 %).
    """
    from scipy.linalg import eigh

    from .modal import constrained_modes

    k = stiffness(structure, bars=bars)
    dyn = Dynamics(structure)
    N = k["N"]
    w2 = eigh(k["Kt"], N.T @ dyn.Mff @ N, eigvals_only=True)
    f_t = np.sqrt(np.abs(w2)) / (2 * np.pi)
    f_m = np.abs(constrained_modes(dyn)[0])
    floor = 1e-6 * max(f_m.max(), 1e-300)
    return float(f_t[f_t > floor][0]), float(f_m[f_m > floor][0])


def prestress_scan(structure: Structure, scales, *, bars: str = "rigid", tol_rel: float = 1e-8) -> dict:
    """Class and margins as the prestress is scaled by each of ``scales`` (negative: reversed).

    The bars follow the cables through equilibrium (:func:`bar_force_densities`).
    """
    rows = []
    for s in scales:
        k = stiffness(structure, float(s) * np.asarray(structure.sigma, float), bars=bars)
        rows.append({"scale": float(s), **classify(k["Kt"], k["KG"], tol_rel=tol_rel)})
    return {"structure": structure.name, "bars": bars, "scan": rows}


def class_along_record(structure: Structure, record: dict, *, stride: int = 1, tol_rel: float = 1e-8) -> dict:
    """Instantaneous class of the frozen configuration at the samples of a record (rigid bars).

    ``record``: the arrays of a record file (``t``, ``q`` on all coordinates,
    ``lam`` bar multipliers, ``taut`` flags, energies ``E_T``, ``E_Vg``,
    ``E_Vs``).  At each sample the tangent stiffness is built at the current
    shape with the current cable force densities (slack cables drop out of
    the stress matrix) and the bar multipliers of the record: ``class``,
    ``lambda_min``, ``lambda_min_KG`` and ``counts`` with the seed's
    convention (slack cables keep their axial stiffness), the same with
    suffix ``_tangent`` with slack cables out of ``K_M`` as well (see
    :func:`stiffness`).
    """
    dyn = Dynamics(structure)
    idx = np.arange(0, len(record["t"]), int(stride))
    rows = []
    for i in idx:
        qf = np.asarray(record["q"][i], float)[dyn.free]
        taut = np.asarray(record["taut"][i], bool)
        row = {"n_slack": int((~taut).sum())}
        for slack, suffix in (("stress", ""), ("tangent", "_tangent")):
            k = stiffness(structure, bar_sigma=record["lam"][i], q_free=qf, taut=taut, slack=slack)
            c = classify(k["Kt"], k["KG"], tol_rel=tol_rel)
            row.update({f"{key}{suffix}": c[key] for key in ("class", "lambda_min", "lambda_min_KG")})
        rows.append(row)
    out = {"t": np.asarray(record["t"])[idx].tolist()}
    for key in rows[0] if rows else ():
        out[key] = [r[key] for r in rows]
    for key in ("E_T", "E_Vg", "E_Vs"):
        if key in record:
            out[key] = np.asarray(record[key])[idx].tolist()
    for suffix in ("", "_tangent"):
        cls = out.get(f"class{suffix}", [])
        out[f"counts{suffix}"] = {
            c: int(sum(x == c for x in cls)) for c in ("super-stable", "stable", "unstable")
        }
    return out


def error_propagation(structure: Structure, result: dict, *, bars: str = "rigid") -> dict:
    """Margin and utilisation errors when identified force densities replace the exact ones (seed Table 9).

    ``result``: an identification result record (``identified.sigma``,
    ``exact.sigma``, ``errors.sigma_max_pct``).  Undetermined cables
    (``None``) keep their exact value and are counted.  Errors are relative,
    in %; ``U_c`` is the largest cable utilisation (its error does not depend
    on the cable area).
    """
    exact = np.asarray(result["exact"]["sigma"], float)
    ident = np.array(
        [e if v is None else v for v, e in zip(result["identified"]["sigma"], exact, strict=True)]
    )
    a_ex = assess(structure, exact, bars=bars)
    a_id = assess(structure, ident, bars=bars)
    return {
        "method": result["method"],
        "structure": result["structure"],
        "record": result["record"],
        "sigma_max_pct": result["errors"]["sigma_max_pct"],
        "margin_exact": a_ex["lambda_min"],
        "margin_identified": a_id["lambda_min"],
        "margin_err_pct": 100 * abs(a_id["lambda_min"] / a_ex["lambda_min"] - 1),
        "U_c_err_pct": 100 * abs(a_id["U_c_max"] / a_ex["U_c_max"] - 1),
        "class_exact": a_ex["class"],
        "class_identified": a_id["class"],
        "n_undetermined": int(sum(v is None for v in result["identified"]["sigma"])),
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


def _design_self_stress(structure: Structure) -> tuple[Structure, np.ndarray, np.ndarray]:
    from .statics import prestress_lp

    s0 = structure.with_changes(gravity=0.0)
    sigma, bar_sigma = prestress_lp(s0, sigma_min=1.0)
    return s0, sigma, bar_sigma


def steel_design(
    structure: Structure,
    *,
    max_tension: float,
    tensions,
    U_c: float | None = None,
    U_b: float | None = None,
    cable_area: float | None = None,
    bar_radius: float | None = None,
    tol_rel: float = 1e-8,
) -> dict:
    """The structure rebuilt with steel members at a design prestress, and its utilisation curves.

    Prestress: the zero-gravity LP self-stress scaled so that the largest
    cable tension is ``max_tension`` (N).  Sections: ``cable_area`` (m^2)
    and ``bar_radius`` (m) where given, otherwise sized by
    :func:`size_sections` to the design utilisations ``U_c``, ``U_b``.
    Members: wire-rope cables ``EA = E_c A_c``, Q345 solid bars of density
    :data:`STEEL_DENSITY`.  At every tension of ``tensions`` (N, largest
    cable): class and ``lambda_min`` for rigid and flexible bars, the stress
    matrix margin, ``U_c`` and ``U_b``; at the design point also the lowest
    frequency from ``K_t`` and from the modal analysis.  The tensions at
    which ``U_c`` and ``U_b`` reach 1 follow from the linearity of the
    self-stress in its scale.
    """
    s0, sig1, bar1 = _design_self_stress(structure)
    t1 = float((sig1 * s0.cable_lengths).max())
    sig_d, bar_d = sig1 * (max_tension / t1), bar1 * (max_tension / t1)
    if cable_area is None or bar_radius is None:
        if U_c is None or U_b is None:
            raise ValueError("steel_design needs either cable_area and bar_radius or the design U_c and U_b")
        sized = size_sections(s0, sig_d, bar_d, U_c=U_c, U_b=U_b)
        cable_area = sized["cable_area"] if cable_area is None else cable_area
        bar_radius = sized["bar_radius"] if bar_radius is None else bar_radius
    steel = s0.with_changes(
        cable_EA=np.full(s0.n_cables, MATERIALS["wire_rope"]["E"] * float(cable_area)),
        bar_radius=np.full(s0.n_bars, float(bar_radius)),
        bar_density=np.full(s0.n_bars, STEEL_DENSITY),
        bar_mass=None,
        name=f"{structure.name}_steel",
    )
    rows = []
    for T in tensions:
        k = float(T) / max_tension
        sig, bar = k * sig_d, k * bar_d
        row = {"max_tension": float(T)}
        for bars in ("rigid", "flexible"):
            st = stiffness(steel, sig, bar, bars=bars)
            c = classify(st["Kt"], st["KG"], tol_rel=tol_rel)
            row[bars] = {key: c[key] for key in ("class", "lambda_min", "lambda_min_KG")}
        u = utilisations(steel, sig, bar, cable_area=cable_area)
        row.update({"U_c_max": u["U_c_max"], "U_b_max": u["U_b_max"]})
        row["margin_ratio_flexible"] = row["flexible"]["lambda_min"] / row["rigid"]["lambda_min"]
        rows.append(row)
    design = steel.with_prestress(sig_d, bar_d)
    a = assess(design, sig_d, tol_rel=tol_rel, cable_area=cable_area)
    f_t, f_m = lowest_frequency(design)
    u = utilisations(steel, sig_d, bar_d, cable_area=cable_area)
    return {
        "structure": structure.name,
        "max_tension": float(max_tension),
        "sections": {
            "cable_area": float(cable_area),
            "bar_radius": float(bar_radius),
            "sized_for": None if U_c is None else {"U_c": U_c, "U_b": U_b},
            "cable_EA": float(steel.cable_EA[0]),
            "bar_mass": (STEEL_DENSITY * np.pi * bar_radius**2 * steel.bar_lengths).tolist(),
            "buckling_governs": u["buckling_governs"].tolist(),
        },
        "sigma": sig_d.tolist(),
        "bar_sigma": bar_d.tolist(),
        "design": {
            "class": a["class"],
            "lambda_min": a["lambda_min"],
            "lambda_min_KG": a["lambda_min_KG"],
            "U_c_max": a["U_c_max"],
            "U_b_max": a["U_b_max"],
            "f1_tangent_hz": f_t,
            "f1_modal_hz": f_m,
        },
        "tension_at_U_c_1": float(max_tension / u["U_c_max"]),
        "tension_at_U_b_1": float(max_tension / u["U_b_max"]),
        "curves": rows,
    }


def self_stress_family(structure: Structure, thetas, *, tol_rel: float = 1e-8) -> dict:
    """Class of ``v + theta d`` about the zero-gravity design self-stress ``v``, ``d`` another self-stress.

    ``d`` runs over an orthonormal basis of the self-stress space orthogonal
    to ``v`` (sign fixed by its largest component), scaled to the same
    largest cable force density; each combination is flagged
    ``sign_consistent`` (cables in tension, bars in compression).  A design
    self-stress on the super-stability boundary has ``lambda_min(K_G) = 0``
    and a direction along which the stress matrix turns indefinite.
    """
    from .statics import self_stress_basis

    s0, sig, bar = _design_self_stress(structure)
    nb = s0.n_bars
    v = np.concatenate([bar, sig])
    B = self_stress_basis(s0)
    D = B - np.outer(v, v @ B) / (v @ v)
    U, sv, _ = np.linalg.svd(D, full_matrices=False)
    dirs = U[:, sv > 1e-9 * max(sv.max(), 1e-300)] if sv.size else np.zeros((len(v), 0))
    out = {"structure": structure.name, "sigma": sig.tolist(), "bar_sigma": bar.tolist(), "directions": []}
    scale = np.abs(sig).max()
    tiny = 1e-9 * scale
    for j in range(dirs.shape[1]):
        d = dirs[:, j] * np.sign(dirs[np.argmax(np.abs(dirs[:, j])), j])
        d = d * scale / np.abs(d[nb:]).max()
        rows = []
        for th in thetas:
            w = v + float(th) * d
            st = stiffness(s0, w[nb:], w[:nb])
            c = classify(st["Kt"], st["KG"], tol_rel=tol_rel)
            rows.append(
                {
                    "theta": float(th),
                    "class": c["class"],
                    "lambda_min": c["lambda_min"],
                    "lambda_min_KG": c["lambda_min_KG"],
                    "sign_consistent": bool((w[nb:] >= -tiny).all() and (w[:nb] <= tiny).all()),
                }
            )
        out["directions"].append({"cables": d[nb:].tolist(), "bars": d[:nb].tolist(), "scan": rows})
    return out
