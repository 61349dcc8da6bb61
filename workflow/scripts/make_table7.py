"""Table 7 as a published reference (rule make_table7; the paper §4.11).

Outputs ``results/tables/table7.{csv,md}``: per spring case the rig-measured
knee rate (N/m), the identified knee scale and its error (%), as published,
with a status column: the leg's records are private and nothing here is
reproduced.
"""

import pandas as pd
from tensegrity_id.data.runio import setup_log
from tensegrity_id.report.tables import write_table
from tensegrity_id.report.tables_measured import TABLE7_NOTE, table7

log = setup_log(snakemake.log[0])
log.info(TABLE7_NOTE)
out = snakemake.output
write_table(
    table7(pd.read_csv(snakemake.input.published)),
    out.csv,
    out.md,
    title="Table 7 (published; not reproduced)",
    note=TABLE7_NOTE,
)
