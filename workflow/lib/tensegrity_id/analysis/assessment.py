"""Structural assessment of a prestress (the paper §3.5, §S5): stability class, margin, member utilisations.

Tangent stiffness (the paper's Eq. 14)
    ``K_t = K_M + K_G`` about the prestressed equilibrium, on the free
    coordinates.  ``K_M = sum_m (E_m A_m / l_m) u_m u_m^T`` (member extension;
    ``D = diag(E A / l)``) and ``K_G = S = sum_m sigma_m C_m`` with ``C_m`` the
    member's incidence block ``[[I, -I], [-I, I]]`` — the stress matrix, linear
    in the force densities.  For the cable law of this study this is the exact
    Hessian of the strain energy (:mod:`tensegrity_id.mechanics.modal`).

    * rigid bars (default, the model of the identification): the bars carry
      their static force densities as constraint multipliers and enter ``S``
      only (the constraint-Hessian form); the stiffness is reduced to the
      tangent space of the bar constraints, ``N^T K N`` with ``N`` an
      orthonormal basis of ``{J_f dq = 0}``;
    * flexible bars: each bar adds ``E_b A_b / l u u^T`` to ``K_M``; no
      reduction.

    For a free-free form the rigid-body motions are removed from the space as
    well.  The margin is ``lambda_min(K_t)`` (N/m), in that orthonormal basis.

Grounding-free margin (free-standing forms)
    A minimally (3-2-1) grounded form's margin depends on which six
    coordinates are held, because the basis (hence the metric) of the
    admissible space does: the class-1 cell (smallest cable 10 N/m) gives
    1.0 to 10.7 N/m over four groundings
    (``tests/unit/test_stability_margins.py``).  ``lambda_min_invariant`` is
    the margin of the same form with every support removed, on all
    coordinates less the rigid-body motions, in the Euclidean metric of the
    nodal coordinates
    (:func:`tensegrity_id.analysis.stability.unsupported_stiffness`, which
    derives why it is invariant and why the class is not affected).  Table
    S3's ``lambda_min`` is the paper's margin, on the free coordinates of
    the form minimally grounded as the paper does (its grounding is not
    stated, so the value is one of many); the grounding-free margin stands
    beside it as ``lambda_min_grounding_free``.

Prism margin in closed form
    A T_n prism with its base pinned, at the self-stress twist, has one
    mechanism (the top polygon turning and sinking); ``U_m^T S U_m`` on it
    is ``4 sin^2(pi/n) q_ring h^2 / (h^2 + R^2 cos^2(pi/n))`` per unit norm
    of the mechanism (``q_ring`` the top polygon's force density), equal to
    ``K_G`` on the null space of ``K_M``; ``lambda_min(K_t)`` lies a little
    below (0.3 % at ``h = 2R``), where the mechanism couples to the cables'
    axial stiffness.  Checked in ``tests/unit/test_stability_margins.py``.

Connelly's condition
    Beside the paper's test (``K_G`` positive semi-definite on the free
    coordinates), ``connelly`` reports Connelly's sufficient condition for
    super stability: the ``n x n`` stress matrix positive semi-definite, of
    nullity ``d + 1``, and the stressed member directions on no conic at
    infinity (:func:`tensegrity_id.analysis.stability.connelly_conditions`).

Classification (the paper §S5)
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
    (``U_b``).  Material library (Ma et al., the paper's Table S2): Q345 bars
    ``E = 206 GPa``, yield 300 MPa; wire-rope cables ``E = 76 GPa``, allowable
    600 MPa.  The cable area is ``EA / E_c`` unless given.

Steel design (the paper §S5, the X2 frame rebuilt with steel members)
    :func:`steel_design` takes the structure's zero-gravity self-stress (the
    minimum-total-force-density LP, which is the self-stress itself where
    there is only one), scales it to a design maximum cable tension, gives
    the members the library's steel (uniform cable area, solid bars of one
    radius, density 7850 kg/m^3) and traces class, margin and utilisations as
    the prestress is raised.  The paper states neither section: they are
    either given or sized (:func:`size_sections`) so that the governing cable
    and strut carry stated design utilisations at the design tension — in
    that case the design-point utilisations are inputs, not results.
"""

