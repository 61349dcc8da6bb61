"""The rebuilt Małyszko–Rutkiewicz simplex (rule compute_simplex_model; the paper §4.12).

Outputs ``results/values/simplex_model.json``: ``base_to_cross_ratio`` (the
single self-stress on the rebuilt geometry) and its hand value R / L_cross,
``geometry`` (m), ``conventions`` (weighed and distributed masses: node
mass, kg; ``f2_per_newton``, the model slope of the rotational mode's f^2
against cross-cable force, Hz^2/N; ``force_factor``, measured slope over
model slope; the intercept of the model line relative to the mean f^2; the
model's log-slope range), ``f2_per_newton`` and ``force_factor_weighed`` /
``force_factor_distributed`` (top level), ``static_force_factor``,
``separation_at_static_force_hz2``, ``measured_log_slope`` (A F / 2(A F + B)
at the first and last level) and the joint stiffness equivalent to the
measured intercept (N m/rad).
"""

import yaml
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.validation.simplex_study import hardware_from_measured, model_summary

log = setup_log(snakemake.log[0])
with open(snakemake.input.measured) as fh:
    measured = yaml.safe_load(fh)
out = model_summary(hardware_from_measured(measured, snakemake.params.cable_EA), measured)
log.info(
    "base-to-cross ratio %.4f; f2 per newton %.5g (weighed) -> force factor %.4f, "
    "distributed %.4f, static %.3f",
    out["base_to_cross_ratio"],
    out["f2_per_newton"],
    out["force_factor_weighed"],
    out["force_factor_distributed"],
    out["static_force_factor"],
)
write_json(snakemake.output.json, out, provenance=job_provenance(snakemake))
