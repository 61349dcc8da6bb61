"""The prestress-series figure: frequency against prestress level per mode (rule compute_prism_series)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from .axes import plain_log_ticks  # noqa: E402

__all__ = ["plot_prism_series_slopes"]


def plot_prism_series_slopes(res: dict, title: str, paths) -> None:
    """Frequency against prestress level on log-log axes, one line per mode with its log-slope.

    ``res`` is :func:`tensegrity_id.analysis.prestress_series.modal_series`'s
    result (``levels`` N/m, ``frequencies_hz`` per level and mode,
    ``log_slopes``).  Modes differ by marker and line style as well as
    colour (readable in greyscale); ticks are plain numbers.
    """
    f = np.array(res["frequencies_hz"])
    fig, ax = plt.subplots(figsize=(6.2, 4.2))
    markers, styles = "osD^vx<>", ("-", "--", "-.", ":")
    for m in range(f.shape[1]):
        ax.loglog(
            res["levels"],
            f[:, m],
            marker=markers[m % len(markers)],
            ls=styles[m % len(styles)],
            ms=4,
            mfc="none",
            label=f"mode {m + 1}: slope {res['log_slopes'][m]:.3f}",
        )
    plain_log_ticks(ax.xaxis)
    plain_log_ticks(ax.yaxis)
    ax.set_xlabel("prestress level s (N/m)")
    ax.set_ylabel("frequency (Hz)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
