"""Physics-informed identification of one case (rule identify_pinn).

Outputs (``results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}``):

* ``.json``: the result record of tensegrity_id.identify.base — ``identified``
  and ``exact`` parameters (sigma N/m per cable, c N s/m, EA N), ``errors``
  (relative %, identifiable cables only), ``inert_members``,
  ``reconstruction_pct``, ``held_out_ratio``, ``resimulation_pct``,
  ``outcome`` and its rule, ``wall_s``, ``steps_per_s``, final losses.
* ``_history.csv``: step, loss terms (normalised, -), learning rates, sigma_k
  (N/m), c (N s/m)[, EA (N)] every ``history_every`` steps.
* ``_series.npz``: ``t`` (s), ``true``, ``resim`` and ``network`` accelerations
  (m/s^2) at the re-simulated unmeasured coordinate ``coord``.

A checkpoint (``params.checkpoint``) is written while training and removed
on success, so a killed job re-run resumes where it stopped.
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

log = setup_log(snakemake.log[0])  # noqa: F821
torch.set_num_threads(snakemake.threads)  # noqa: F821
inp, out, par, wc = snakemake.input, snakemake.output, snakemake.params, snakemake.wildcards  # noqa: F821
problem = load_problem(
    inp.structure,
    inp.record_npz,
    inp.record_json,
    inp.sensors,
    names=par.records,
    seed=int(wc.seed),
    **par.problem,
)
log.info(
    "%s; records %s, protocol %s, seed %s, settings %s",
    TREATMENTS[wc.treatment],
    par.records,
    wc.protocol,
    wc.seed,
    par.settings,
)
method = get_method(f"pinn_{wc.treatment}", checkpoint=par.checkpoint, progress=log, **par.settings)
result = method.run(problem)
history = result.pop("_history")
series = result.pop("_series", None)
result.update(protocol=wc.protocol, records=list(par.records))
if par.variant:  # a settings variant names itself and its overrides
    result.update(variant=par.variant, settings_overrides=dict(par.overrides))
pd.DataFrame(history).to_csv(out.history, index=False)
if series is not None:
    arrays = {k: np.asarray(v) for k, v in series.items() if k in ("t", "true", "resim", "network")}
    np.savez_compressed(out.series, coord=series["coord"], record=series["record"], **arrays)
else:
    np.savez_compressed(out.series, coord=-1, record="")
e = result["errors"]
log.info(
    "done: max sigma error %.3g %%, c error %.3g %%, held-out ratio %s, reconstruction %s %%, "
    "re-simulation %s %%, outcome %s, %.0f s",
    e["sigma_max_pct"],
    e["c_pct"],
    result["held_out_ratio"],
    result["reconstruction_pct"],
    result["resimulation_pct"],
    result["outcome"],
    result["wall_s"],
)
write_json(out.json, result)
Path(par.checkpoint).unlink(missing_ok=True)
