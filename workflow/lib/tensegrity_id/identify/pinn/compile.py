"""Optional ``torch.compile`` of the training step (setting ``compile``).

The trainer compiles its loss together with the loss's gradients
(:meth:`~.trainer.PINNTrainer._loss_and_grads`, by ``torch.func``) as one
graph: TorchInductor fuses the elementwise work of the Taylor streams, the
cable law and the residual, forward and backward, into a few C++ loops, the
matrix products staying with MKL.  It needs a C++ compiler on the machine
(``g++``, ``c++`` or ``clang++``, or ``$CXX``); where there is none, or
where compiling fails, the trainer keeps the eager step and says so in the
log.  After its first compiled call a trainer calls the frame Dynamo compiled
directly (:func:`compiled_frame`), without Dynamo's per-call hook and guards.
Compiled and eager steps agree to rounding (the fused loops order
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

import functools
import inspect
import os
import shutil
import types

__all__ = ["compiled_frame", "cxx_compiler", "compile_loss", "use_cache_dir"]


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


def compiled_frame(method, *args):
    """The code Dynamo compiled for ``method(*args)`` as a plain function bound to the method's object,
    or ``None`` when there is none (no compiled call yet, or a PyTorch without this internal).

    Call it after a compiled call with these arguments.  Of the method's compiled frames (Dynamo keeps
    one per set of guards) it takes the one whose guards pass for ``args``: the bytecode Dynamo itself
    runs once its guards pass, which reads the object's tensors and calls the compiled graph.  Calling
    it directly leaves out Dynamo's frame hook, cache lookup and guards (6 to 9 % of a compiled step
    of X1, results equal to the bit), so it is for callers whose later calls pass arguments built as
    these were: the same shapes, dtypes and layouts, and the same Python values read by the method.
    PyTorch's own ``aot_compile`` turns the guards off in the same way, but compiles without the
    cache (12 against 4.5 s for X1).  The frame's globals are copied, so it keeps working after
    ``torch._dynamo.reset()``.
    """
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list

        func, obj = method.__func__, method.__self__
        f_locals = inspect.signature(func).bind(obj, *args).arguments
        for entry in _debug_get_cache_entry_list(func.__code__):
            code = entry.code
            if code.co_freevars != func.__code__.co_freevars or not entry.guard_manager.check(f_locals):
                continue
            frame = types.FunctionType(code, dict(func.__globals__), func.__name__, None, func.__closure__)
            return functools.partial(frame, obj)
    except Exception:  # noqa: BLE001 (an internal that moved: keep Dynamo's own call)
        return None
    return None