from __future__ import annotations

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.statics import (
    mechanism_basis,
)
from ..mechanics.structure import Structure
from ..results.assessment import (
    CLASSES,
    ENERGY_ARRAYS,
    Assessment,
    ClassPoint,
    DesignPoint,
    DesignUtilisation,
    DesignVerdict,
    FamilyDirection,
    FamilyPoint,
    MeasuredAssessment,
    MethodAssessment,
    PrestressScan,
    RecordAssessment,
    ScanPoint,
    SelfStressFamily,
    SteelDesign,
    SteelSections,
    TensionPoint,
)
from ..results.identification import KEY, IdentificationResult
from ..results.record import field_values
from ..results.screening import ChannelScreen
from .stability import (
    MATERIALS,
    STEEL_DENSITY,
    classify,
    connelly_conditions,
    size_sections,
    stiffness,
    unsupported_stiffness,
    utilisations,
)

__all__ = [
    "assess",
    "lowest_frequency",
    "prestress_scan",
    "class_along_record",
    "error_propagation",
    "steel_design",
    "self_stress_family",
    "assess_identified",
]


def assess(
    structure: Structure, sigma=None, *, bars: str = "rigid", tol_rel: float = 1e-8, cable_area=None
) -> Assessment:
    """Stability class, margin, prestress-stability checks and utilisations of one prestress.

    Besides the fields of :func:`classify` (``lambda_min``: the margin on the
    free coordinates, grounded as the structure is: the paper's margin):
    ``lambda_min_invariant`` (N/m, the grounding-free margin of a
    free-standing form, ``None`` for a supported structure) and ``connelly``
    (:func:`tensegrity_id.analysis.stability.connelly_conditions`).
    """
    sigma = np.asarray(structure.sigma if sigma is None else sigma, float)
    k = stiffness(structure, sigma, bars=bars)
    invariant = None
    if structure.free_standing:
        Kt0 = unsupported_stiffness(structure, sigma, k.bar_sigma, bars=bars).Kt
        invariant = float(np.linalg.eigvalsh(Kt0)[0]) if len(Kt0) else np.inf
    Um = mechanism_basis(structure)
    w, V = np.linalg.eigh(k.KM)
    U0 = V[:, np.abs(w) <= 1e-9 * max(np.abs(w).max(), 1e-300)]
    u = utilisations(structure, sigma, k.bar_sigma, cable_area=cable_area)
    return Assessment(
        **field_values(classify(k.Kt, k.KG, tol_rel=tol_rel)),
        lambda_min_invariant=invariant,
        connelly=connelly_conditions(structure, sigma, k.bar_sigma, tol_rel=tol_rel),
        n_mechanisms=int(Um.shape[1]),
        lambda_min_mechanisms=float(np.linalg.eigvalsh(Um.T @ k.S_free @ Um)[0]) if Um.shape[1] else None,
        lambda_min_KM_null=float(np.linalg.eigvalsh(U0.T @ k.KG_reduced @ U0)[0]) if U0.shape[1] else None,
        bars=bars,
        U_c_max=u.U_c_max,
        U_b_max=u.U_b_max,
        U_c=u.U_c.tolist(),
        U_b=u.U_b.tolist(),
        bar_sigma=k.bar_sigma.tolist(),
        eigenvalues_Kt=np.linalg.eigvalsh(k.Kt).tolist(),
        eigenvalues_KG=np.linalg.eigvalsh(k.KG).tolist(),
    )


def lowest_frequency(structure: Structure, *, bars: str = "rigid") -> tuple[float, float]:
    """Lowest non-zero frequency (Hz) from ``K_t`` with the consistent mass, and from the modal analysis.

    The first uses :func:`stiffness` (the assessment's own reduction); the
    second :func:`tensegrity_id.mechanics.modal.constrained_modes` (the dynamics'
    linearisation): agreement checks the two formulations (the paper §S5: 0.2 %).
    """
    from scipy.linalg import eigh

    from ..mechanics.modal import constrained_modes

    k = stiffness(structure, bars=bars)
    dyn = Dynamics(structure)
    N = k.N
    w2 = eigh(k.Kt, N.T @ dyn.Mff @ N, eigvals_only=True)
    f_t = np.sqrt(np.abs(w2)) / (2 * np.pi)
    f_m = np.abs(constrained_modes(dyn)[0])
    floor = 1e-6 * max(f_m.max(), 1e-300)
    return float(f_t[f_t > floor][0]), float(f_m[f_m > floor][0])


