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
from ..mechanics.statics import support_reactions
from .base import C0, SIGMA0, IdentificationProblem, RecordData

__all__ = ["load_problem", "load_sensors"]


def load_sensors(path) -> dict:
    """The arrays of a sensor-data file as a dict."""
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def _as_list(paths) -> list:
    return [paths] if isinstance(paths, str | Path) else list(paths)


def _force_scale(spec, forcing, name) -> np.ndarray:
    """One factor per driven coordinate of ``forcing`` from a number, a list or ``{coordinate: factor}``."""
    coords = list(forcing.coords)
    if isinstance(spec, dict):
        unknown = sorted(set(int(k) for k in spec) - set(coords))
        if unknown:
            raise ValueError(
                f"record '{name}': force_scale names coordinate {unknown[0]}, not driven ({coords})"
            )
        return np.array([float(spec.get(c, spec.get(str(c), 1.0))) for c in coords])
    f = np.atleast_1d(np.asarray(spec, float))
    if f.size not in (1, len(coords)):
        raise ValueError(
            f"record '{name}': force_scale has {f.size} factors for {len(coords)} driven coordinates"
        )
    return np.broadcast_to(f, (len(coords),)).copy()


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
    true_force_scale=None,
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
        Training seed; also selects the noise realisation (drawn when loaded, for
        every seed: :func:`tensegrity_id.data.sensors.noise_realization`).
    noise_seed : int
        The protocol's noise seed.
    true_force_scale : float, list or dict, optional
        A miscalibrated force record (a study on simulated records): the
        force applied is the recorded one times this factor (one number, one
        per driven coordinate, or ``{coordinate: factor}``); the methods see
        the recorded force, the applied one divided by the factor, and
        ``truth["force_scale"]`` holds the factors (what ``force_scale: fit``
        should find).

    A measured record (metadata ``measured``) has no simulated states and
    no exact parameters: ``truth`` is ``None``, the states are ``None``, and
    the simulation settings take the record's length and sample step.
    """
    base = structure_from_report(read_json(structure_json))
    structure, records, measured, true_scale = None, [], [], []
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
        measured.append(bool(meta.get("measured")))
        forcing = forcing_from_meta(meta, rec)
        if true_force_scale is not None:
            factors = _force_scale(true_force_scale, forcing, name)
            true_scale.extend(factors.tolist())
            forcing = forcing.scaled(1.0 / factors)
        n_tr = meta["checks"].get("n_transitions")
        records.append(
            RecordData(
                name=name,
                forcing=forcing,
                sensors=sensors,
                states=None if "q" not in rec else {k: rec[k] for k in ("t", "q", "qd", "qdd", "taut")},
                n_transitions=0 if n_tr is None else int(n_tr),
            )
        )
    sim = dict(sim or {})
    if any(measured):  # a measured record sets its own length and sample step
        if len({float(r.sensors["t"][-1]) for r in records if r.sensors}) > 1:
            raise ValueError(f"records pooled with a measured record must have one length ({names})")
        t = (records[0].sensors or {}).get("t")
        if t is not None:
            sim.update(t_end=float(t[-1]), dt_out=float(t[1] - t[0]))
    truth = None
    if not any(measured):
        truth = {
            "sigma": structure.sigma,
            "c": float(np.mean(structure.cable_damping)),
            "EA": float(np.mean(structure.cable_EA)),
        }
        if true_scale:
            truth["force_scale"] = true_scale
    return IdentificationProblem(
        structure=structure,
        records=records,
        truth=truth,
        sigma0=sigma0,
        c0=c0,
        lambda0=structure.bar_sigma,
        reactions0=support_reactions(structure, structure.sigma, structure.bar_sigma),
        seed=int(seed),
        sim=sim,
        outcome_rule=dict(outcome_rule or {}),
    )
