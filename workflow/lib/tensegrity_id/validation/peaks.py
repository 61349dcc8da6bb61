"""A prestress scale from a list of measured natural frequencies (the modal path for a user's peaks).

A user with only the peaks of a spectrum (no force record) can still ask
one question of them: by what factor does the structure's prestress differ
from its design?  The model is the design prestress times one scale ``s``
(every force density, cables and bars, as a jack or a temperature change
acts), the frequencies of :class:`~tensegrity_id.validation.modal_fit.ModalFamily`
(cable stiffness and masses as designed), and the peaks are matched to the
model's distinct lines by a 1-based ``mode`` column (default: in order).
The scale is fitted in least squares (the hexagonal-prism identification of
the paper's §4.10, :func:`~tensegrity_id.validation.hexprism.fit_prestress_scale`);
its standard error is the residual RMS over the root sum of squared
sensitivities ``df_i/ds`` (with one peak: none, the fit is exact).

File (CSV, ``#`` comments): a ``frequency_hz`` column and an optional
``mode`` column; errors name the file and the row.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis.assessment import assess
from ..mechanics.dynamics import Dynamics
from ..results.assessment import PrestressVerdict, Verdict
from .hexprism import fit_prestress_scale, line_frequencies
from .modal_fit import ModalFamily

__all__ = ["PeakFileError", "read_peaks_csv", "peaks_identification", "peaks_table"]


class PeakFileError(ValueError):
    """A peak-list file that cannot be used; the message names the file and the row."""


def read_peaks_csv(path) -> dict:
    """``{"frequency_hz": array, "mode": list of int or None}`` of a peak-list file, checked."""
    path = Path(path)
    if not path.is_file():
        raise PeakFileError(f"{path}: no such peak-list file")
    with path.open(newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].lstrip().startswith("#")]
    if not rows or "frequency_hz" not in [h.strip() for h in rows[0]]:
        raise PeakFileError(f"{path}: the header must name a 'frequency_hz' column (and optionally 'mode')")
    head = [h.strip() for h in rows[0]]
    unknown = [h for h in head if h not in ("frequency_hz", "mode")]
    if unknown:
        raise PeakFileError(f"{path}: unknown column '{unknown[0]}' (columns: frequency_hz, mode)")
    fcol, mcol = head.index("frequency_hz"), head.index("mode") if "mode" in head else None
    freqs, modes = [], []
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(head):
            raise PeakFileError(f"{path}: row {i} has {len(r)} values, the header names {len(head)}")
        try:
            f = float(r[fcol])
        except ValueError:
            f = np.nan
        if not (np.isfinite(f) and f > 0):
            raise PeakFileError(
                f"{path}: row {i}: frequency '{r[fcol].strip()}' is not a positive number (Hz)"
            )
        freqs.append(f)
        if mcol is not None:
            m = r[mcol].strip()
            if not m.isdigit() or int(m) < 1:
                raise PeakFileError(f"{path}: row {i}: mode '{m}' is not a 1-based mode number")
            modes.append(int(m))
    if not freqs:
        raise PeakFileError(f"{path}: no peaks")
    if mcol is not None and len(set(modes)) != len(modes):
        raise PeakFileError(f"{path}: a mode number appears twice; each peak matches one model line")
    return {"frequency_hz": np.array(freqs), "mode": modes if mcol is not None else None, "source": str(path)}


def peaks_identification(structure, peaks: dict, *, tol_rel: float = 1e-8, rel_step: float = 1e-6) -> dict:
    """The peaks' prestress scale with its standard error and residuals; the scaled prestress assessed."""
    family = ModalFamily(Dynamics(structure))
    f = np.asarray(peaks["frequency_hz"], float)
    assignment = peaks["mode"] or list(range(1, f.size + 1))
    fit = fit_prestress_scale(family, f, assignment)
    s = fit["scale"]
    d = (
        line_frequencies(family, assignment, s * (1 + rel_step))
        - line_frequencies(family, assignment, s * (1 - rel_step))
    ) / (2 * s * rel_step)
    se = None
    if f.size > 1:
        rss = float(np.sum(np.asarray(fit["residual_hz"]) ** 2))
        se = float(np.sqrt(rss / (f.size - 1)) / np.sqrt(np.sum(d**2)))
    sigma = s * np.asarray(structure.sigma, float)
    a = assess(structure, sigma, bars="rigid", tol_rel=tol_rel)
    design = assess(structure, None, bars="rigid", tol_rel=tol_rel)
    return {
        "structure": structure.name,
        "source": peaks["source"],
        "peaks_hz": f.tolist(),
        "assignment": list(assignment),
        "scale": s,
        "scale_std_error": se,
        "model_hz": fit["model_hz"],
        "residual_hz": fit["residual_hz"],
        "rms_residual_hz": fit["rms_residual_hz"],
        "sensitivity_hz_per_scale": d.tolist(),
        "sigma": sigma.tolist(),
        "design_sigma": list(map(float, structure.sigma)),
        "assessment": PrestressVerdict(
            class_=a.class_, margin=a.lambda_min, U_c_max=a.U_c_max, U_b_max=a.U_b_max
        ).to_json(),
        "design_assessment": Verdict(class_=design.class_, margin=design.lambda_min).to_json(),
        "model": "design prestress x one scale; cable EA and masses as designed (the paper §4.10)",
    }


def peaks_table(res: dict) -> pd.DataFrame:
    """Rows of :func:`peaks_identification`'s result: per peak measured, model and residual (Hz),
    then the scale with its standard error, and the class and margin against the design's."""
    scaled = PrestressVerdict.from_json(res["assessment"])
    design = Verdict.from_json(res["design_assessment"])
    rows = [
        {
            "peak": k + 1,
            "mode": m,
            "measured Hz": f"{f:.4g}",
            "model Hz": f"{g:.4g}",
            "residual Hz": f"{r:+.3g}",
        }
        for k, (m, f, g, r) in enumerate(
            zip(res["assignment"], res["peaks_hz"], res["model_hz"], res["residual_hz"], strict=True)
        )
    ]
    se = res["scale_std_error"]
    rows.append(
        {
            "peak": "scale",
            "mode": "",
            "measured Hz": "",
            "model Hz": f"{res['scale']:.4f}" + ("" if se is None else f" +- {se:.2g}"),
            "residual Hz": f"RMS {res['rms_residual_hz']:.3g}",
        }
    )
    rows.append(
        {
            "peak": "class",
            "mode": "",
            "measured Hz": "",
            "model Hz": f"{scaled.class_} (margin {scaled.margin:.4g} N/m)",
            "residual Hz": f"design: {design.class_} ({design.margin:.4g} N/m)",
        }
    )
    return pd.DataFrame(rows)
