"""The fit of a measured record (rule plot_measured_fit).

Outputs ``results/measured/{structure}/{record}/fit.png``: each measured channel against the
response of the identified model (the run with the smallest re-simulation misfit among the
record's methods and seeds), re-simulated from rest under the recorded force on the record's
times, with the residual inside the stated noise band; the identified force densities with
their Cramér–Rao intervals at the identified parameters, against the structure file's design
values, the members the record cannot determine left out (tensegrity_id.report.plot_own_records).
"""

import numpy as np
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.identify.force_scale import split_force_scale, with_force_scale
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.identify.resimulation import simulate_identified
from tensegrity_id.report.plot_own_records import ChannelFit, ParameterInterval, plot_own_record_fit
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
inp, out, wc = snakemake.input, snakemake.output, snakemake.wildcards
results = [IdentificationResult.load(p) for p in inp.results]
best = min(results, key=lambda r: np.inf if r.resimulation_chi2 is None else r.resimulation_chi2)
log.info("drawing %s seed %d (re-simulation chi2 %.4g)", best.method, best.seed, best.resimulation_chi2)
problem = load_problem(inp.structure, inp.record_npz, inp.record_json, inp.sensors)
(rec,) = problem.records
st, sens = problem.structure, rec.sensors
ident = best.identified
(scale,) = split_force_scale(problem.records, ident.force_scale)
params = {"sigma": np.array([np.nan if v is None else v for v in ident.sigma], float), "c": ident.c}
if ident.EA is not None:
    params["EA"] = ident.EA
sim = simulate_identified(st, with_force_scale(rec.forcing, scale), params, sens["t"], problem.sim)
t = np.asarray(sens["t"], float)
model = None if isinstance(sim, str) else sim.qdd[:, np.asarray(sens["channels"], int)]
if model is None:
    log.warning("the identified model's re-simulation failed: %s", sim)
held = ~np.asarray(sens["train"], bool) & np.asarray(sens["keep"], bool)
labels = list(read_json(inp.record_json)["channels"])  # as the record's file names them
channels = [
    ChannelFit(
        labels[k],
        t,
        np.asarray(sens["noisy"], float)[:, k],
        None if model is None else model[:, k],
        float(np.asarray(sens["noise_std"], float)[k]),
        held,
    )
    for k in range(len(labels))
]
# the Cramer-Rao standard deviations at the identified parameters (the run's bounds, where it has them)
sds = {} if best.bounds is None else dict(best.bounds.crlb)
inert = set(best.inert_members or [])
intervals = [
    ParameterInterval(f"σ{i}", v, sds.get(f"sigma_{i}"), float(st.sigma[i]))
    for i, v in enumerate(ident.sigma)
    if v is not None and i not in inert
]
intervals.append(ParameterInterval("c", ident.c, sds.get("c"), None, "N s/m"))
for i, f in enumerate(ident.force_scale or []):
    intervals.append(ParameterInterval(f"force scale {i}", f, sds.get(f"f_{i}"), None, ""))
kept = ", ".join(f"σ{i}" for i in sorted(inert))
plot_own_record_fit(
    channels,
    intervals,
    [out.png],
    title=f"{wc.record} on {wc.structure}: {best.method}, seed {best.seed}, "
    f"re-simulation χ² {best.resimulation_chi2:.3g} noise variances"
    + (f"; not determinable from the record, left out: {kept}" if kept else ""),
)