def prestress_scan(
    structure: Structure, scales, *, bars: str = "rigid", tol_rel: float = 1e-8
) -> PrestressScan:
    """Class and margins as the prestress is scaled by each of ``scales`` (negative: reversed).

    The bars follow the cables through equilibrium (:func:`bar_force_densities`).
    """
    rows = []
    for s in scales:
        k = stiffness(structure, float(s) * np.asarray(structure.sigma, float), bars=bars)
        rows.append(ScanPoint(**field_values(classify(k.Kt, k.KG, tol_rel=tol_rel)), scale=float(s)))
    return PrestressScan(structure=structure.name, bars=bars, scan=rows)


def class_along_record(
    structure: Structure, record: dict, *, name: str = "", stride: int = 1, tol_rel: float = 1e-8
) -> RecordAssessment:
    """Instantaneous class of the frozen configuration at the samples of a record (rigid bars).

    ``record``: the arrays of a record file (``t``, ``q`` on all coordinates,
    ``lam`` bar multipliers, ``taut`` flags, energies ``E_T``, ``E_Vg``,
    ``E_Vs``), ``name`` its name.  At each sample the tangent stiffness is
    built at the current shape with the current cable force densities (slack
    cables drop out of the stress matrix) and the bar multipliers of the
    record: ``class``, ``lambda_min``, ``lambda_min_KG`` and ``counts`` with
    the paper's convention (slack cables keep their axial stiffness), the
    same with suffix ``_tangent`` with slack cables out of ``K_M`` as well
    (see :func:`stiffness`).
    """
    dyn = Dynamics(structure)
    idx = np.arange(0, len(record["t"]), int(stride))
    n_slack, paper, tangent = [], [], []
    for i in idx:
        qf = np.asarray(record["q"][i], float)[dyn.free]
        taut = np.asarray(record["taut"][i], bool)
        n_slack.append(int((~taut).sum()))
        for slack, rows in (("stress", paper), ("tangent", tangent)):
            k = stiffness(structure, bar_sigma=record["lam"][i], q_free=qf, taut=taut, slack=slack)
            rows.append(classify(k.Kt, k.KG, tol_rel=tol_rel))

    def counts(rows) -> dict[str, int]:
        return {c: int(sum(r.class_ == c for r in rows)) for c in CLASSES}

    energies = {
        key: np.asarray(record[key])[idx].tolist() if key in record else None for key in ENERGY_ARRAYS
    }
    return RecordAssessment(
        t=np.asarray(record["t"])[idx].tolist(),
        n_slack=n_slack,
        class_=[r.class_ for r in paper],
        lambda_min=[r.lambda_min for r in paper],
        lambda_min_KG=[r.lambda_min_KG for r in paper],
        class_tangent=[r.class_ for r in tangent],
        lambda_min_tangent=[r.lambda_min for r in tangent],
        lambda_min_KG_tangent=[r.lambda_min_KG for r in tangent],
        counts=counts(paper),
        counts_tangent=counts(tangent),
        structure=structure.name,
        record=name,
        **energies,
    )


def error_propagation(structure: Structure, result: IdentificationResult, *, bars: str = "rigid") -> dict:
    """Margin and utilisation errors when identified force densities replace exact ones (the paper's Table 9).

    ``result``: an identification result record (its identified and exact
    force densities, its largest error).  Undetermined cables (``None``)
    keep their exact value and are counted.  Errors are relative, in %;
    ``U_c`` is the largest cable utilisation (its error does not depend on
    the cable area).
    """
    exact = np.asarray(result.exact.sigma, float)
    ident = np.array([e if v is None else v for v, e in zip(result.identified.sigma, exact, strict=True)])
    a_ex = assess(structure, exact, bars=bars)
    a_id = assess(structure, ident, bars=bars)
    return {
        "method": result.method,
        "structure": result.structure,
        "record": result.record,
        KEY.sigma_max_pct: result.errors.sigma_max_pct,
        "margin_exact": a_ex.lambda_min,
        "margin_identified": a_id.lambda_min,
        "margin_err_pct": 100 * abs(a_id.lambda_min / a_ex.lambda_min - 1),
        "U_c_err_pct": 100 * abs(a_id.U_c_max / a_ex.U_c_max - 1),
        "class_exact": a_ex.class_,
        "class_identified": a_id.class_,
        "n_undetermined": int(sum(v is None for v in result.identified.sigma)),
    }


