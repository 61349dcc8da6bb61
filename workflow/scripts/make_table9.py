"""Table 9: assessment errors when identified force densities replace the exact ones (rule make_table9).

Outputs ``results/tables/table9.csv`` and ``.md``: per identification run the
method, structure, record, the largest force-density error over all cables
(``sigma_max_all_pct``, %, the paper's convention) and over the identifiable
cables only (``sigma_max_identifiable_pct``, %), the margin
``lambda_min(K_t)`` with exact and identified force densities (N/m) and its
relative error (%), the error of the largest cable utilisation ``U_c`` (%),
and the class with both; the Markdown note says which cables each error
column counts.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.analysis import error_propagation
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.study_tables import TABLE9_NOTE, table9
from tensegrity_id.report.tables import write_table
from tensegrity_id.results.identification import IdentificationResult

log = setup_log(snakemake.log[0])
structures = {}
for p in snakemake.input.structures:
    st = structure_from_report(read_json(p))
    structures[st.name] = st
results = [IdentificationResult.load(p) for p in snakemake.input.results]
assessed = [error_propagation(structures[res.structure], res) for res in results]
df = table9(assessed, results)
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Table 9: assessment errors from identified force densities",
    note=TABLE9_NOTE,
)
