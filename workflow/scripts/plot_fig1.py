"""Figure 1: the benchmark structures (rule plot_fig1).

Outputs ``results/figures/fig1_structures.pdf`` and ``.png``: one panel per
structure, bars thick, cables thin, supports as triangles, node numbers;
coordinates in metres.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_structures import plot_structures

log = setup_log(snakemake.log[0])
reports = [read_json(p) for p in snakemake.input.structures]
structures = [structure_from_report(r) for r in reports]
titles = [f"{s.name}: {s.n_nodes} nodes, {s.n_bars} bars, {s.n_cables} cables" for s in structures]
plot_structures(structures, titles, [snakemake.output.pdf, snakemake.output.png])
log.info("drew %s", [s.name for s in structures])
