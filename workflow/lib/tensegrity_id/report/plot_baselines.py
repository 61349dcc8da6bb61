"""Figure of the classical baselines: the shooting misfit surface and the particle filter's ESS."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

__all__ = ["plot_baselines"]


def plot_baselines(landscapes: list[dict], pf_runs: list[dict], paths) -> None:
    """Row 1: chi2 on the line guess -> exact, one curve per record, and the chi2 plane per record;
    row 2: effective sample size of the particle filter over time per record."""
    n_plane = len(landscapes)
    ncols = max(1 + n_plane, 1)
    fig, axes = plt.subplots(2, ncols, figsize=(4.4 * ncols, 7.4), squeeze=False)
    ax = axes[0, 0]
    for sc in landscapes:
        ax.semilogy(sc["s_line"], sc["chi2_line"], "-o", ms=2.5, label=f"{sc['structure']} {sc['record']}")
    ax.axhline(1.0, color="0.5", lw=0.8, ls="--", label="noise floor")
    ax.axvline(1.0, color="k", lw=0.6, ls=":")
    ax.set_xlabel("s  (0 = guess, 1 = exact)")
    ax.set_ylabel(r"$\chi^2$ (misfit / noise std)$^2$")
    ax.set_title("LM shooting misfit on the line guess-exact")
    ax.legend(fontsize=7)
    for j, sc in enumerate(landscapes, start=1):
        ax = axes[0, j]
        Z = np.log10(np.asarray(sc["chi2_plane"]))
        cs = ax.contourf(sc["s_grid"], sc["c_grid"], Z, levels=14, cmap="viridis")
        fig.colorbar(cs, ax=ax, label=r"log$_{10}\chi^2$")
        ax.set_yscale("log")
        ax.plot([0], [sc["guess"]["c"]], "w^", label="guess")
        ax.plot([1], [sc["exact"]["c"]], "r*", ms=10, label="exact")
        ax.set_xlabel(r"s along log $\sigma$")
        ax.set_ylabel("c (N s/m)")
        ax.set_title(f"{sc['record']}: misfit plane", fontsize=9)
        ax.legend(fontsize=7)
    ax = axes[1, 0]
    for r in pf_runs:
        e = r["ess"]
        ax.semilogy(e["t"], e["value"], lw=0.9, label=f"{r['record']} (median {e['median']:.3g})")
    if pf_runs:
        ax.axhline(pf_runs[0]["ess"]["n_particles"], color="0.5", ls="--", lw=0.8, label="N particles")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("effective sample size")
    ax.set_title("Particle filter with EnKF: ESS before resampling")
    ax.legend(fontsize=7)
    for j in range(1, ncols):
        axes[1, j].axis("off")
    fig.tight_layout()
    for p in paths:
        fig.savefig(p, dpi=150)
    plt.close(fig)
