"""Elastic-bar generator against the rigid-bar model (rule compute_flexible_bar_convergence).

Outputs ``results/values/flexible_bar_convergence.json``: ``structure``,
``E_bar`` (Pa), ``EA_bar`` (N, per modulus, the bars' pi r^2), ``frequencies_hz``
(per modulus, every small-oscillation frequency of the elastic-bar model from
its own force function, Hz), ``rigid_hz`` (the constrained rigid-bar modes),
``max_rel_error`` (lowest modes against ``rigid_hz``, per modulus) and
``order`` (log-log slope of that error against EA; 1 for error ~ 1/EA).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.mechanics.elastic_bars import flexible_bar_convergence
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
structure = structure_from_report(read_json(snakemake.input.structure))
out = flexible_bar_convergence(structure, snakemake.params.E_bar)
for E, err in zip(out["E_bar"], out["max_rel_error"], strict=True):
    log.info("E_bar %.3g Pa: largest relative error of the rigid-bar modes %.3g", E, err)
log.info("convergence order %s", out["order"])
write_json(snakemake.output.json, out, provenance=job_provenance(snakemake))
