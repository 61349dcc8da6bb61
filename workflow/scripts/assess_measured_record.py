"""The assessment of a measured record's identified prestress (rule assess_measured_record).

Outputs ``results/measured/{structure}/{record}/assessment.json``: ``design``
(force densities N/m, class, margin N/m) and per method (its seeds pooled)
``sigma_used`` (N/m; undeterminable members at their design value, listed in
``design_value_kept``), ``class``, ``margin`` (N/m), ``U_c_max`` and
``U_b_max`` (tensegrity_id.analysis.assessment.assess_identified).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis.assessment import assess_identified
from tensegrity_id.data.runio import read_json, setup_log, write_json

log = setup_log(snakemake.log[0])
inp = snakemake.input
structure = structure_from_report(read_json(inp.structure))
results = [read_json(p) for p in inp.results]
out = assess_identified(structure, results, read_json(inp.screening), tol_rel=snakemake.params.tol_rel)
for method, a in out["methods"].items():
    log.info(
        "%s: class %s, margin %.4g N/m, design kept for %s",
        method,
        a["class"],
        a["margin"],
        a["design_value_kept"],
    )
write_json(snakemake.output.json, out)
