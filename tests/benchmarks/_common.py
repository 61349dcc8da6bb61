"""Shared helpers of the on-demand benchmarks: problems built from scratch, timing, output."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from tensegrity_id import build_structure
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.base import RecordData
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate

OUT = Path(__file__).resolve().parents[2] / "results" / "benchmarks"
X1 = {"generator": "xframe", "params": {"n_modules": 1}, "prestress": {"method": "lp", "sigma_min": 25.0}}


def x1_record(amplitude: float = 10.0, name: str = "taut_1pt"):
    """The X1 structure and a record of the paper's protocol (1 Hz at node 1, sensors at node 1)."""
    s = build_structure("x1", X1)
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": amplitude, "frequency": 1.0}
    f = forcing_from_spec(s, spec)
    rec = simulate(Dynamics(s), f)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    sens = noise_realization(
        sensor_data(s, arrays, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}), 0
    )
    return s, RecordData(name, f, sens, arrays, rec.n_transitions), f


def timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def summary(samples: list[float]) -> dict:
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "n": len(samples)}


def write(name: str, payload: dict) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(payload, indent=1) + "\n")
    return path
