"""Table S5's companion (rule make_tableS5_baselines): every method on the model-form rows.

Outputs ``results/tables/tableS5_baselines.csv`` and ``.md``: per Table S5
row and method (the physics-informed identification over the row's seeds,
then the classical baselines of ``table_s5_baselines.methods``) the largest
and mean force-density errors over the identifiable cables (%), the damper
error (%), their changes against the same method on the matched record
(``d_*``, percentage points), the re-simulation chi2 per sample, the
outcome and the wall time per run (s).  The paper runs only the PINN on
these records; this table is beyond it.
"""

from tensegrity_id.data.runio import setup_log, split_runs
from tensegrity_id.report.tables import model_form_methods_table, write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
rows, groups = split_runs(par.rows, [IdentificationResult.load(p) for p in inp.pinn])
results = {(row["row"], runs[0].method): runs for row, runs in zip(rows, groups, strict=True)}
for (row_id, method), p in zip(par.baselines, inp.baselines, strict=True):
    results.setdefault((row_id, method), []).append(IdentificationResult.load(p))
df = model_form_methods_table(rows, results)
log.info("\n%s", df.to_string(index=False))
title = "Table S5, companion: every method on the model-form records (beyond the paper)"
write_table(df, snakemake.output.csv, snakemake.output.md, title=title)
