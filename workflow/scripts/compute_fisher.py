"""Fisher information and Cramér–Rao bounds of one record and protocol (rule compute_fisher).

Output ``results/fisher/{structure}/{record}/{protocol}.json``: parameter
``names`` and values ``theta`` (sigma in N/m, c in N s/m), ``J`` (Fisher
information), ``eigenvalues``/``eigenvectors``, ``near_null`` directions with
their members, ``null_members``, ``condition_identifiable``, ``crlb``
(absolute, parameter units) and ``crlb_relative``, ``sensitivity_norms``,
and the structural identifiability (``resolvable``, ``invisible``): a
FisherAnalysis record (tensegrity_id.results.fisher).
"""

import numpy as np
from tensegrity_id import structure_from_report
from tensegrity_id.analysis.identifiability import (
    acceleration_sensitivities,
    active_channels,
    first_order_identifiability,
    fisher_information,
    summarise_fisher,
)
from tensegrity_id.data.records import forcing_from_meta, record_structure
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.results.fisher import FisherAnalysis
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
p, sim = snakemake.params.fisher, snakemake.params.sim
meta = read_json(snakemake.input.record)
structure = record_structure(structure_from_report(read_json(snakemake.input.structure)), meta["spec"])
sensors = np.load(snakemake.input.sensors)
theta = tuple(p["theta"])
log.info(
    "sensitivities of %s/%s (%d channels) to %s, %d perturbed runs on %d workers",
    structure.name,
    snakemake.wildcards.record,
    sensors["channels"].size,
    theta,
    2 * (structure.n_cables * theta.count("sigma") + theta.count("c")),
    snakemake.threads,
)
S, theta0, names = acceleration_sensitivities(
    structure,
    forcing_from_meta(meta),
    sensors["channels"],
    theta=theta,
    rel_step=p["rel_step"],
    floor=p["floor"],
    workers=snakemake.threads,
    **sim,
)
J = fisher_information(S, sensors["noise_std"])
act = active_channels(sensors["noise_std"])
out = FisherAnalysis.of(
    summarise_fisher(J, theta0, names, null_tol=p["null_tol"]),
    structural=first_order_identifiability(structure),
    channels=sensors["channels"].tolist(),
    active_channels=sensors["channels"][act].tolist(),
)
if not act.all():
    log.info("channels without signal left out: %s", sensors["channels"][~act].tolist())
log.info(
    "null members %s; condition %.4g; worst relative CRLB %.4g",
    out.null_members,
    out.condition_identifiable,
    max(out.crlb_relative.values()),
)
out.write(snakemake.output.json, provenance=job_provenance(snakemake))
