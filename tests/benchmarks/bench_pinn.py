"""Speed of the physics-informed identification on the X1 taut record: the step, a full run, a batch of seeds.

Run on demand, on one core::

    python tests/benchmarks/bench_pinn.py                  # per-step medians of every step variant
    python tests/benchmarks/bench_pinn.py --full 3         # also three complete 25 000-step runs
    python tests/benchmarks/bench_pinn.py --seeds 8        # also 8 seeds as one batch against one seed

Step variants, timed in the same process in float32 (the training dtype):
``naive`` (the displacement derivatives by looping ``torch.autograd.grad``
over the outputs), ``eager`` (one-pass Taylor streams, eager PyTorch) and
``fast`` (the eager step compiled by ``torch.compile``; absent without a
C++ compiler), and the eager step in float64.  ``--seeds N`` times N seeds
trained as one batch and one seed alone, both complete runs of ``--batch-steps``
steps (the compile time included), and the ``torch.func.vmap`` formulation
of the same batch (stacked parameters through ``functional_call``) per step
against the batched matrix products the trainer uses.  It also states how
close each batch member ends to the same seed trained alone.

Targets: a 25 000-step run <= 90 s; N = 8 seeds as one batch <= 3x one seed;
and two ratios against the machine's own arithmetic, measured in the same run:

``step_over_floor``
    the fastest step over its arithmetic floor, the floating-point operations
    of its matrix products at the rate this core multiplies a product of the
    trunk's shape ([3 x 607, 64] x [64, 64], float32) in that run (target
    <= 1.5).  The rate is measured before, between and after the step timings
    and the highest is taken: a shared host's core sometimes multiplies at
    half its rate for a while, which would lower the floor;
``run_over_steps``
    a complete 25 000-step run (compile included) over 25 000 of its steps
    (target <= 1.15; needs ``--full``).

One step time serves both ratios.  With ``--full N`` it is the median over
the N complete runs of each run's steady step (its wall after step ``WARM``
over the steps after it), and ``run_over_steps`` is the median of each run's
wall over 25 000 of its own steady steps: the step that the floor is judged
on is the step the runs took, so the machine's rate drifting between a
separate step timing and the runs cannot move one ratio against the other.
Without ``--full`` the step is the median of the ``--repeats`` chunks of
``--steps`` steps (``step_source`` says which).  The chunk medians of every
variant are reported beside, for the variants' ratios.

With ``--seeds N`` the same two ratios for the batch of N seeds (its run of
``--batch-steps`` steps).  The compile cache is the workflow's
(``results/checkpoints/torchinductor``; :func:`use_cache_dir`), so a full run
after the first compiles from a warm cache as a workflow job does.

Writes ``results/benchmarks/pinn_speed.{json,png}`` and, with ``--seeds``,
``results/benchmarks/pinn_batched.{json,png}`` (keys ``n_seeds``, ``steps``,
``single_wall_s``, ``batched_wall_s``, ``ratio``, ...).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from _common import OUT, summary, timed, write, x1_record  # noqa: E402
from tensegrity_id.data.sensors import noise_realization  # noqa: E402
from tensegrity_id.identify.base import RecordData  # noqa: E402
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer  # noqa: E402
from tensegrity_id.identify.pinn.compile import cxx_compiler, use_cache_dir  # noqa: E402
from tensegrity_id.identify.pinn.net import derivatives_autograd  # noqa: E402
from tensegrity_id.identify.scoring import parameter_errors  # noqa: E402

STEPS = 25_000
TARGET_S = 90.0
TARGET_RATIO = 3.0
WARM = 20
"""Steps of a full run counted as its start (the compile happens at the first)."""
TARGET_STEP_OVER_FLOOR = 1.5
TARGET_RUN_OVER_STEPS = 1.15


def trainer(s, records, seeds, *, dtype="float32", compile=False, steps=STEPS):
    st = PINNSettings(steps=steps, log_every=0, dtype=dtype, compile=compile)
    return PINNTrainer(s, records, st, seeds=seeds, lambda0=s.bar_sigma)


def noisy(rd, seeds):
    return [
        [RecordData(rd.name, rd.forcing, noise_realization(rd.sensors, k), rd.states, rd.n_transitions)]
        for k in seeds
    ]


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

    tr.train(until=20)  # warm-up (and the compilation of a compiled step)
    return [t / n for t in timed(chunk, repeats)]


def step_flops(tr) -> float:
    """Floating-point operations of one step's trunk and head matrix products (all members)."""
    n = 3 * (tr.settings.n_colloc * len(tr.recs) + sum(r.tau_train.shape[0] for r in tr.recs))
    dims = [tr.net.n_in] + [tr.settings.width] * tr.settings.depth
    n_out = tr.net.n_free + tr.net.n_bars + tr.net.n_tension
    fwd = sum(a * b for a, b in zip(dims[:-1], dims[1:], strict=True)) + dims[-1] * n_out
    grad_w = fwd
    grad_a = fwd - dims[0] * dims[1]  # no gradient with respect to the fixed input features
    return 2.0 * n * (fwd + grad_w + grad_a) * tr.n_members


