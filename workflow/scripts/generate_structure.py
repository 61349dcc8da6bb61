"""Build one structure, attach its prestress and count it (rule generate_structure).

Output ``results/structures/{structure}.json``:

* ``structure``: the structure-file document (reloadable with
  ``tensegrity_id.load_structure``), coordinates in m, sigma in N/m;
* ``members``: per member ``kind, nodes, L_ref`` (m) and, for cables,
  ``EA`` (N), ``c`` (N s/m), ``sigma`` (N/m), ``tension`` (N), ``K`` (N/m),
  ``L0`` (m); for bars ``sigma`` (N/m), ``force`` (N), ``mass`` (kg);
* ``masses`` (kg), ``counts`` ``{n_free, n_members, rank_A, s, m}``,
  ``prestress`` (the config entry plus checks) and ``digest`` (SHA-256).
"""

from tensegrity_id import build_structure, counts, structure_report
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
name = snakemake.wildcards.structure
spec = snakemake.params.spec

log.info("building structure %s from %s", name, {k: v for k, v in spec.items() if k != "prestress"})
structure = build_structure(name, spec)
c = counts(structure)
log.info("%r: counts %s", structure, c.as_dict())
log.info("prestress %s: sigma = %s N/m", spec.get("prestress"), structure.sigma.round(4).tolist())
log.info("bar force densities = %s N/m", structure.bar_sigma.round(4).tolist())
write_json(
    snakemake.output.json,
    structure_report(structure, spec.get("prestress")),
    provenance=job_provenance(snakemake),
)
log.info("wrote %s", snakemake.output.json)
