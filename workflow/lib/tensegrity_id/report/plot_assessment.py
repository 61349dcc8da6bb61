"""Figure S3: the stability class across prestress scaling and along a record."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.runio import save_figure  # noqa: E402
from ..results.assessment import (  # noqa: E402
    ENERGY_ARRAYS,
    PrestressScan,
    RecordAssessment,
    SteelDesign,
    StructureAssessment,
)
from .axes import headroom as _headroom  # noqa: E402

__all__ = ["plot_figS2", "plot_figS3"]

CLASS_LEVEL = {"unstable": 0, "stable": 1, "super-stable": 2}
ENERGY_LABELS = ("$T$", "$V_g$", "$V_s$")
"""Legend labels of the record's energies, in the order of ENERGY_ARRAYS."""
# a class has a colour and a marker, a structure a line style: apart in greyscale too
CLASS_STYLE = {
    "super-stable": {"color": "C2", "marker": "o"},
    "stable": {"color": "C1", "marker": "s"},
    "unstable": {"color": "C3", "marker": "x"},
}
SCAN_LINES = ("-", "--", ":", "-.")


def plot_figS3(
    scans: list[PrestressScan],
    records: list[RecordAssessment],
    paths,
    *,
    steel: list[SteelDesign] = (),
) -> None:
    """Top left: lambda_min(K_t) against the prestress scale, coloured by class; top right: the
    utilisation curves of the steel designs (U_c, U_b and the margin against the largest cable
    tension); below, per record: the instantaneous class and margin, and the energies T, V_g, V_s."""
    nrow = 1 + len(records)
    fig, axes = plt.subplots(nrow, 2, figsize=(10, 3.2 * nrow), squeeze=False)
    ax = axes[0, 0]
    classes = {}
    for k, sc in enumerate(scans):
        s = np.array([r.scale for r in sc.scan])
        lam = np.array([r.lambda_min for r in sc.scan])
        ax.plot(s, lam, ls=SCAN_LINES[k % len(SCAN_LINES)], color="0.5", lw=0.9, label=sc.structure)
        for cls, style in CLASS_STYLE.items():
            m = np.array([r.class_ == cls for r in sc.scan])
            if m.any():
                classes[cls] = ax.plot(s[m], lam[m], ls="", ms=4, **style)[0]
    ax.axhline(0, color="k", lw=0.6)
    ax.set_xlabel("prestress scale (-)")
    ax.set_ylabel(r"$\lambda_{\min}(K_t)$ (N/m)")
    ax.set_title("class as the prestress is scaled and reversed", fontsize=9)
    # structures (line styles) first, then classes (markers)
    h, labels = ax.get_legend_handles_labels()
    ax.legend(h + list(classes.values()), labels + list(classes), fontsize=7, loc="upper left")
    ax = axes[0, 1]
    if steel:
        for sd in steel:
            T = np.array([r.max_tension for r in sd.curves]) / 1e3
            ax.plot(T, [r.U_c_max for r in sd.curves], "o-", ms=3, label=rf"{sd.structure} $U_c$")
            ax.plot(T, [r.U_b_max for r in sd.curves], "s-", ms=3, label=rf"{sd.structure} $U_b$")
            ax.axvline(sd.max_tension / 1e3, color="0.6", ls=":", lw=0.8, label=f"{sd.structure} design")
        ax.axhline(1.0, color="C3", lw=0.8, label="$U = 1$")
        ax.set_xlabel("largest cable tension (kN)")
        ax.set_ylabel("utilisation (-)")
        ax2 = ax.twinx()
        top = 0.0
        for sd in steel:
            T = np.array([r.max_tension for r in sd.curves]) / 1e3
            lam = np.array([r.rigid.lambda_min for r in sd.curves]) / 1e3
            ax2.plot(T, lam, "--", color="0.4", lw=0.8, label=rf"{sd.structure} $\lambda_{{\min}}$ (right)")
            top = max(top, lam.max())
        ax2.set_ylabel(r"$\lambda_{\min}(K_t)$ (kN/m, dashed)")
        ax2.set_ylim(0, 1.6 * top)
        _headroom(ax, 0.3)
        ax.set_title("steel design: utilisation and margin as the prestress rises", fontsize=9)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper left", ncol=2, frameon=False)
    else:
        ax.axis("off")
    for i, rec in enumerate(records, start=1):
        t = np.asarray(rec.t)
        ax = axes[i, 0]
        ax.step(
            t,
            [CLASS_LEVEL[c] for c in rec.class_],
            where="post",
            color="C0",
            lw=1.6,
            label="class (left axis)",
        )
        ax.set_yticks([0, 1, 2], ["unstable", "stable", "super-stable"])
        # room above the super-stable level for a one-row legend
        ax.set_ylim(-0.2, 3.0)
        ax.set_xlabel("t (s)")
        ax2 = ax.twinx()
        ax2.plot(t, rec.lambda_min, color="C1", lw=0.7, label=r"$\lambda_{\min}$, slack cables out of $S$")
        ax2.plot(t, rec.lambda_min_tangent, color="C3", lw=0.6, ls="--", label="and out of $K_M$")
        ax2.axhline(0, color="k", lw=0.4)
        ax2.set_ylabel(r"$\lambda_{\min}$ (N/m)", color="C1")
        _headroom(ax2, 0.4)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax2.legend(h1 + h2, l1 + l2, fontsize=6.5, loc="upper left", ncol=2, frameon=False)
        ax.set_title(f"{rec.structure} {rec.record}: instantaneous class", fontsize=9)
        ax = axes[i, 1]
        for key, lab, ls in zip(ENERGY_ARRAYS, ENERGY_LABELS, ("-", "--", "-."), strict=True):
            if getattr(rec, key) is not None:
                ax.plot(t, getattr(rec, key), lw=0.9, ls=ls, label=lab)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("energy (J)")
        _headroom(ax, 0.2)
        ax.legend(fontsize=7, loc="upper center", ncol=3, frameon=False)
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)


