"""A physics-informed seed group's summary, from its seeds' result files (rule summarize_pinn_group).

Output: ``..._seeds_steps{steps}[_{variant}].json``
(tensegrity_id.results.identification.SeedGroupSummary): mean, sample
standard deviation and range of every parameter (N/m, N s/m, N), error (%)
and fit metric over the seeds that finished, the diverged seeds apart, and
``wall_s``: the wall times of the jobs that trained the group, summed, each
batch once (s) (tensegrity_id.identify.seeds).
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.identify.seeds import summarize_seed_group
from tensegrity_id.results.identification import KEY
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
summary = summarize_seed_group(list(snakemake.input.runs))
s = summary.errors[KEY.sigma_max_pct]
log.info(
    "%s %s/%s/%s, %s steps: %d seeds (%d diverged), jobs' wall time %.0f s; "
    "max sigma error mean %s %%, range %s %%",
    summary.method,
    summary.structure,
    summary.record,
    summary.protocol,
    summary.steps,
    summary.n_seeds,
    len(summary.diverged),
    summary.wall_s,
    "-" if s.mean is None else f"{s.mean:.3g}",
    "-" if s.min is None else f"{s.min:.3g}-{s.max:.3g}",
)
summary.write(snakemake.output.json, provenance=job_provenance(snakemake))
