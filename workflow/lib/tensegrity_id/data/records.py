"""Simulated records: specification, slackening threshold, storage.

A record specification (one entry of the config's ``records`` section) is::

    forcing: harmonic            # a class of tensegrity_id.mechanics.excitation
    drive: [[1, 1]]              # [node, axis] pairs of the driven coordinates
    amplitude: 10.0              # N (peak; RMS for 'noise'), or
    amplitude_factor: 0.5        # times the slackening threshold of this forcing, or
    transitions: 20              # the smallest amplitude giving this many taut-slack
    search: [1.0, 4.0]           #   transitions, searched in this range x the threshold
    frequency: 1.0               # Hz (harmonic)
    ...                          # further class parameters (see make_forcing)

Storage contract: ``results/records/{structure}/{record}.npz`` holds
``t, q, qd, qdd, lam, tension, taut, transition_times, transition_cables,
transition_to_taut, forcing, forcing_coords, E_T, E_Vg, E_Vs, W``; the sibling
``{record}.json`` holds the specification, the resolved forcing, the
structure digest, solver statistics and ``checks: {max_length_violation,
max_length_error_m, max_energy_error_rel, n_transitions}``.
"""

from __future__ import annotations

import logging

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.excitation import Forcing, make_forcing, sampled_forcing
from ..mechanics.simulate import Record, SimulationError, simulate
from .runio import write_json, write_npz

__all__ = [
    "drive_coords",
    "forcing_from_meta",
    "forcing_from_spec",
    "record_structure",
    "record_amplitude",
    "slackening_threshold",
    "amplitude_for_transitions",
    "resolve_amplitude",
    "save_record",
    "load_record",
]

log = logging.getLogger(__name__)
_AXES = {"x": 0, "y": 1, "z": 2}
_META = {
    "forcing",
    "drive",
    "amplitude",
    "amplitude_factor",
    "seed",
    "threshold",
    "prestress_scale",
    "transitions",
    "search",
    "amplitude_of",
    "generator",
}


def drive_coords(structure, drive) -> list[int]:
    """Global coordinate indices of ``[node, axis]`` pairs (axis 0/1/2 or x/y/z)."""
    out = []
    for node, axis in drive:
        a = _AXES.get(axis, axis) if isinstance(axis, str) else int(axis)
        if not 0 <= int(node) < structure.n_nodes or not 0 <= a < structure.dim:
            raise SimulationError(
                f"structure '{structure.name}': drive [{node}, {axis}] is not a coordinate of "
                f"{structure.n_nodes} nodes x {structure.dim} axes"
            )
        out.append(structure.dim * int(node) + a)
    return out


def forcing_from_spec(
    structure, spec: dict, *, amplitude: float | None = None, t_end: float = 5.0
) -> Forcing:
    """The forcing of a record specification (``amplitude`` overrides the spec's)."""
    coords = drive_coords(structure, spec["drive"])
    kind = spec["forcing"]
    params = {k: v for k, v in spec.items() if k not in _META}
    if kind == "multi_harmonic":
        amps = params.pop("amplitudes")
        if amplitude is not None:  # scale the set so its largest amplitude is `amplitude`
            amps = list(np.asarray(amps, float) * amplitude / np.max(np.abs(amps)))
        return make_forcing(kind, coords, amplitudes=amps, t_end=t_end, **params)
    amp = spec.get("amplitude") if amplitude is None else amplitude
    return make_forcing(kind, coords, amplitude=amp, t_end=t_end, seed=spec.get("seed"), **params)


def record_structure(structure, spec: dict):
    """The structure with its prestress multiplied by ``spec['prestress_scale']`` (default 1)."""
    k = float(spec.get("prestress_scale", 1.0))
    if k == 1.0:
        return structure
    if k <= 0:
        raise SimulationError(f"structure '{structure.name}': prestress_scale must be > 0")
    if structure.gravity != 0.0:
        raise SimulationError(
            f"structure '{structure.name}': prestress_scale keeps equilibrium only without gravity; "
            "define a separate structure with its own prestress (e.g. a higher sigma_min) instead"
        )
    return structure.with_prestress(structure.sigma * k, structure.bar_sigma * k, prestress_scale=k)


def reference_amplitude(forcing: dict) -> float:
    """The amplitude (N) of a recorded forcing's metadata, as a record spec gives it: a
    multi-harmonic forcing's largest amplitude (what :func:`forcing_from_spec` scales the set to)."""
    if "amplitudes" in forcing:
        return float(np.max(np.abs(forcing["amplitudes"])))
    return float(forcing["amplitude"])


