"""Figure S3 (rule plot_figS3): class under prestress scaling, utilisation curves, class along records.

Outputs ``results/figures/figS3_assessment.{pdf,png}``.
"""

from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_assessment import plot_figS3

log = setup_log(snakemake.log[0])
inp, out = snakemake.input, snakemake.output
plot_figS3(
    [read_json(p) for p in inp.scans],
    [read_json(p) for p in inp.records],
    [out.pdf, out.png],
    steel=[read_json(p) for p in inp.steel],
)
log.info("wrote %s", list(out))
