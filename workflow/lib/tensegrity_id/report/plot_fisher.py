"""Figure 3: sensitivity per member, the spectrum of the Fisher information, the bounds, and the
seed study (scatter and bias of repeated identifications against the bounds)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..results.fisher import FISHER_KEY, FisherSummary  # noqa: E402
from .axes import headroom as _headroom  # noqa: E402

__all__ = ["plot_fig3"]

# one style per series, so that the records stay apart in greyscale print
HATCHES = ("", "//", "..", "xx")
LINES = (("o", "-"), ("s", "--"), ("^", ":"), ("D", "-."))


def _ticks(ax, names) -> None:
    ax.set_xticks(np.arange(len(names)), names, rotation=45, ha="right", rotation_mode="anchor", fontsize=7)


def _seed_panel(ax, study: dict) -> None:
    """Seed scatter and |bias| of each identifiable parameter in units of its CRLB (log scale)."""
    params = study["parameters"]
    names = list(params)
    x = np.arange(len(names))
    std = [params[n]["std_over_crlb"] for n in names]
    bias = [abs(params[n]["bias"]) / params[n][FISHER_KEY.crlb] for n in names]
    ax.bar(x - 0.2, std, 0.4, label="seed std / CRLB", color="0.35")
    ax.bar(x + 0.2, bias, 0.4, label="|bias| / CRLB", color="0.75", hatch="//", edgecolor="0.3")
    ax.axhline(1.0, color="k", lw=0.8, ls="--", label="CRLB")
    paper = study.get("paper") or {}
    if paper.get("std_over_crlb_range"):
        lo, hi = paper["std_over_crlb_range"]
        ax.axhspan(lo, hi, color="tab:blue", alpha=0.12, label=f"paper std/CRLB {lo}-{hi}")
    ax.set_yscale("log")
    _ticks(ax, names)
    ax.set_ylabel("multiple of the CRLB")
    ax.set_title(
        f"(c) {study['n_seeds']} seeds, {study['structure']} {study['record']}, {study['steps']} steps",
        fontsize=9,
    )
    _headroom(ax, 0.6)


def plot_fig3(results: list[FisherSummary], labels: list[str], paths, seed_study: dict | None = None):
    """(a) sqrt(J_ii) per parameter, (b) eigenvalues of J, (c) the seed study against the CRLB (when
    given), (d) relative CRLB; one series per record (``results``: their Fisher analyses)."""
    n = 4 if seed_study else 3
    fig, axes = plt.subplots(1, n, figsize=(3.7 * n, 3.8))
    if seed_study:
        _seed_panel(axes[2], seed_study)
        axes = [axes[0], axes[1], axes[3], axes[2]]
    width = 0.8 / max(len(results), 1)
    for k, (r, lab) in enumerate(zip(results, labels, strict=True)):
        names = r.names
        sens = np.array([r.sensitivity_norms[n] for n in names])
        floor = 1e-12 * sens.max()
        x = np.arange(len(names))
        bar = {"color": f"C{k}", "hatch": HATCHES[k % 4], "edgecolor": "0.2", "lw": 0.5, "label": lab}
        axes[0].bar(x + k * width, np.maximum(sens, floor), width, **bar)
        for i in np.flatnonzero(sens == 0):
            axes[0].text(x[i] + k * width, floor * 3, "0", ha="center", fontsize=7)
        w = np.sort(np.abs(np.array(r.eigenvalues)))[::-1]
        marker, ls = LINES[k % 4]
        axes[1].semilogy(
            np.arange(1, len(w) + 1), np.maximum(w, 1e-16 * w.max()), marker=marker, ls=ls, ms=4, label=lab
        )
        rel = r.crlb_relative
        ids = [n for n in names if n in rel]
        axes[2].bar(np.arange(len(ids)) + k * width, [100 * rel[n] for n in ids], width, **bar)
    axes[0].set_yscale("log")
    _ticks(axes[0], results[0].names)
    axes[0].set_ylabel(r"sensitivity norm $\sqrt{J_{ii}}$ (1/parameter unit)")
    axes[0].set_title("(a) per parameter (exact zeros at 1e-12 of max)", fontsize=9)
    axes[1].set_xlabel("eigenvalue index")
    axes[1].set_ylabel("eigenvalue of J (mixed units)")
    axes[1].set_title("(b) spectrum (floored at 1e-16 of max)", fontsize=9)
    ids0 = [n for n in results[0].names if n in results[0].crlb_relative]
    _ticks(axes[2], ids0)
    axes[2].set_ylabel("relative CRLB (%)")
    axes[2].set_title(f"({'d' if seed_study else 'c'}) Cramér–Rao bounds, identifiable block", fontsize=9)
    _headroom(axes[0], 0.3)
    _headroom(axes[2], 0.3)
    for a in axes:
        a.legend(fontsize=7, frameon=False, loc="upper left" if a is not axes[1] else "best")
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
