"""Figures of structures (Figure 1): bars thick, cables thin, supports marked."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..mechanics.structure import Structure  # noqa: E402

__all__ = ["draw_structure", "plot_structures"]

BAR_STYLE = {"color": "#1f3b73", "lw": 4.0, "solid_capstyle": "round", "zorder": 3}
CABLE_STYLE = {"color": "#c0392b", "lw": 1.0, "zorder": 2}
SUPPORT_STYLE = {"marker": "^", "s": 90, "facecolor": "none", "edgecolor": "k", "zorder": 4}
# Node numbers sit outside the drawing, on a translucent patch, so that bars,
# cables and support markers do not hide them.
LABEL_STYLE = {
    "fontsize": 7,
    "color": "0.15",
    "zorder": 5,
    "bbox": {"boxstyle": "square,pad=0.05", "fc": "w", "ec": "none", "alpha": 0.7},
}


def _label_nodes_2d(ax, x, held) -> None:
    """Node numbers offset diagonally away from the centroid (clear of support markers)."""
    centre = x.mean(axis=0)
    for k, p in enumerate(x):
        sx, sy = (1.0 if d >= 0 else -1.0 for d in (p - centre)[:2])
        off = 8.0 if held[k] else 5.0
        ax.annotate(
            str(k),
            p[:2],
            xytext=(sx * off, sy * off),
            textcoords="offset points",
            ha="left" if sx > 0 else "right",
            va="bottom" if sy > 0 else "top",
            **LABEL_STYLE,
        )


def _label_nodes_3d(ax, x) -> None:
    """Node numbers pushed radially outward from the centroid by a fraction of the size."""
    centre = x.mean(axis=0)
    size = np.ptp(x, axis=0).max()
    for k, p in enumerate(x):
        d = p - centre
        n = np.linalg.norm(d)
        q = p + (0.07 * size * d / n if n > 0 else 0.0)
        ax.text(*q, str(k), ha="center", va="center", **LABEL_STYLE)


def draw_structure(ax, structure: Structure, *, title: str | None = None, numbers: bool = True):
    """Draw one structure on a 2D or 3D matplotlib axes."""
    x = structure.nodes
    three = structure.dim == 3
    if three:
        # draw in zorder (cables, bars, supports, numbers), not by depth, so
        # that the node numbers are never hidden behind a bar
        ax.computed_zorder = False
    for members, style in ((structure.cables, CABLE_STYLE), (structure.bars, BAR_STYLE)):
        for i, j in members:
            pts = x[[i, j]]
            ax.plot(*pts.T, **style)
    held = structure.fixed.any(axis=1)
    if held.any():
        kw = {"depthshade": False} if three else {}
        ax.scatter(*x[held].T, **SUPPORT_STYLE, **kw)
    if three:
        if numbers:
            _label_nodes_3d(ax, x)
        span = np.ptp(x, axis=0).max() / 2
        mid = (x.max(axis=0) + x.min(axis=0)) / 2
        for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), mid, strict=False):
            setter(c - span, c + span)
        # the default box leaves a wide empty border around a line drawing
        ax.set_box_aspect((1, 1, 1), zoom=1.3)
        ax.view_init(elev=15, azim=-65)
        ax.set_axis_off()
    else:
        if numbers:
            _label_nodes_2d(ax, x, held)
        ax.set_aspect("equal")
        # the same absolute margin on both axes, so that flat structures (the
        # bridge) keep room above and below for node numbers and sensor arrows
        pad = 0.15 * np.ptp(x[:, :2], axis=0).max()
        ax.set_xlim(x[:, 0].min() - pad, x[:, 0].max() + pad)
        ax.set_ylim(x[:, 1].min() - pad, x[:, 1].max() + pad)
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
    if title:
        ax.set_title(title, fontsize=9)


def plot_structures(structures: list[Structure], titles: list[str], paths, *, ncols: int = 4):
    """One panel per structure; saves the figure to every path in ``paths``."""
    n = len(structures)
    nrows = math.ceil(n / ncols)
    height = 2.9 * nrows + 0.3
    fig = plt.figure(figsize=(3.2 * ncols, height))
    for k, (s, t) in enumerate(zip(structures, titles, strict=False)):
        kw = {"projection": "3d"} if s.dim == 3 else {}
        ax = fig.add_subplot(nrows, ncols, k + 1, **kw)
        draw_structure(ax, s, title=t)
    handles = [
        plt.Line2D([], [], **{k: v for k, v in BAR_STYLE.items() if k != "zorder"}, label="bar"),
        plt.Line2D([], [], **{k: v for k, v in CABLE_STYLE.items() if k != "zorder"}, label="cable"),
        plt.Line2D([], [], marker="^", ms=9, ls="", mfc="none", mec="k", label="support"),
    ]
    # one row below the panels, clear of every drawing
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.35 / height, 1, 1))
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
