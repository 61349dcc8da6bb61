"""Table S3: counts and first-order identifiability (rule make_tableS3).

Outputs ``results/tables/tableS3.csv`` and ``.md`` with columns
``structure, free, members, rank_A, s, m`` (counts, dimensionless: free
coordinates, members, rank of the equilibrium matrix at relative tolerance
1e-6, self-stress states, mechanisms), ``resolvable`` (cables determined
at first order / cables), ``class`` and ``lambda_min`` (N/m, rigid bars,
results/assess/; a free-standing form's on the free coordinates of its
minimal grounding, with the grounding-invariant ``lambda_min_grounding_free``
beside it), ``connelly`` and ``nullity_Omega``
(Connelly's full super-stability condition and the stress matrix's
nullity) with the published ``paper_class`` and ``paper_lambda_min``
alongside.  Also writes ``results/values/tableS3_resolvable.json``
(totals: determined, cables, invisible, combinations).
"""

import pandas as pd
from tensegrity_id import structure_from_report
from tensegrity_id.analysis.identifiability import first_order_identifiability
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.report.tables import table_s3, write_table
from tensegrity_id.results.assessment import StructureAssessment
from tensegrity_id.results.fisher import IdentifiabilityTotals
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
reports = [read_json(p) for p in snakemake.input.structures]
ident = [first_order_identifiability(structure_from_report(r)) for r in reports]
assessments = [StructureAssessment.load(p) for p in snakemake.input.assess]
df = table_s3(reports, ident, assessments, pd.read_csv(snakemake.input.published))
totals = IdentifiabilityTotals.of(ident).to_json()
log.info("first-order identifiability totals: %s", totals)
write_json(snakemake.output.totals, totals, provenance=job_provenance(snakemake))
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,
    title="Table S3: counts, first-order identifiability and stability class",
)
