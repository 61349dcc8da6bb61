"""Figure S2 (rule plot_figS2): spectra of the reduced tangent stiffness and the stress matrix.

Outputs ``results/figures/figS2_spectra.{pdf,png}`` for the Table S3 structures.
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.plot_assessment import plot_figS2
from tensegrity_id.results.assessment import StructureAssessment

log = setup_log(snakemake.log[0])
out = snakemake.output
plot_figS2([StructureAssessment.load(p) for p in snakemake.input.assess], [out.pdf, out.png])
log.info("wrote %s", list(out))
