"""Figures 6 and 7: the zero-gravity prism series and the two-span bridge (the paper §4.6, §4.7).

Each figure comes with a summary dict (written beside it as
``results/values/fig6_prism_series.json`` / ``fig7_bridge.json``) holding
every number the figure draws, so the closing notes and the scorecard quote
files, not pictures.  Errors are relative to the exact values of each run's
record (``exact``), in %; bounds are the relative Cramér–Rao bounds of the
record's Fisher information at the exact values.  A summary's entry named
after a result key (``sigma_max_pct``, ``held_out_ratio``, ``crlb_max_pct``,
...) holds that quantity and takes its name from
:data:`~tensegrity_id.results.identification.KEY` or
:data:`~tensegrity_id.results.fisher.FISHER_KEY`.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..data.sensors import active_channels  # noqa: E402
from ..results.fisher import FISHER_KEY, FisherAnalysis  # noqa: E402
from ..results.identification import KEY, IdentificationResult  # noqa: E402
from .axes import headroom as _headroom  # noqa: E402
from .axes import plain_log_ticks as _plain_log_ticks  # noqa: E402
from .plot_structures import draw_structure  # noqa: E402

__all__ = ["prism_series_summary", "plot_fig6", "bridge_summary", "plot_fig7"]

GREYS = ("0.15", "0.5", "0.8")
HATCHES = ("", "//", "..")


def _save(fig, paths) -> None:
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)


_CRLB_MAX_PCT = FISHER_KEY.crlb_max_pct
"""A summary's worst relative Cramér–Rao bound (%), of the record's Fisher analysis at the exact values."""


def _worst_crlb_pct(fisher: FisherAnalysis) -> float:
    return 100.0 * max(fisher.crlb_relative.values())


# ------------------------------------------------------------------ Figure 6
def prism_series_summary(
    level_rows: list[dict],
    level_runs: list[IdentificationResult],
    level_fisher: list[FisherAnalysis],
    repeat_rows: list[dict],
    repeat_runs: list[list[IdentificationResult]],
    cross: list[int],
    triangle: list[int],
    paper: dict | None = None,
) -> dict:
    """The numbers of Figure 6.

    Parameters
    ----------
    level_rows, level_runs, level_fisher
        Per prestress level: the config row (``level`` in N/m), one run
        result (the first seed) and the record's Fisher analysis.
    repeat_rows, repeat_runs
        The repeated lowest level: per row (one per training length) its
        runs over the seeds.
    cross, triangle
        Cable indices of the cross cables and of the free (top) triangle
        cables; the exact force densities are in the ratio sqrt(3).
    """
    levels = []
    for row, run, fisher in zip(level_rows, level_runs, level_fisher, strict=True):
        sig = np.asarray(run.identified.sigma, float)
        ratio = float(np.mean(sig[cross]) / np.mean(sig[triangle]))
        exact = np.asarray(run.exact.sigma, float)
        levels.append(
            {
                "row": row["row"],
                "level": float(row["level"]),
                "record": row["record"],
                "n_transitions": run.n_transitions,
                "sigma_identified": sig.tolist(),
                "sigma_exact": exact.tolist(),
                KEY.sigma_pct: run.errors.sigma_pct,
                KEY.sigma_max_pct: run.errors.sigma_max_pct,
                KEY.c_pct: run.errors.c_pct,
                "cross_triangle_ratio": ratio,
                "cross_triangle_ratio_exact": float(np.mean(exact[cross]) / np.mean(exact[triangle])),
                KEY.held_out_ratio: run.held_out_ratio,
                KEY.outcome: run.outcome,
                _CRLB_MAX_PCT: _worst_crlb_pct(fisher),
                FISHER_KEY.condition_identifiable: fisher.condition_identifiable,
            }
        )
    repeats = []
    for row, runs in zip(repeat_rows, repeat_runs, strict=True):
        worst = [r.errors.sigma_max_pct for r in runs]
        members = [int(np.nanargmax([np.nan if e is None else e for e in r.errors.sigma_pct])) for r in runs]
        signs = [
            int(np.sign(r.identified.sigma[m] - r.exact.sigma[m])) for r, m in zip(runs, members, strict=True)
        ]
        repeats.append(
            {
                "row": row["row"],
                "record": row["record"],
                "steps": int(row["steps"]),
                "seeds": [int(r.seed) for r in runs],
                "worst_pct": worst,
                "worst_member": members,
                "worst_sign": signs,
                "mean_worst_pct": float(np.mean(worst)),
                "min_worst_pct": float(np.min(worst)),
            }
        )
    low = min(levels, key=lambda x: x["level"]) if levels else None
    high = max(levels, key=lambda x: x["level"]) if levels else None
    return {
        "levels": levels,
        "repeats": repeats,
        "crlb_growth": (low[_CRLB_MAX_PCT] / high[_CRLB_MAX_PCT])
        if low and high and low is not high
        else None,
        "repeat_over_crlb": [r["mean_worst_pct"] / low[_CRLB_MAX_PCT] for r in repeats] if low else [],
        "cross": list(cross),
        "triangle": list(triangle),
        "paper": paper or {},
    }


def plot_fig6(summary: dict, paths) -> None:
    """(a) identified over exact force density per cable and level, (b) the cross/triangle ratio,
    (c) worst-member error of the repeated lowest level against its CRLB, (d) worst CRLB by level."""
    fig, ax = plt.subplots(1, 4, figsize=(15, 3.7))
    levels = summary["levels"]
    paper = summary.get("paper") or {}
    width = 0.8 / max(len(levels), 1)
    for k, lv in enumerate(levels):
        sig, ex = np.array(lv["sigma_identified"]), np.array(lv["sigma_exact"])
        idx = summary["triangle"] + summary["cross"]
        x = np.arange(len(idx)) + k * width
        ax[0].bar(
            x,
            sig[idx] / ex[idx],
            width,
            color=GREYS[k % 3],
            hatch=HATCHES[k % 3],
            edgecolor="0.2",
            label=f"{lv['level']:g} N/m",
        )
    idx = summary["triangle"] + summary["cross"]
    ax[0].axhline(1.0, color="k", lw=0.8)
    ax[0].axhspan(0.9, 1.1, color="tab:green", alpha=0.12, label="±10 %")
    ax[0].set_xticks(
        np.arange(len(idx)) + 0.4 - width / 2,
        [f"{'tri' if i in summary['triangle'] else 'cross'} {i}" for i in idx],
        rotation=60,
        fontsize=7,
    )
    ax[0].set_ylabel("identified / exact force density")
    ax[0].set_title("(a) per cable and prestress level", fontsize=9)
    _headroom(ax[0], 0.3)
    ax[0].legend(fontsize=7, frameon=False, ncol=2, loc="upper left")
    lv_x = [lv["level"] for lv in levels]
    ax[1].plot(lv_x, [lv["cross_triangle_ratio"] for lv in levels], "ko-", label="identified")
    ax[1].axhline(np.sqrt(3), color="k", ls="--", lw=0.8, label="exact √3")
    ax[1].set_xscale("log")
    _plain_log_ticks(ax[1].xaxis)
    ax[1].set_xlabel("prestress level (N/m)")
    ax[1].set_ylabel("mean cross σ / mean triangle σ")
    ax[1].set_title("(b) the √3 ratio", fontsize=9)
    ax[1].legend(fontsize=7, frameon=False)
    low = min(levels, key=lambda x: x["level"]) if levels else None
    for k, rep in enumerate(summary["repeats"]):
        ax[2].scatter(
            np.full(len(rep["worst_pct"]), k),
            rep["worst_pct"],
            color="0.4",
            s=14,
            zorder=3,
            label="single seed" if k == 0 else None,
        )
        ax[2].bar(
            k,
            rep["mean_worst_pct"],
            0.6,
            color="0.85",
            edgecolor="0.3",
            label="seed mean" if k == 0 else None,
        )
        pub = (paper.get("mean_worst_pct") or {}).get(str(rep["steps"]))
        if pub is not None:
            ax[2].plot([k - 0.3, k + 0.3], [pub, pub], "r-", lw=1.5, label="paper" if k == 0 else None)
    if low is not None:
        ax[2].axhline(
            low[_CRLB_MAX_PCT], color="k", ls="--", lw=0.8, label=f"CRLB {low[_CRLB_MAX_PCT]:.2g} %"
        )
    ax[2].set_xticks(range(len(summary["repeats"])), [f"{r['steps']} steps" for r in summary["repeats"]])
    ax[2].set_yscale("log")
    _plain_log_ticks(ax[2].yaxis)
    ax[2].set_ylabel("worst-member σ error (%)")
    ax[2].set_title(
        f"(c) lowest level, {len(summary['repeats'][0]['seeds']) if summary['repeats'] else 0} seeds",
        fontsize=9,
    )
    _headroom(ax[2], 0.35)
    ax[2].legend(fontsize=7, frameon=False, loc="upper right")
    ax[3].semilogy(lv_x, [lv[_CRLB_MAX_PCT] for lv in levels], "ko-", label="worst relative CRLB")
    ax[3].semilogy(
        lv_x,
        [max(lv[KEY.sigma_max_pct], 1e-3) for lv in levels],
        "s--",
        color="0.5",
        label="worst error, seed 0",
    )
    for lvl, v in (paper.get(_CRLB_MAX_PCT) or {}).items():
        ax[3].plot(
            float(lvl), v, "r^", label="paper CRLB" if lvl == next(iter(paper[_CRLB_MAX_PCT])) else None
        )
    ax[3].set_xscale("log")
    _plain_log_ticks(ax[3].xaxis)
    ax[3].set_xlabel("prestress level (N/m)")
    ax[3].set_ylabel("relative CRLB or σ error (%)")
    ax[3].set_title("(d) bound and error against level", fontsize=9)
    ax[3].legend(fontsize=7, frameon=False)
    _save(fig, paths)


# ------------------------------------------------------------------ Figure 7
def bridge_summary(
    rows: list[dict],
    runs: list[IdentificationResult],
    fishers: list[FisherAnalysis],
    channels: list,
    noise_std,
    within_pct: float = 5.0,
    paper: dict | None = None,
) -> dict:
    """The numbers of Figure 7: per record the median and worst force-density errors, the cables
    within ``within_pct``, the damper error, the held-out ratio, the outcome and the worst CRLB, and the
    sensor channels that carry no signal (zero RMS: a node the bars hold fixed)."""
    active = active_channels(noise_std)
    inactive = [list(map(int, c)) for c, on in zip(channels, active, strict=True) if not on]
    out = []
    for row, run, fisher in zip(rows, runs, fishers, strict=True):
        err = np.array([np.nan if e is None else e for e in run.errors.sigma_pct], float)
        ok = err[np.isfinite(err)]
        out.append(
            {
                "row": row["row"],
                "record": row["record"],
                "steps": int(row["steps"]),
                "n_transitions": run.n_transitions,
                KEY.sigma_pct: run.errors.sigma_pct,
                KEY.sigma_median_pct: float(np.median(ok)),
                KEY.sigma_max_pct: float(ok.max()),
                "within": int((ok <= within_pct).sum()),
                "n_identifiable": int(ok.size),
                KEY.c_pct: run.errors.c_pct,
                KEY.held_out_ratio: run.held_out_ratio,
                KEY.resimulation_chi2: run.resimulation_chi2,
                KEY.outcome: run.outcome,
                _CRLB_MAX_PCT: _worst_crlb_pct(fisher),
                FISHER_KEY.null_members: fisher.null_members,
            }
        )
    return {
        "records": out,
        "within_pct": within_pct,
        "channels": [list(map(int, c)) for c in channels],
        "inactive_channels": inactive,
        "paper": paper or {},
    }


def plot_fig7(summary: dict, structure, paths) -> None:
    """(a) the bridge with its sensors (inactive channels crossed), (b) per-cable error per record,
    (c) the summary against the paper."""
    fig = plt.figure(figsize=(15, 4.0))
    gs = fig.add_gridspec(1, 3, width_ratios=[1.3, 1.3, 1.0])
    a0, a1, a2 = (fig.add_subplot(gs[0, k]) for k in range(3))
    draw_structure(a0, structure, title="(a) bridge: sensors (x: no signal)")
    x = structure.nodes
    inactive = {tuple(c) for c in summary["inactive_channels"]}
    for node, axis in summary["channels"]:
        d = np.zeros(2)
        d[axis] = 0.25
        off = tuple((node, axis)) in inactive
        a0.annotate(
            "",
            xy=x[node][:2] + d,
            xytext=x[node][:2],
            arrowprops={"arrowstyle": "->", "color": "0.6" if off else "tab:blue", "lw": 1.2},
        )
        if off:
            a0.plot(*(x[node][:2] + d / 2), "x", color="tab:red", ms=8, mew=2)
    recs = summary["records"]
    width = 0.8 / max(len(recs), 1)
    for k, r in enumerate(recs):
        err = np.array([np.nan if e is None else e for e in r[KEY.sigma_pct]], float)
        a1.bar(
            np.arange(err.size) + k * width,
            np.maximum(err, 1e-3),
            width,
            color=GREYS[k % 3],
            hatch=HATCHES[k % 3],
            edgecolor="0.2",
            label=r["record"],
        )
    a1.axhline(summary["within_pct"], color="k", ls="--", lw=0.8, label=f"{summary['within_pct']:g} %")
    a1.set_yscale("log")
    _headroom(a1, 0.25)
    if recs:
        n_c = len(recs[0][KEY.sigma_pct])
        a1.set_xticks(np.arange(n_c) + (len(recs) - 1) * width / 2, [str(i) for i in range(n_c)], fontsize=7)
        for i, e in enumerate(recs[0][KEY.sigma_pct]):
            if e is None:  # an inert member: no error is defined
                a1.text(
                    i, 0.02, "inert", transform=a1.get_xaxis_transform(), rotation=90, fontsize=7, ha="center"
                )
    a1.set_xlabel("cable")
    a1.set_ylabel("force-density error (%)")
    a1.set_title("(b) per cable", fontsize=9)
    a1.legend(fontsize=7, loc="upper center", ncol=len(recs) + 1, frameon=False)
    a2.axis("off")
    paper = summary.get("paper") or {}
    lines = ["record        median  worst  <=5%   c     ratio  CRLB"]
    for r in recs:
        lines.append(
            f"{r['record']:<12} {r[KEY.sigma_median_pct]:6.2f} {r[KEY.sigma_max_pct]:6.1f} "
            f"{r['within']:>2}/{r['n_identifiable']:<2} {r[KEY.c_pct]:5.2f} "
            f"{(r[KEY.held_out_ratio] or float('nan')):5.2f} {r[_CRLB_MAX_PCT]:.2g}"
        )
        p = paper.get(r["row"])
        if p:
            keys = (KEY.sigma_median_pct, KEY.sigma_max_pct, KEY.c_pct, KEY.held_out_ratio)
            median, worst, c, ratio = (p.get(k, "-") for k in keys)
            lines.append(
                f"  paper      {median!s:>6} {worst!s:>6} {p.get('within', '-')!s:>5} {c!s:>5} {ratio!s:>5} "
                f"{p.get(_CRLB_MAX_PCT, '-')!s}"
            )
    lines.append("errors and bounds in %; ratio: held-out")
    a2.text(0.0, 0.95, "\n".join(lines), family="monospace", fontsize=8.5, va="top")
    a2.set_title("(c) summary (this run / paper)", fontsize=9)
    _save(fig, paths)
