"""Table 5: the three transition treatments on identical slack-transition records (rule make_table5).

Outputs ``results/tables/table5.csv`` and ``.md``: structure, record,
treatment, training steps, seeds, and medians over seeds of the largest
force-density error over identifiable cables (%, with its range), the damper
error (%), the reconstruction error at unmeasured coordinates (% of the
motion scale), the held-out ratio (-), the record's taut-slack transitions
and the wall time (s).
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.tables import table5, write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
df = table5([IdentificationResult.load(p) for p in snakemake.input.runs])
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Table 5: transition treatments on identical slack-transition records",
)
