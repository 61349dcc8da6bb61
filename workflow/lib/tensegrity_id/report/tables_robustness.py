"""Robustness tables: failures that no exact parameter reveals, and a force taken uncalibrated.

The silent-failure table asks which no-truth signals (re-simulation misfit,
seed scatter, held-out misfit, the Cramér-Rao bound at the estimate) flag
each run, with the same thresholds for every row (:data:`SILENT_FLAGS`), and
whether the hybrid ``pinn_lm`` removes a failure; the force-scale table sets
the identified force factor beside the true one, for the physics-informed
runs and the Levenberg-Marquardt variants that take the force as recorded or fit it.
"""

from __future__ import annotations

import pandas as pd

from ..results.fisher import FISHER_KEY
from ..results.identification import KEY, IdentificationResult, VariantsResult
from .table_stats import mean_of, outcome_label, sd_of

__all__ = [
    "SILENT_COLUMNS",
    "SILENT_FLAGS",
    "FORCE_SCALE_COLUMNS",
    "seed_scatter_pct",
    "silent_failure_table",
    "force_scale_table",
]


SILENT_COLUMNS = [
    "row",
    "structure",
    "record",
    "protocol",
    "seeds",
    KEY.outcome,
    KEY.sigma_max_pct,
    KEY.held_out_ratio,
    KEY.held_out_misfit_pct,
    KEY.held_out_excess_pct,
    "resim_chi2",
    "seed_scatter_pct",
    "fisher_cond",
    FISHER_KEY.crlb_max_pct,
    "flag_chi2",
    "flag_scatter",
    "flag_fit",
    "flag_crlb",
    "flagged_by",
    "pinn_lm_sigma_max_pct",
    "pinn_lm_c_pct",
    "pinn_lm_chi2",
    "pinn_lm_outcome",
    "pinn_lm_removes",
]
"""The silent-failure table: per row, the signals that need no exact parameters, and the hybrid."""


def seed_scatter_pct(results: list[IdentificationResult]) -> float | None:
    """Largest seed-to-seed standard deviation of an identifiable force density, % of its seed mean."""
    if len(results) < 2:
        return None
    worst = None
    for k in results[0].identifiable:
        vals = [x.identified.sigma[k] for x in results if x.identified.sigma[k] is not None]
        m, sd = mean_of(vals), sd_of(vals)
        if m and sd is not None:
            worst = max(worst or 0.0, 100.0 * sd / abs(m))
    return worst


SILENT_FLAGS = {"chi2": 2.0, "scatter_pct": 5.0, "misfit_pct": 10.0, "crlb_pct": 5.0}
"""Default thresholds of the silent-failure flags (config ``silent_failures.flags`` overrides them)."""