def resolve_amplitude(dyn, spec: dict, threshold: dict | None = None, reference: dict | None = None, **sim):
    """The amplitude (N) of a record specification, however it is given.

    ``transitions: N`` searches the amplitude that gives N taut-slack
    transitions between ``search`` x threshold (:func:`amplitude_for_transitions`);
    ``amplitude_of`` takes the amplitude of the ``reference`` record's
    metadata (one excitation at several prestress levels); otherwise
    :func:`record_amplitude`.  Returns ``(amplitude, spec, search)``: the spec
    with ``amplitude_factor`` filled in where a threshold is known, and the
    search record (``None`` without a search).
    """
    spec, search = dict(spec), None
    if "transitions" in spec:
        lo, hi = (float(v) * float(threshold["threshold"]) for v in spec.get("search", [1.0, 4.0]))
        search = amplitude_for_transitions(dyn, spec, int(spec["transitions"]), p_lo=lo, p_hi=hi, **sim)
        amplitude = search["amplitude"]
        log.info(
            "amplitude %.5g N gives %d transitions (target %d; %d simulations)",
            amplitude,
            search["n_transitions"],
            search["target"],
            search["n_simulations"],
        )
    elif "amplitude_of" in spec:
        amplitude = reference_amplitude(reference["forcing"])
        log.info("amplitude %.5g N of record '%s'", amplitude, spec["amplitude_of"])
    else:
        return record_amplitude(spec, threshold), spec, None
    if threshold is not None:
        spec["amplitude_factor"] = amplitude / float(threshold["threshold"])
    return amplitude, spec, search


def record_amplitude(spec: dict, threshold: dict | None = None) -> float | None:
    """Amplitude of a record: given in N, or a factor times the slackening threshold."""
    if "amplitude_factor" in spec:
        if threshold is None:
            raise SimulationError(
                f"record with amplitude_factor needs its threshold '{spec.get('threshold')}'"
            )
        return float(spec["amplitude_factor"]) * float(threshold["threshold"])
    return None


def slackening_threshold(
    dyn: Dynamics, spec: dict, *, rel_tol: float = 0.01, p_start: float = 1.0, p_max: float = 1e4, **sim
) -> dict:
    """Smallest forcing amplitude at which the event tracker reports a slack cable.

    Bisection to ``rel_tol`` (1 %) on the amplitude of the forcing class and
    drive of ``spec``, all other parameters fixed.  Returns
    ``{"threshold", "taut_below", "n_simulations"}`` (N).
    """
    count = 0

    def slackens(p):
        nonlocal count
        count += 1
        rec = simulate(
            dyn, forcing_from_spec(dyn.structure, spec, amplitude=p, t_end=sim.get("t_end", 5.0)), **sim
        )
        log.info("threshold search: amplitude %.5g N -> %d transitions", p, rec.n_transitions)
        return rec.n_transitions > 0

    lo, hi = 0.0, p_start
    while not slackens(hi):
        lo, hi = hi, 2 * hi
        if hi > p_max:
            raise SimulationError(f"structure '{dyn.structure.name}': no slack cable below {p_max:g} N")
    while hi - lo > rel_tol * hi:
        mid = 0.5 * (lo + hi)
        if slackens(mid):
            hi = mid
        else:
            lo = mid
    return {"threshold": hi, "taut_below": lo, "n_simulations": count, "rel_tol": rel_tol}


