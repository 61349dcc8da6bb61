"""Figures of structures (Figure 1): bars thick, cables thin, supports marked."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..mechanics.structure import Structure  # noqa: E402

__all__ = ["draw_structure", "plot_structures"]

BAR_STYLE = {"color": "#1f3b73", "lw": 4.0, "solid_capstyle": "round", "zorder": 3}
CABLE_STYLE = {"color": "#c0392b", "lw": 1.0, "zorder": 2}
SUPPORT_STYLE = {"marker": "^", "s": 90, "facecolor": "none", "edgecolor": "k", "zorder": 4}


def draw_structure(ax, structure: Structure, *, title: str | None = None, numbers: bool = True):
    """Draw one structure on a 2D or 3D matplotlib axes."""
    x = structure.nodes
    three = structure.dim == 3
    for members, style in ((structure.cables, CABLE_STYLE), (structure.bars, BAR_STYLE)):
        for i, j in members:
            pts = x[[i, j]]
            ax.plot(*pts.T, **style)
    held = structure.fixed.any(axis=1)
    if held.any():
        ax.scatter(*x[held].T, **SUPPORT_STYLE)
    if numbers:
        for k, p in enumerate(x):
            ax.text(*p, f" {k}", fontsize=7, color="0.25", zorder=5)
    if three:
        span = np.ptp(x, axis=0).max() / 2
        mid = (x.max(axis=0) + x.min(axis=0)) / 2
        for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), mid, strict=False):
            setter(c - span, c + span)
        ax.set_box_aspect((1, 1, 1))
        ax.view_init(elev=15, azim=-65)
        ax.set_axis_off()
    else:
        ax.set_aspect("equal")
        ax.margins(0.12)
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
    if title:
        ax.set_title(title, fontsize=9)


def plot_structures(structures: list[Structure], titles: list[str], paths, *, ncols: int = 4):
    """One panel per structure; saves the figure to every path in ``paths``."""
    n = len(structures)
    nrows = math.ceil(n / ncols)
    fig = plt.figure(figsize=(3.2 * ncols, 2.9 * nrows))
    for k, (s, t) in enumerate(zip(structures, titles, strict=False)):
        kw = {"projection": "3d"} if s.dim == 3 else {}
        ax = fig.add_subplot(nrows, ncols, k + 1, **kw)
        draw_structure(ax, s, title=t)
    handles = [
        plt.Line2D([], [], **{k: v for k, v in BAR_STYLE.items() if k != "zorder"}, label="bar"),
        plt.Line2D([], [], **{k: v for k, v in CABLE_STYLE.items() if k != "zorder"}, label="cable"),
        plt.Line2D([], [], marker="^", ls="", mfc="none", mec="k", label="support"),
    ]
    fig.legend(handles=handles, loc="lower right", fontsize=8, frameon=False)
    fig.tight_layout()
    for p in paths:
        fig.savefig(p, dpi=150)
    plt.close(fig)
