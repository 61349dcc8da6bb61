"""Figure 2: the network and residual as a computational graph (rule plot_fig2).

Outputs ``results/figures/fig2_network.pdf`` and ``.png``: the schematic drawn
from the settings a physics-informed run of the base settings used (its
result's ``options``; ``identify.pinn.settings`` where the config has no such
run) and the sizes of one structure and protocol (free coordinates, bars,
cables, sensor channels; record length in s).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_fig2 import plot_fig2
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
p = snakemake.params
s = structure_from_report(read_json(snakemake.input.structure))
sizes = {
    "structure": s.name,
    "n_free": s.n_free,
    "n_bars": s.n_bars,
    "n_cables": s.n_cables,
    "n_channels": len(p.protocol["channels"]),
    "t_ref": float(p.t_end),
}
run = snakemake.input.get("run")
settings = IdentificationResult.load(run).options if run else p.settings
plot_fig2(settings, sizes, [snakemake.output.pdf, snakemake.output.png])
log.info("Figure 2 for %s: %s, settings of %s", s.name, sizes, run or "the config (no run)")
