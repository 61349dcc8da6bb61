"""Levenberg-Marquardt shooting from a physics-informed estimate (rule identify_pinn_lm).

Output ``results/identify/pinn_lm/{structure}/{record}/{protocol}_{treatment}_seed{seed}_steps{steps}.json``:
the result record (tensegrity_id.results.identification.IdentificationResult) of method ``pinn_lm``
(LM ``chi2``, ``spurious_minimum``, ``resimulation_chi2``), with ``start``:
the PINN run it started from (file, identified values, errors, outcome), and
``fisher_at_start``: the Fisher information of the record's channels at the
PINN's identified parameters (pinn_lm's option, analysis/local_fisher.py: condition of the
identifiable block, worst relative Cramér–Rao bound), a signal that needs
no exact parameters.
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.identify import shooting  # noqa: F401  (registers pinn_lm)
from tensegrity_id.identify.base import get_method
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.results.identification import IdentificationResult, StartedFrom
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, out, par, wc = snakemake.input, snakemake.output, snakemake.params, snakemake.wildcards
pinn = IdentificationResult.load(inp.pinn)
problem = load_problem(
    inp.structure,
    list(inp.record_npz),
    list(inp.record_json),
    list(inp.sensors),
    names=list(par.records),
    seed=int(wc.seed),
    **par.problem,
)
start = {"sigma": pinn.identified.sigma, "c": pinn.identified.c}
log.info(
    "pinn_lm on %s/%s (%s, seed %s) from %s: start %s",
    wc.structure,
    wc.record,
    wc.protocol,
    wc.seed,
    inp.pinn,
    start,
)
options = {
    "workers": snakemake.threads,
    **dict(par.options),
    "start_from": start,
    "start_source": str(inp.pinn),
    "fisher_at_start": dict(par.fisher),
}
result = get_method("pinn_lm", **options).run(problem)
result = result.replace(
    protocol=wc.protocol,
    records=list(par.records),
    start=StartedFrom(
        file=str(inp.pinn),
        method=pinn.method,
        steps=pinn.steps,
        identified=pinn.identified,
        errors=pinn.errors,
        outcome=pinn.outcome,
        resimulation_chi2=pinn.resimulation_chi2,
    ),
)
e = result.errors
log.info(
    "PINN max sigma error %s %% -> pinn_lm %.3g %%, c %.3g %%, chi2 %.4g, outcome %s",
    pinn.errors.sigma_max_pct,
    e.sigma_max_pct,
    e.c_pct,
    result.chi2,
    result.outcome,
)
result.write(out.json, provenance=job_provenance(snakemake))
