"""Figures 8, 10 and 11: the measured-data validation (the paper §4.10, §4.12).

Each figure draws only numbers that its rule's inputs hold (the modal
identification, the simplex model, the simulated strikes, Table 8).  Line
styles and markers, not colours alone, tell the series apart, so the
figures survive greyscale printing.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from .plot_structures import draw_structure  # noqa: E402

__all__ = ["plot_fig8", "plot_fig10", "plot_fig11"]


def _save(fig, paths) -> None:
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)


def plot_fig8(structure, result: dict, paths) -> None:
    """(a) the rebuilt hexagonal prism; (b) model lines against ring tension with the measured
    peaks; (c) frequencies with and without the bars' transverse geometric stiffness."""
    fig = plt.figure(figsize=(12, 3.8))
    ax = fig.add_subplot(1, 3, 1, projection="3d")
    draw_structure(ax, structure, title="(a) rebuilt prism (free-free)", numbers=False)
    ax = fig.add_subplot(1, 3, 2)
    scan = result["scan"]
    T = np.asarray(scan["ring_tension_N"])
    lines = np.asarray(scan["lines_hz"])
    modes = result["model_line_modes"]
    for k in range(lines.shape[1]):
        label = "-".join(map(str, (modes[k][0], modes[k][-1]))) if len(modes[k]) > 1 else str(modes[k][0])
        ax.plot(T, lines[:, k], color="0.3", lw=1.0, ls=("-", "--", ":", "-.")[k % 4])
        ax.annotate(
            f"mode {label}", (T[-1], lines[-1, k]), fontsize=7, xytext=(2, 0), textcoords="offset points"
        )
    # the peak lines stop where the model lines do, clear of the mode labels
    ax.hlines(result["peaks_hz"], T[0], T[-1], color="0.6", lw=0.8)
    ax.axvline(result["ring_tension_N"], color="k", lw=1.2, ls="--", label="fitted ring tension")
    ax.axvline(result["design_ring_tension_N"], color="0.5", lw=0.8, ls=":", label="design ring tension")
    ax.plot(
        [result["ring_tension_N"]] * len(result["peaks_hz"]),
        result["model_hz_at_fit"],
        "o",
        mfc="w",
        mec="k",
        label=f"fit {result['ring_tension_N']:.2f} N, RMS {result['rms_residual_hz']:.2f} Hz",
    )
    ax.plot(
        [result["ring_tension_N"]] * len(result["peaks_hz"]),
        result["peaks_hz"],
        "k_",
        ms=12,
        label="measured peaks (grey lines)",
    )
    # room right of the lines for their mode labels, and below them for the legend
    ax.set_xlim(T[0], T[-1] + 0.25 * (T[-1] - T[0]))
    ax.set_ylim(0, 1.05 * max(lines.max(), max(result["peaks_hz"])))
    ax.set_xlabel("ring-cable tension (N)")
    ax.set_ylabel("frequency (Hz)")
    ax.set_title("(b) model lines and measured peaks", fontsize=9)
    ax.legend(fontsize=7, loc="lower right", framealpha=0.9)
    ax = fig.add_subplot(1, 3, 3)
    rows = result["bar_geometric_stiffness"]
    m = np.array([r["mode"] for r in rows])
    ax.bar(
        m - 0.2, [r["with_bars_hz"] for r in rows], 0.4, color="0.3", label="with bars' geometric stiffness"
    )
    ax.bar(
        m + 0.2,
        [r["cables_only_hz"] for r in rows],
        0.4,
        color="w",
        edgecolor="k",
        hatch="//",
        label="cables only",
    )
    ax.set_xlabel("mode (matched by MAC)")
    ax.set_ylabel("frequency (Hz)")
    ax.set_xticks(m)
    ax.set_title("(c) transverse geometric stiffness of the bars", fontsize=9)
    ax.legend(fontsize=7)
    _save(fig, paths)


def _spectrum(x, dt, pad=8):
    x = np.asarray(x, float) - np.mean(x)
    n = len(x) * pad
    return np.fft.rfftfreq(n, dt), np.abs(np.fft.rfft(x, n)) / len(x)


