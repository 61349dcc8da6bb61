"""Silent failures found without the exact parameters (rule make_silent_failures).

Outputs ``results/tables/silent_failures.csv`` and ``.md``: per row (the
Table 3 rows and the configured extra cases), the PINN outcome and largest
force-density error (scored against the exact values, for reference), and
the signals that need no exact parameters — held-out ratio, held-out misfit
(% of the signal), the re-simulation chi2 per sample (noise variances; 1 at
the noise floor), the seed scatter (largest seed standard deviation of a
force density, % of its mean; with two or more seeds) — with the flags
they raise at the configured thresholds (``silent_failures.flags``, one set
for every row), and the hybrid ``pinn_lm``'s errors, chi2 and outcome.
"""

from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.tables import SILENT_FLAGS, silent_failure_table, write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
pinn = [IdentificationResult.load(p) for p in inp.runs]
hybrid = [IdentificationResult.load(p) for p in inp.hybrid]
flags = {**SILENT_FLAGS, **dict(par.flags)}
rows, p_rows, h_rows = [], [], []
for row in par.rows:
    idx = list(row["runs"])
    rows.append(row)
    p_rows.append([pinn[i] for i in idx])
    h_rows.append([hybrid[i] for i in idx])
df = silent_failure_table(rows, p_rows, h_rows, flags)
log.info("flags %s\n%s", flags, df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Silent failures: signals without the exact parameters, and LM shooting from the PINN estimate",
)
