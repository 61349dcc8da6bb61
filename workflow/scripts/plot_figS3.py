"""Figure S3 (rule plot_figS3): class under prestress scaling, utilisation curves, class along records.

Outputs ``results/figures/figS3_assessment.{pdf,png}``.
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.plot_assessment import plot_figS3
from tensegrity_id.results.assessment import PrestressScan, RecordAssessment, SteelDesign

log = setup_log(snakemake.log[0])
inp, out = snakemake.input, snakemake.output
plot_figS3(
    [PrestressScan.load(p) for p in inp.scans],
    [RecordAssessment.load(p) for p in inp.records],
    [out.pdf, out.png],
    steel=[SteelDesign.load(p) for p in inp.steel],
)
log.info("wrote %s", list(out))
