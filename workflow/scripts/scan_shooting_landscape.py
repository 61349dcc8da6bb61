"""The shooting misfit on a line and a plane through the guess and the exact parameters (rule lm_landscape).

Output ``results/values/lm_landscape/{structure}/{record}/{protocol}.json``:
``s_line`` (-, 0 = guess, 1 = exact), ``chi2_line`` (mean squared misfit in
noise standard deviations, 1 = noise floor), ``n_local_minima_line``,
``local_minima_s``; ``s_grid``, ``c_grid`` (N s/m) and ``chi2_plane``
(rows: c, columns: s); the guess and the exact parameters.  A diagnosis that
uses the exact parameters, explaining where LM shooting stops.
"""

from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.identify.shooting import misfit_landscape
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par, wc = snakemake.input, snakemake.params, snakemake.wildcards
problem = load_problem(
    inp.structure,
    inp.record_npz,
    inp.record_json,
    inp.sensors,
    names=[wc.record],
    **par.problem,
)
scan = misfit_landscape(problem, n_line=par.n_line, n_grid=par.n_grid)
i_exact = min(range(len(scan["s_line"])), key=lambda i: abs(scan["s_line"][i] - 1.0))
scan.update(structure=wc.structure, record=wc.record, protocol=wc.protocol)
log.info(
    "%s/%s: %d local minima of chi2 between guess and exact on the line (at s = %s); chi2 at the guess %.4g, "
    "at s = %.3g (nearest the exact point) %.4g; %d simulations",
    wc.structure,
    wc.record,
    scan["n_local_minima_line"],
    [round(s, 3) for s in scan["local_minima_s"]],
    scan["chi2_line"][0],
    scan["s_line"][i_exact],
    scan["chi2_line"][i_exact],
    scan["n_simulations"],
)
write_json(snakemake.output.json, scan, provenance=job_provenance(snakemake))
