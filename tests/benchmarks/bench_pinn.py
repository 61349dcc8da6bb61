"""Speed of the physics-informed identification on the X1 taut record (issue target: 25 000 steps <= 280 s).

Run on demand on one core::

    python tests/benchmarks/bench_pinn.py            # per-step medians, extrapolated to 25 000 steps
    python tests/benchmarks/bench_pinn.py --full 3   # also three complete 25 000-step runs

Measures the one-pass (forward-mode Taylor) training step and the naive step
that loops ``torch.autograd.grad`` over the displacement outputs (two reverse
passes per output), in the training dtype (float32) and in float64, and
reports medians and their ratio.  Writes
``results/benchmarks/pinn_speed.{json,png}``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from _common import OUT, summary, timed, write, x1_record  # noqa: E402
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer  # noqa: E402
from tensegrity_id.identify.pinn.net import derivatives_autograd  # noqa: E402

STEPS = 25_000


def trainer(rd, s, dtype):
    return PINNTrainer(
        s, [rd], PINNSettings(steps=STEPS, log_every=0, dtype=dtype), seed=0, lambda0=s.bar_sigma
    )


def naive(tr):
    """Replace the one-pass forward by the autograd loop (same outputs, same loss)."""
    net = tr.net

    def forward(tau, desc=None):
        d0, d1, d2 = derivatives_autograd(net, tau, desc)
        h = net.trunk_value(tau, desc)
        return d0, d1, d2, net.multipliers(h), None

    net.forward = forward
    return tr


def per_step(tr, n: int, repeats: int) -> list[float]:
    def chunk():
        tr.train(until=tr.step + n)

    tr.train(until=20)  # warm-up
    return [t / n for t in timed(chunk, repeats)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000, help="steps per timed chunk")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--full", type=int, default=0, help="complete 25 000-step runs to time")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    s, rd, _ = x1_record()
    res = {"threads": 1, "steps_target": STEPS, "target_s": 280.0}
    for dtype in ("float32", "float64"):
        one = per_step(trainer(rd, s, dtype), args.steps, args.repeats)
        slow = per_step(naive(trainer(rd, s, dtype)), max(args.steps // 10, 50), max(args.repeats // 2, 2))
        res[dtype] = {
            "one_pass_step_s": summary(one),
            "naive_step_s": summary(slow),
            "ratio_naive_over_one_pass": statistics.median(slow) / statistics.median(one),
            "extrapolated_25k_s": statistics.median(one) * STEPS,
        }
        print(
            f"{dtype}: one-pass {1e3 * statistics.median(one):.2f} ms/step "
            f"(25k steps ~ {statistics.median(one) * STEPS:.0f} s), "
            f"naive {1e3 * statistics.median(slow):.2f} ms/step, "
            f"ratio {res[dtype]['ratio_naive_over_one_pass']:.1f}"
        )
    if args.full:
        walls = []
        for _ in range(args.full):
            tr = trainer(rd, s, "float32")
            t0 = time.perf_counter()
            tr.train()
            walls.append(time.perf_counter() - t0)
        res["full_25k_s"] = summary(walls)
        print(f"full 25 000-step runs: median {statistics.median(walls):.0f} s over {len(walls)}")
    path = write("pinn_speed", res)
    plot(res)
    print(f"wrote {path}")


def plot(res):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    labels, vals = [], []
    for dtype in ("float32", "float64"):
        labels += [f"one-pass\n{dtype}", f"naive\n{dtype}"]
        vals += [
            res[dtype]["one_pass_step_s"]["median"] * STEPS,
            res[dtype]["naive_step_s"]["median"] * STEPS,
        ]
    ax.bar(labels, vals, color=["C0", "C3", "C0", "C3"])
    ax.axhline(res["target_s"], color="k", ls="--", lw=1, label="target 280 s")
    if "full_25k_s" in res:
        ax.axhline(res["full_25k_s"]["median"], color="C2", lw=1, label="measured full run (float32)")
    ax.set_yscale("log")
    ax.set_ylabel("25 000 X1 steps, one core (s)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(OUT / "pinn_speed.png", dpi=150)


if __name__ == "__main__":
    main()
