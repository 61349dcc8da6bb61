"""One compiled PINN trainer on the X1 taut record, as one process: its steady step, for A/B runs.

Run on demand, on one core::

    python tests/benchmarks/bench_pinn_step.py --steps 3000

prints ``steady_step_ms`` (the wall of the steps after the first ``WARM``, per
step; the compile, from the workflow's TorchInductor cache, and the warm-up
left out).  To compare two versions of the library pair by pair, so that the
machine's drifting speed moves both alike, time the two processes in turn,
e.g. with ``farm-bench --vs``, one of them on another checkout's library::

    farm-bench -n 5 --timeout 900 \\
        --vs 'env PYTHONPATH=/path/to/other/workflow/lib python tests/benchmarks/bench_pinn_step.py' \\
        -- python tests/benchmarks/bench_pinn_step.py

and read the ratio of the printed steps (the wall ratio holds the import and
the compile too).  Appends one JSON line per run to ``--log`` when given.

``--option KEY=VALUE`` (repeatable) adds a TorchInductor option to the ones the
trainer compiles with (a value read as YAML: ``max_autotune=true``), for A/B
runs of compile options; ``--cache DIR`` keeps such a run's compile cache apart.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch
import yaml

sys.path.insert(0, str(Path(__file__).parent))
from _common import OUT, x1_record  # noqa: E402
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer  # noqa: E402
from tensegrity_id.identify.pinn.compile import use_cache_dir  # noqa: E402

WARM = 50


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep:
        raise SystemExit(f"--option {text!r}: write KEY=VALUE")
    return key, yaml.safe_load(value)


def _add_options(extra: dict) -> None:
    """Compile the trainer's step with ``extra`` TorchInductor options added to its own (this
    process's ``torch.compile`` wrapped; the library is not changed)."""
    real = torch.compile

    def with_options(fn, **kw):
        return real(fn, **{**kw, "options": {**kw.get("options", {}), **extra}})

    torch.compile = with_options


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--log", type=Path)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--cache", type=Path, default=OUT.parent / "checkpoints" / "torchinductor")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    use_cache_dir(args.cache)
    if args.option:
        _add_options(dict(_option(o) for o in args.option))
    s, rd, _ = x1_record()
    st = PINNSettings(steps=25_000, log_every=0, compile=True)
    tr = PINNTrainer(s, [rd], st, seeds=0, lambda0=s.bar_sigma)
    tr.train(until=WARM)
    t0 = time.perf_counter()
    tr.train(until=WARM + args.steps)
    step = (time.perf_counter() - t0) / args.steps
    import tensegrity_id

    out = {
        "steady_step_ms": 1e3 * step,
        "steps": args.steps,
        "options": args.option,
        "library": tensegrity_id.__file__,
    }
    print(json.dumps(out))
    if args.log:
        with open(args.log, "a") as fh:
            fh.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
