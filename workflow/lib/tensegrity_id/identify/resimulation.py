"""Re-simulation of an identified model with the verified forward solver (§4.3).

The identified parameters are simulated from rest in the reference
configuration ``q0`` under the known forcing (times the identified force
factors, where fitted): :func:`simulate_identified` for the scoring's
``resimulation_pct`` (:func:`resimulate`) and ``resimulation_chi2``, and
:func:`simulated_prediction` for the sensor predictions of the methods whose
estimate is a parameter vector only (shooting, filters).  Definitions:
:mod:`tensegrity_id.identify.scoring`.  Uses :mod:`.force_scale` and
:mod:`.fit_metrics` only (never :mod:`.scoring` or :mod:`.base`).
"""

from __future__ import annotations

import logging

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.simulate import SimulationError, simulate_from_rest
from .fit_metrics import unmeasured_coordinates
from .force_scale import split_force_scale, with_force_scale

log = logging.getLogger(__name__)

__all__ = ["simulate_identified", "resimulate", "resimulation_chi2", "simulated_prediction"]


def simulate_identified(structure, forcing, identified: dict, t, sim: dict):
    """The identified model re-simulated from rest in ``q0`` under the known forcing on times ``t``.

    Returns the :class:`~tensegrity_id.mechanics.simulate.Record`, or the
    failure's reason (a string) when the simulation fails.
    """
    sig = np.asarray(identified["sigma"], dtype=float)
    sig = np.where(np.isfinite(sig), sig, structure.sigma)  # undetermined cables: no force on free coords
    kwargs = {"sigma": sig, "c": identified["c"]}
    if identified.get("EA") is not None:
        kwargs["EA"] = identified["EA"]
    t = np.asarray(t, float)
    sim = {
        "t_end": float(t[-1]),
        "dt_out": float(t[1] - t[0]),
        **{k: v for k, v in sim.items() if k != "max_nfev"},
    }
    try:
        return simulate_from_rest(Dynamics(structure, **kwargs), forcing, **sim)
    except SimulationError as exc:
        return str(exc)
    except np.linalg.LinAlgError as exc:  # a singular constraint system at non-physical parameters
        return f"linear algebra failed ({exc})"


def resimulate(
    structure, forcing, identified: dict, states: dict, channels, sim: dict, rec_sim=None
) -> dict | None:
    """Re-simulate with the identified parameters; compare an unmeasured acceleration.

    Returns ``{"pct", "coord", "t", "true", "resim"}`` or ``None`` when no
    truth or no unmeasured coordinate exists; a failed simulation gives
    ``pct = None`` with its reason.  ``rec_sim``: the re-simulation, when
    already run (:func:`simulate_identified`).
    """
    if states is None:
        return None
    cols = unmeasured_coordinates(structure, channels)
    if cols.size == 0:
        return None
    rms = np.sqrt(np.mean(states["qdd"][:, cols] ** 2, axis=0))
    coord = int(cols[int(np.argmax(rms))])
    t = states["t"]
    rec = simulate_identified(structure, forcing, identified, t, sim) if rec_sim is None else rec_sim
    if isinstance(rec, str):
        return {"pct": None, "coord": coord, "reason": rec}
    true = states["qdd"][:, coord]
    err = rec.qdd[:, coord] - true
    return {
        "pct": float(100.0 * np.sqrt(np.mean(err**2)) / np.sqrt(np.mean(true**2))),
        "coord": coord,
        "t": t,
        "true": true,
        "resim": rec.qdd[:, coord],
    }


def resimulation_chi2(sensors: dict, rec_sim) -> float | None:
    """Misfit of the re-simulated identified model on the measured channels, in noise variances.

    ``mean(((a_sim - a_meas) / s_n)^2)`` over the kept samples (training and
    held-out) and channels with a nonzero noise level: about 1 when the
    identified model explains the record to the noise floor, and needs no
    exact parameters (the paper §4.3 leaves silent failures undetectable without
    them; this is one of the signals offered here).  ``None`` without sensor
    data, ``inf`` when the re-simulation failed.
    """
    if not sensors or rec_sim is None:
        return None
    if isinstance(rec_sim, str):
        return float("inf")
    std = np.asarray(sensors["noise_std"], float)
    live = std > 0
    if not live.any():
        return None
    keep = np.asarray(sensors["keep"], bool)
    a = rec_sim.qdd[:, np.asarray(sensors["channels"], int)]
    r = (a[keep][:, live] - np.asarray(sensors["noisy"], float)[keep][:, live]) / std[live]
    return float(np.mean(r**2))


def simulated_prediction(structure, records, sigma, c, sim: dict, force_scale=None) -> list:
    """Sensor predictions of a parameter estimate by forward simulation, per record.

    For methods whose estimate is a parameter vector only (shooting, filters):
    ``[{"q", "qdd", "a"} or None (simulation failed), ...]`` on the records'
    sensor times, for the held-out and reconstruction metrics.
    ``force_scale``: identified force factors (flat, :func:`split_force_scale`).
    """
    sim = {k: v for k, v in sim.items() if k != "max_nfev"}
    out = []
    for r, fs in zip(records, split_force_scale(records, force_scale), strict=True):
        t = np.asarray(r.sensors["t"], float)
        kw = {**sim, "t_end": float(t[-1]), "dt_out": float(t[1] - t[0])}
        try:
            rec = simulate_from_rest(
                Dynamics(structure, sigma=np.asarray(sigma, float), c=float(c)),
                with_force_scale(r.forcing, fs),
                **kw,
            )
        except (SimulationError, np.linalg.LinAlgError) as exc:
            log.info("prediction failed: %s", exc)
            out.append(None)
            continue
        out.append({"q": rec.q, "qdd": rec.qdd, "a": rec.qdd[:, np.asarray(r.sensors["channels"], int)]})
    return out
