"""Frequency-prestress series of the zero-gravity prism (rule compute_prism_series).

Outputs ``results/values/prism_series_modal.json``: ``levels`` (prestress
scale, N/m of the largest cable force density), ``frequencies_hz`` per
level and mode, ``log_slopes`` d ln f / d ln s per mode, the geometric
fraction per mode and the mechanism fit w1^2 = a s + b (``intercept_rel``
= b / mean w1^2); and the log-log figure
``results/figures/prism_series_logslope.{pdf,png}``.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from tensegrity_id import structure_from_report  # noqa: E402
from tensegrity_id.analysis.prestress_series import modal_series  # noqa: E402
from tensegrity_id.data.runio import read_json, setup_log, write_json  # noqa: E402

log = setup_log(snakemake.log[0])  # noqa: F821
s = structure_from_report(read_json(snakemake.input.structure))  # noqa: F821
res = modal_series(s, snakemake.params.levels)  # noqa: F821
log.info(
    "log-slopes per mode %s; mechanism fit %s", np.round(res["log_slopes"], 4).tolist(), res["mechanism_fit"]
)
write_json(snakemake.output.json, res)  # noqa: F821
f = np.array(res["frequencies_hz"])
fig, ax = plt.subplots(figsize=(5.5, 4))
for m in range(f.shape[1]):
    ax.loglog(res["levels"], f[:, m], "o-", ms=3, label=f"mode {m + 1}: slope {res['log_slopes'][m]:.3f}")
ax.set_xlabel("prestress level s (N/m)")
ax.set_ylabel("frequency (Hz)")
ax.set_title("zero-gravity 30 deg prism: d ln f / d ln s per mode", fontsize=9)
ax.legend(fontsize=7, frameon=False)
fig.tight_layout()
for p in (snakemake.output.pdf, snakemake.output.png):  # noqa: F821
    fig.savefig(p, dpi=150)
