"""Figure of the classical baselines (rule plot_baselines): shooting misfit line and plane, PF ESS.

Outputs ``results/figures/baselines.{pdf,png}`` from the lm_landscape scans and
the pf_enkf result records of the same cases.
"""

from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_baselines import plot_baselines
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
inp, out = snakemake.input, snakemake.output
plot_baselines(
    [read_json(p) for p in inp.landscapes], [IdentificationResult.load(p) for p in inp.pf], [out.pdf, out.png]
)
log.info("wrote %s", list(out))
