"""How short a physics-informed run may be: the X1 taut record trained for a given length, over seeds.

Run on demand, on one core::

    python tests/benchmarks/bench_pinn_steps.py --steps 6000 --seeds 0,1,2

Trains the seeds as one batch (compiled step where a C++ compiler exists)
on the X1 taut record of the seed's protocol (10 N at 1 Hz, node 1 sensed,
2 % noise, each seed its own noise realisation) and prints per seed the
largest and mean force-density error over the identifiable cables (the
inert base cable, which receives no gradient, left out) and the damper
error.  Writes ``results/benchmarks/pinn_steps_{steps}.json``.  The README
("Configurations") quotes the 6 000-step figures: the reason the default
config keeps 12 000 steps rather than shortening every run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from _common import write, x1_record  # noqa: E402
from bench_pinn import noisy  # noqa: E402
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer  # noqa: E402

INERT = 0  # the X1 base cable: both ends supported


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--amplitude", type=float, default=10.0, help="N (40 gives the slack record)")
    ap.add_argument("--fourier", default="geometric", help="Fourier frequency spacing (PINNSettings.fourier)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    seeds = [int(x) for x in args.seeds.split(",")]
    s, rd, _ = x1_record(args.amplitude)
    t0 = time.perf_counter()
    tr = PINNTrainer(
        s,
        noisy(rd, seeds),
        PINNSettings(steps=args.steps, log_every=0, compile=True, fourier=args.fourier),
        seeds=seeds,
        lambda0=s.bar_sigma,
    )
    out = []
    for k, p in zip(seeds, tr.train(), strict=True):
        err = np.delete(np.abs(p["sigma"] / s.sigma - 1.0) * 100.0, INERT)
        row = {"seed": k, "sigma_max_pct": float(err.max()), "sigma_mean_pct": float(err.mean())}
        row["c_pct"] = float(abs(p["c"] - 1.0) * 100.0)
        print(
            f"steps {args.steps} seed {k}: "
            + ", ".join(f"{a} {b:.2f}" for a, b in row.items() if a != "seed")
        )
        out.append(row)
    wall = time.perf_counter() - t0
    print(f"{len(seeds)} seeds as one batch in {wall:.0f} s")
    write(
        f"pinn_steps_{args.steps}" + ("" if args.fourier == "geometric" else f"_{args.fourier}"),
        {
            "steps": args.steps,
            "amplitude": args.amplitude,
            "fourier": args.fourier,
            "runs": out,
            "wall_s": wall,
        },
    )


if __name__ == "__main__":
    main()
