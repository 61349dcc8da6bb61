"""Measured-data validation summary (rule make_measured_validation; the paper §4.10-§4.12).

Outputs ``results/tables/measured_validation.{csv,md}``: one row per
reproduced number (section, quantity, here, paper, unit, basis), where
``basis`` names what a number rests on: the measured peaks, the rebuilt
model, the published law, the stand-in frequencies, or an assumption.
The rows and where each value comes from are listed in
``resources/published/measured_validation_rows.yaml`` (input ``rows``).
"""

import yaml
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.tables import write_table
from tensegrity_id.report.tables_measured import measured_validation_table

log = setup_log(snakemake.log[0])
inp, out = snakemake.input, snakemake.output
with open(inp.published) as fh:
    paper = yaml.safe_load(fh)
df = measured_validation_table(
    read_json(inp.hexprism),
    read_json(inp.model),
    read_json(inp.extraction),
    read_json(inp.prestress),
    read_json(inp.damping),
    paper,
    rows=inp.rows,
)
log.info("%d rows", len(df))
write_table(
    df, out.csv, out.md, title="Measured-data validation (the paper §4.10-§4.12): reproduced beside the paper"
)
