"""Instantaneous stability class along a record (rule assess_record).

Output ``results/assess/records/{structure}/{record}.json``: ``t`` (s),
``class``, ``lambda_min`` and ``lambda_min_KG`` (N/m) of the frozen shape at
each sample (rigid bars, current cable force densities, the record's bar
multipliers; slack cables out of the stress matrix, the paper's convention),
the same with suffix ``_tangent`` (slack cables out of ``K_M`` too),
``n_slack`` cables, the energies ``E_T``, ``E_Vg``, ``E_Vs`` (J) and the
sample ``counts`` / ``counts_tangent`` per class: a RecordAssessment record
(tensegrity_id.results.assessment).
"""

import numpy as np
from tensegrity_id.analysis import class_along_record
from tensegrity_id.data.runio import setup_log
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par, wc = snakemake.input, snakemake.params, snakemake.wildcards
structure = load_problem(
    inp.structure,
    inp.record_npz,
    inp.record_json,
    names=[wc.record],
).structure  # the record's prestress
with np.load(inp.record_npz) as z:
    record = {k: z[k] for k in z.files}
out = class_along_record(structure, record, name=wc.record, stride=par.stride, tol_rel=par.tol_rel)
out = out.replace(structure=wc.structure)
log.info("samples per class: %s; smallest margin %.4g N/m", out.counts, min(out.lambda_min))
log.info(
    "slack cables out of K_M too: %s; smallest margin %.4g N/m",
    out.counts_tangent,
    min(out.lambda_min_tangent),
)
out.write(snakemake.output.json, provenance=job_provenance(snakemake))
