"""Counts part of Table S3 (rule make_table_s3).

Outputs ``results/tables/table_s3.csv`` and ``.md`` with columns
``structure, free, members, rank_A, s, m`` (counts, dimensionless): free
coordinates, members, rank of the equilibrium matrix (relative tolerance
1e-6), self-stress states and mechanisms.  The resolvable, class and
lambda_min columns are added by later stages.
"""

from tensegrity_id.runio import read_json, setup_log
from tensegrity_id.tables import table_s3, write_table

log = setup_log(snakemake.log[0])  # noqa: F821
reports = [read_json(p) for p in snakemake.input.structures]  # noqa: F821
df = table_s3(reports)
log.info("\n%s", df.to_string(index=False))
write_table(df, snakemake.output.csv, snakemake.output.md, title="Table S3 (counts)")  # noqa: F821