def _design_self_stress(structure: Structure) -> tuple[Structure, np.ndarray, np.ndarray]:
    from ..mechanics.statics import prestress_lp

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
) -> SteelDesign:
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
    self-stress in its scale.  The self-stress family is not traced here
    (:func:`self_stress_family`; ``family`` is ``None``).
    """
    s0, sig1, bar1 = _design_self_stress(structure)
    t1 = float((sig1 * s0.cable_lengths).max())
    sig_d, bar_d = sig1 * (max_tension / t1), bar1 * (max_tension / t1)
    if cable_area is None or bar_radius is None:
        if U_c is None or U_b is None:
            raise ValueError("steel_design needs either cable_area and bar_radius or the design U_c and U_b")
        sized = size_sections(s0, sig_d, bar_d, U_c=U_c, U_b=U_b)
        cable_area = sized.cable_area if cable_area is None else cable_area
        bar_radius = sized.bar_radius if bar_radius is None else bar_radius
    steel = s0.with_changes(
        cable_EA=np.full(s0.n_cables, MATERIALS["wire_rope"]["E"] * float(cable_area)),
        bar_radius=np.full(s0.n_bars, float(bar_radius)),
        bar_density=np.full(s0.n_bars, STEEL_DENSITY),
        bar_mass=None,
        name=f"{structure.name}_steel",
    )

    def class_point(sig, bar, bars) -> ClassPoint:
        st = stiffness(steel, sig, bar, bars=bars)
        c = classify(st.Kt, st.KG, tol_rel=tol_rel)
        return ClassPoint(class_=c.class_, lambda_min=c.lambda_min, lambda_min_KG=c.lambda_min_KG)

    rows = []
    for T in tensions:
        k = float(T) / max_tension
        sig, bar = k * sig_d, k * bar_d
        rigid, flexible = class_point(sig, bar, "rigid"), class_point(sig, bar, "flexible")
        u = utilisations(steel, sig, bar, cable_area=cable_area)
        rows.append(
            TensionPoint(
                max_tension=float(T),
                rigid=rigid,
                flexible=flexible,
                U_c_max=u.U_c_max,
                U_b_max=u.U_b_max,
                margin_ratio_flexible=flexible.lambda_min / rigid.lambda_min,
            )
        )
    design = steel.with_prestress(sig_d, bar_d)
    a = assess(design, sig_d, tol_rel=tol_rel, cable_area=cable_area)
    f_t, f_m = lowest_frequency(design)
    u = utilisations(steel, sig_d, bar_d, cable_area=cable_area)
    return SteelDesign(
        structure=structure.name,
        max_tension=float(max_tension),
        sections=SteelSections(
            cable_area=float(cable_area),
            bar_radius=float(bar_radius),
            sized_for=None if U_c is None else DesignUtilisation(U_c=U_c, U_b=U_b),
            cable_EA=float(steel.cable_EA[0]),
            bar_mass=(STEEL_DENSITY * np.pi * bar_radius**2 * steel.bar_lengths).tolist(),
            buckling_governs=u.buckling_governs.tolist(),
        ),
        sigma=sig_d.tolist(),
        bar_sigma=bar_d.tolist(),
        design=DesignPoint(
            class_=a.class_,
            lambda_min=a.lambda_min,
            lambda_min_KG=a.lambda_min_KG,
            U_c_max=a.U_c_max,
            U_b_max=a.U_b_max,
            f1_tangent_hz=f_t,
            f1_modal_hz=f_m,
        ),
        tension_at_U_c_1=float(max_tension / u.U_c_max),
        tension_at_U_b_1=float(max_tension / u.U_b_max),
        curves=rows,
    )


def self_stress_family(structure: Structure, thetas, *, tol_rel: float = 1e-8) -> SelfStressFamily:
    """Class of ``v + theta d`` about the zero-gravity design self-stress ``v``, ``d`` another self-stress.

    ``d`` runs over an orthonormal basis of the self-stress space orthogonal
    to ``v`` (sign fixed by its largest component), scaled to the same
    largest cable force density; each combination is flagged
    ``sign_consistent`` (cables in tension, bars in compression).  A design
    self-stress on the super-stability boundary has ``lambda_min(K_G) = 0``
    and a direction along which the stress matrix turns indefinite.
    """
    from ..mechanics.statics import self_stress_basis

    s0, sig, bar = _design_self_stress(structure)
    nb = s0.n_bars
    v = np.concatenate([bar, sig])
    B = self_stress_basis(s0)
    D = B - np.outer(v, v @ B) / (v @ v)
    U, sv, _ = np.linalg.svd(D, full_matrices=False)
    dirs = U[:, sv > 1e-9 * max(sv.max(), 1e-300)] if sv.size else np.zeros((len(v), 0))
    directions = []
    scale = np.abs(sig).max()
    tiny = 1e-9 * scale
    for j in range(dirs.shape[1]):
        d = dirs[:, j] * np.sign(dirs[np.argmax(np.abs(dirs[:, j])), j])
        d = d * scale / np.abs(d[nb:]).max()
        rows = []
        for th in thetas:
            w = v + float(th) * d
            st = stiffness(s0, w[nb:], w[:nb])
            c = classify(st.Kt, st.KG, tol_rel=tol_rel)
            rows.append(
                FamilyPoint(
                    class_=c.class_,
                    lambda_min=c.lambda_min,
                    lambda_min_KG=c.lambda_min_KG,
                    theta=float(th),
                    sign_consistent=bool((w[nb:] >= -tiny).all() and (w[:nb] <= tiny).all()),
                )
            )
        directions.append(FamilyDirection(cables=d[nb:].tolist(), bars=d[:nb].tolist(), scan=rows))
    return SelfStressFamily(
        structure=structure.name, sigma=sig.tolist(), bar_sigma=bar.tolist(), directions=directions
    )


def assess_identified(
    structure: Structure, results: list, screening: ChannelScreen, *, tol_rel: float = 1e-8
) -> MeasuredAssessment:
    """The assessment of a measured record's identified prestress, per method, and of the design.

    Per method, its seeds pooled: the mean identified force densities, where
    members the screening calls ``undeterminable`` (or left unidentified)
    keep the structure's design value (``design_value_kept``, their
    indices); the class, margin (N/m) and largest utilisations of that
    prestress (:func:`assess`, rigid bars).  ``screening`` is the record's
    screen (a :class:`~tensegrity_id.results.screening.Screening`, or its
    :class:`~tensegrity_id.results.screening.ChannelScreen`); ``results`` are the
    identification results of the record (any methods and seeds):
    :class:`~tensegrity_id.results.identification.IdentificationResult`
    records, or the JSON objects of their files.
    """
    results = [IdentificationResult.coerce(r) for r in results]
    n = structure.n_cables
    design_sigma = np.asarray(structure.sigma, float)
    null = screening.undeterminable
    by_method: dict[str, list] = {}
    for r in results:
        by_method.setdefault(r.method, []).append(r)
    methods = {}
    for method, rs in by_method.items():
        sig = np.array([[np.nan if v is None else v for v in r.identified.sigma] for r in rs], float)
        mean = np.nanmean(sig, axis=0)
        kept = [k for k in range(n) if f"sigma_{k}" in null or not np.isfinite(mean[k])]
        used = np.array([design_sigma[k] if k in kept else mean[k] for k in range(n)])
        a = assess(structure, used, bars="rigid", tol_rel=tol_rel)
        methods[method] = MethodAssessment(
            class_=a.class_,
            margin=a.lambda_min,
            U_c_max=a.U_c_max,
            U_b_max=a.U_b_max,
            sigma_used=used.tolist(),
            design_value_kept=kept,
        )
    design = assess(structure, None, bars="rigid", tol_rel=tol_rel)
    return MeasuredAssessment(
        design=DesignVerdict(class_=design.class_, margin=design.lambda_min, sigma=design_sigma.tolist()),
        methods=methods,
    )
