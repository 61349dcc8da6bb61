"""Speed of the forward simulator (one core): X1 taut and slack, X5 bridge slack records.

``python tests/benchmarks/bench_simulate.py`` prints medians of 5 runs and writes
``results/benchmarks/simulate_speed.json``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import X1, summary, timed, write  # noqa: E402
from tensegrity_id import build_structure  # noqa: E402
from tensegrity_id.data.records import forcing_from_spec  # noqa: E402
from tensegrity_id.mechanics.dynamics import Dynamics  # noqa: E402
from tensegrity_id.mechanics.simulate import simulate  # noqa: E402

BRIDGE = {"generator": "x5_bridge", "prestress": {"method": "lp", "sigma_min": 25.0}}
CASES = {
    "x1_taut": (X1, {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 10.0, "frequency": 1.0}),
    "x1_slack": (X1, {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 40.0, "frequency": 1.0}),
    "x5_bridge_slack": (
        BRIDGE,
        {
            "forcing": "multi_harmonic",
            "drive": [[5, 1], [7, 1], [9, 1], [11, 0]],
            "amplitudes": [250.0, 200.0, 150.0, 125.0],
            "frequencies": [1.0, 1.7, 1.3, 2.1],
        },
    ),
}


def main():
    res = {}
    for name, (spec, fspec) in CASES.items():
        s = build_structure(name, spec)
        dyn, f = Dynamics(s), forcing_from_spec(s, fspec)
        n = simulate(dyn, f).n_transitions
        t = timed(lambda dyn=dyn, f=f: simulate(dyn, f), 5)
        res[name] = {**summary(t), "transitions": n}
        print(f"{name}: median {statistics.median(t):.3f} s ({n} transitions)")
    print(f"wrote {write('simulate_speed', res)}")


if __name__ == "__main__":
    main()
