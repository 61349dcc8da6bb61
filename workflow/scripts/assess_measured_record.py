"""The assessment of a measured record's identified prestress (rule assess_measured_record).

Outputs ``results/measured/{structure}/{record}/assessment.json``: ``design``
(force densities N/m, class, margin N/m) and per method (its seeds pooled)
``sigma_used`` (N/m; undeterminable members at their design value, listed in
``design_value_kept``), ``class``, ``margin`` (N/m), ``U_c_max`` and
``U_b_max`` (tensegrity_id.analysis.assessment.assess_identified): a
MeasuredAssessment record (tensegrity_id.results.assessment).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis.assessment import assess_identified
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.results.identification import IdentificationResult
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.results.screening import Screening

log = setup_log(snakemake.log[0])
inp = snakemake.input
structure = structure_from_report(read_json(inp.structure))
results = [IdentificationResult.load(p) for p in inp.results]
out = assess_identified(structure, results, Screening.load(inp.screening), tol_rel=snakemake.params.tol_rel)
for method, a in out.methods.items():
    log.info(
        "%s: class %s, margin %.4g N/m, design kept for %s", method, a.class_, a.margin, a.design_value_kept
    )
out.write(snakemake.output.json, provenance=job_provenance(snakemake))
