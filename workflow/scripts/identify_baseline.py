"""A classical identification baseline on one sensor record (rules identify_baseline, lm_restarts,
baseline_variants).

Output ``results/identify/{method}/{structure}/{record}/{protocol}_seed{seed}.json``
(``..._restarts.json`` for LM from several guesses): the result record
(tensegrity_id.results.identification.IdentificationResult) — ``identified``/``exact`` (sigma N/m per cable,
c N s/m), ``errors`` (relative %, identifiable cables only), ``outcome``,
``wall_s``, ``n_forward_simulations``, ``n_hyperparameters`` — plus the
method's extras: LM ``chi2``, ``spurious_minimum`` and every start (with its
errors, scored after the search); UKF ``passes``; PF-EnKF ``ess`` over time.
With ``params.variants`` (rule baseline_variants, ``..._variants_{study}.json``) the
method runs once per option variant and the file holds ``variants``: one
compact record per variant (options, identified, errors, chi2, spurious flag,
simulations, wall time, outcome; VariantsResult).
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.identify import filters, shooting  # noqa: F401  (registers lm_shooting, ukf, pf_enkf)
from tensegrity_id.identify.base import get_method, run_variants
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, out, par, wc = snakemake.input, snakemake.output, snakemake.params, snakemake.wildcards
name = par.method
problem = load_problem(
    inp.structure,
    inp.record_npz,
    inp.record_json,
    inp.sensors,
    names=[wc.record],
    seed=int(wc.seed),
    **par.problem,
)
options = dict(par.options)
if name == "lm_shooting":  # Jacobian columns on the job's cores
    options = {"workers": snakemake.threads, **options}
log.info(
    "%s on %s/%s (%s, seed %s), options %s", name, wc.structure, wc.record, wc.protocol, wc.seed, options
)
variants = getattr(par, "variants", None)
if variants:
    runs = run_variants(name, options, variants, problem, log).replace(protocol=wc.protocol)
    runs.write(out.json, provenance=job_provenance(snakemake))
else:
    result = get_method(name, **options).run(problem).replace(protocol=wc.protocol)
    for start in result.starts or []:
        log.info(
            "start %s: chi2 %.4g, max sigma error %s %%",
            start.start,
            start.chi2,
            "(no exact values)" if start.sigma_max_pct is None else start.sigma_max_pct,
        )
    e = result.errors
    log.info(
        "done: sigma %s N/m, c %.4g N s/m; max sigma error %s %%, c error %s %% (None: no exact values); "
        "resimulation chi2 %s; outcome %s, %.1f s, %d forward simulations",
        [round(v, 4) if v is not None else None for v in result.identified.sigma],
        result.identified.c,
        e.sigma_max_pct,
        e.c_pct,
        result.resimulation_chi2,
        result.outcome,
        result.wall_s,
        result.n_forward_simulations,
    )
    result.write(out.json, provenance=job_provenance(snakemake))
