"""Assembling an identification problem from the workflow's files.

The identification rules read a structure report, one or more stored
records (``results/records/...``) and their sensor data
(``results/sensors/...``); this module turns them into an
:class:`~tensegrity_id.identification.IdentificationProblem`, choosing the
noise realisation of the training seed.  The exact parameters go to
``truth`` (scoring only) and the bar force densities to ``lambda0`` (the
nominal multipliers of the physics-informed method's initialisation).
"""

from __future__ import annotations

import numpy as np

from .catalog import structure_from_report
from .identification import IdentificationProblem, RecordData
from .records import forcing_from_meta, load_record, record_structure
from .runio import read_json
from .sensors import noise_realization

__all__ = ["load_problem", "load_rule_problem", "load_sensors"]


def load_sensors(path) -> dict:
    """The arrays of a sensor-data file as a dict."""
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def load_problem(
    structure_json,
    record_npz: list,
    record_json: list,
    sensor_npz: list | None = None,
    *,
    seed: int = 0,
    noise_seed: int = 0,
    sim: dict | None = None,
    outcome_rule: dict | None = None,
    sigma0: float = 10.0,
    c0: float = 0.3,
) -> IdentificationProblem:
    """An identification problem over one or more records of one structure.

    Parameters
    ----------
    structure_json : path
        ``results/structures/{structure}.json``.
    record_npz, record_json : list of paths
        The records (arrays and metadata), in order.
    sensor_npz : list of paths, optional
        Their sensor data (one protocol); omitted for full-state methods.
    seed : int
        Training seed; also selects the noise realisation (seed 0: the stored one).
    noise_seed : int
        The protocol's noise seed.
    """
    base = structure_from_report(read_json(structure_json))
    structure, records = None, []
    sensor_npz = sensor_npz or [None] * len(record_npz)
    if not (len(record_npz) == len(record_json) == len(sensor_npz)):
        raise ValueError("one record file, one metadata file and one sensor file per record")
    for npz, js, sens in zip(record_npz, record_json, sensor_npz, strict=True):
        meta = read_json(js)
        st = record_structure(base, meta["spec"])
        if structure is None:
            structure = st
        elif st.digest() != structure.digest() or not np.allclose(st.sigma, structure.sigma):
            raise ValueError(
                f"records of '{base.name}' pooled in one identification must share the structure "
                f"and its prestress ('{meta.get('record', js)}' differs)"
            )
        rec = load_record(npz)
        sensors = {}
        if sens is not None:
            sensors = noise_realization(load_sensors(sens), seed, noise_seed)
        name = str(js).rsplit("/", 1)[-1].removesuffix(".json")
        records.append(
            RecordData(
                name=name,
                forcing=forcing_from_meta(meta),
                sensors=sensors,
                states={k: rec[k] for k in ("t", "q", "qd", "qdd", "taut")},
                n_transitions=int(meta["checks"]["n_transitions"]),
            )
        )
    return IdentificationProblem(
        structure=structure,
        records=records,
        truth={
            "sigma": structure.sigma,
            "c": float(np.mean(structure.cable_damping)),
            "EA": float(np.mean(structure.cable_EA)),
        },
        sigma0=sigma0,
        c0=c0,
        lambda0=structure.bar_sigma,
        seed=int(seed),
        sim=dict(sim or {}),
        outcome_rule=dict(outcome_rule or {}),
    )


def load_rule_problem(inp, par, seed) -> IdentificationProblem:
    """The problem of an identification rule: inputs ``structure, record_npz, record_json, sensors``
    (one file or a list each) and params ``noise_seed, sim, outcome, sigma0, c0``."""

    def as_list(v):
        return [v] if isinstance(v, str) else list(v)

    return load_problem(
        inp.structure,
        as_list(inp.record_npz),
        as_list(inp.record_json),
        as_list(inp.sensors),
        seed=int(seed),
        noise_seed=par.noise_seed,
        sim=par.sim,
        outcome_rule=par.outcome,
        sigma0=par.sigma0,
        c0=par.c0,
    )
