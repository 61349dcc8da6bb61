"""Frequency extraction tested on simulated strikes of the rebuilt simplex (rule validate_simplex_extraction).

Outputs ``results/values/simplex_frequency_extraction.json`` (per level the
true rotational frequency of the model with its joint stiffness, the one
extracted by projection on the upper triangle's rotation and from one raw
channel, errors in %, the simulator's energy-balance error; the RMS and
worst errors) and ``results/values/simplex_strikes.npz`` (time, projected
and raw signals of the first and last simulated level, for Figure 10).
"""

import numpy as np
import yaml
from tensegrity_id.data.runio import atomic_path, setup_log, write_json
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.validation.simplex_study import extraction_study, hardware_from_measured

log = setup_log(snakemake.log[0])
par = snakemake.params
with open(snakemake.input.measured) as fh:
    measured = yaml.safe_load(fh)
summary, arrays = extraction_study(hardware_from_measured(measured, par.cable_EA), measured, dict(par.strike))
for row in summary["levels"]:
    log.info(
        "level %d: true %.4f Hz, projected %.4f Hz (%+.3f %%), one raw channel %.3f Hz (%+.1f %%)",
        row["level"],
        row["true_hz"],
        row["extracted_hz"],
        row["error_pct"],
        row["raw_channel_hz"],
        row["raw_channel_error_pct"],
    )
write_json(snakemake.output.json, summary, provenance=job_provenance(snakemake))
with atomic_path(snakemake.output.npz) as tmp:
    np.savez(tmp, **arrays)
