"""Physics-informed identification of one seed group, trained as one batch (rules identify_pinn_*).

Outputs, per seed
(``results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}``):

* ``.json``: the result record of tensegrity_id.identify.base — ``identified``
  and ``exact`` parameters (sigma N/m per cable, c N s/m, EA N), ``errors``
  (relative %, identifiable cables only), ``inert_members``,
  ``reconstruction_pct``, ``held_out_ratio``, ``resimulation_pct``,
  ``outcome`` and its rule (``diverged`` for a seed stopped by a non-finite
  loss, with ``diverged``: step, reason, kept step), ``wall_s`` (the
  batch's), ``batch`` (the seeds trained together), ``step_mode``,
  ``steps_per_s``, final losses.
* ``_history.csv``: step, loss terms (normalised, -), learning rates, sigma_k
  (N/m), c (N s/m)[, EA (N)] every ``history_every`` steps.
* ``_series.npz``: ``t`` (s), ``true``, ``resim`` and ``network`` accelerations
  (m/s^2) at the re-simulated unmeasured coordinate ``coord``.

and the group's summary (``..._seeds_steps{steps}.json``): mean, standard
deviation and range of every parameter, error and fit metric over the seeds
(tensegrity_id.identify.seeds).

A checkpoint of the whole batch (``params.checkpoint``) is written while
training and removed on success, so a killed job re-run resumes where it
stopped.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import torch
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.identify.base import get_method
from tensegrity_id.identify.pinn import methods  # noqa: F401  (registers pinn_smooth, pinn_fb, pinn_event)
from tensegrity_id.identify.pinn.settings import TREATMENTS
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.identify.seeds import seed_group_summary

log = setup_log(snakemake.log[0])  # noqa: F821
torch.set_num_threads(snakemake.threads)  # noqa: F821
inp, out, par = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
files = (inp.structure, inp.record_npz, inp.record_json, inp.sensors)
problems = [load_problem(*files, names=par.records, seed=seed, **par.problem) for seed in par.seeds]
log.info(
    "%s; records %s, protocol %s, seeds %s (one batch, %d threads), settings %s",
    TREATMENTS[par.treatment],
    par.records,
    par.protocol,
    par.seeds,
    snakemake.threads,  # noqa: F821
    par.settings,
)
method = get_method(f"pinn_{par.treatment}", checkpoint=par.checkpoint, progress=log, **par.settings)
results = method.run_batch(problems)
for k, result in enumerate(results):
    history = result.pop("_history")
    series = result.pop("_series", None)
    result.update(protocol=par.protocol, records=list(par.records))
    if par.variant:  # a settings variant names itself and its overrides
        result.update(variant=par.variant, settings_overrides=dict(par.overrides))
    pd.DataFrame(history).to_csv(out.history[k], index=False)
    if series is not None:
        arrays = {key: np.asarray(v) for key, v in series.items() if key in ("t", "true", "resim", "network")}
        np.savez_compressed(out.series[k], coord=series["coord"], record=series["record"], **arrays)
    else:
        np.savez_compressed(out.series[k], coord=-1, record="")
    e = result["errors"]
    log.info(
        "seed %d: max sigma error %.3g %%, c error %.3g %%, held-out ratio %s, reconstruction %s %%, "
        "re-simulation %s %%, outcome %s",
        result["seed"],
        e["sigma_max_pct"],
        e["c_pct"],
        result["held_out_ratio"],
        result["reconstruction_pct"],
        result["resimulation_pct"],
        result["outcome"],
    )
    write_json(out.json[k], result)
summary = seed_group_summary(results)
s = summary["errors"]["sigma_max_pct"]
log.info(
    "done: %d seeds in %.0f s (%s step); max sigma error mean %s %%, range %s %%; %d diverged",
    summary["n_seeds"],
    summary["wall_s"],
    results[0]["step_mode"],
    "-" if s["mean"] is None else f"{s['mean']:.3g}",
    "-" if s["min"] is None else f"{s['min']:.3g}-{s['max']:.3g}",
    len(summary["diverged"]),
)
write_json(out.summary, summary)
Path(par.checkpoint).unlink(missing_ok=True)
