"""Summary of a measured record (rule make_measured_summary).

Outputs ``results/measured/{structure}/{record}/summary.{json,csv,md}``: the screening before the
inversion, per method the identified values (N/m, N s/m; force factors where
fitted) with their relative Cramér–Rao bounds at the identified parameters
and the seed scatter, the re-simulation misfit (noise variances per sample),
and the stability class, margin (N/m) and utilisations of the identified
prestress from rule assess_measured_record (tensegrity_id.report.measured_summary); the JSON a
MeasuredSummary record (tensegrity_id.results.screening).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.measured_summary import measured_summary, summary_table
from tensegrity_id.report.tables import write_table
from tensegrity_id.results.assessment import MeasuredAssessment
from tensegrity_id.results.identification import IdentificationResult
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.results.screening import Screening

log = setup_log(snakemake.log[0])
inp, out, wc = snakemake.input, snakemake.output, snakemake.wildcards
structure = structure_from_report(read_json(inp.structure))
meta = read_json(inp.record_json)
results = [IdentificationResult.load(p) for p in inp.results]
summary = measured_summary(
    structure, meta, Screening.load(inp.screening), results, MeasuredAssessment.load(inp.assessment)
)
for m in summary.methods:
    log.info(
        "%s: sigma %s, c %.4g, chi2 %.3g, class %s, margin %.4g N/m",
        m.method,
        [round(v, 4) for v in m.sigma],
        m.c,
        m.resimulation_chi2,
        m.assessment.class_,
        m.assessment.margin,
    )
summary.write(out.json, provenance=job_provenance(snakemake))
write_table(
    summary_table(summary),
    out.csv,
    out.md,
    title=f"Measured record '{wc.record}' of '{structure.name}' ({meta['source']['file']})",
)
