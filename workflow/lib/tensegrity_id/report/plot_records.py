"""Figures of simulated records: an example record and the energy balance (Fig. S4)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402

__all__ = ["plot_record", "plot_energy_balance", "slack_intervals"]

# Colour cycles every 10 series, the line style every 10 more (and apart for the
# first few series too), so that no two series look alike in colour or greyscale.
LINE_STYLES = ("-", "--", "-.", ":")


def _style(k: int) -> dict:
    return {"color": plt.cm.tab10(k % 10), "ls": LINE_STYLES[(k + k // 10) % len(LINE_STYLES)]}


def _legend_right(ax, n: int) -> None:
    """The legend to the right of the panel, off the data; two columns past 12 entries."""
    ax.legend(
        fontsize=7, ncol=1 if n <= 12 else 2, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0)
    )


def slack_intervals(t, taut_k):
    """(start, end) times of the slack intervals of one cable."""
    slack = ~np.asarray(taut_k, bool)
    edges = np.diff(np.concatenate([[0], slack.astype(int), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    return [(t[a], t[b]) for a, b in zip(starts, ends, strict=True)]


def plot_record(rec: dict, title: str, paths, *, coord_labels=None):
    """Free-coordinate displacements and cable tensions with slack shading and transitions."""
    t = rec["t"]
    free = rec["free"]
    disp = rec["q"][:, free] - rec["q"][0, free]
    n_cables = rec["tension"].shape[1]
    wide = max(len(free), n_cables) > 12
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(9.5 if wide else 8.8, 5.5), sharex=True)
    for i, c in enumerate(free):
        a1.plot(t, disp[:, i] * 1e3, lw=1, **_style(i), label=coord_labels[i] if coord_labels else f"q{c}")
    a1.set_ylabel("displacement (mm)")
    _legend_right(a1, len(free))
    for k in range(n_cables):
        style = _style(k)
        a2.plot(t, rec["tension"][:, k], lw=1, **style, label=f"cable {k}")
        for s, e in slack_intervals(t, rec["taut"][:, k]):
            a2.axvspan(s, e, color=style["color"], alpha=0.15, lw=0)
    for tt in rec["transition_times"]:
        a2.axvline(tt, color="k", lw=0.4, alpha=0.5)
    a2.set_ylabel("cable tension (N)")
    a2.set_xlabel("time (s)")
    _legend_right(a2, n_cables)
    a1.set_title(
        f"{title}: {len(rec['transition_times'])} taut-slack transitions (vertical lines)", fontsize=9
    )
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)


def plot_energy_balance(rec: dict, title: str, paths):
    """Energies T, V_g, V_s, E and work W; the balance residual |E - W - E(0)| (Fig. S4)."""
    t = rec["t"]
    T, Vg, Vs, W = rec["E_T"], rec["E_Vg"], rec["E_Vs"], rec["W"]
    E = T + Vg + Vs
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(9.0, 5.5), sharex=True)
    # E and W coincide when the balance holds: E wide and light underneath, W dotted on top
    for y, lab, style in (
        (T, "kinetic $T$", {"color": "C0", "ls": "-", "lw": 1.0}),
        (Vg - Vg[0], "gravity $V_g - V_g(0)$", {"color": "C1", "ls": "--", "lw": 1.0}),
        (Vs - Vs[0], "strain $V_s - V_s(0)$", {"color": "C2", "ls": "-.", "lw": 1.0}),
        (E - E[0], "mechanical $E - E(0)$", {"color": "0.65", "ls": "-", "lw": 3.0}),
        (W, "work $W$ (external + damping)", {"color": "k", "ls": ":", "lw": 1.2}),
    ):
        a1.plot(t, y, label=lab, **style)
    for tt in rec["transition_times"]:
        a1.axvline(tt, color="k", lw=0.3, alpha=0.4)
    a1.set_ylabel("energy (J)")
    _legend_right(a1, 5)
    a1.set_title(title, fontsize=9)
    a2.semilogy(t[1:], np.abs(E - W - E[0])[1:] + 1e-300, lw=1, color="k")
    a2.set_ylabel("$|E - W - E(0)|$ (J)")
    a2.set_xlabel("time (s)")
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
