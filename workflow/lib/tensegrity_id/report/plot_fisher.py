"""Figure 3: sensitivity per member and the spectrum of the Fisher information."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

__all__ = ["plot_fig3"]


def plot_fig3(results: list[dict], labels: list[str], paths):
    """(a) sqrt(J_ii) per parameter, (b) eigenvalues of J, (c) relative CRLB; one series per record."""
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
    width = 0.8 / max(len(results), 1)
    for k, (r, lab) in enumerate(zip(results, labels, strict=True)):
        names = r["names"]
        sens = np.array([r["sensitivity_norms"][n] for n in names])
        floor = 1e-12 * sens.max()
        x = np.arange(len(names))
        axes[0].bar(x + k * width, np.maximum(sens, floor), width, label=lab)
        for i in np.flatnonzero(sens == 0):
            axes[0].text(x[i] + k * width, floor * 3, "0", ha="center", fontsize=7)
        w = np.sort(np.abs(np.array(r["eigenvalues"])))[::-1]
        axes[1].semilogy(np.arange(1, len(w) + 1), np.maximum(w, 1e-16 * w.max()), "o-", ms=4, label=lab)
        rel = r["crlb_relative"]
        ids = [n for n in names if n in rel]
        axes[2].bar(np.arange(len(ids)) + k * width, [100 * rel[n] for n in ids], width, label=lab)
    axes[0].set_yscale("log")
    axes[0].set_xticks(np.arange(len(results[0]["names"])), results[0]["names"], rotation=60, fontsize=7)
    axes[0].set_ylabel("sensitivity norm sqrt(J_ii)")
    axes[0].set_title("(a) per parameter (exact zeros at 1e-12 of max)", fontsize=9)
    axes[1].set_xlabel("eigenvalue index")
    axes[1].set_ylabel("eigenvalue of J")
    axes[1].set_title("(b) spectrum (floored at 1e-16 of max)", fontsize=9)
    ids0 = [n for n in results[0]["names"] if n in results[0]["crlb_relative"]]
    axes[2].set_xticks(np.arange(len(ids0)), ids0, rotation=60, fontsize=7)
    axes[2].set_ylabel("relative CRLB (%)")
    axes[2].set_title("(c) Cramér–Rao bounds, identifiable block", fontsize=9)
    for a in axes:
        a.legend(fontsize=7, frameon=False)
    fig.tight_layout()
    for p in paths:
        fig.savefig(p, dpi=150)
    plt.close(fig)
