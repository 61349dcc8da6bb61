"""Figure 8: modal identification of the hexagonal laboratory prism (rule plot_fig8; the paper §4.10).

Outputs ``results/figures/fig8_hexprism.{pdf,png}``: (a) the rebuilt prism,
(b) the model's frequency lines against the ring tension with the four
measured peaks and the fitted tension, (c) the frequencies with and without
the compressed bars' transverse geometric stiffness.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_measured import plot_fig8

setup_log(snakemake.log[0])
inp = snakemake.input
plot_fig8(structure_from_report(read_json(inp.structure)), read_json(inp.modal), list(snakemake.output))