def silent_failure_table(
    rows: list[dict],
    pinn: list[list[IdentificationResult]],
    hybrid: list[list[IdentificationResult]],
    flags: dict,
) -> pd.DataFrame:
    """Which no-truth signals flag each run, and whether ``pinn_lm`` removes a failure.

    ``flags``: ``chi2`` (re-simulation misfit per sample above which a run is
    flagged; 1 is the noise floor), ``scatter_pct`` (seed scatter above
    which a group is flagged) and ``misfit_pct`` (the outcome rule's
    held-out misfit beyond the noise floor) and ``crlb_pct`` (worst relative Cramér–Rao bound of the
    Fisher information at the identified parameters, ``fisher_at_start`` of
    the hybrid's record: above it the record cannot determine a parameter to
    that precision around the estimate).  The same thresholds for every row:
    nothing is tuned per case.  ``pinn_lm_removes``: the PINN run was not ``identified`` and
    the hybrid's is.
    """
    out = []
    for row, p, h in zip(rows, pinn, hybrid, strict=True):
        chi2 = mean_of(x.resimulation_chi2 for x in p)
        scatter = seed_scatter_pct(p)
        misfit = mean_of(x.held_out_misfit_pct for x in p)
        excess = mean_of(x.held_out_excess_pct for x in p)
        f_chi2 = chi2 is not None and chi2 > flags["chi2"]
        f_scatter = scatter is not None and scatter > flags["scatter_pct"]
        f_fit = excess is not None and excess > flags["misfit_pct"]
        fish = [x.fisher_at_start for x in h if x.fisher_at_start is not None]
        cond = mean_of(f.condition_identifiable for f in fish)
        crlb = mean_of(f.crlb_max_pct for f in fish)
        f_crlb = crlb is not None and crlb > flags["crlb_pct"]
        outcome = outcome_label(p)
        h_outcome = outcome_label(h) if h else None
        out.append(
            {
                "row": row["row"],
                "structure": row["structure"],
                "record": row["record"],
                "protocol": row["protocol"],
                "seeds": len(p),
                KEY.outcome: outcome,
                KEY.sigma_max_pct: mean_of(x.errors.sigma_max_pct for x in p),
                KEY.held_out_ratio: mean_of(x.held_out_ratio for x in p),
                KEY.held_out_misfit_pct: misfit,
                KEY.held_out_excess_pct: excess,
                "resim_chi2": chi2,
                "seed_scatter_pct": scatter,
                "fisher_cond": cond,
                FISHER_KEY.crlb_max_pct: crlb,
                "flag_chi2": f_chi2,
                "flag_scatter": f_scatter if scatter is not None else None,
                "flag_fit": f_fit,
                "flag_crlb": f_crlb if crlb is not None else None,
                "flagged_by": ", ".join(
                    n
                    for n, f in (("chi2", f_chi2), ("scatter", f_scatter), ("fit", f_fit), ("crlb", f_crlb))
                    if f
                )
                or "none",
                "pinn_lm_sigma_max_pct": mean_of(x.errors.sigma_max_pct for x in h) if h else None,
                "pinn_lm_c_pct": mean_of(x.errors.c_pct for x in h) if h else None,
                "pinn_lm_chi2": mean_of(x.chi2 for x in h) if h else None,
                "pinn_lm_outcome": h_outcome,
                "pinn_lm_removes": bool(outcome != "identified" and h_outcome == "identified") if h else None,
            }
        )
    return pd.DataFrame(out, columns=SILENT_COLUMNS)


FORCE_SCALE_COLUMNS = [
    "row",
    "label",
    "method",
    KEY.force_scale,
    "force_scale_true",
    KEY.force_scale_pct,
    "force_scale_crlb_pct",
    KEY.sigma_max_pct,
    KEY.c_pct,
    "resim_chi2",
    KEY.outcome,
]
"""The uncalibrated-force table: identified and true force factor, its error and bound (%), the
largest force-density error over identifiable cables (%), the damper error (%), the re-simulation
chi2 (noise variances per sample) and the outcome."""


def _force_row(row: dict, method: str, runs: list, true_scale) -> dict:
    """One row over ``runs`` (identification results, or the variant runs of a variants result)."""
    fs = [r.identified.force_scale for r in runs]
    fitted = all(f is not None for f in fs)
    crlb = [None if r.bounds is None else r.bounds.crlb_relative.get("f_0") for r in runs]
    return {
        "row": row["row"],
        "label": row.get("label", ""),
        "method": method,
        KEY.force_scale: mean_of(f[0] for f in fs) if fitted else None,
        "force_scale_true": true_scale,
        KEY.force_scale_pct: mean_of(r.errors.force_scale_pct[0] for r in runs) if fitted else None,
        "force_scale_crlb_pct": mean_of(100 * c for c in crlb if c is not None),
        KEY.sigma_max_pct: mean_of(r.errors.sigma_max_pct for r in runs),
        KEY.c_pct: mean_of(r.errors.c_pct for r in runs),
        "resim_chi2": mean_of(r.resimulation_chi2 for r in runs),
        KEY.outcome: outcome_label(runs),
    }


def force_scale_table(
    rows: list[dict], pinn: list[list[IdentificationResult]], lm: VariantsResult | None, true_scale: float
) -> pd.DataFrame:
    """PINN rows (each with its seeds' results) and the LM variants (force taken as recorded, fitted)."""
    out = [_force_row(row, "pinn", res, true_scale) for row, res in zip(rows, pinn, strict=True)]
    for v in [] if lm is None else lm.variants:
        mode = v.options.get("force_scale") or "known"
        label = "force scale fitted" if mode == "fit" else "force taken as recorded"
        out.append(_force_row({"row": f"lm_{mode}", "label": label}, "lm_shooting", [v], true_scale))
    return pd.DataFrame(out, columns=FORCE_SCALE_COLUMNS)
