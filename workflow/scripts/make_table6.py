"""Table 6: identification methods on a taut and a slack-transition record (rule make_table6).

Outputs ``results/tables/table6.csv`` and ``.md``: per method the largest
force-density error over identifiable cables and the damper error (%) on the
taut and on the slack-transition record, wall times (s, this machine), the
hyperparameter count (the paper's definition), the outcome labels and a note
(LM misfit and spurious flag, PF median effective sample size, PINN steps);
``paper_*`` columns give the published values (resources/published/table6.csv).
"""

import pandas as pd
from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.tables import table6, write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
kind = {par.records["taut"]: "taut", par.records["slack"]: "slack"}
runs = {}
for path in [*inp.pinn, *inp.baselines, *inp.regression]:
    res = IdentificationResult.load(path)
    key = "pinn" if res.method.startswith("pinn_") else res.method
    runs.setdefault(key, {})[kind[res.record]] = res
df = table6(runs, pd.read_csv(inp.published))
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Table 6: identification methods on the taut and the slack-transition record",
)
