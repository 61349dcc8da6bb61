"""Energy balance through taut-slack transitions, Fig. S4 (rule plot_energy_balance).

Outputs ``results/figures/figS4_energy/{structure}/{record}.{pdf,png}``:
kinetic, gravitational, strain and mechanical energy and the work of the
external and damping forces (J), and the balance residual |E - W - E(0)| (J).
"""

from tensegrity_id.data.records import load_record
from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.plot_records import plot_energy_balance

log = setup_log(snakemake.log[0])
rec = load_record(snakemake.input.npz)
w = snakemake.wildcards
paths = [snakemake.output.pdf, snakemake.output.png]
plot_energy_balance(rec, f"energy balance, {w.structure} / {w.record}", paths)
log.info("plotted energy balance of %s/%s", w.structure, w.record)
