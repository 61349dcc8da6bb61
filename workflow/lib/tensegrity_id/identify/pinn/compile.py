"""Optional ``torch.compile`` of the training step (setting ``compile``).

The trainer compiles its loss together with the loss's gradients
(:meth:`~.step.PINNStep._loss_and_grads`, by ``torch.func``) as one
graph: TorchInductor fuses the elementwise work of the Taylor streams, the
cable law and the residual, forward and backward, into a few C++ loops, the
matrix products staying with MKL.  It needs a C++ compiler on the machine
(``g++``, ``c++`` or ``clang++``, or ``$CXX``); where there is none, or
where compiling fails, the trainer keeps the eager step and says so in the
log.  Every call goes through Dynamo, guards included, so a changed Python
value, dtype or shape recompiles instead of reusing a graph built for other
values.  Compiled and eager steps agree to rounding (the fused loops order
floating-point operations differently), so a run records which one it ran
(``step_mode`` in its result) and a resumed run keeps the mode of its
checkpoint.  Compiled kernels are cached by PyTorch (``TORCHINDUCTOR_CACHE_DIR``);
the workflow keeps that cache beside its checkpoints (:func:`use_cache_dir`,
``results/checkpoints/torchinductor``), so it outlives a machine's temporary
directory and is shared by the jobs of a cluster run: on one core a first
compile of the X1 step takes about 25 s with an empty cache and 4 s with a
warm one (2026-12-05), against 25 000 steps of about 2.4 ms (2026-12-06).  The compile
time is part of a run's wall time.
"""

from __future__ import annotations

import os
import shutil

__all__ = ["cxx_compiler", "compile_loss", "use_cache_dir"]


def cxx_compiler() -> str | None:
    """The C++ compiler TorchInductor would use, or ``None`` when there is none."""
    for name in (os.environ.get("CXX"), "g++", "c++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def use_cache_dir(path) -> str:
    """Keep TorchInductor's cache in ``path`` unless ``TORCHINDUCTOR_CACHE_DIR`` is already set
    (a user's choice wins); returns the directory in use.  Call before the first compile."""
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.abspath(os.fspath(path)))
    return os.environ["TORCHINDUCTOR_CACHE_DIR"]


def compile_loss(fn, log):
    """``torch.compile(fn)`` for fixed shapes (the trainer's loss and gradients), or ``None`` (with a
    log line) when it cannot run here."""
    cxx = cxx_compiler()
    if cxx is None:
        log.warning(
            "no C++ compiler found (g++, c++, clang++ or $CXX); torch.compile needs one: "
            "training with the eager step"
        )
        return None
    import torch

    try:
        # the C++ wrapper: the graph's buffers and kernel calls in C++ rather than Python (4 % faster
        # steps of X1 with identical results; a first compile no slower)
        compiled = torch.compile(fn, dynamic=False, options={"cpp_wrapper": True})
    except Exception as exc:  # noqa: BLE001 (a missing or broken backend: fall back)
        log.warning("torch.compile is not available (%s); training with the eager step", exc)
        return None
    log.info(
        "compiling the loss and its gradients with torch.compile (C++ compiler %s); "
        "the first step includes it",
        cxx,
    )
    return compiled
