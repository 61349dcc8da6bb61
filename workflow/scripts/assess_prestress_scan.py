"""Class and margins of a structure as its prestress is scaled and reversed (rule assess_prestress_scan).

Output ``results/assess/scan/{structure}.json``: ``scan`` rows with ``scale``
(-, multiplying the cable force densities; the bars follow by equilibrium),
``class``, ``lambda_min`` and ``lambda_min_KG`` (N/m, rigid bars): a
PrestressScan record (tensegrity_id.results.assessment).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis import prestress_scan
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
st = structure_from_report(read_json(snakemake.input.structure))
out = prestress_scan(st, snakemake.params.scales, tol_rel=snakemake.params.tol_rel)
for r in out.scan:
    log.info("scale %+.3g: %s, lambda_min %.6g N/m", r.scale, r.class_, r.lambda_min)
out.write(snakemake.output.json, provenance=job_provenance(snakemake))
