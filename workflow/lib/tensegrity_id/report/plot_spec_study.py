"""The specification study's figure: each reading of the network against the paper's Table 3.

One column per record of the study; the top row the largest force-density
error over the identifiable cables, the bottom row the held-out ratio, one
point per seed for each setting (rows of ``results/tables/pinn_spec_study.csv``), the
setting that is the workflow's default (no overrides) in red.
A dashed line marks the paper's Table 3 value for the record where Table 3
has that row, and the bottom row shades the paper's held-out band of
successful runs (below 7).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..results.identification import KEY  # noqa: E402
from .axes import plain_log_ticks  # noqa: E402

__all__ = ["HELD_OUT_BAND", "plot_spec_study"]

HELD_OUT_BAND = 7.0
"""The paper's held-out ratio of successful runs: below 7 (§4.3)."""

PANELS = ((KEY.sigma_max_pct, "max σ error (%)"), (KEY.held_out_ratio, "held-out ratio"))
"""The study's column drawn in each row of panels (the paper's Table 3 column of the same name)."""


def _paper_row(table3: pd.DataFrame, structure: str, record: str):
    """The paper's Table 3 row of a record (``x1`` + ``taut_1pt`` -> row ``x1_taut_1pt``), or None."""
    match = table3[table3["row"] == f"{structure}_{record}"]
    return None if match.empty else match.iloc[0]


def plot_spec_study(df: pd.DataFrame, table3: pd.DataFrame, paths) -> None:
    """Draw the study ``df`` (:data:`tensegrity_id.report.tables.SPEC_STUDY_COLUMNS`) against the
    paper's Table 3 (``resources/published/table3.csv``) to ``paths``."""
    cases = list(dict.fromkeys(zip(df["structure"], df["record"], strict=True)))
    settings = list(dict.fromkeys(df["setting"]))
    default = set(df.loc[df["overrides"] == "(default)", "setting"])  # the workflow's default, in red
    fig, axes = plt.subplots(2, len(cases), figsize=(2.2 + 2.6 * len(cases), 6.4), sharex=True, squeeze=False)
    x = np.arange(len(settings))
    for j, (structure, record) in enumerate(cases):
        sub = df[(df["structure"] == structure) & (df["record"] == record)]
        paper = _paper_row(table3, structure, record)
        for i, (col, label) in enumerate(PANELS):
            ax = axes[i, j]
            for k, name in enumerate(settings):
                y = pd.to_numeric(sub.loc[sub["setting"] == name, col], errors="coerce").dropna()
                y = y[y > 0]
                ax.plot(
                    np.full(len(y), x[k]),
                    y,
                    "o",
                    ms=4,
                    color="C3" if name in default else "0.15",
                    alpha=0.8,
                )
            if paper is not None and str(paper.get(col, "")).strip() not in ("", "nan"):
                ax.axhline(float(paper[col]), ls="--", color="C0", lw=1, label="the paper (Table 3)")
            ax.set_yscale("log")
            if col == KEY.held_out_ratio:  # the paper's band of successful runs
                lo, hi = ax.get_ylim()
                lo = min(lo, 0.8)
                ax.axhspan(lo, HELD_OUT_BAND, color="0.9", zorder=0, label="the paper's successes (< 7)")
                ax.set_ylim(lo, max(hi, 1.5 * HELD_OUT_BAND))
            plain_log_ticks(ax.yaxis)
            if i == 0:
                ax.set_title(f"{structure.upper()} {record.replace('_', ' ')}", fontsize=9)
            if j == 0:
                ax.set_ylabel(label)
            ax.grid(True, which="major", axis="y", color="0.85", lw=0.5)
    for ax in axes[:, 0]:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper left", fontsize=7, frameon=False)
    for ax in axes[-1]:
        ax.set_xticks(x)
        ax.set_xticklabels(settings, rotation=70, ha="right", fontsize=7)
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
