"""Table S2 of the paper: the study's parameters as this config sets them (rule make_tableS2).

Outputs ``results/tables/tableS2.{csv,md}``: columns ``group``,
``parameter``, ``value`` (with units) and ``source`` (the config key,
structure file, library constant or the physics-informed run whose
settings it states: the network and optimisation rows are read from the
``options`` of a base-settings run's result where the config has one).
"""

from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.study_tables import table_s2
from tensegrity_id.report.tables import write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
hexprism, run = snakemake.input.get("hexprism"), snakemake.input.get("run")
df = table_s2(
    snakemake.params.config,
    read_json(snakemake.input.benchmark),
    read_json(hexprism) if hexprism else None,
    run=(run, IdentificationResult.load(run).options) if run else None,
)
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Table S2: simulation, sensing and training parameters",
)
