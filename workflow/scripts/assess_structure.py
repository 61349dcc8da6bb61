"""Stability class, margin and utilisations of a structure at its prestress (rule assess_structure).

Output ``results/assess/{structure}.json``: for rigid and flexible bars
(``rigid``, ``flexible``) the ``class`` (super-stable / stable / unstable),
``lambda_min`` (N/m, smallest eigenvalue of the reduced tangent stiffness in
an orthonormal basis of the admissible displacements), ``lambda_min_KG``
(N/m, stress matrix on the free coordinates), ``n_mechanisms`` and
``lambda_min_mechanisms`` (N/m, ``U_m^T S U_m``), ``U_c_max``, ``U_b_max``
(-, cable area ``EA / E_c`` unless configured) and ``bar_sigma`` (N/m);
``margin_ratio_flexible`` (-); ``f1_tangent_hz`` and ``f1_modal_hz`` (lowest
frequency from ``K_t`` with the consistent mass, and from the constrained
modal analysis); ``lambda_min_invariant`` (N/m, a free-standing form's
margin on all coordinates with the rigid-body motions projected out,
invariant to the grounding; ``None`` for a supported structure) and
``connelly`` (Connelly's condition: stress matrix PSD, nullity d+1, no
conic at infinity).  A StructureAssessment record (tensegrity_id.results.assessment).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis import assess, lowest_frequency
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.results.assessment import StructureAssessment
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
cfg = {"tol_rel": 1e-8, "cable_area": None, **snakemake.params.settings}
tol_rel = cfg["tol_rel"]
st = structure_from_report(read_json(snakemake.input.structure))
rigid, flexible = (
    assess(st, bars=b, tol_rel=tol_rel, cable_area=cfg["cable_area"]) for b in ("rigid", "flexible")
)
for bars, a in (("rigid", rigid), ("flexible", flexible)):
    log.info(
        "%s bars: %s, lambda_min %.6g N/m, lambda_min(K_G) %.3g",
        bars,
        a.class_,
        a.lambda_min,
        a.lambda_min_KG,
    )
f1_tangent, f1_modal = lowest_frequency(st)
log.info("lowest frequency: tangent stiffness %.6g Hz, constrained modal %.6g Hz", f1_tangent, f1_modal)
StructureAssessment(
    structure=st.name,
    tol_rel=tol_rel,
    rigid=rigid,
    flexible=flexible,
    margin_ratio_flexible=flexible.lambda_min / rigid.lambda_min,
    f1_tangent_hz=f1_tangent,
    f1_modal_hz=f1_modal,
).write(snakemake.output.json, provenance=job_provenance(snakemake))