def amplitude_for_transitions(
    dyn: Dynamics,
    spec: dict,
    target: int,
    *,
    p_lo: float,
    p_hi: float,
    n_scan: int = 32,
    n_bisect: int = 16,
    **sim,
) -> dict:
    """A forcing amplitude whose record has ``target`` taut-slack transitions.

    For records whose transition count the paper states but whose amplitude it
    does not.  The count is a step function of the amplitude and not
    monotonic (one more cable touching slack adds several transitions at
    once), so: the count is scanned on a geometric grid of ``n_scan``
    amplitudes in ``[p_lo, p_hi]`` (N) and the smallest amplitude with exactly
    ``target`` is taken; without one, the first bracket where the count
    passes ``target`` is bisected (at most ``n_bisect`` times, stopping at an
    exact count).  Where no amplitude gives the count, the one nearest to it
    (then the smallest) is returned.  Returns ``{"amplitude",
    "n_transitions", "target", "exact", "scan": [[p, count], ...],
    "n_simulations"}``.
    """
    t_end = sim.get("t_end", 5.0)
    seen: list[list[float]] = []

    def count(p: float) -> int:
        n = simulate(
            dyn, forcing_from_spec(dyn.structure, spec, amplitude=p, t_end=t_end), **sim
        ).n_transitions
        seen.append([float(p), int(n)])
        log.info("transition search: amplitude %.5g N -> %d transitions", p, n)
        return int(n)

    counts = [(float(p), count(p)) for p in np.geomspace(p_lo, p_hi, n_scan)]
    if all(n < target for _, n in counts):
        raise SimulationError(
            f"structure '{dyn.structure.name}': fewer than {target} transitions up to {p_hi:g} N "
            f"(most: {max(n for _, n in counts)}); raise the search range"
        )
    if not any(n == target for _, n in counts):
        k = next(i for i, (_, n) in enumerate(counts) if n >= target)
        if k > 0:
            lo, hi = counts[k - 1][0], counts[k][0]
            for _ in range(n_bisect):
                mid = 0.5 * (lo + hi)
                n = count(mid)
                if n == target:
                    break
                lo, hi = (mid, hi) if n < target else (lo, mid)
    best = min(seen, key=lambda pn: (abs(pn[1] - target), pn[0]))
    return {
        "amplitude": best[0],
        "n_transitions": int(best[1]),
        "target": int(target),
        "exact": bool(best[1] == target),
        "scan": seen,
        "n_simulations": len(seen),
    }


def save_record(
    rec: Record,
    dyn: Dynamics,
    npz_path,
    json_path,
    *,
    spec: dict,
    forcing: Forcing,
    extra: dict | None = None,
    provenance: dict | None = None,
) -> dict:
    """Write a record and its metadata (with ``extra`` keys, and ``provenance``: what made it,
    :mod:`tensegrity_id.results.provenance`, written first); returns the metadata (without it)."""
    write_npz(
        npz_path,
        t=rec.t,
        q=rec.q,
        qd=rec.qd,
        qdd=rec.qdd,
        lam=rec.lam,
        tension=rec.tension,
        taut=rec.taut,
        transition_times=rec.transition_times,
        transition_cables=rec.transition_cables,
        transition_to_taut=rec.transition_to_taut,
        forcing=rec.forcing,
        forcing_coords=np.array(forcing.coords, int),
        E_T=rec.energy["T"],
        E_Vg=rec.energy["Vg"],
        E_Vs=rec.energy["Vs"],
        W=rec.energy["W"],
        free=dyn.free,
    )
    meta = {
        "structure": dyn.structure.name,
        "structure_digest": dyn.structure.digest(),
        "spec": spec,
        "forcing": {"kind": forcing.kind, "coords": list(forcing.coords), **forcing.spec},
        "solver": rec.stats,
        "checks": rec.checks(dyn),
        "regime": "slack" if rec.n_transitions else "taut",
        "transitions": [
            {"t": float(t), "cable": int(k), "to_taut": bool(u)}
            for t, k, u in zip(
                rec.transition_times, rec.transition_cables, rec.transition_to_taut, strict=True
            )
        ],
        **(extra or {}),
    }
    write_json(json_path, meta, provenance=provenance)
    return meta


def forcing_from_meta(meta: dict, arrays: dict | None = None) -> Forcing:
    """Rebuild the exact forcing of a stored record from its metadata.

    A measured record's ``sampled`` forcing is rebuilt from the record's
    arrays (``t`` and ``forcing``, :func:`load_record`), checked against the
    digest stored in its metadata.
    """
    f = dict(meta["forcing"])
    kind, coords = f.pop("kind"), f.pop("coords")
    if kind == "sampled":
        if arrays is None or "forcing" not in arrays:
            raise ValueError(f"record '{meta.get('record')}': a sampled forcing needs the record's arrays")
        forcing = sampled_forcing(arrays["t"], coords, arrays["forcing"], source=f.get("source", ""))
        if forcing.spec["digest"] != f.get("digest"):
            raise ValueError(
                f"record '{meta.get('record')}': its force samples do not match the digest of its "
                "metadata (the .npz and .json are of different runs); rebuild the record"
            )
        return forcing
    if kind in ("earthquake", "noise"):
        return make_forcing(kind, coords, t_end=f.pop("t_end"), seed=f.pop("seed"), **f)
    return make_forcing(kind, coords, **f)


def load_record(npz_path) -> dict:
    """The arrays of a stored record as a dict."""
    with np.load(npz_path) as z:
        return {k: z[k] for k in z.files}
