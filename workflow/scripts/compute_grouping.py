"""Member grouping on the X2 frame (rule compute_grouping).

Output ``results/values/grouping_{structure}.json``: the static equilibrium
sensitivity Gram eigenvalues of the cables, the smallest one with the cable
group tied, the dynamic Fisher lambda_min without and with the group, and
the grouped relative Cramér–Rao bounds (the paper §3.3).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis.prestress_series import grouping_study
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.results.fisher import FisherAnalysis
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
s = structure_from_report(read_json(snakemake.input.structure))
res = grouping_study(s, FisherAnalysis.load(snakemake.input.fisher), snakemake.params.group)
log.info("%s", {k: v for k, v in res.items() if k != "grouped_crlb_relative"})
write_json(snakemake.output.json, res, provenance=job_provenance(snakemake))
