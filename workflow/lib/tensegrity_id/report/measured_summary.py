"""The summary of a user's measured record: screening, identified values with bounds, misfit, assessment.

One row per identification method (its seeds pooled), from the result
records of ``results/identify/{method}/{structure}/{record}/measured_seed{s}.json``:

* identified force densities (N/m) and damper (N s/m): the mean over seeds;
* bounds that need no exact values: the relative Cramér–Rao bound at the
  identified parameters (``bounds`` of the result, every method: the
  shooting Fisher information at its identified point; of the first seed),
  and the seed scatter (sample standard deviation over seeds, %, where
  several seeds ran);
* the re-simulation misfit in noise variances per sample (``chi2``, about 1
  at the noise floor) and the spurious-minimum flag;
* the structural assessment of the identified prestress, computed by its
  own rule (:func:`tensegrity_id.analysis.assessment.assess_identified`,
  rule ``assess_measured_record``): stability class, margin (smallest
  eigenvalue of the reduced tangent stiffness, N/m), largest cable and bar
  utilisations.  Members the record cannot determine (screening
  ``undeterminable``) keep the structure's design value there, said in the
  row.  A fit failure (a spurious minimum, or a held-out misfit beyond the
  noise floor above the outcome rule's threshold,
  :func:`tensegrity_id.identify.scoring.classify_outcome`) is said beside
  the class: the assessment is then of the fitted numbers, not of the
  structure.

The screening (before the inversion) heads the table: per member
determinable / weak / undeterminable.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..identify.scoring import classify_outcome
from ..results.assessment import CLASS, IdentifiedPrestress, MeasuredAssessment, MethodAssessment
from ..results.identification import IdentificationResult
from ..results.screening import MeasuredSummary, MethodSummary, Screening, ScreeningDigest

__all__ = ["method_summary", "measured_summary", "summary_table"]


def _cell_pct(v) -> str:
    return "" if v is None else f"{100 * v:.2g}"


def method_summary(results: list, assessment: MethodAssessment) -> MethodSummary:
    """One method's seeds pooled: values, bounds, scatter, misfit, and its assessment.

    ``results`` are the method's identification results (one per seed:
    :class:`~tensegrity_id.results.identification.IdentificationResult`
    records, or the JSON objects of their files); ``assessment`` is the
    method's entry of :func:`tensegrity_id.analysis.assessment.assess_identified`.
    """
    results = [IdentificationResult.coerce(r) for r in results]
    sig = np.array([[np.nan if v is None else v for v in r.identified.sigma] for r in results], float)
    c = np.array([r.identified.c for r in results], float)
    mean = np.nanmean(sig, axis=0)
    kept_design = list(assessment.design_value_kept)
    scatter = None
    if len(results) > 1:
        scatter = {
            **{
                f"sigma_{k}": float(np.std(sig[:, k], ddof=1) / abs(mean[k]))
                for k in range(len(mean))
                if k not in kept_design
            },
            "c": float(np.std(c, ddof=1) / abs(c.mean())),
        }
    first = results[0]
    spurious = any(bool(r.spurious_minimum) for r in results)
    excess = [r.held_out_excess_pct for r in results if r.held_out_excess_pct is not None]
    fit_failure = spurious or classify_outcome(None, max(excess, default=None), None) == "fit failure"
    fs = first.identified.force_scale
    return MethodSummary(
        method=first.method,
        seeds=[int(r.seed) for r in results],
        sigma=[float(v) for v in mean],
        c=float(c.mean()),
        force_scale=None
        if fs is None
        else [float(np.mean([r.identified.force_scale[i] for r in results])) for i in range(len(fs))],
        force_scale_channels=first.identified.force_scale_channels,
        crlb_relative=None if first.bounds is None else first.bounds.crlb_relative,
        seed_scatter_relative=scatter,
        resimulation_chi2=float(np.mean([r.resimulation_chi2 for r in results])),
        spurious_minimum=spurious,
        held_out_excess_pct=first.held_out_excess_pct,
        # the data are not fitted: the assessment below is of the fitted numbers, not of the structure
        fit_failure=bool(fit_failure),
        design_value_kept=kept_design,
        assessment=IdentifiedPrestress(
            class_=assessment.class_,
            margin=assessment.margin,
            U_c_max=assessment.U_c_max,
            U_b_max=assessment.U_b_max,
            sigma_used=assessment.sigma_used,
        ),
    )


def measured_summary(
    structure, meta: dict, screening: Screening, results: list, assessment: MeasuredAssessment
) -> MeasuredSummary:
    """The record's summary: its source and noise, the screening, one block per method.

    ``screening`` is the record's screen (rule screen_measured_record),
    ``results`` the record's identification results (records or their
    files' JSON objects), ``assessment``
    :func:`tensegrity_id.analysis.assessment.assess_identified` of the same
    results (its own rule: no computation here).
    """
    by_method: dict[str, list] = {}
    for r in map(IdentificationResult.coerce, results):
        by_method.setdefault(r.method, []).append(r)
    return MeasuredSummary(
        structure=structure.name,
        record=meta["record"],
        source=meta["source"],
        channels=meta["channels"],
        noise_std=meta["noise_std"],
        noise_method=meta["noise_method"],
        screening=ScreeningDigest(
            members=screening.members,
            crlb_relative_nominal=screening.crlb_relative,
            condition=screening.condition_identifiable,
            structurally_invisible=screening.structurally_invisible,
        ),
        design=assessment.design,
        methods=[method_summary(rs, assessment.methods[m]) for m, rs in by_method.items()],
    )


def summary_table(summary: MeasuredSummary) -> pd.DataFrame:
    """Rows: the screening, the design prestress, then one per method (parameters as columns)."""
    screen = summary.screening
    members = list(screen.members)
    rows = [
        {"row": "screening (before inversion)", **{m: screen.members[m] for m in members}},
        {
            "row": "relative CRLB at design, %",
            **{m: _cell_pct(screen.crlb_relative_nominal.get(m)) for m in members},
        },
        {
            "row": "design prestress",
            **{f"sigma_{k}": f"{v:.4g}" for k, v in enumerate(summary.design.sigma)},
            CLASS: summary.design.class_,
            "margin N/m": f"{summary.design.margin:.4g}",
        },
    ]
    for m in summary.methods:
        vals = {f"sigma_{k}": f"{v:.4g}" for k, v in enumerate(m.sigma)}
        for k in m.design_value_kept:
            vals[f"sigma_{k}"] = "undetermined"
        vals["c"] = f"{m.c:.4g}"
        if m.force_scale is not None:
            vals["force scale"] = ", ".join(f"{v:.4g}" for v in m.force_scale)
        crlb = m.crlb_relative or {}
        scatter = m.seed_scatter_relative or {}
        a = m.assessment
        extra = {
            "chi2": f"{m.resimulation_chi2:.3g}" + (" (spurious minimum)" if m.spurious_minimum else ""),
            CLASS: a.class_ + (" (fit failure: not an assessment of the structure)" if m.fit_failure else ""),
            "margin N/m": f"{a.margin:.4g}",
            "U_c max": f"{a.U_c_max:.3g}",
            "U_b max": f"{a.U_b_max:.3g}",
        }
        rows.append({"row": f"{m.method} (seeds {', '.join(map(str, m.seeds))})", **vals, **extra})
        rows.append(
            {
                "row": f"{m.method}: relative CRLB at identified, %",
                **{k: _cell_pct(v) for k, v in crlb.items() if not k.startswith("f_")},
                **(
                    {"force scale": ", ".join(_cell_pct(crlb[k]) for k in sorted(crlb) if k.startswith("f_"))}
                    if m.force_scale is not None and crlb
                    else {}
                ),
            }
        )
        if scatter:
            rows.append(
                {"row": f"{m.method}: seed scatter, %", **{k: _cell_pct(v) for k, v in scatter.items()}}
            )
    return pd.DataFrame(rows).fillna("")
