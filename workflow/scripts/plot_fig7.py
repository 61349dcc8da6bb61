"""Figure 7: the two-span bridge's taut and slack-transition identifications (rule plot_fig7, the paper §4.7).

Outputs ``results/figures/fig7_bridge.{pdf,png}`` and
``results/values/fig7_bridge.json``: per record the per-cable force-density
errors (%), their median and worst, the cables within 5 %, the damper error
(%), the held-out ratio, the re-simulation chi2, the outcome and the worst
relative CRLB (%); the sensor channels and those without signal (zero RMS:
the top node above the interior support, held by its two bars); the
paper's values under ``paper``.
"""

import numpy as np
import yaml
from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.report.plot_studies import bridge_summary, plot_fig7
from tensegrity_id.results.fisher import FisherAnalysis
from tensegrity_id.results.identification import KEY, IdentificationResult
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par, out = snakemake.input, snakemake.params, snakemake.output
structure = structure_from_report(read_json(inp.structure))
runs = [IdentificationResult.load(p) for p in inp.runs]
first = [runs[sum(r["n_runs"] for r in par.rows[:i])] for i in range(len(par.rows))]
with np.load(inp.sensors[0]) as z:
    channels, noise_std = z["channels"], z["noise_std"]
coords = [[int(c) // structure.dim, int(c) % structure.dim] for c in channels]
with open(inp.published) as fh:
    paper = yaml.safe_load(fh)
fishers = [FisherAnalysis.load(p) for p in inp.fisher]
summary = bridge_summary(par.rows, first, fishers, coords, noise_std, paper=paper)
for r in summary["records"]:
    log.info(
        "%s: median %.3g %%, worst %.3g %%, %d/%d within 5 %%, c %.3g %%, held-out ratio %s, %s",
        r["record"],
        r[KEY.sigma_median_pct],
        r[KEY.sigma_max_pct],
        r["within"],
        r["n_identifiable"],
        r[KEY.c_pct],
        r[KEY.held_out_ratio],
        r[KEY.outcome],
    )
log.info("channels without signal: %s", summary["inactive_channels"])
write_json(out.json, summary, provenance=job_provenance(snakemake))
plot_fig7(summary, structure, [out.pdf, out.png])
