"""Figure 5: re-simulated unmeasured acceleration against the truth (rule plot_fig5).

Outputs ``results/figures/fig5_resimulation.{pdf,png}``: per run, the clean
true acceleration (m/s^2) of the unmeasured coordinate with the largest RMS,
its re-simulation with the identified parameters and the network's own
reconstruction, over time (s).
"""

import numpy as np
from tensegrity_id.pinn_plots import plot_fig5
from tensegrity_id.runio import setup_log

log = setup_log(snakemake.log[0])  # noqa: F821
series, labels = [], []
for p in snakemake.input.series:  # noqa: F821
    with np.load(p) as z:
        series.append({k: z[k] for k in z.files})
    labels.append("/".join(p.split("/")[-4:-1]))
plot_fig5(series, labels, [snakemake.output.pdf, snakemake.output.png])  # noqa: F821
log.info("plotted %s", labels)
