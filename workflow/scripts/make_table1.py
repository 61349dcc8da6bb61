"""Table 1 of the paper: the benchmark structures (rule make_table1).

Outputs ``results/tables/table1.{csv,md}``: columns ``structure``, ``label``,
``nodes``, ``bars``, ``cables``, ``mech_dofs`` (free coordinates less one
length constraint per bar), ``free_free``, ``prestress_source``, and the
the paper's row beside it (``paper_*``, from ``resources/published/table1.csv``).
"""

import pandas as pd
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.study_tables import table1
from tensegrity_id.report.tables import write_table

log = setup_log(snakemake.log[0])
p = snakemake.params
reports = [read_json(f) for f in snakemake.input.structures]
df = table1(reports, p.labels, p.levels)
paper = pd.read_csv(snakemake.input.published, dtype=str).drop(columns=["label"])
paper = paper.rename(columns={c: f"paper_{c}" for c in paper.columns if c != "structure"})
df = df.merge(paper, on="structure", how="left")
log.info("\n%s", df.to_string(index=False))
write_table(df, snakemake.output.csv, snakemake.output.md, title="Table 1: benchmark structures")
