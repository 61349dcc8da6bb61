"""Sensitivity of a record to the bar axial stiffness (rule compute_bar_stiffness_sensitivity; the paper §S5).

Outputs ``results/values/bar_stiffness_sensitivity.json``
(:func:`~tensegrity_id.analysis.bar_stiffness.bar_stiffness_sensitivity`):
per bar modulus (``levels``) the bar axial and mechanism frequencies, the RMS
sensitivity of the accelerations to ln EA_bar relative to the RMS
acceleration, the same below the cutoff (half the lowest bar axial mode) and
the share ``removed_by_band_limit``; ``remainder_order`` (log-log slope of the
band-limited remainder against EA_bar, 1/EA gives -1); the forcing is that of
``record`` (its metadata), run on the elastic-bar generator over ``t_end``
(default: the records' ``simulation.t_end``).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis.bar_stiffness import bar_stiffness_sensitivity
from tensegrity_id.data.records import forcing_from_meta
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
structure = structure_from_report(read_json(inp.structure))
meta = read_json(inp.record)
out = bar_stiffness_sensitivity(structure, forcing_from_meta(meta), par.E_bar, t_end=par.t_end, log=log)
out["record"] = par.record
log.info("remainder order %s", out["remainder_order"])
write_json(snakemake.output.json, out, provenance=job_provenance(snakemake))
