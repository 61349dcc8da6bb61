"""Full-state linear-regression identification (rule fit_regression; the Wang, Aanjaneya and Bekris baseline).

Output ``results/identify/regression/{structure}/{record}/fullstate_seed{seed}.json``: the
result record (tensegrity_id.results.identification.IdentificationResult; ``identified.sigma`` in N/m per
cable, ``null`` where undetermined; ``identified.c`` in N s/m; ``errors``
(relative %, identifiable cables only), ``wall_s``, ``n_forward_simulations`` = 0,
``n_hyperparameters``), plus the regression's iterations and RMS residual (N).
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.identify import regression  # noqa: F401  (registers the method)
from tensegrity_id.identify.base import get_method
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
problem = load_problem(
    snakemake.input.structure,
    [snakemake.input.record],
    [snakemake.input.record_json],
    names=[snakemake.wildcards.record],
    seed=int(snakemake.wildcards.seed),
)
result = get_method("regression").run(problem).replace(protocol="fullstate")
log.info(
    "max sigma error %.3g %%, c error %.3g %%, %d iterations, %.2f s",
    result.errors.sigma_max_pct,
    result.errors.c_pct,
    result.iterations,
    result.wall_s,
)
result.write(snakemake.output.json, provenance=job_provenance(snakemake))
