"""Figure 4: identified against exact parameters and training histories (rule plot_fig4).

Outputs ``results/figures/fig4_identification.{pdf,png}``: per run, identified
and exact force densities (N/m; inert cables hatched) with the damper value,
parameter histories as identified/exact (log scale), and the normalised loss
terms over the training steps.
"""

from pathlib import Path

import pandas as pd
from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.plot_pinn import plot_fig4
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
runs = [IdentificationResult.load(p) for p in snakemake.input.runs]
hist = [pd.read_csv(p) for p in snakemake.input.histories]
labels = [f"{r.structure} {r.record} ({r.method}, {r.steps} steps)" for r in runs]
plot_fig4(runs, hist, labels, [snakemake.output.pdf, snakemake.output.png])
log.info("plotted %s", [Path(p).name for p in snakemake.input.runs])
