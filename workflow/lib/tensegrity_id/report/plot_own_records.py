"""The fit of a user's own record: measured channels against the identified model, and the
identified force densities with their Cramér–Rao intervals.

One row per measured channel (left: the record and the identified model's response on the
record's times; right: the residual with the stated noise band ±2σ, the samples held out of
the fit marked), and one panel of the identified force densities, each with its interval
(``theta ± 2 sd`` from the bounds the identification reports) and its design value where the
structure file gives one; the other parameters (the damper, force scales) in its title, with
their intervals.  Line styles, not colours alone, tell the series apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402

__all__ = ["ChannelFit", "ParameterInterval", "plot_own_record_fit"]


@dataclass(frozen=True)
class ChannelFit:
    """One measured channel against the identified model on the record's times."""

    name: str
    t: np.ndarray
    measured: np.ndarray
    model: np.ndarray | None
    """The identified model's response (``None`` where its re-simulation failed)."""
    noise_std: float
    held_out: np.ndarray | None = None
    """Boolean mask of the samples held out of the fit (``None``: none)."""


@dataclass(frozen=True)
class ParameterInterval:
    """An identified parameter with its standard deviation (Cramér–Rao) and its design value."""

    name: str
    value: float
    sd: float | None
    design: float | None = None
    unit: str = "N/m"


def _residual_axes(ax, ch: ChannelFit) -> None:
    band = 2.0 * ch.noise_std
    ax.axhspan(-band, band, color="0.88", lw=0, label="stated noise ±2σ")
    ax.axhline(0.0, color="0.5", lw=0.6)
    if ch.model is None:
        ax.text(0.5, 0.5, "re-simulation failed", transform=ax.transAxes, ha="center", fontsize=8)
        return
    r = np.asarray(ch.measured) - np.asarray(ch.model)
    ax.plot(ch.t, r, color="k", lw=0.6, label="measured − model")
    if ch.held_out is not None and np.any(ch.held_out):
        mask = np.asarray(ch.held_out, bool)
        ax.plot(ch.t[mask], r[mask], "o", ms=2, mfc="none", mec="0.3", label="held out")
    inside = float(np.mean(np.abs(r) <= band))
    ax.set_title(f"residual: {100 * inside:.0f} % of samples within ±2σ", fontsize=8)


def plot_own_record_fit(
    channels: list[ChannelFit], params: list[ParameterInterval], paths, *, title: str = ""
) -> None:
    """Draw the fit figure (module docstring) to each of ``paths``."""
    if not channels:
        raise ValueError("no measured channel to draw")
    n = len(channels)
    fig = plt.figure(figsize=(11, 1.9 * n + 2.6))
    grid = fig.add_gridspec(n + 1, 2, height_ratios=[1.0] * n + [1.3])
    for i, ch in enumerate(channels):
        ax = fig.add_subplot(grid[i, 0])
        ax.plot(ch.t, ch.measured, color="0.55", lw=0.8, label="measured")
        if ch.model is not None:
            ax.plot(ch.t, ch.model, color="k", lw=0.9, ls="--", label="identified model")
        ax.set_ylabel(f"{ch.name}\n(m/s²)", fontsize=8)
        if i == 0:
            ax.legend(fontsize=7, loc="upper right", ncol=2)
        if i == n - 1:
            ax.set_xlabel("time (s)")
        ax = fig.add_subplot(grid[i, 1])
        _residual_axes(ax, ch)
        if i == 0:
            ax.legend(fontsize=7, loc="upper right", ncol=3)
        if i == n - 1:
            ax.set_xlabel("time (s)")
    ax = fig.add_subplot(grid[n, :])
    drawn = [p for p in params if p.unit == "N/m"]
    # relative to the design value (else to the identified value itself), in % of it: the
    # intervals of force densities tens of N/m apart are then seen side by side
    ref = np.array([p.design if p.design else p.value for p in drawn], float)
    x = np.arange(len(drawn))
    values = 100.0 * (np.array([p.value for p in drawn], float) / ref - 1.0)
    sds = 100.0 * np.array([np.nan if p.sd is None else p.sd for p in drawn], float) / ref
    has_sd = np.isfinite(sds)
    ax.axhline(0.0, color="0.45", lw=1.0, ls=":", label="design (or the identified value)")
    ax.errorbar(
        x[has_sd],
        values[has_sd],
        yerr=2.0 * sds[has_sd],
        fmt="o",
        color="k",
        capsize=4,
        label="identified ± 2 sd (Cramér–Rao)",
    )
    if np.any(~has_sd):
        ax.plot(x[~has_sd], values[~has_sd], "x", color="k", label="identified (no bound)")
    ax.set_xticks(x, [f"{p.name}\n{p.value:.4g} N/m" for p in drawn], fontsize=8)
    ax.set_xlim(-0.5, max(len(drawn), 1) - 0.5)
    ax.set_ylabel("identified − design\n(% of design)", fontsize=8)
    ax.legend(fontsize=7, loc="best")
    others = [p for p in params if p.unit != "N/m"]
    text = "; ".join(
        f"{p.name} = {p.value:.4g}" + ("" if p.sd is None else f" ± {2 * p.sd:.2g}") + f" {p.unit}".rstrip()
        for p in others
    )
    ax.set_title("identified force densities" + (f"   ({text})" if text else ""), fontsize=9)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
