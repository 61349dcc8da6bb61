"""The identifiability limit on axial cable damping (rule compute_damping_limit; the paper §4.12).

Outputs ``results/values/damping_limit.json``: per measured level (the
structure's force = transducer force x static factor) the rebuilt simplex's
frequencies, the cable-length change per unit modal kinetic energy
(m/J^0.5) and its ratio to the rotational mode's, the single axial damper
coefficient fitted to ``zeta_rotational`` in the rotational mode and the
damping ratios it implies for the others; the ranges over the levels.
"""

import yaml
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.validation.simplex_study import damping_study, hardware_from_measured

log = setup_log(snakemake.log[0])
par = snakemake.params
with open(snakemake.input.measured) as fh:
    measured = yaml.safe_load(fh)
out = damping_study(hardware_from_measured(measured, par.cable_EA), measured, zeta_rot=par.zeta_rotational)
log.info(
    "extension per unit kinetic energy: rotational mode %.0f-%.0f x smaller than the modes above; "
    "implied damping ratios %.2g-%.2g",
    out["extension_ratio"]["min"],
    out["extension_ratio"]["max"],
    out["implied_damping_ratio"]["min"],
    out["implied_damping_ratio"]["max"],
)
write_json(snakemake.output.json, out, provenance=job_provenance(snakemake))
