"""Speed of the finite-difference Fisher analysis of the X1 taut record (2 workers, median of 3).

``python tests/benchmarks/bench_fisher.py`` writes ``results/benchmarks/fisher_speed.json``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import summary, timed, write, x1_record  # noqa: E402
from tensegrity_id.analysis.identifiability import acceleration_sensitivities, fisher_information  # noqa: E402


def main():
    s, rd, f = x1_record()

    def run():
        S, _, _ = acceleration_sensitivities(s, f, rd.sensors["channels"], workers=2)
        fisher_information(S, rd.sensors["noise_std"])

    t = timed(run, 3)
    print(f"X1 Fisher analysis: median {statistics.median(t):.2f} s")
    print(f"wrote {write('fisher_speed', summary(t))}")


if __name__ == "__main__":
    main()
