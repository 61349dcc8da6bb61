"""Full-state linear-regression identification (rule fit_regression; seed 001 baseline).

Output ``results/identify/regression/{structure}/{record}/fullstate_seed{seed}.json``: the
identification result record of tensegrity_id.identification (identified
``sigma`` in N/m per cable, ``null`` where undetermined; ``c`` in N s/m;
relative ``errors`` (%) over identifiable cables, ``max_sigma_err``,
``c_err``, ``wall_s``, ``n_forward_simulations`` = 0, ``n_hyperparameters``),
plus the regression's iterations and RMS residual (N).
"""

from tensegrity_id import structure_from_report
from tensegrity_id.identification import IdentificationProblem, get_method
from tensegrity_id.records import forcing_from_meta, load_record, record_structure
from tensegrity_id.runio import read_json, setup_log, write_json

log = setup_log(snakemake.log[0])  # noqa: F821
meta = read_json(snakemake.input.record_json)  # noqa: F821
structure = record_structure(structure_from_report(read_json(snakemake.input.structure)), meta["spec"])  # noqa: F821
rec = load_record(snakemake.input.record)  # noqa: F821
problem = IdentificationProblem(
    structure=structure,
    forcing=forcing_from_meta(meta),
    sensors={},
    truth={"sigma": structure.sigma, "c": float(structure.cable_damping.mean())},
    states={k: rec[k] for k in ("t", "q", "qd", "qdd")},
    seed=int(snakemake.wildcards.seed),  # noqa: F821
)
result = get_method("regression").run(problem)
result.update(record=snakemake.wildcards.record, protocol="fullstate")  # noqa: F821
log.info(
    "max sigma error %.3g %%, c error %.3g %%, %d iterations, %.2f s",
    result["max_sigma_err"],
    result["c_err"],
    result["iterations"],
    result["wall_s"],
)
write_json(snakemake.output.json, result)  # noqa: F821
