"""How short a physics-informed run may be: the X1 taut record trained for a given length, over seeds.

Run on demand, on one core::

    python tests/benchmarks/bench_pinn_steps.py --steps 6000 --seeds 0,1,2

Trains the seeds as one batch (compiled step where a C++ compiler exists)
on the X1 taut record of the paper's protocol (10 N at 1 Hz, node 1 sensed,
2 % noise, each seed its own noise realisation) and prints per seed the
largest and mean force-density error over the identifiable cables (the
inert base cable, which receives no gradient, left out) the damper
error, the held-out ratio (held-out over training mean squared misfit of the
sensor accelerations) and the training misfit over the noise variance (below
1: the network fits the noise).  ``--amplitude 40`` gives the slack record;
``--fourier`` and ``--init`` select the readings of the paper's network.
Writes ``results/benchmarks/pinn_steps_{steps}[_{fourier}][_{init}][_slack].json``.
docs/configuration.md ("The default study against the paper's grid") quotes
the 6 000-step figures: the reason the default config keeps 12 000 steps
rather than shortening every run.
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
from tensegrity_id.identify.scoring import held_out_ratio  # noqa: E402

INERT = 0  # the X1 base cable: both ends supported


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--amplitude", type=float, default=10.0, help="N (40 gives the slack record)")
    ap.add_argument("--fourier", default="geometric", help="Fourier frequency spacing (PINNSettings.fourier)")
    ap.add_argument("--init", default="torch", help="trunk initialisation (PINNSettings.init)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    seeds = [int(x) for x in args.seeds.split(",")]
    s, rd, _ = x1_record(args.amplitude)
    t0 = time.perf_counter()
    recs = noisy(rd, seeds)
    tr = PINNTrainer(
        s,
        recs,
        PINNSettings(steps=args.steps, log_every=0, compile=True, fourier=args.fourier, init=args.init),
        seeds=seeds,
        lambda0=s.bar_sigma,
    )
    out = []
    params = tr.train()
    predicted = tr.predict(0)
    for m, (k, p) in enumerate(zip(seeds, params, strict=True)):
        err = np.delete(np.abs(p["sigma"] / s.sigma - 1.0) * 100.0, INERT)
        row = {"seed": k, "sigma_max_pct": float(err.max()), "sigma_mean_pct": float(err.mean())}
        row["c_pct"] = float(abs(p["c"] - 1.0) * 100.0)
        sens, a = recs[m][0].sensors, predicted[m]["a"]
        row["held_out_ratio"] = held_out_ratio(sens, a)
        train = sens["keep"] & sens["train"]
        row["train_mse_over_noise_var"] = float(
            ((a - sens["noisy"]) ** 2)[train].mean() / np.mean(np.asarray(sens["noise_std"]) ** 2)
        )
        print(
            f"steps {args.steps} seed {k}: "
            + ", ".join(f"{a} {b:.2f}" for a, b in row.items() if a != "seed")
        )
        out.append(row)
    wall = time.perf_counter() - t0
    print(f"{len(seeds)} seeds as one batch in {wall:.0f} s")
    name = f"pinn_steps_{args.steps}" + ("" if args.fourier == "geometric" else f"_{args.fourier}")
    name += ("" if args.init == "torch" else f"_{args.init}") + ("_slack" if args.amplitude > 20 else "")
    write(
        name,
        {
            "steps": args.steps,
            "amplitude": args.amplitude,
            "fourier": args.fourier,
            "init": args.init,
            "runs": out,
            "wall_s": wall,
        },
    )


if __name__ == "__main__":
    main()
