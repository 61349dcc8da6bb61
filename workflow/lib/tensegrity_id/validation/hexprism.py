"""Modal identification of the hexagonal laboratory prism (the paper §4.10, Figure 8).

The published test (Huang et al., the paper's ref. [20]) gives a driving-point
frequency response with four identified peaks; the rebuilt model
(generator ``hexprism``) gives the small-oscillation frequencies as a
function of a single prestress scale ``s`` (every force density times
``s``; the ring tension is ``s`` times the design 10 N) and, optionally, a
cable stiffness scale ``e`` (:class:`~tensegrity_id.validation.modal_fit.ModalFamily`).

Assignment
    The measured peaks are matched to the model's *distinct* frequency
    lines (degenerate pairs count once), each peak named by the first mode
    number of its line: the paper's order-preserving assignment sends the
    four peaks to the lines of modes 2-3, 4-5, 6 and 7; its alternative
    pairs 9.688 Hz with mode 6 (and the later peaks with the later lines).

Fits
    * prestress scale alone: ``min_s sum_i (f_i(s) - p_i)^2`` over ``ln s``
      (bounded scalar search; the frequencies are monotone in ``s``);
    * prestress and stiffness: ``min_{s,e}`` the same sum
      (``scipy.optimize.least_squares`` in ``(ln s, ln e)``).

    The residual reported is the root-mean-square frequency residual (Hz).

Bar geometric stiffness
    The frequencies with and without the transverse geometric stiffness of
    the compressed bars (the bars' ``lambda I`` term of ``K_g``), matched
    mode by mode by the modal assurance criterion on the elastic subspace
    (summed over a degenerate pair, whose individual shapes are arbitrary).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares, minimize_scalar

from .modal_fit import ModalFamily, distinct_lines

__all__ = [
    "line_frequencies",
    "fit_prestress_scale",
    "fit_scale_and_stiffness",
    "tracked_frequencies",
    "stiffness_profile",
    "bar_geometric_effect",
    "modal_identification",
    "hexprism_identification",
    "tension_scan",
]


def line_frequencies(family: ModalFamily, assignment, scale: float = 1.0, ea_scale: float = 1.0):
    """Model frequencies (Hz) of the lines holding the assigned 1-based mode numbers."""
    lines, modes = distinct_lines(family.frequencies(scale, ea_scale))
    where = {m: k for k, ms in enumerate(modes) for m in ms}
    missing = [m for m in assignment if m not in where]
    if missing:
        raise ValueError(f"assigned mode {missing[0]} is beyond the model's {len(where)} elastic modes")
    return np.array([lines[where[m]] for m in assignment])


def fit_prestress_scale(family: ModalFamily, peaks_hz, assignment, *, bounds=(0.05, 20.0)):
    """Least-squares prestress scale for measured peaks under an assignment.

    Returns
    -------
    dict with ``scale``, ``rms_residual_hz``, ``model_hz`` (at the fit) and
    ``residual_hz`` (model minus measured).
    """
    peaks = np.asarray(peaks_hz, float)

    def sq(log_s):
        return float(np.sum((line_frequencies(family, assignment, np.exp(log_s)) - peaks) ** 2))

    res = minimize_scalar(sq, bounds=np.log(bounds), method="bounded", options={"xatol": 1e-10})
    scale = float(np.exp(res.x))
    model = line_frequencies(family, assignment, scale)
    if not bounds[0] * 1.001 < scale < bounds[1] * 0.999:
        raise ValueError(f"the prestress scale fit ran to its bound ({scale:.4g}); check the assignment")
    return {
        "scale": scale,
        "rms_residual_hz": float(np.sqrt(np.mean((model - peaks) ** 2))),
        "model_hz": model.tolist(),
        "residual_hz": (model - peaks).tolist(),
    }


def tracked_frequencies(family: ModalFamily, assignment, scale: float = 1.0, ea_scale: float = 1.0):
    """Frequencies (Hz) at ``(scale, ea_scale)`` of the *physical* modes assigned at the design point.

    Each assigned line of the design model (scale 1, stiffness 1) is followed
    by its mode shapes: the modes at the new point with the largest
    mass-weighted projection on the design line's shapes (a subspace MAC,
    so degenerate pairs are followed as pairs).  Unlike the ordered lines of
    :func:`line_frequencies` this keeps a peak on the same mode when lines
    cross.
    """
    f0, phi0 = family.modes()
    lines, modes = distinct_lines(f0)
    where = {m: k for k, ms in enumerate(modes) for m in ms}
    f, phi = family.modes(scale, ea_scale)
    M = family.dyn.Mff
    proj = (phi0.T @ M @ phi) ** 2  # design mode x new mode
    out = []
    for m in assignment:
        idx = [k - 1 for k in modes[where[m]]]
        score = proj[idx].sum(axis=0)
        best = np.argsort(score)[::-1][: len(idx)]
        out.append(float(np.mean(f[best])))
    return np.array(out)


def stiffness_profile(family: ModalFamily, peaks_hz, assignment, ea_scales, *, tracked: bool) -> dict:
    """Best RMS residual (Hz) over the prestress scale at each cable-stiffness scale.

    ``tracked`` follows the assigned physical modes (:func:`tracked_frequencies`);
    otherwise the assignment is to the ordered lines (:func:`line_frequencies`).
    """
    peaks = np.asarray(peaks_hz, float)
    freq = tracked_frequencies if tracked else line_frequencies
    rms, scales = [], []
    for e in ea_scales:
        res = minimize_scalar(
            lambda ls, e=e: float(np.sum((freq(family, assignment, np.exp(ls), e) - peaks) ** 2)),
            bounds=(np.log(0.3), np.log(3.0)),
            method="bounded",
            options={"xatol": 1e-8},
        )
        rms.append(float(np.sqrt(res.fun / len(peaks))))
        scales.append(float(np.exp(res.x)))
    return {"ea_scale": list(map(float, ea_scales)), "rms_residual_hz": rms, "scale": scales}


def fit_scale_and_stiffness(
    family: ModalFamily, peaks_hz, assignment, *, ea_scales=None, tracked: bool = True
):
    """Prestress scale and cable-stiffness scale: a profile over the stiffness, then a local refinement.

    The two-parameter problem is nearly flat along the stiffness (the
    mechanism-dominated modes hardly depend on ``EA``), so a local search
    alone may stop anywhere on the valley; the profile over a log grid of
    ``ea_scales`` finds the best basin, which ``least_squares`` refines.
    ``at_bound`` says the best lies at the end of the grid (the residual
    still falling as the stiffness runs away).
    """
    peaks = np.asarray(peaks_hz, float)
    grid = np.logspace(-1, 4, 51) if ea_scales is None else np.asarray(ea_scales, float)
    prof = stiffness_profile(family, peaks, assignment, grid, tracked=tracked)
    k = int(np.argmin(prof["rms_residual_hz"]))
    freq = tracked_frequencies if tracked else line_frequencies

    def resid(p):
        return freq(family, assignment, np.exp(p[0]), np.exp(p[1])) - peaks

    lo, hi = np.log(grid[max(k - 1, 0)]), np.log(grid[min(k + 1, len(grid) - 1)])
    start = [np.log(prof["scale"][k]), np.log(grid[k])]
    sol = least_squares(resid, start, bounds=([np.log(0.3), lo], [np.log(3.0), hi]), xtol=1e-12, ftol=1e-14)
    return {
        "scale": float(np.exp(sol.x[0])),
        "ea_scale": float(np.exp(sol.x[1])),
        "rms_residual_hz": float(np.sqrt(np.mean(sol.fun**2))),
        "model_hz": (sol.fun + peaks).tolist(),
        "at_bound": k in (0, len(grid) - 1),
        "profile": prof,
    }


def _crossings(family: ModalFamily, assignment, scale: float, ea_scale: float) -> list[int]:
    """Assigned modes whose ordered line at ``(scale, ea_scale)`` holds a different physical mode."""
    ordered = line_frequencies(family, assignment, scale, ea_scale)
    tracked = tracked_frequencies(family, assignment, scale, ea_scale)
    return [
        int(m) for m, a, b in zip(assignment, ordered, tracked, strict=True) if abs(a - b) > 1e-6 * abs(b)
    ]


def bar_geometric_effect(family: ModalFamily, n_modes: int = 9):
    """Frequencies with and without the bars' geometric stiffness, matched by (subspace) MAC.

    Returns per mode (1-based, with the bars' term) the frequency with it,
    the matched cables-only frequency, their ratio and the MAC of the match.
    """
    f_with, phi_with = family.modes()
    f_wo, phi_wo = family.modes(bars_geometric=False)
    M = family.dyn.Mff
    mac = (phi_with.T @ M @ phi_wo) ** 2
    lines, members = distinct_lines(f_wo)
    rows = []
    for i in range(min(n_modes, len(f_with))):
        score = [mac[i, [m - 1 for m in ms]].sum() for ms in members]  # subspace MAC: pairs as pairs
        k = int(np.argmax(score))
        rows.append(
            {
                "mode": i + 1,
                "with_bars_hz": float(f_with[i]),
                "cables_only_hz": float(lines[k]),
                "ratio": float(lines[k] / f_with[i]),
                "mac": float(score[k]),
            }
        )
    return rows


def modal_identification(
    family: ModalFamily,
    peaks_hz,
    assignment,
    alternative,
    *,
    design_ring_tension: float,
    cable_EA: float,
    n_modes: int = 9,
) -> dict:
    """The §4.10 identification: scale fit, alternative assignment, EA, ratios, bar stiffness.

    Parameters
    ----------
    family : ModalFamily
        The rebuilt prism at its design prestress (scale 1).
    peaks_hz : sequence of float
        Measured peaks (Hz).
    assignment, alternative : sequence of int
        1-based mode numbers the peaks are assigned to (one per peak).
    design_ring_tension : float, N
        The ring tension at scale 1.
    cable_EA : float, N
        The design cable stiffness (reported with the two-parameter fit).
    """
    peaks = np.asarray(peaks_hz, float)
    if len(assignment) != len(peaks) or len(alternative) != len(peaks):
        raise ValueError("one assigned mode per measured peak is needed")
    main = fit_prestress_scale(family, peaks, assignment)
    alt = fit_prestress_scale(family, peaks, alternative)
    both = fit_scale_and_stiffness(family, peaks, assignment, tracked=True)
    order = fit_scale_and_stiffness(family, peaks, assignment, tracked=False)
    seed_factor = 18.0
    at_seed = stiffness_profile(family, peaks, assignment, [seed_factor], tracked=True)
    at_design = line_frequencies(family, assignment)
    lines, modes = distinct_lines(family.frequencies())
    return {
        "peaks_hz": peaks.tolist(),
        "assignment": list(map(int, assignment)),
        "design_ring_tension_N": design_ring_tension,
        "ring_tension_N": design_ring_tension * main["scale"],
        "scale": main["scale"],
        "above_design_pct": 100 * (main["scale"] - 1),
        "rms_residual_hz": main["rms_residual_hz"],
        "model_hz_at_fit": main["model_hz"],
        "model_hz_at_design": at_design.tolist(),
        "ratio_measured_to_model_at_design": (peaks / at_design).tolist(),
        "model_lines_hz": lines[: len(modes)].tolist(),
        "model_line_modes": modes,
        "model_frequencies_hz": family.frequencies()[:n_modes].tolist(),
        "alternative": {
            "assignment": list(map(int, alternative)),
            "ring_tension_N": design_ring_tension * alt["scale"],
            "rms_residual_hz": alt["rms_residual_hz"],
            "model_hz_at_fit": alt["model_hz"],
        },
        "with_EA": {
            "modes": "tracked: each peak stays on the physical mode it is assigned at the design point",
            "ring_tension_N": design_ring_tension * both["scale"],
            "EA_N": cable_EA * both["ea_scale"],
            "EA_factor": both["ea_scale"],
            "EA_at_grid_bound": both["at_bound"],
            "rms_residual_hz": both["rms_residual_hz"],
            "residual_reduction_pct": 100 * (1 - both["rms_residual_hz"] / main["rms_residual_hz"]),
            "at_EA_factor_18": {
                "rms_residual_hz": at_seed["rms_residual_hz"][0],
                "residual_reduction_pct": 100 * (1 - at_seed["rms_residual_hz"][0] / main["rms_residual_hz"]),
                "ring_tension_N": design_ring_tension * at_seed["scale"][0],
            },
            "profile": both["profile"],
        },
        "with_EA_ordered_lines": {
            "modes": "ordered lines: a peak moves to another physical mode where lines cross",
            "ring_tension_N": design_ring_tension * order["scale"],
            "EA_factor": order["ea_scale"],
            "rms_residual_hz": order["rms_residual_hz"],
            "residual_reduction_pct": 100 * (1 - order["rms_residual_hz"] / main["rms_residual_hz"]),
            "crossed_modes_at_fit": _crossings(family, assignment, order["scale"], order["ea_scale"]),
        },
        "bar_geometric_stiffness": bar_geometric_effect(family, n_modes),
        "scan": tension_scan(
            family, design_ring_tension, n_lines=len(distinct_lines(family.frequencies()[:n_modes])[0])
        ),
    }


def tension_scan(family: ModalFamily, design_ring_tension: float, *, n_lines: int, scales=None) -> dict:
    """Model line frequencies (Hz) against the ring tension (N), for Figure 8."""
    scales = np.linspace(0.4, 1.4, 41) if scales is None else np.asarray(scales, float)
    lines = []
    for s in scales:
        f, _ = distinct_lines(family.frequencies(s))
        lines.append(np.pad(f[:n_lines], (0, max(0, n_lines - len(f))), constant_values=np.nan).tolist())
    return {"ring_tension_N": (design_ring_tension * scales).tolist(), "lines_hz": lines}


def hexprism_identification(structure, measured: dict, assignment, alternative) -> dict:
    """:func:`modal_identification` of the rebuilt prism against a measured file's peaks.

    Parameters
    ----------
    structure : Structure
        The rebuilt prism at its design prestress.
    measured : dict
        ``peaks_hz`` and ``model`` (``design_ring_tension_N``, ``cable_EA_N``),
        as in ``resources/measured/hexprism_huang.yaml``.
    """
    from ..mechanics.dynamics import Dynamics

    model = measured["model"]
    ring = float(np.mean(structure.cable_tension[:12]))
    if not np.isclose(ring, model["design_ring_tension_N"], rtol=1e-6):
        raise ValueError(
            f"structure '{structure.name}' carries a ring tension of {ring:.4g} N, the measured file's "
            f"design value is {model['design_ring_tension_N']} N; build it at the design prestress"
        )
    out = modal_identification(
        ModalFamily(Dynamics(structure)),
        measured["peaks_hz"],
        assignment,
        alternative,
        design_ring_tension=float(model["design_ring_tension_N"]),
        cable_EA=float(model["cable_EA_N"]),
    )
    out["source"] = measured.get("source", "")
    return out
