"""A classical identification baseline on one sensor record (rules identify_baseline, lm_restarts,
baseline_variants).

Output ``results/identify/{method}/{structure}/{record}/{protocol}_seed{seed}.json``
(``..._restarts.json`` for LM from several guesses): the result record of
tensegrity_id.identification — ``identified``/``exact`` (sigma N/m per cable,
c N s/m), ``errors`` (relative %, identifiable cables only), ``outcome``,
``wall_s``, ``n_forward_simulations``, ``n_hyperparameters`` — plus the
method's extras: LM ``chi2``, ``spurious_minimum`` and every start (with its
errors, scored after the search); UKF ``passes``; PF-EnKF ``ess`` over time.
With ``params.variants`` (rule baseline_variants, ``..._variants_{study}.json``) the
method runs once per option variant and the file holds ``variants``: one
compact record per variant (options, identified, errors, chi2, spurious flag,
simulations, wall time, outcome).
"""

import numpy as np
from tensegrity_id.identification import get_method
from tensegrity_id.problem_io import load_problem
from tensegrity_id.runio import setup_log, write_json
from tensegrity_id.scoring import parameter_errors

log = setup_log(snakemake.log[0])  # noqa: F821
inp, out, par, wc = snakemake.input, snakemake.output, snakemake.params, snakemake.wildcards  # noqa: F821
method_name = getattr(wc, "method", "lm_shooting")
problem = load_problem(
    inp.structure,
    [inp.record_npz],
    [inp.record_json],
    [inp.sensors],
    seed=int(wc.seed),
    noise_seed=par.noise_seed,
    sim=par.sim,
    outcome_rule=par.outcome,
    sigma0=par.sigma0,
    c0=par.c0,
)


def run(options: dict) -> dict:
    if method_name == "lm_shooting":  # Jacobian columns on the job's cores
        options = {"workers": snakemake.threads, **options}  # noqa: F821
    log.info(
        "%s on %s/%s (%s, seed %s), options %s",
        method_name,
        wc.structure,
        wc.record,
        wc.protocol,
        wc.seed,
        options,
    )
    result = get_method(method_name, **options).run(problem)
    result.pop("_series", None)
    result.update(protocol=wc.protocol)
    for start in result.get("starts", []):
        e = parameter_errors(
            problem.structure, {"sigma": np.asarray(start["sigma"]), "c": start["c"]}, result["exact"]
        )
        start["sigma_max_pct"] = e["errors"]["sigma_max_pct"]
        start["c_pct"] = e["errors"]["c_pct"]
        log.info(
            "start %s: chi2 %.4g%s, max sigma error %.3g %%, c error %.3g %%",
            start["start"],
            start["chi2"],
            " (spurious)" if start["spurious"] else "",
            start["sigma_max_pct"],
            start["c_pct"],
        )
    e = result["errors"]
    log.info(
        "done: max sigma error %.3g %%, c error %.3g %%, outcome %s, %.1f s, %d forward simulations",
        e["sigma_max_pct"],
        e["c_pct"],
        result["outcome"],
        result["wall_s"],
        result["n_forward_simulations"],
    )
    return result


variants = getattr(par, "variants", None)
if not variants:
    write_json(out.json, run(par.options))
else:
    rows, last = [], None
    for extra in variants:
        last = run({**par.options, **extra})
        keep = (
            "identified",
            "errors",
            "chi2",
            "spurious_minimum",
            "n_forward_simulations",
            "wall_s",
            "outcome",
        )
        rows.append({"options": extra, **{k: last.get(k) for k in keep}})
    head = ("method", "structure", "record", "protocol", "seed", "exact", "inert_members")
    write_json(out.json, {**{k: last[k] for k in head}, "variants": rows})
