"""The reproduction scorecard (rule make_scorecard).

Outputs ``results/tables/scorecard.{csv,md}``: one row per claim of
``resources/published/claims.yaml`` with columns ``id``, ``section``,
``claim``, ``paper``, ``here``, ``unit``, ``tolerance``, ``status``
(match / deviation / input / context / not reproducible here / not yet
produced), ``reason`` and ``source`` (the results file read); and
``results/values/scorecard.json`` with the counts per status and the match
count over the counted claims (match and deviation; inputs and hardware
figures are shown, not counted).
"""

from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.report.scorecard import COUNTED, load_claims, scorecard, status_counts
from tensegrity_id.report.tables import write_table

log = setup_log(snakemake.log[0])
claims = load_claims(snakemake.input.claims)
df = scorecard(claims, available=set(snakemake.input.sources))
counts = status_counts(df)
counted = sum(counts[s] for s in COUNTED)
log.info("%d claims: %s; %d of %d counted claims match", len(df), counts, counts["match"], counted)
for _, r in df[df["status"] == "deviation"].iterrows():
    log.info(
        "deviation %s: paper %s, here %s %s (%s)", r["id"], r["paper"], r["here"], r["unit"], r["reason"]
    )
write_table(df, snakemake.output.csv, snakemake.output.md, title="Reproduction scorecard")
write_json(
    snakemake.output.json,
    {"n_claims": len(df), "counts": counts, "counted": counted, "matches_of_counted": counts["match"]},
)
