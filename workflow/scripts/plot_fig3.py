"""Figure 3: identifiability of the X1 records (rule plot_fig3).

Outputs ``results/figures/fig3_identifiability.{pdf,png}``: (a) sensitivity
norm sqrt(J_ii) per parameter ((m/s^2)/noise per parameter unit, log
scale), (b) eigenvalues of the Fisher information, (c) relative Cramér–Rao
bounds (%) of the identifiable block, one series per Fisher case; with a
seed study (config ``seed_study``), its first row as panel (c): seed
standard deviation and |bias| per parameter in units of the CRLB (the
bounds then move to panel (d)).
"""

from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_fisher import plot_fig3
from tensegrity_id.results.fisher import FisherAnalysis

log = setup_log(snakemake.log[0])
results = [FisherAnalysis.load(p) for p in snakemake.input.fisher]
labels = snakemake.params.labels
studies = [read_json(p) for p in snakemake.input.seed_study]
plot_fig3(
    results,
    labels,
    [snakemake.output.pdf, snakemake.output.png],
    seed_study=studies[0] if studies else None,
)
log.info("plotted %s", labels)
