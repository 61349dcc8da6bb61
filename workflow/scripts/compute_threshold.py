"""Slackening threshold of one structure and forcing (rule compute_threshold).

Output ``results/thresholds/{structure}/{threshold}.json``: ``threshold`` (N,
the smallest amplitude at which the event tracker reports a cable leaving
tension, bisection to ``rel_tol`` = 1 %), ``taut_below`` (N, the largest
amplitude found taut), ``n_simulations`` and the forcing specification.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.records import record_structure, slackening_threshold
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
spec, sim = snakemake.params.spec, snakemake.params.sim
structure = record_structure(structure_from_report(read_json(snakemake.input.structure)), spec)
log.info("threshold of %s under %s", structure.name, spec)
result = slackening_threshold(Dynamics(structure), spec, **sim)
log.info(
    "threshold %.5g N (taut at %.5g N) after %d simulations",
    result["threshold"],
    result["taut_below"],
    result["n_simulations"],
)
write_json(
    snakemake.output.json, {**result, "spec": spec, "simulation": sim}, provenance=job_provenance(snakemake)
)
