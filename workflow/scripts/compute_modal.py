"""Small-oscillation frequencies of one structure (rule compute_modal).

Output ``results/modal/{structure}.json``: ``frequencies_hz`` (ascending, the
constrained linearisation about the prestressed equilibrium, Hz),
``frequencies_truss_hz`` (the independently assembled prestressed truss with
very stiff elastic bars, classical limit, Hz), ``max_rel_difference`` and
``geometric_fraction`` per mode (phi^T K_g phi / phi^T H phi = d ln w^2 /
d ln prestress scale, the paper's Eq. 10-11; 1 for a pure mechanism mode).
"""

import numpy as np
from tensegrity_id import structure_from_report
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.modal import geometric_fractions, truss_limit_frequencies
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
structure = structure_from_report(read_json(snakemake.input.structure))
f, frac = geometric_fractions(Dynamics(structure))
ft = truss_limit_frequencies(structure, n_lowest=len(f))
elastic = np.abs(f) > 1e-6 * np.abs(f).max()  # rigid-body modes of free-free forms excluded
diff = float(np.max(np.abs(ft - f)[elastic] / np.abs(f)[elastic]))
log.info("constrained %s Hz; truss limit differs by %.2e relative", np.round(f, 5).tolist(), diff)
write_json(
    snakemake.output.json,
    {
        "structure": structure.name,
        "frequencies_hz": f.tolist(),
        "frequencies_truss_hz": ft.tolist(),
        "max_rel_difference": diff,
        "geometric_fraction": [None if np.isnan(v) else float(v) for v in frac],
    },
    provenance=job_provenance(snakemake),
)
