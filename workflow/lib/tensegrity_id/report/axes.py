"""Axis helpers shared by the figure modules (no drawing of their own)."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter

__all__ = ["plain_log_ticks", "headroom"]


def plain_log_ticks(axis) -> None:
    """Plain numbers (0.5, 2, 10) on a log axis instead of 5x10^-1; minor labels at 2 and 5 only,
    and none on an axis spanning more than three decades (they would overlap)."""
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))

    def minor(v, _):
        lo, hi = sorted(axis.get_view_interval())
        if lo > 0 and hi / lo > 1e3:
            return ""
        lead = round(v / 10 ** np.floor(np.log10(v)))
        return f"{v:g}" if lead in (2, 5) else ""

    axis.set_minor_formatter(FuncFormatter(minor))


def headroom(ax, frac: float) -> None:
    """Raise the top of the y axis by ``frac`` of its span, for a legend above the data."""
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi + frac * (hi - lo))