def gemm_rate() -> float:
    """This core's float32 rate (flop/s) on the trunk's product shape (3 x 607 points, width 64)."""
    A, W = torch.randn(1821, 64), torch.randn(64, 64)
    t = statistics.median(timed(lambda: [A @ W.T for _ in range(200)], 7)) / 200
    return 2 * 1821 * 64 * 64 / t


def full_run(tr, parts: list | None = None) -> float:
    """Wall time of a complete run (compile included); with ``parts``, also appends ``(start, steady)``:
    the time to the end of step ``WARM`` (compile and warm-up) and the steps after it, per step.

    Dynamo's in-process cache is cleared first, so the run compiles as a workflow job does (a fresh
    process, from the warm TorchInductor cache on disk) instead of reusing an earlier run's graph."""
    torch.compiler.reset()
    t0 = time.perf_counter()
    tr.train(until=WARM)
    t1 = time.perf_counter()
    tr.train()
    t2 = time.perf_counter()
    if parts is not None:
        parts.append((t1 - t0, (t2 - t1) / (tr.settings.steps - WARM)))
    return t2 - t0


# ------------------------------------------------------------------ vmap
def vmap_step_fn(s, records, seeds):
    """One training step of the batch written with ``torch.func``: per-member functions of one
    member's parameters (``functional_call`` on a one-member trainer), vmapped over stacked parameters."""
    from torch.func import functional_call, grad, vmap

    one = trainer(s, records[:1], seeds[:1])
    batch = trainer(s, records, seeds)
    names = [n for n, _ in one.net.named_parameters()]
    stacked = {n: p.detach()[:, None].clone() for n, p in batch.net.named_parameters()}
    phys = [batch.log_sigma.detach()[:, None].clone(), batch.log_c.detach()[:, None].clone()]
    a_train = batch.recs[0].a_train[:, None]
    scale = batch.data_scale[:, None]

    class MemberLoss(torch.nn.Module):  # the one-member trainer's loss as a module of its network
        def __init__(self):
            super().__init__()
            self.net = one.net

        def forward(self, tau_c, fext):
            return one.loss_terms(tau_c, fext)["total"].sum()

    loss = MemberLoss()

    def member_loss(params, log_sigma, log_c, tau_c, fext, a, ds):
        one.log_sigma, one.log_c, one.data_scale = log_sigma, log_c, ds
        one.recs[0].a_train = a
        return functional_call(loss, {f"net.{n}": p for n, p in params.items()}, (tau_c, fext))

    g = vmap(grad(member_loss, argnums=(0, 1, 2)))
    leaves = [stacked[n] for n in names] + phys
    opt = torch.optim.Adam([torch.nn.Parameter(x) for x in leaves], lr=1e-3, fused=True)

    def step():
        tau, fext = batch.sample()
        gp, gs, gc = g(stacked, phys[0], phys[1], tau[:, None], fext[:, None], a_train, scale)
        for p, gr in zip(opt.param_groups[0]["params"], [gp[n] for n in names] + [gs, gc], strict=True):
            p.grad = gr
        opt.step()

    return step


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1000, help="steps per timed chunk")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--full", type=int, default=0, help="complete 25 000-step runs to time")
    ap.add_argument("--seeds", type=int, default=0, help="time a batch of this many seeds")
    ap.add_argument("--batch-steps", type=int, default=STEPS, help="steps of the batch comparison")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    use_cache_dir(OUT.parent / "checkpoints" / "torchinductor")
    s, rd, _ = x1_record()
    fast = cxx_compiler() is not None
    res = {"threads": 1, "steps_target": STEPS, "target_s": TARGET_S, "compiler": cxx_compiler()}
    variants = {"eager": {}, "fast": {"compile": True}} if fast else {"eager": {}}
    steps = {}
    rates = [gemm_rate()]
    for name, kw in variants.items():
        steps[name] = per_step(trainer(s, [rd], 0, **kw), args.steps, args.repeats)
        rates.append(gemm_rate())
    steps["naive"] = per_step(
        naive(trainer(s, [rd], 0)), max(args.steps // 10, 50), max(args.repeats // 2, 2)
    )
    steps["eager_float64"] = per_step(trainer(s, [rd], 0, dtype="float64"), args.steps // 2, args.repeats)
    best = "fast" if fast else "eager"
    med = {k: statistics.median(v) for k, v in steps.items()}
    tr = trainer(s, [rd], 0)
    rates.append(gemm_rate())
    flops, rate = step_flops(tr), max(rates)
    res["step_s"] = {k: summary(v) for k, v in steps.items()}
    res["fast_step"] = best
    res["ratios"] = {f"{k}_over_{best}": med[k] / med[best] for k in med if k != best}
    res["extrapolated_25k_s"] = {k: v * STEPS for k, v in med.items()}
    res["arithmetic"] = {
        "matmul_flop_per_step": flops,
        "matmul_rate_flop_s": rate,
        "matmul_rate_samples_flop_s": rates,
        "matmul_floor_step_s": flops / rate,
    }
    res["chunk_step_over_floor"] = med[best] / (flops / rate)
    res["targets"] = {"step_over_floor": TARGET_STEP_OVER_FLOOR, "run_over_steps": TARGET_RUN_OVER_STEPS}
    for k, v in med.items():
        print(f"{k:14s} {1e3 * v:7.2f} ms/step   (25 000 steps ~ {v * STEPS:5.0f} s; chunk median)")
    step, res["step_source"] = med[best], f"median of {args.repeats} chunks of {args.steps} steps"
    if args.full:
        parts = []
        walls = []
        for _ in range(args.full):
            walls.append(full_run(trainer(s, [rd], 0, compile=fast), parts))
            rates.append(gemm_rate())
        rate = max(rates)
        res["arithmetic"]["matmul_rate_flop_s"] = rate
        res["arithmetic"]["matmul_floor_step_s"] = flops / rate
        res["full_25k_s"] = summary(walls)
        res["full_25k_step"] = best
        res["run_start_s"] = summary([a for a, _ in parts])
        res["run_steady_step_s"] = summary([b for _, b in parts])
        res["runs"] = [
            {"wall_s": w, "start_s": a, "steady_step_s": b} for w, (a, b) in zip(walls, parts, strict=True)
        ]
        # one step time for both ratios: the runs' own steady step
        step = res["run_steady_step_s"]["median"]
        res["step_source"] = f"median over {args.full} complete runs of each run's steady step"
        res["run_over_steps"] = statistics.median(
            w / (STEPS * b) for w, (_, b) in zip(walls, parts, strict=True)
        )
        print(
            f"full 25 000-step runs ({best} step, compile included): "
            f"median {statistics.median(walls):.0f} s [{min(walls):.0f}, {max(walls):.0f}]; steady step "
            f"{1e3 * step:.2f} ms; run over its steps {res['run_over_steps']:.3f} (target "
            f"{TARGET_RUN_OVER_STEPS}; start {res['run_start_s']['median']:.1f} s)"
        )
    res["step_s_judged"] = step
    res["step_over_floor"] = step / (flops / rate)
    print(
        f"matrix products alone: {1e3 * flops / rate:.2f} ms/step "
        f"({flops / 1e6:.0f} Mflop at {rate / 1e9:.0f} Gflop/s, the highest of {len(rates)} measurements)"
    )
    print(
        f"step over its arithmetic floor: {res['step_over_floor']:.2f} (target {TARGET_STEP_OVER_FLOOR}; "
        f"step {1e3 * step:.2f} ms, {res['step_source']})"
    )
    if args.seeds:
        out = batched(s, rd, args.seeds, args.batch_steps, fast, rate)
        keys = (
            "n_seeds",
            "steps",
            "step_over_floor",
            "run_over_steps",
            "chunk_step_over_floor",
            "run_start_s",
        )
        res["batch"] = {k: out[k] for k in keys}
    write("pinn_speed", res)
    plot_speed(res)


def batched(s, rd, n_seeds, n_steps, fast, rate):
    seeds = list(range(n_seeds))
    recs = noisy(rd, seeds)
    single = trainer(s, recs[:1], seeds[:1], compile=fast, steps=n_steps)
    single_wall = full_run(single)
    # the batch's graph in the compile cache first, as a workflow job finds it after the first
    # group of its shape (a first compile with an empty cache takes about 25 s more)
    trainer(s, recs, seeds, compile=fast, steps=n_steps).train(until=1)
    batch = trainer(s, recs, seeds, compile=fast, steps=n_steps)
    bparts = []
    batched_wall = full_run(batch, bparts)
    alone = [single.parameters_now()[0]]
    for k in seeds[1:]:
        one = trainer(s, recs[k : k + 1], [k], compile=fast, steps=n_steps)
        one.train()
        alone.append(one.parameters_now()[0])
    inside = batch.parameters_now()
    exact = {"sigma": s.sigma, "c": float(np.mean(s.cable_damping)), "EA": float(np.mean(s.cable_EA))}

    def max_err(p):
        return parameter_errors(s, p, exact).errors.sigma_max_pct

    ok = [k for k in range(s.n_cables) if k not in parameter_errors(s, alone[0], exact).inert_members]
    rel = [
        float(np.max(np.abs(b["sigma"][ok] / a["sigma"][ok] - 1))) for a, b in zip(alone, inside, strict=True)
    ]
    err_alone, err_batch = [max_err(a) for a in alone], [max_err(b) for b in inside]
    # per-step: the batch's step as trained (its floor from the same rate), then batched matrix
    # products (the trainer, eager) against torch.func.vmap, same batch
    bstep = statistics.median(per_step(trainer(s, recs, seeds, compile=fast), 200, 5))
    rate = max(rate, gemm_rate())  # the core's rate again, beside the batch's step timing
    bmm = per_step(trainer(s, recs, seeds), 200, 3)
    vstep = vmap_step_fn(s, recs, seeds)
    vstep()
    vm = [t / 50 for t in timed(lambda: [vstep() for _ in range(50)], 3)]
    flops = step_flops(batch)
    out = {
        "n_seeds": n_seeds,
        "steps": n_steps,
        "step": "fast" if fast else "eager",
        "threads": 1,
        "single_wall_s": single_wall,
        "batched_wall_s": batched_wall,
        "ratio": batched_wall / single_wall,
        "target_ratio": TARGET_RATIO,
        "per_seed_speedup": n_seeds * single_wall / batched_wall,
        "arithmetic_floor_ratio": n_seeds * step_flops(single) / rate / (single_wall / n_steps),
        "batch_matmul_floor_s": n_steps * flops / rate,
        "batch_step_s": bparts[0][1],
        "chunk_step_s": bstep,
        "chunk_step_over_floor": bstep / (flops / rate),
        # as for one seed: both ratios from the batch run's own steady step
        "step_over_floor": bparts[0][1] / (flops / rate),
        "run_over_steps": batched_wall / (n_steps * bparts[0][1]),
        "run_start_s": bparts[0][0],
        "eager_step_s": {"batched_matmul": summary(bmm), "vmap": summary(vm)},
        "vmap_over_batched_matmul": statistics.median(vm) / statistics.median(bmm),
        "members_vs_alone_max_rel_sigma": rel,
        "sigma_max_err_pct": {"alone": err_alone, "in_batch": err_batch},
    }
    print(
        f"{n_seeds} seeds as one batch: {batched_wall:.0f} s against {single_wall:.0f} s for one "
        f"(ratio {out['ratio']:.2f}, target {TARGET_RATIO}); per-step eager vmap / batched products "
        f"{out['vmap_over_batched_matmul']:.2f}; members vs alone: max relative sigma difference "
        f"{max(rel):.1e}"
    )
    print(
        f"batch of {n_seeds}: step over its floor {out['step_over_floor']:.2f}, "
        f"run over steps {out['run_over_steps']:.2f}"
    )
    write("pinn_batched", out)
    plot_batched(out)
    return out


def plot_speed(res):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4))
    names = list(res["extrapolated_25k_s"])
    vals = [res["extrapolated_25k_s"][k] for k in names]
    ax.bar(names, vals, color=["C0" if k == res["fast_step"] else "C7" for k in names])
    ax.axhline(res["target_s"], color="k", ls="--", lw=1, label=f"target {res['target_s']:.0f} s")
    ax.axhline(
        res["arithmetic"]["matmul_floor_step_s"] * STEPS,
        color="C3",
        ls=":",
        lw=1,
        label="matrix products alone",
    )
    if "full_25k_s" in res:
        ax.axhline(res["full_25k_s"]["median"], color="C2", lw=1, label="measured full run")
    ax.set_yscale("log")
    ax.set_ylabel("25 000 X1 steps, one core (s)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(OUT / "pinn_speed.png", dpi=150)


def plot_batched(out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.4))
    n = out["n_seeds"]
    ax.bar(
        ["one seed", f"{n} seeds, one batch", f"{n} seeds, one by one"],
        [out["single_wall_s"], out["batched_wall_s"], n * out["single_wall_s"]],
        color=["C0", "C1", "C7"],
    )
    ax.axhline(
        out["target_ratio"] * out["single_wall_s"], color="k", ls="--", lw=1, label="target (3x one seed)"
    )
    ax.axhline(out["batch_matmul_floor_s"], color="C3", ls=":", lw=1, label="batch: matrix products alone")
    ax.set_ylabel(f"wall time of {out['steps']} steps, one core (s)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(OUT / "pinn_batched.png", dpi=150)


if __name__ == "__main__":
    main()
