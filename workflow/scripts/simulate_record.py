"""One forward record (rule simulate_record).

Outputs ``results/records/{structure}/{record}.npz`` with arrays ``t`` (s),
``q, qd, qdd`` (n_t x n_coords; m, m/s, m/s^2), ``lam`` (n_t x n_bars, N/m),
``tension`` (n_t x n_cables, N), ``taut`` (bool), ``transition_times`` (s),
``transition_cables``, ``transition_to_taut``, ``forcing`` (N),
``E_T, E_Vg, E_Vs, W`` (J); and ``{record}.json`` with the specification,
forcing, structure digest, solver statistics and ``checks``
(``max_length_violation``, ``max_length_error_m``, ``max_energy_error_rel``,
``n_transitions``; for a record specified by its transition count, the
``transition_search``; for a model-form record, ``generator`` with its
parameters and ``record_change``: the relative RMS change of the
accelerations against the matched model's record).  A record with ``amplitude_of`` takes the amplitude
(N) of that record of the same structure (its metadata is an input).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.records import forcing_from_spec, record_structure, resolve_amplitude, save_record
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.model_form import record_change, simulate_generator
from tensegrity_id.mechanics.simulate import simulate
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
spec, sim = dict(snakemake.params.spec), snakemake.params.sim
structure = record_structure(structure_from_report(read_json(snakemake.input.structure)), spec)
th_files = snakemake.input.threshold
th_files = [th_files] if isinstance(th_files, str) else list(th_files)
threshold = read_json(th_files[0]) if th_files else None
dyn = Dynamics(structure)
ref = read_json(snakemake.input.reference[0]) if "amplitude_of" in spec else None
amplitude, spec, search = resolve_amplitude(dyn, spec, threshold, ref, **sim)
forcing = forcing_from_spec(structure, spec, amplitude=amplitude, t_end=sim["t_end"])
log.info(
    "simulating %s/%s: %s, amplitude %.5g N",
    structure.name,
    snakemake.wildcards.record,
    forcing.kind,
    forcing.amplitude,
)
generator = spec.get("generator")
rec, model, info = simulate_generator(structure, forcing, generator, sim)
extra = {} if search is None else {"transition_search": search}
if generator is not None and generator["kind"] != "matched":
    info["record_change"] = record_change(rec, simulate(dyn, forcing, **sim), dyn.free)
    extra["generator"] = info
    log.info("generator %s: %s", generator["kind"], info)
meta = save_record(
    rec,
    model,
    snakemake.output.npz,
    snakemake.output.json,
    spec=spec,
    forcing=forcing,
    extra=extra,
    provenance=job_provenance(snakemake),
)
log.info("%d transitions; checks %s; solver %s", rec.n_transitions, meta["checks"], rec.stats)
if threshold is not None:
    log.info(
        "regime %s at %.2f x threshold %.5g N",
        meta["regime"],
        spec["amplitude_factor"],
        threshold["threshold"],
    )
    if (spec["amplitude_factor"] < 1) != (meta["regime"] == "taut"):
        log.warning(
            "record is %s although its amplitude is %.2f x the threshold",
            meta["regime"],
            spec["amplitude_factor"],
        )
