"""Figure 6: the zero-gravity prism series (rule plot_fig6, the paper §4.6).

Outputs ``results/figures/fig6_prism_series.{pdf,png}`` and
``results/values/fig6_prism_series.json`` (every number drawn:
per level the identified and exact force densities (N/m), errors (%), the
cross/triangle ratio against sqrt(3), the worst relative CRLB (%); per
repeated lowest-level row the worst-member error of each seed (%), its
member and sign, and the seed mean; the paper's values under ``paper``).
Rows with a ``level`` are the series; rows labelled ``repeat`` repeat the
lowest level over seeds and lengths.  Cross cables have one supported end,
triangle cables none (the base triangle, both ends supported, is inert).
"""

import numpy as np
import yaml
from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.report.plot_studies import plot_fig6, prism_series_summary
from tensegrity_id.results.fisher import FISHER_KEY, FisherAnalysis
from tensegrity_id.results.identification import KEY, IdentificationResult
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par, out = snakemake.input, snakemake.params, snakemake.output
structure = structure_from_report(read_json(inp.structure))
held = structure.fixed.any(axis=1)
ends = held[structure.cables].sum(axis=1)
cross, triangle = np.flatnonzero(ends == 1).tolist(), np.flatnonzero(ends == 0).tolist()
runs = [IdentificationResult.load(p) for p in inp.runs]
fishers = [FisherAnalysis.load(p) for p in inp.fisher]
level_rows, level_runs, repeat_rows, repeat_runs, k = [], [], [], [], 0
for row in par.rows:
    n = row["n_runs"]
    if row.get("label") == "repeat":
        repeat_rows.append(row)
        repeat_runs.append(runs[k : k + n])
    else:
        level_rows.append(row)
        level_runs.append(runs[k])
    k += n
with open(inp.published) as fh:
    paper = yaml.safe_load(fh)
summary = prism_series_summary(
    level_rows, level_runs, fishers, repeat_rows, repeat_runs, cross, triangle, paper=paper
)
for lv in summary["levels"]:
    log.info(
        "level %g N/m: %s transitions, worst sigma %.3g %%, cross/triangle %.4f (sqrt3 %.4f), CRLB %.3g %%",
        lv["level"],
        lv["n_transitions"],
        lv[KEY.sigma_max_pct],
        lv["cross_triangle_ratio"],
        np.sqrt(3),
        lv[FISHER_KEY.crlb_max_pct],
    )
for rep in summary["repeats"]:
    log.info(
        "%s (%d steps): worst per seed %s, mean %.3g %%",
        rep["row"],
        rep["steps"],
        rep["worst_pct"],
        rep["mean_worst_pct"],
    )
write_json(out.json, summary, provenance=job_provenance(snakemake))
plot_fig6(summary, [out.pdf, out.png])
