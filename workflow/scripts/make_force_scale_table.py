"""An uncalibrated force channel (rule make_force_scale_table; beyond the paper).

Output ``results/tables/force_scale.{csv,md}``: on a simulated record whose
force channel is miscalibrated (protocol ``true_force_scale``: the applied
force is that factor times the recorded one), per PINN row (force taken as
recorded, or ``fit_force_scale``) and LM shooting (``force_scale`` known or
``fit``): identified and true force factor, its error (%) and Cramér–Rao
bound (%, LM), the largest force-density error over identifiable cables (%),
the damper error (%), the re-simulation chi2 and the outcome
(tensegrity_id.report.tables: force_scale_table).
"""

from tensegrity_id.data.runio import setup_log, split_runs
from tensegrity_id.report.tables import force_scale_table, write_table
from tensegrity_id.results.identification import IdentificationResult, VariantsResult

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
rows, results = split_runs(par.rows, [IdentificationResult.load(p) for p in inp.runs])
lm = VariantsResult.load(inp.lm[0]) if len(inp.lm) else None  # one variants file, or none
df = force_scale_table(rows, results, lm, par.true_scale)
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title=f"Uncalibrated force: the force channel reads 1/{par.true_scale:g} of the applied force",
)
