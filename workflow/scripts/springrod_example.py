"""The spring-rod example of Wang, Aanjaneya and Bekris (rule springrod_example): regression vs black boxes.

Outputs
* ``results/identify/springrod/summary.json``: settings, Wang et al.'s optimiser
  settings (``peer_settings``), the regression's
  ``K_over_M`` and ``c_over_M`` (1/s^2, 1/s) with errors (%), and per black-box
  method (``lbfgsb``, ``cmaes``) the ``(K, c)`` of every trajectory, their
  mean and std, success fraction (both within 5 %), seconds per iteration,
  and the options each optimiser was given.
* ``results/tables/springrod.csv`` / ``.md``: one row per method with
  Wang et al.'s published Appendix A values alongside.
"""

import pandas as pd
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.identify.springrod import example_table, run_example
from tensegrity_id.report.tables import write_table
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
summary = run_example(snakemake.params.settings, log=log)
write_json(snakemake.output.json, summary, provenance=job_provenance(snakemake))
df = example_table(summary, pd.read_csv(snakemake.input.published))
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Spring-rod example of Wang, Aanjaneya and Bekris (K = 100 N/m, c = 10 N s/m, M = 10 kg)",
)
