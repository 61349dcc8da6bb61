"""The Cartesian simulator against the quaternion model of Cefalo and Mirats-Tur (rule crosscheck_quaternion).

Outputs ``results/values/quaternion_crosscheck.json``: ``settings`` (solver,
derivative stride), ``records`` (one row per record: ``structure``,
``record``, ``source`` suite/extra, ``positions`` {max_diff_m,
motion_scale_m, max_diff_rel}, ``derivatives`` {max_rel, max_abs (m/s^2),
n_states}, ``transitions`` {cartesian, quaternion, same_sequence,
max_time_diff_s}, ``energy_error_rel`` {cartesian, quaternion},
``quaternion_norm_drift``, ``cartesian_length_drift_m``, ``wall_s``, ``nfev``)
and ``summary`` (worst values, ``tolerance``, ``passed``).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.records import forcing_from_meta, forcing_from_spec, record_structure
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.mechanics.crosscheck import run_crosschecks
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
p = snakemake.params
structures = {
    name: structure_from_report(read_json(f))
    for name, f in zip(p.structures, snakemake.input.structures, strict=True)
}
sim = {"t_end": float(p.sim["t_end"]), "dt_out": float(p.sim["dt_out"])}
cases = []
for ref, f in zip(p.records, snakemake.input.records, strict=True):
    meta = read_json(f)
    s = record_structure(structures[ref["structure"]], meta["spec"])
    cases.append(
        {
            "structure": s,
            "record": ref["record"],
            "source": "suite",
            "forcing": forcing_from_meta(meta),
            **sim,
        }
    )
for name, e in p.extra.items():
    s = structures[e["structure"]]
    t_end = float(e.get("t_end", sim["t_end"]))
    forcing = forcing_from_spec(s, e["spec"], t_end=t_end)
    cases.append(
        {
            "structure": s,
            "record": name,
            "source": "extra",
            "forcing": forcing,
            "t_end": t_end,
            "dt_out": sim["dt_out"],
        }
    )
settings = p.settings
solver = {"method": "DOP853", "rtol": 1e-10, "atol": 1e-12, "max_step": 0.05, **settings.get("solver", {})}
tolerance = {
    "position_rel": 1e-7,
    "derivative_rel": 1e-12,
    "transition_time_s": 1e-6,
    **settings.get("tolerance", {}),
}
out = run_crosschecks(
    cases, solver=solver, stride=int(settings.get("derivative_stride", 10)), tolerance=tolerance
)
log.info("summary: %s", out["summary"])
if out["summary"] is not None and not out["summary"]["passed"]:
    log.warning("the two forward models disagree beyond the tolerance %s", tolerance)
write_json(snakemake.output.json, out, provenance=job_provenance(snakemake))
