"""Physics-informed identification of seeds of one seed group, as one batch (rules identify_pinn_*).

Outputs, per seed of the job: the result record (``.json``; ``outcome`` is
``diverged`` for a seed stopped by a non-finite loss, ``wall_s`` the batch's,
``batch`` the seeds trained together, ``step_mode``), ``_history.csv`` and
``_series.npz`` (tensegrity_id.identify.pinn.outputs).  The group's summary
is the rule summarize_pinn_group's, from these files.

A checkpoint of the job's batch (``params.checkpoint``) is written while
training and removed on success, so a killed job re-run resumes where it
stopped.  Compiled steps are cached in ``params.compile_cache``.
"""

from pathlib import Path

import torch
from tensegrity_id.data.runio import setup_log
from tensegrity_id.identify.base import get_method
from tensegrity_id.identify.pinn import methods  # noqa: F401  (registers pinn_smooth, pinn_fb, pinn_event)
from tensegrity_id.identify.pinn.compile import use_cache_dir
from tensegrity_id.identify.pinn.outputs import write_run
from tensegrity_id.identify.pinn.settings import TREATMENTS
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.identify.seeds import seed_group_summary
from tensegrity_id.results.identification import KEY
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
torch.set_num_threads(snakemake.threads)
inp, out, par = snakemake.input, snakemake.output, snakemake.params
use_cache_dir(par.compile_cache)
files = (inp.structure, inp.record_npz, inp.record_json, inp.sensors)
problems = [load_problem(*files, names=par.records, seed=seed, **par.problem) for seed in par.seeds]
log.info(
    "%s; records %s, protocol %s, seeds %s (one batch, %d threads), settings %s",
    TREATMENTS[par.treatment],
    par.records,
    par.protocol,
    par.seeds,
    snakemake.threads,
    par.settings,
)
method = get_method(f"pinn_{par.treatment}", checkpoint=par.checkpoint, progress=log, **par.settings)
results = method.run_batch(problems)
prov = job_provenance(snakemake)
for k, result in enumerate(results):
    result = result.replace(protocol=par.protocol, records=list(par.records))
    if par.variant:  # a settings variant names itself and its overrides
        result = result.replace(variant=par.variant, settings_overrides=dict(par.overrides))
    write_run(result, out.json[k], out.history[k], out.series[k], log, provenance=prov)
    results[k] = result
summary = seed_group_summary(results)  # of this job's seeds, for the log
s = summary.errors[KEY.sigma_max_pct]
log.info(
    "done: %d seeds in %.0f s (%s step); max sigma error mean %s %%, range %s %%; %d diverged",
    summary.n_seeds,
    summary.wall_s,
    results[0].step_mode,
    "-" if s.mean is None else f"{s.mean:.3g}",
    "-" if s.min is None else f"{s.min:.3g}-{s.max:.3g}",
    len(summary.diverged),
)
Path(par.checkpoint).unlink(missing_ok=True)
