"""Figures 4 and 5: identified parameters, training histories, re-simulation."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

__all__ = ["plot_fig4", "plot_fig5"]


def _save(fig, paths):
    fig.tight_layout()
    for p in paths:
        fig.savefig(p, dpi=150)
    plt.close(fig)


def plot_fig4(results: list[dict], histories: list[pd.DataFrame], labels: list[str], paths):
    """Top: identified against exact sigma and c; middle: parameter histories; bottom: losses.

    One column per run.  Inert cables (both ends restrained) are drawn
    hollow in the top row and dashed in the middle row: the record does not
    determine them.
    """
    n = len(results)
    fig, axes = plt.subplots(3, n, figsize=(4.6 * n, 9.0), squeeze=False)
    for j, (r, h, lab) in enumerate(zip(results, histories, labels, strict=True)):
        ax = axes[0, j]
        ex = np.array(r["exact"]["sigma"])
        idf = np.array([np.nan if v is None else v for v in r["identified"]["sigma"]])
        inert = set(r["inert_members"])
        k = np.arange(len(ex))
        ax.bar(k - 0.2, ex, 0.4, color="0.7", label="exact")
        ok = [i for i in k if i not in inert]
        ax.bar(np.array(ok) + 0.2, idf[ok], 0.4, color="C0", label="identified")
        for i in inert:
            ax.bar(i + 0.2, idf[i], 0.4, fill=False, edgecolor="C0", hatch="//", label="inert (not counted)")
        for i in ok:
            pct = r["errors"]["sigma_pct"][i]
            ax.text(i + 0.2, idf[i], f"{pct:.2g}%", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(k, [f"σ{i}" for i in k])
        ax.set_ylabel("force density (N/m)")
        e = r["errors"]
        ax.set_title(
            f"{lab}\nmax σ err {e['sigma_max_pct']:.2g} %, c {r['identified']['c']:.4g} "
            f"(exact {r['exact']['c']:.3g}, {e['c_pct']:.2g} %)",
            fontsize=9,
        )
        ax.legend(fontsize=7, loc="upper left")
        ax = axes[1, j]
        for i in k:
            ls = "--" if i in inert else "-"
            ax.plot(h["step"], h[f"sigma_{i}"] / ex[i], ls, lw=1, label=f"σ{i}")
        ax.plot(h["step"], h["c"] / r["exact"]["c"], "k-", lw=1.2, label="c")
        ax.axhline(1.0, color="0.5", lw=0.6)
        ax.set_yscale("log")
        ax.set_ylabel("identified / exact")
        ax.legend(fontsize=7, ncol=3)
        ax = axes[2, j]
        for col in [c for c in h.columns if c.startswith("L_")]:
            ax.semilogy(h["step"], h[col], lw=1, label=col[2:])
        ax.set_xlabel("training step")
        ax.set_ylabel("normalised loss")
        ax.legend(fontsize=7)
    _save(fig, paths)


def plot_fig5(series: list[dict], labels: list[str], paths):
    """Re-simulated unmeasured acceleration with the identified parameters against the truth."""
    n = len(series)
    fig, axes = plt.subplots(n, 1, figsize=(8.0, 2.6 * n), squeeze=False)
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
        ax.set_title(f"{lab}: unmeasured coordinate {int(s['coord'])}, relative RMS error {100 * err:.2g} %")
        ax.set_ylabel("acceleration (m/s²)")
        ax.legend(fontsize=7, loc="upper right")
    axes[-1, 0].set_xlabel("t (s)")
    _save(fig, paths)
