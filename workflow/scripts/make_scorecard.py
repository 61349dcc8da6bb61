"""The reproduction scorecard (rule make_scorecard).

Outputs ``results/tables/scorecard.{csv,md}``: one row per claim of
``resources/published/claims.yaml`` with columns ``id``, ``section``,
``claim``, ``paper``, ``here``, ``unit``, ``tolerance``, ``class``, ``status``
(match / deviation / input / context / not reproducible here / not yet
produced), ``reason``, ``source`` (the results file read) and ``run`` (the
run behind the value); ``results/tables/scorecard_summary.{csv,md}``: the
counts per section of the paper and per class, with the independent runs
behind them; and ``results/values/scorecard.json`` with the counts, the
match count over the counted claims (match and deviation; inputs and
hardware figures are shown, not counted) and the headline.
"""

from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.report.scorecard import COUNTED, headline, load_claims, scorecard, status_counts, summary
from tensegrity_id.report.tables import write_table

log = setup_log(snakemake.log[0])
claims = load_claims(snakemake.input.claims)
df = scorecard(claims, available=set(snakemake.input.sources))
counts = status_counts(df)
counted = sum(counts[s] for s in COUNTED)
line = headline(df)
log.info("%d claims: %s; %s", len(df), counts, line)
for _, r in df[df["status"] == "deviation"].iterrows():
    log.info("deviation %s: %s", r["id"], r["reason"])
write_table(df, snakemake.output.csv, snakemake.output.md, title="Reproduction scorecard")
write_table(
    summary(df),
    snakemake.output.summary_csv,
    snakemake.output.summary_md,
    title="Scorecard summary",
    note=line,
)
write_json(
    snakemake.output.json,
    {
        "n_claims": len(df),
        "counts": counts,
        "counted": counted,
        "matches_of_counted": counts["match"],
        "identification_matches": int(((df["class"] == "identification") & (df["status"] == "match")).sum()),
        "identification_counted": int(((df["class"] == "identification") & df["status"].isin(COUNTED)).sum()),
        "headline": line,
    },
)
