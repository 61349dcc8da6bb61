"""Summary of every physics-informed identification run (rule make_pinn_summary).

Outputs ``results/tables/pinn_runs.csv`` and ``.md``: method, structure,
record, protocol, seed, steps, largest force-density error over identifiable
cables (%), damper error (%), reconstruction (% of motion scale), held-out
ratio (-), re-simulation error of an unmeasured acceleration (%),
transitions, outcome label and wall time (s).
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.tables import run_summary, write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
df = run_summary([IdentificationResult.load(p) for p in snakemake.input.runs])
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Physics-informed identification runs",
)
