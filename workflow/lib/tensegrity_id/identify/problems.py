"""Assembling an identification problem from the workflow's files.

The identification rules read a structure report, one or more stored
records (``results/records/...``) and their sensor data
(``results/sensors/...``); this module turns them into an
:class:`~tensegrity_id.identify.base.IdentificationProblem`, choosing the
noise realisation of the training seed.  The exact parameters go to
``truth`` (scoring only) and the bar force densities to ``lambda0`` (the
nominal multipliers of the physics-informed method's initialisation).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..data.records import forcing_from_meta, load_record, record_structure
from ..data.runio import read_json
from ..data.sensors import noise_realization
from ..mechanics.catalog import structure_from_report
from .base import C0, SIGMA0, IdentificationProblem, RecordData

__all__ = ["load_problem", "load_sensors"]


def load_sensors(path) -> dict:
    """The arrays of a sensor-data file as a dict."""
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def _as_list(paths) -> list:
    return [paths] if isinstance(paths, str | Path) else list(paths)


def load_problem(
    structure_json,
    record_npz,
    record_json,
    sensor_npz=None,
    *,
    names: list[str] | None = None,
    seed: int = 0,
    noise_seed: int = 0,
    sim: dict | None = None,
    outcome_rule: dict | None = None,
    sigma0: float = SIGMA0,
    c0: float = C0,
) -> IdentificationProblem:
    """An identification problem over one or more records of one structure.

    Parameters
    ----------
    structure_json : path
        ``results/structures/{structure}.json``.
    record_npz, record_json : path or list of paths
        The records (arrays and metadata), in order.
    sensor_npz : path or list of paths, optional
        Their sensor data (one protocol); omitted for full-state methods.
    names : list of str, optional
        The records' names (default: the metadata files' names without ``.json``).
    seed : int
        Training seed; also selects the noise realisation (seed 0: the stored one).
    noise_seed : int
        The protocol's noise seed.
    """
    base = structure_from_report(read_json(structure_json))
    structure, records = None, []
    record_npz, record_json = _as_list(record_npz), _as_list(record_json)
    sensor_npz = [None] * len(record_npz) if sensor_npz is None else _as_list(sensor_npz)
    names = [Path(js).stem for js in record_json] if names is None else list(names)
    if not (len(record_npz) == len(record_json) == len(sensor_npz) == len(names)):
        sens = ", one sensor file" if any(s is not None for s in sensor_npz) else ""
        raise ValueError(f"one record file, one metadata file{sens} and one name per record")
    for npz, js, sens, name in zip(record_npz, record_json, sensor_npz, names, strict=True):
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