def plot_figS2(assessments: list[StructureAssessment], paths) -> None:
    """Spectra of the reduced tangent stiffness and of the stress matrix per structure (rigid bars).

    Symmetric-log axis; a negative stress-matrix eigenvalue marks a
    configuration that is stable only through the material stiffness.
    """
    colours = {"super-stable": "C2", "stable": "C1", "unstable": "C3"}
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.45 * len(assessments) + 1.8), sharey=True)
    names = [a.structure for a in assessments]
    for ax, spectrum, title in (
        (axes[0], lambda a: a.rigid.eigenvalues_Kt, r"eigenvalues of the reduced $K_t$"),
        (axes[1], lambda a: a.rigid.eigenvalues_KG, r"eigenvalues of the stress matrix $K_G$"),
    ):
        for i, a in enumerate(assessments):
            ev = np.asarray(spectrum(a))
            ax.plot(ev, np.full(ev.size, i), "|", ms=10, color=colours[a.rigid.class_])
        allev = np.concatenate([np.asarray(spectrum(a)) for a in assessments])
        if (allev > 0).all():
            ax.set_xscale("log")
        else:
            ax.axvline(0, color="k", lw=0.6)
            ax.set_xscale("symlog", linthresh=1.0)
            top = 10 ** np.ceil(np.log10(np.abs(allev).max()))
            ax.set_xticks([t for t in (-top, -top / 100, 0, top / 100, top) if abs(t) >= 1 or t == 0])
        ax.set_xlabel("eigenvalue (N/m)")
        ax.set_title(title, fontsize=9)
    axes[0].set_yticks(
        range(len(names)), [f"{n} ({a.rigid.class_})" for n, a in zip(names, assessments, strict=True)]
    )
    axes[0].invert_yaxis()
    fig.tight_layout()
    save_figure(fig, paths, dpi=150)
    plt.close(fig)
