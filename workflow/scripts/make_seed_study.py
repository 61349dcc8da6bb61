"""Seed study: bias and scatter of repeated identifications against the CRLB (rule make_seed_study).

Output ``results/values/seed_study_{row}.json``: the analysis of
tensegrity_id.analysis.seed_study (per identifiable parameter: exact value,
seed mean, bias in parameter units and %, seed standard deviation, CRLB,
standard deviation over CRLB, bias over standard deviation; N/m for force
densities, N s/m for the damper coefficient), the row's config, and the
paper's values (``paper``, resources/published/seed_study.yaml) where the
row has them.
"""

import yaml
from tensegrity_id.analysis.seed_study import seed_study
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.results.fisher import FISHER_KEY, FisherAnalysis
from tensegrity_id.results.identification import KEY, IdentificationResult
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
runs = [IdentificationResult.load(p) for p in inp.runs]
out = seed_study(runs, FisherAnalysis.load(inp.fisher))
with open(inp.published) as fh:
    out["paper"] = (yaml.safe_load(fh) or {}).get(par.row["row"])
out["row"] = dict(par.row)
for n, p in out["parameters"].items():
    log.info(
        "%-8s exact %.5g  mean %.5g  bias %+.3g %%  std %.3g  CRLB %.3g  std/CRLB %.2f",
        n,
        p["exact"],
        p["mean"],
        p["bias_pct"],
        p["std"],
        p[FISHER_KEY.crlb],
        p["std_over_crlb"],
    )
log.info("held-out ratio %.3g; outcomes %s", out[KEY.held_out_ratio], out[KEY.outcomes])
write_json(snakemake.output.json, out, provenance=job_provenance(snakemake))