def plot_fig10(structure, extraction: dict, strikes, paths) -> None:
    """(a) the rebuilt simplex; (b) a simulated strike at the lowest level, projected and one raw
    channel; (c) their spectra with the model's rotational frequency."""
    levels = extraction["levels"]
    lv = levels[0]["level"]
    t = strikes[f"level{lv}_t"]
    proj, raw = strikes[f"level{lv}_projected"], strikes[f"level{lv}_raw"]
    true = float(strikes[f"level{lv}_true_hz"])
    fig = plt.figure(figsize=(12, 3.8))
    ax = fig.add_subplot(1, 3, 1, projection="3d")
    draw_structure(ax, structure, title="(a) rebuilt simplex (lower triangle fixed)", numbers=True)
    ax = fig.add_subplot(1, 3, 2)
    ax.plot(t, raw, color="0.6", lw=0.6, label="node 3, x axis")
    ax.plot(t, proj, color="k", lw=0.9, label="projected on the rotation")
    ax.set_xlim(0, min(t[-1], 2.0))
    # headroom above the signal for a one-row legend
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi + 0.3 * (hi - lo))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("acceleration (m/s$^2$)")
    ax.set_title(f"(b) simulated strike, level {lv} ({levels[0]['transducer_force_N']:.0f} N)", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", ncol=2, frameon=False)
    ax = fig.add_subplot(1, 3, 3)
    dt = float(t[1] - t[0])
    top = 0.0
    for x, style, label in (
        (raw, dict(color="0.6", lw=0.8), "node 3, x axis"),
        (proj, dict(color="k", lw=1.0), "projected"),
    ):
        f, a = _spectrum(x, dt)
        ax.semilogy(f[1:], a[1:], label=label, **style)
        top = max(top, a[(f > 0.5) & (f < 60)].max())
    ax.set_ylim(top * 1e-4, top * 3)
    ax.axvline(true, color="k", ls="--", lw=0.8, label=f"model {true:.3f} Hz")
    ax.set_xlim(0, 60)
    ax.set_xlabel("frequency (Hz)")
    ax.set_ylabel("amplitude (m/s$^2$)")
    rms = extraction["rms_error_pct"]
    ax.set_title(f"(c) spectra\nextraction RMS error {rms:.2g} % over {len(levels)} levels", fontsize=9)
    ax.legend(fontsize=7)
    _save(fig, paths)


def plot_fig11(model: dict, rows: list[dict], prestress: dict, paths) -> None:
    """(a) f^2 against force; (b) log-slope; (c) predicted against measured forces; (d) errors."""
    F = np.array([r["measured_N"] for r in rows])
    sd = np.array([r["scatter_N"] for r in rows])
    f = np.array([r["first_frequency_hz"] for r in rows])
    A, B = model["measured_law"]["A_hz2_per_N"], model["measured_law"]["B_hz2"]
    a, k = model["f2_per_newton"], model["static_force_factor"]
    src = prestress["frequency_source"]
    Fx = np.linspace(0, F.max() * 1.05, 100)
    fig, axes = plt.subplots(1, 4, figsize=(15, 3.8))
    ax = axes[0]
    ax.plot(F, f**2, "ko", mfc="w", ms=5, label=f"first frequency ({src})")
    ax.plot(Fx, A * Fx + B, "k-", lw=1.0, label="measured law $AF+B$")
    ax.plot(Fx, a * Fx, "k:", lw=1.2, label="model at transducer force")
    ax.plot(Fx, a * k * Fx, "k--", lw=1.0, label=f"model at static force (x{k:.3f})")
    ax.set_xlabel("cross-cable transducer force F (N)")
    ax.set_ylabel("$f_1^2$ (Hz$^2$)")
    ax.set_title("(a) mechanism law", fontsize=9)
    ax.legend(fontsize=7)
    ax = axes[1]
    Fl = np.linspace(F.min(), F.max(), 100)
    ax.plot(Fl, A * Fl / (2 * (A * Fl + B)), "k-", lw=1.0, label="measured law")
    ax.axhline(0.5, color="k", ls=":", lw=1.2, label="pin-jointed model (1/2)")
    ax.set_ylim(0, 0.55)
    ax.set_xlabel("F (N)")
    ax.set_ylabel("d ln f / d ln F")
    ax.set_title("(b) prestress sensitivity", fontsize=9)
    ax.legend(fontsize=7)
    ax = axes[2]
    pred = np.array([r["predicted_N"] for r in rows])
    paper = np.array([r["paper_predicted_N"] for r in rows], float)
    ax.errorbar(F, pred, xerr=sd, fmt="ks", ms=4, mfc="k", lw=0.8, label="predicted here")
    ax.plot(F, paper, "k^", mfc="w", ms=5, label="the paper's prediction")
    ax.plot([0, F.max() * 1.05], [0, F.max() * 1.05], color="0.5", lw=0.8, label="predicted = measured")
    ax.set_xlabel("measured force (N)")
    ax.set_ylabel("predicted force (N)")
    ax.set_title("(c) Table 8", fontsize=9)
    ax.legend(fontsize=7)
    ax = axes[3]
    lv = np.array([r["level"] for r in rows])
    ax.bar(lv - 0.2, [r["error_N"] for r in rows], 0.4, color="0.3", label=f"here ({src})")
    ax.bar(
        lv + 0.2, [r["paper_error_N"] for r in rows], 0.4, color="w", edgecolor="k", hatch="//", label="seed"
    )
    ax.fill_between(lv, -sd, sd, color="0.85", step="mid", label="transducer scatter", zorder=0)
    ax.set_xticks(lv)
    ax.set_xlabel("prestress level")
    ax.set_ylabel("error (N)")
    ax.set_title("(d) prediction error", fontsize=9)
    # headroom above the bars and the scatter band for a one-row legend
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi + 0.25 * (hi - lo))
    ax.legend(fontsize=7, loc="upper center", ncol=3, frameon=False)
    _save(fig, paths)
