"""Figure 5: re-simulated unmeasured acceleration against the truth (rule plot_fig5).

Outputs ``results/figures/fig5_resimulation.{pdf,png}``: per run, the clean
true acceleration (m/s^2) of the unmeasured coordinate with the largest RMS,
its re-simulation with the identified parameters and the network's own
reconstruction, over time (s).
"""

import numpy as np
from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.plot_pinn import plot_fig5

log = setup_log(snakemake.log[0])
series, labels = [], list(snakemake.params.labels)
for p in snakemake.input.series:
    with np.load(p) as z:
        series.append({k: z[k] for k in z.files})

plot_fig5(series, labels, [snakemake.output.pdf, snakemake.output.png])
log.info("plotted %s", labels)
