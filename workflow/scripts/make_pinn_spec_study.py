"""The specification study of the physics-informed network (rule make_pinn_spec_study).

Outputs ``results/tables/pinn_spec_study.csv`` and ``.md``, one line per run
(setting x record x seed): the setting's name and overrides, the case, the
seed, training steps, the largest force-density error over identifiable
cables (%), the damper error (%), the reconstruction error (%), the held-out
ratio, the training misfit over the noise variance, the outcome label and the
training time (s).  ``results/figures/pinn_spec_study.png`` draws the force-density
errors and held-out ratios per setting against the paper's Table 3.
docs/pinn_specification.md reads both.
"""

import pandas as pd
from tensegrity_id.data.runio import setup_log, split_runs
from tensegrity_id.report.plot_spec_study import plot_spec_study
from tensegrity_id.report.tables import pinn_spec_table, write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
rows, results = split_runs(
    snakemake.params.rows, [IdentificationResult.load(p) for p in snakemake.input.runs]
)
df = pinn_spec_table(rows, results)
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="The specification study: readings of the paper's unstated network details",
)
plot_spec_study(df, pd.read_csv(snakemake.input.table3), [snakemake.output.png])
