"""Figure of the classical baselines: the shooting misfit surface and the particle filter's ESS."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..results.identification import IdentificationResult  # noqa: E402
from .axes import plain_log_ticks as _plain_log_ticks  # noqa: E402

__all__ = ["plot_baselines"]

# one style per record, so that the curves stay apart in greyscale print
LINES = (("o", "-"), ("s", "--"), ("^", ":"), ("D", "-."))


def plot_baselines(landscapes: list[dict], pf_runs: list[IdentificationResult], paths) -> None:
    """Row 1: chi2 on the line guess -> exact, one curve per record, and the chi2 plane per record;
    row 2: effective sample size of the particle filter over time per record."""
    n_plane = len(landscapes)
    ncols = max(1 + n_plane, 1)
    fig, axes = plt.subplots(2, ncols, figsize=(4.4 * ncols, 7.4), squeeze=False)
    ax = axes[0, 0]
    for k, sc in enumerate(landscapes):
        marker, ls = LINES[k % len(LINES)]
        ax.semilogy(
            sc["s_line"],
            sc["chi2_line"],
            marker=marker,
            ls=ls,
            ms=3,
            label=f"{sc['structure']} {sc['record']}",
        )
    ax.axhline(1.0, color="0.5", lw=0.8, ls="--", label="noise floor")
    ax.axvline(1.0, color="k", lw=0.6, ls=":")
    ax.set_xlabel("s  (0 = guess, 1 = exact)")
    ax.set_ylabel(r"$\chi^2$ (misfit / noise std)$^2$")
    ax.set_title("LM shooting misfit on the line guess-exact", fontsize=10)
    ax.legend(fontsize=7)
    for j, sc in enumerate(landscapes, start=1):
        ax = axes[0, j]
        Z = np.log10(np.asarray(sc["chi2_plane"]))
        cs = ax.contourf(sc["s_grid"], sc["c_grid"], Z, levels=14, cmap="viridis")
        fig.colorbar(cs, ax=ax, label=r"log$_{10}\chi^2$")
        ax.set_yscale("log")
        _plain_log_ticks(ax.yaxis)
        # the guess sits on the left edge (s = 0): not clipped, with an edge that shows on any colour
        ax.plot([0], [sc["guess"]["c"]], "^", mfc="w", mec="k", ms=8, clip_on=False, zorder=5, label="guess")
        ax.plot([1], [sc["exact"]["c"]], "*", mfc="r", mec="k", ms=12, zorder=5, label="exact")
        ax.set_xlabel(r"s along log $\sigma$")
        ax.set_ylabel("c (N s/m)")
        ax.set_title(f"{sc['record']}: misfit plane", fontsize=10)
        ax.legend(fontsize=7)
    ax = axes[1, 0]
    for k, r in enumerate(pf_runs):
        e = r.ess
        ax.semilogy(
            e.t,
            e.value,
            lw=0.9,
            ls=("-", ":", "--", "-.")[k % 4],
            label=f"{r.record} (median {e.median:.3g})",
        )
    if pf_runs:
        ax.axhline(pf_runs[0].ess.n_particles, color="0.5", ls="--", lw=0.8, label="N particles")
        lo, hi = ax.get_ylim()
        ax.set_ylim(lo, 2.0 * pf_runs[0].ess.n_particles)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("effective sample size")
    ax.set_title("Particle filter with EnKF: ESS before resampling", fontsize=10)
    for j in range(1, ncols):
        axes[1, j].axis("off")
    # the traces fill the panel: the legend goes into the empty slot on its right
    if ncols > 1:
        axes[1, 1].legend(*ax.get_legend_handles_labels(), fontsize=8, loc="upper left", frameon=False)
    else:
        ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
