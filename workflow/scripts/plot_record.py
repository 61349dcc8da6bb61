"""Example record figure (rule plot_record).

Outputs ``results/figures/records/{structure}/{record}.{pdf,png}``: free-
coordinate displacements (mm) and cable tensions (N) against time (s), slack
intervals shaded per cable, taut-slack transitions as vertical lines.
"""

from tensegrity_id.data.records import load_record
from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.plot_records import plot_record

log = setup_log(snakemake.log[0])
rec = load_record(snakemake.input.npz)
w = snakemake.wildcards
plot_record(rec, f"{w.structure} / {w.record}", [snakemake.output.pdf, snakemake.output.png])
log.info("plotted %s/%s", w.structure, w.record)
