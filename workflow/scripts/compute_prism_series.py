"""Frequency-prestress series of the zero-gravity prism (rule compute_prism_series).

Outputs ``results/values/prism_series_modal.json``: ``levels`` (prestress
scale, N/m of the largest cable force density), ``frequencies_hz`` per
level and mode, ``log_slopes`` d ln f / d ln s per mode, the geometric
fraction per mode and the mechanism fit w1^2 = a s + b (``intercept_rel``
= b / mean w1^2); and the log-log figure
``results/figures/prism_series_logslope.{pdf,png}``.
"""

import numpy as np
from tensegrity_id import structure_from_report
from tensegrity_id.analysis.prestress_series import modal_series
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.report.plot_series import plot_prism_series_slopes
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
s = structure_from_report(read_json(snakemake.input.structure))
res = modal_series(s, snakemake.params.levels)
log.info(
    "log-slopes per mode %s; mechanism fit %s", np.round(res["log_slopes"], 4).tolist(), res["mechanism_fit"]
)
write_json(snakemake.output.json, res, provenance=job_provenance(snakemake))
plot_prism_series_slopes(
    res,
    f"{s.name}: d ln f / d ln s per mode",
    [snakemake.output.pdf, snakemake.output.png],
)
