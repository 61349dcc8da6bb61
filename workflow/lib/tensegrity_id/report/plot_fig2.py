"""Figure 2: the physics-informed network and its residual as a computational graph.

Drawn from the settings a run used (its result's ``options``) and one
structure's sizes (free coordinates, bars, cables, sensor channels), so the
schematic always shows the network the study trains: scaled time, the
Fourier features, the tanh trunk, the displacement head with the hard
initial-condition window, the multiplier head, automatic differentiation to
velocities and accelerations, the equation-of-motion residual with the
smoothed cable law, and the three loss terms with their weights.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

from ..data.runio import save_figure  # noqa: E402

__all__ = ["fig2_boxes", "plot_fig2"]

# fill and edge of each kind of node: distinct in grey level too (light, mid, dark, hatched)
KINDS = {
    "input": {"facecolor": "white", "edgecolor": "k", "hatch": None},
    "network": {"facecolor": "#c6dbef", "edgecolor": "#08306b", "hatch": None},
    "physics": {"facecolor": "#fdd0a2", "edgecolor": "#7f2704", "hatch": "//"},
    "loss": {"facecolor": "#636363", "edgecolor": "k", "hatch": None},
    "parameter": {"facecolor": "#e5f5e0", "edgecolor": "#00441b", "hatch": ".."},
}


def fig2_boxes(settings: dict, sizes: dict) -> tuple[dict, list]:
    """The graph's nodes ``{name: (x, y, kind, text)}`` and edges ``[(a, b)]`` for these settings.

    Parameters
    ----------
    settings : dict
        ``width, depth, n_fourier, tau_ic, disp_scale, beta, w_eom, w_bar, n_colloc``.
    sizes : dict
        ``structure, n_free, n_bars, n_cables, n_channels, t_ref`` (s).
    """
    s, z = settings, sizes
    nodes = {
        "t": (0.075, 0.45, "input", f"t (s)\n\u03c4 = t / {z['t_ref']:g} s"),
        "ff": (0.225, 0.45, "network", f"Fourier features\n{s['n_fourier']} frequencies\nsin, cos"),
        "trunk": (0.385, 0.45, "network", f"trunk\n{s['depth']} \u00d7 {s['width']} tanh"),
        "disp": (0.555, 0.78, "network", f"displacement head\n{z['n_free']} free coords\n"
                 f"q = q0 + s(\u03c4) B \u0169\nscale {s['disp_scale']:g} m"),
        "lam": (0.555, 0.45, "network", f"multiplier head\n\u03bb: {z['n_bars']} bars (N/m)"),
        "theta": (0.555, 0.12, "parameter", f"\u03c3: {z['n_cables']} cables\nc (N s/m)\ntrained"),
        "ad": (0.745, 0.78, "physics", "autodiff in t\nq, q\u0307, q\u0308"),
        "res": (0.745, 0.45, "physics", "EOM residual\nM q\u0308 \u2212 [G + f_s(\u03c3)\n+ f_d(c) + f_ext"
                f" \u2212 J\u1d40\u03bb]\n\u03b2 = {s['beta']:g}"),
        "data": (0.93, 0.88, "loss", f"L_data\n{z['n_channels']} accel. channels"),
        "bar": (0.93, 0.66, "loss", f"{s['w_bar']:g} \u00b7 L_bar\nbar lengths"),
        "eom": (0.93, 0.45, "loss", f"{s['w_eom']:g} \u00b7 L_EOM\n{s['n_colloc']} collocation\npoints"),
    }  # fmt: skip
    edges = [
        ("t", "ff"),
        ("ff", "trunk"),
        ("trunk", "disp"),
        ("trunk", "lam"),
        ("disp", "ad"),
        ("ad", "data"),
        ("ad", "res"),
        ("lam", "res"),
        ("theta", "res"),
        ("res", "eom"),
        ("ad", "bar"),
    ]
    return nodes, edges


def plot_fig2(settings: dict, sizes: dict, paths) -> None:
    """Draw the graph of :func:`fig2_boxes` to ``paths`` (PDF and PNG)."""
    nodes, edges = fig2_boxes(settings, sizes)
    fig, ax = plt.subplots(figsize=(12.0, 5.6))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")
    w, h = 0.125, 0.17
    boxes = {}
    for name, (x, y, kind, text) in nodes.items():
        st = KINDS[kind]
        box = FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.008", lw=1.2, **st)
        ax.add_patch(box)
        boxes[name] = box
        color = "white" if kind == "loss" else "k"
        # patterned boxes get a plain panel behind the label, so the text stays readable
        panel = {"facecolor": "white", "alpha": 0.9, "edgecolor": "none", "pad": 1.5} if st["hatch"] else None
        ax.text(x, y, text, ha="center", va="center", fontsize=7.5, color=color, zorder=5, bbox=panel)
    for a, b in edges:  # clipped at the boxes' outlines, so no arrow runs over a label
        ax.add_patch(
            FancyArrowPatch(
                nodes[a][:2],
                nodes[b][:2],
                patchA=boxes[a],
                patchB=boxes[b],
                arrowstyle="-|>",
                mutation_scale=12,
                lw=1.0,
                color="0.25",
                shrinkA=1,
                shrinkB=1,
            )
        )
    handles = [
        plt.Rectangle(
            (0, 0), 1, 1, facecolor=v["facecolor"], edgecolor=v["edgecolor"], hatch=v["hatch"], label=k
        )
        for k, v in KINDS.items()
    ]
    ax.legend(
        handles=handles, loc="upper left", fontsize=8, frameon=False, ncol=5, bbox_to_anchor=(0.0, 1.02)
    )
    ax.set_title(
        f"Figure 2: the physics-informed identification on {sizes['structure']} "
        f"(window s(\u03c4) = (1 \u2212 e^(\u2212\u03c4/{settings['tau_ic']:g}))\u00b2)",
        fontsize=10,
        loc="left",
        pad=18,
    )
    save_figure(fig, paths, dpi=150, bbox_inches="tight")
    plt.close(fig)
