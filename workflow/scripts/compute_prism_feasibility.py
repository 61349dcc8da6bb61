"""Twist range of the gravity-loaded triplex prism (rule compute_prism_feasibility).

Output ``results/values/prism_twist_range.json``: ``twist_min_deg`` and
``twist_max_deg`` (degrees) of the interval in which the LP finds a prestress
with every cable force density >= ``sigma_min`` (N/m) and all bars in
compression, plus the scan (``scan_deg``, ``scan_feasible``).  The paper's §2.3:
from just above 30 deg to about 58 deg.
"""

from tensegrity_id import prism_twist_range
from tensegrity_id.data.runio import setup_log, write_json
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
p = snakemake.params.settings
log.info("scanning gravity prism twist with %s", p)
result = prism_twist_range(
    sigma_min=p["sigma_min"], step=p["step_deg"], radius=p["radius"], height=p["height"]
)
result.update({"radius": p["radius"], "height": p["height"]})
log.info("feasible twist: %.3f .. %.3f deg", result["twist_min_deg"], result["twist_max_deg"])
write_json(snakemake.output.json, result, provenance=job_provenance(snakemake))
