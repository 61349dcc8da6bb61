"""Verification table (rule make_table2).

Outputs ``results/tables/table2.csv`` and ``.md``: columns ``check`` (text),
``level`` (the measured worst value, units in the check's text),
``paper_level`` (the paper's reported value) and ``scope``.  Rows: the
physics residual against the simulator's state derivatives (slack included),
at the exact parameters on the records, and the smoothed law's peak bias
(from ``results/values/residual_checks.json``); simulator against
classical-limit truss frequencies; the Cartesian simulator against the
independent quaternion model (state derivatives and node positions, from
``results/values/quaternion_crosscheck.json``); bar-length drift (m) and relative
energy-balance error along every record.  Later stages add their rows.
"""

from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.tables import table2, write_table

log = setup_log(snakemake.log[0])
modal = [read_json(p) for p in snakemake.input.modal]
metas = []
for p, name in zip(snakemake.input.records, snakemake.params.records, strict=True):
    m = read_json(p)
    m["record"] = name
    metas.append(m)
residual = read_json(snakemake.input.residual)["summary"] if snakemake.input.get("residual") else None
cross = snakemake.input.get("crosscheck")
crosscheck = read_json(cross)["summary"] if cross else None
df = table2(modal, metas, residual, crosscheck)
log.info("\n%s", df.to_string(index=False))
write_table(df, snakemake.output.csv, snakemake.output.md, title="Table 2: verification checks")
