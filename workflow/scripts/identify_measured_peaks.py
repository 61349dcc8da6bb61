"""A prestress scale from a list of measured peaks (rule identify_measured_peaks).

Outputs ``results/measured/{structure}/peaks/{name}.json`` (scale, its standard error,
model and residual frequencies in Hz, the scaled force densities in N/m,
class and margin in N/m of the scaled prestress and of the design;
tensegrity_id.validation.peaks) and its ``.csv``/``.md`` table beside it.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.report.tables import write_table
from tensegrity_id.results.assessment import PrestressVerdict
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.validation.peaks import peaks_identification, peaks_table, read_peaks_csv

log = setup_log(snakemake.log[0])
inp, out, wc = snakemake.input, snakemake.output, snakemake.wildcards
structure = structure_from_report(read_json(inp.structure))
res = peaks_identification(structure, read_peaks_csv(inp.file), tol_rel=snakemake.params.tol_rel)
res["name"] = wc.name
scaled = PrestressVerdict.from_json(res["assessment"])
log.info(
    "prestress scale %.4f (std error %s), RMS residual %.4g Hz; class %s, margin %.4g N/m",
    res["scale"],
    res["scale_std_error"],
    res["rms_residual_hz"],
    scaled.class_,
    scaled.margin,
)
write_json(out.json, res, provenance=job_provenance(snakemake))
write_table(
    peaks_table(res), out.csv, out.md, title=f"Peaks '{wc.name}' of '{res['structure']}': prestress scale"
)
