"""Optional ``torch.compile`` of the training loss (setting ``compile``).

TorchInductor fuses the elementwise work of the Taylor streams, the cable
law and the residual into a few C++ loops (forward and backward), the
matrix products staying with MKL.  It needs a C++ compiler on the machine
(``g++``, ``c++`` or ``clang++``, or ``$CXX``); where there is none, or
where compiling fails, the trainer keeps the eager step and says so in the
log.  Compiled and eager steps agree to rounding (the fused loops order
floating-point operations differently), so a run records which one it ran
(``step_mode`` in its result) and a resumed run keeps the mode of its
checkpoint.  Compiled kernels are cached by PyTorch (``TORCHINDUCTOR_CACHE_DIR``,
by default under the system's temporary directory), so later runs of the
same shapes start faster; the compile time is part of the run's wall time.
"""

from __future__ import annotations

import os
import shutil

__all__ = ["cxx_compiler", "compile_loss"]


def cxx_compiler() -> str | None:
    """The C++ compiler TorchInductor would use, or ``None`` when there is none."""
    for name in (os.environ.get("CXX"), "g++", "c++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def compile_loss(fn, log):
    """``torch.compile(fn)`` for fixed shapes, or ``None`` (with a log line) when it cannot run here."""
    cxx = cxx_compiler()
    if cxx is None:
        log.warning(
            "no C++ compiler found (g++, c++, clang++ or $CXX); torch.compile needs one: "
            "training with the eager step"
        )
        return None
    import torch

    try:
        compiled = torch.compile(fn, dynamic=False)
    except Exception as exc:  # noqa: BLE001 (a missing or broken backend: fall back)
        log.warning("torch.compile is not available (%s); training with the eager step", exc)
        return None
    log.info("compiling the loss with torch.compile (C++ compiler %s); the first step includes it", cxx)
    return compiled
