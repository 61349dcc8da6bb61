"""The reproduction scorecard (rule make_scorecard).

Outputs ``results/tables/scorecard.{csv,md}``: one row per claim of
``resources/published/claims.yaml`` with columns ``id``, ``section``,
``claim``, ``paper``, ``here``, ``here_sd`` (the workflow's own seed
standard deviation, beside the value), ``unit``, ``tolerance``, ``class``,
``low`` and ``high`` (the band the value was judged by), ``rule`` (where the
band comes from), ``status`` (match / better than the paper / deviation /
input / context / not reproducible here / not yet produced), ``reason``,
``source`` (the results file read) and ``run`` (the run behind the value);
``results/tables/scorecard_summary.{csv,md}``: the counts per section of the
paper and per class, with the independent runs behind them; and
``results/values/scorecard.json`` with the counts and the headline.
"""

from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.report.scorecard import headline, load_claims, scorecard, scorecard_values, summary
from tensegrity_id.report.tables import write_table
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
claims = load_claims(snakemake.input.claims, root=snakemake.params.root)
df = scorecard(claims, available=set(snakemake.input.sources), config=dict(snakemake.config))
values = scorecard_values(df)
log.info("%d claims: %s; %s", len(df), values["counts"], values["headline"])
for _, r in df[df["status"] == "deviation"].iterrows():
    log.info("deviation %s: %s", r["id"], r["reason"])
write_table(df, snakemake.output.csv, snakemake.output.md, title="Reproduction scorecard")
write_table(
    summary(df),
    snakemake.output.summary_csv,
    snakemake.output.summary_md,
    title="Scorecard summary",
    note=headline(df),
)
write_json(snakemake.output.json, values, provenance=job_provenance(snakemake))
