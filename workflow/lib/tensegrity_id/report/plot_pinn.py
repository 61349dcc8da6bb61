"""Figures 4 and 5: identified parameters, training histories, re-simulation."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..results.identification import IdentificationResult  # noqa: E402
from .axes import plain_log_ticks as _plain_log_ticks  # noqa: E402

__all__ = ["plot_fig4", "plot_fig5"]

# Markers (every eighth of a history, staggered) tell the series apart in greyscale print.
MARKERS = ("o", "s", "^", "v", "D", "P", "X", "<", ">")
LOSS_LINES = ("-", "--", "-.", ":")


def _marks(n_points: int, k: int) -> tuple[int, int]:
    """markevery for series ``k``: eight markers along the curve, shifted per series."""
    step = max(n_points // 8, 1)
    return (k * step // 5) % step, step


def _save(fig, paths):
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)


def plot_fig4(results: list[IdentificationResult], histories: list[pd.DataFrame], labels: list[str], paths):
    """Top: identified against exact sigma and c; middle: parameter histories; bottom: losses.

    One column per run.  Inert cables (both ends restrained) are drawn
    hollow in the top row and dashed in the middle row: the record does not
    determine them.
    """
    n = len(results)
    fig, axes = plt.subplots(3, n, figsize=(4.6 * n, 9.0), squeeze=False)
    for j, (r, h, lab) in enumerate(zip(results, histories, labels, strict=True)):
        ax = axes[0, j]
        ex = np.array(r.exact.sigma)
        idf = np.array([np.nan if v is None else v for v in r.identified.sigma])
        inert = set(r.inert_members)
        k = np.arange(len(ex))
        ax.bar(k - 0.2, ex, 0.4, color="0.7", label="exact")
        ok = [i for i in k if i not in inert]
        ax.bar(np.array(ok) + 0.2, idf[ok], 0.4, color="C0", label="identified")
        for n_inert, i in enumerate(sorted(inert)):
            label = "inert (not counted)" if n_inert == 0 else None
            ax.bar(i + 0.2, idf[i], 0.4, fill=False, edgecolor="C0", hatch="//", label=label)
        for i in ok:
            pct = r.errors.sigma_pct[i]
            ax.text(i + 0.2, idf[i], f"{pct:.2g}%", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(k, [f"σ{i}" for i in k])
        ax.set_ylabel("force density (N/m)")
        e = r.errors
        ax.set_title(
            f"{lab}\nmax σ err {e.sigma_max_pct:.2g} %, c {r.identified.c:.4g} "
            f"(exact {r.exact.c:.3g}, {e.c_pct:.2g} %)",
            fontsize=9,
        )
        # headroom above the tallest bar for the legend and the percentage labels
        ax.set_ylim(0, 1.3 * np.nanmax(np.concatenate([ex, idf])))
        ax.legend(fontsize=7, loc="upper left", ncol=3, frameon=False)
        ax = axes[1, j]
        n_pts = len(h)
        for i in k:
            ls = "--" if i in inert else "-"
            ax.plot(
                h["step"],
                h[f"sigma_{i}"] / ex[i],
                ls=ls,
                lw=1,
                marker=MARKERS[i % len(MARKERS)],
                ms=3.5,
                markevery=_marks(n_pts, i),
                label=f"σ{i}",
            )
        ax.plot(h["step"], h["c"] / r.exact.c, "k-", lw=1.2, label="c")
        ax.axhline(1.0, color="0.5", lw=0.6)
        ax.set_yscale("log")
        _plain_log_ticks(ax.yaxis)
        ax.set_ylabel("identified / exact")
        ax.legend(fontsize=7, ncol=3)
        ax = axes[2, j]
        for m, col in enumerate([c for c in h.columns if c.startswith("L_")]):
            ax.semilogy(
                h["step"],
                h[col],
                ls=LOSS_LINES[m % len(LOSS_LINES)],
                lw=1,
                marker=MARKERS[m % len(MARKERS)],
                ms=3.5,
                markevery=_marks(n_pts, m),
                label=col[2:],
            )
        ax.set_xlabel("training step")
        ax.set_ylabel("normalised loss")
        ax.legend(fontsize=7)
    _save(fig, paths)


def plot_fig5(series: list[dict], labels: list[str], paths):
    """Re-simulated unmeasured acceleration with the identified parameters against the truth."""
    n = len(series)
    fig, axes = plt.subplots(n, 1, figsize=(8.0, 2.6 * n + 0.4), squeeze=False)
    handles: dict = {}
    for ax, s, lab in zip(axes[:, 0], series, labels, strict=True):
        if int(s["coord"]) < 0:
            ax.text(0.5, 0.5, "no unmeasured coordinate to re-simulate", ha="center", transform=ax.transAxes)
            continue
        t = s["t"]
        ax.plot(t, s["true"], "k-", lw=1.4, label="truth (clean)")
        ax.plot(t, s["resim"], "C1--", lw=1.0, label="re-simulated, identified parameters")
        if "network" in s:
            ax.plot(t, s["network"], "C0:", lw=1.0, label="network reconstruction")
        err = np.sqrt(np.mean((s["resim"] - s["true"]) ** 2) / np.mean(s["true"] ** 2))
        ax.set_title(
            f"{lab}: unmeasured coordinate {int(s['coord'])}, relative RMS error {100 * err:.2g} %",
            fontsize=10,
        )
        ax.set_ylabel("acceleration (m/s²)")
        for hdl, name in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(name, hdl)
    axes[-1, 0].set_xlabel("t (s)")
    # one legend for all panels, below them: inside a panel it would cover the signal
    height = fig.get_figheight()
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.35 / height, 1, 1))
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
