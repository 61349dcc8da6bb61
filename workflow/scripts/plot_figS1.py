"""Figure S1 (rule plot_figS1): the classic forms with their stability class and margin.

Outputs ``results/figures/figS1_classic_forms.{pdf,png}``; each panel's title
gives the class and ``lambda_min`` (N/m, rigid bars; a free-standing form's on
its minimal grounding, as in Table S3) from results/assess/.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_structures import plot_structures
from tensegrity_id.results.assessment import StructureAssessment

log = setup_log(snakemake.log[0])
inp, out = snakemake.input, snakemake.output
structures = [structure_from_report(read_json(p)) for p in inp.structures]
assessed = [StructureAssessment.load(p).rigid for p in inp.assess]
titles = [
    f"{s.name}\n{a.class_}, " + r"$\lambda_{\min}$" + f" = {a.lambda_min:.3g} N/m"
    for s, a in zip(structures, assessed, strict=True)
]
plot_structures(structures, titles, [out.pdf, out.png], ncols=3)
log.info("drew %s", [s.name for s in structures])
