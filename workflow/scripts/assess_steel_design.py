"""A structure rebuilt with steel members at its design prestress (rule assess_steel_design, the paper §S5).

Output ``results/assess/steel/{structure}.json``: ``sections`` (``cable_area``
m^2, ``bar_radius`` m, ``sized_for`` the design utilisations where sized),
the design prestress ``sigma``/``bar_sigma`` (N/m, zero-gravity LP
self-stress at ``max_tension`` N), ``design`` (class, ``lambda_min`` N/m,
``U_c_max``, ``U_b_max``, lowest frequency from ``K_t`` and from the modal
analysis, Hz), ``tension_at_U_c_1`` and ``tension_at_U_b_1`` (N), ``curves``
(per largest cable tension: rigid and flexible class and margin, ``U_c_max``,
``U_b_max``, flexible/rigid margin ratio) and ``family`` (the class of the
self-stresses ``v + theta d`` about the design self-stress, benchmark members):
a SteelDesign record (tensegrity_id.results.assessment).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis import self_stress_family, steel_design
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
cfg, tol_rel = snakemake.params.steel, snakemake.params.tol_rel
st = structure_from_report(read_json(snakemake.input.structure))
sizing = cfg.get("sizing", {})
out = steel_design(
    st,
    max_tension=cfg["max_tension"],
    tensions=cfg["tensions"],
    U_c=sizing.get("U_c"),
    U_b=sizing.get("U_b"),
    cable_area=cfg.get("cable_area"),
    bar_radius=cfg.get("bar_radius"),
    tol_rel=tol_rel,
)
sec, d = out.sections, out.design
log.info(
    "sections: cable area %.4g mm^2 (EA %.4g kN), solid bar radius %.4g mm (%s); sized for %s",
    sec.cable_area * 1e6,
    sec.cable_EA / 1e3,
    sec.bar_radius * 1e3,
    "Euler governs" if all(sec.buckling_governs) else "yield governs on some bars",
    sec.sized_for,
)
log.info(
    "design (%.4g N): %s, lambda_min %.6g N/m, U_c %.3f, U_b %.3f, f1 %.5g / %.5g Hz",
    out.max_tension,
    d.class_,
    d.lambda_min,
    d.U_c_max,
    d.U_b_max,
    d.f1_tangent_hz,
    d.f1_modal_hz,
)
for r in out.curves:
    log.info(
        "T %.5g N: %s, lambda_min %.6g (flexible/rigid %.5f), U_c %.3f, U_b %.4f",
        r.max_tension,
        r.rigid.class_,
        r.rigid.lambda_min,
        r.margin_ratio_flexible,
        r.U_c_max,
        r.U_b_max,
    )
log.info("U_c = 1 at %.5g N, U_b = 1 at %.5g N", out.tension_at_U_c_1, out.tension_at_U_b_1)
out = out.replace(family=self_stress_family(st, cfg.get("thetas", []), tol_rel=tol_rel))
for j, dd in enumerate(out.family.directions):
    log.info("self-stress direction %d: %s", j, ", ".join(f"{r.theta:+g} {r.class_}" for r in dd.scan))
out.write(snakemake.output.json, provenance=job_provenance(snakemake))
