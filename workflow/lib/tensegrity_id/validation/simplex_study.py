"""The simplex studies of the paper's §4.12 from a measured file: model, extraction, Table 8, damping limit.

Every function takes the parsed measured file (``resources/measured/
simplex_malyszko.yaml``: geometry, masses, the 13 transducer forces, the
measured law ``f^2 = A F + B`` and the static force factor) and returns plain
data for a rule to write.

Stand-in frequencies
    The 13 measured first frequencies are not public.  Where no measured
    strike record is given for a level, its first frequency is the
    published law at the measured force, ``f = sqrt(A F + B)``, and the row
    says ``stand-in``.  Such a frequency carries no measurement scatter, so
    Table 8 then shows only the systematic part of the prediction error
    (the mismatch between the model's dynamic force factor and the static
    one, and the curvature the law lacks), not the scatter behind the
    the paper's 32 N; and the free two-constant fit, which *is* the law,
    reproduces the stand-in exactly (zero error by construction).
"""

from __future__ import annotations

import numpy as np

from .damping import damping_limit
from .frequency import first_frequency, project_rotation, tangential_directions
from .prestress_law import local_log_slope, power_law_exponent, predict_forces, prediction_summary
from .simplex import (
    CROSS_CABLES,
    TOP_NODES,
    SimplexHardware,
    SimplexModel,
    base_to_cross_ratio,
    simulate_strike,
)

__all__ = [
    "hardware_from_measured",
    "model_summary",
    "extraction_study",
    "record_frequency",
    "prestress_table",
    "damping_study",
    "implied_frequencies",
]


def hardware_from_measured(measured: dict, cable_EA: float) -> SimplexHardware:
    """:class:`SimplexHardware` from the measured file's geometry and masses."""
    g, m = measured["geometry"], measured["mass"]
    return SimplexHardware(
        height=g["height_m"],
        diameter=g["diameter_m"],
        twist_deg=g.get("twist_deg", 30.0),
        strut_linear_density=m["strut_linear_density_kg_m"],
        strut_surplus=m["strut_surplus_kg"],
        surplus_offset=m["surplus_offset_m"],
        node_hardware=m["node_hardware_kg"],
        joint_mass=m["joint_mass_kg"],
        cable_linear_density=m["cable_linear_density_kg_m"],
        accelerometer=m["accelerometer_kg"],
        cable_EA=float(cable_EA),
    )


def _levels(measured: dict):
    lv = measured["levels"]
    F = np.asarray(lv["force_N"], float)
    sd = np.asarray(lv["scatter_N"], float)
    if F.shape != sd.shape or (F <= 0).any():
        raise ValueError("levels.force_N and levels.scatter_N must be positive and of equal length")
    return F, sd


def model_summary(hw: SimplexHardware, measured: dict) -> dict:
    """Self-stress ratio, mass conventions, mechanism slope and force factors (``simplex_model.json``)."""
    F, _ = _levels(measured)
    law = measured["measured_law"]
    A, B = float(law["A_hz2_per_N"]), float(law["B_hz2"])
    k_static = float(measured["static_force_factor"]["value"])
    out = {"source": measured.get("source", ""), "measured_law": {"A_hz2_per_N": A, "B_hz2": B}}
    weighed = SimplexModel(hw, "weighed")
    s = weighed.structure
    R, H = hw.diameter / 2, hw.height
    Lc = float(np.mean(s.cable_lengths[list(CROSS_CABLES)]))
    out["geometry"] = {
        "height_m": H,
        "radius_m": R,
        "strut_length_m": float(s.bar_lengths.mean()),
        "cross_cable_length_m": Lc,
        "triangle_side_m": float(s.cable_lengths[0]),
    }
    out["base_to_cross_ratio"] = base_to_cross_ratio(s)
    out["base_to_cross_ratio_hand"] = R / Lc
    out["force_density_ratio"] = float(s.sigma[0] / s.sigma[CROSS_CABLES[0]])
    out["conventions"] = {}
    for conv, model in (("weighed", weighed), ("distributed", SimplexModel(hw, "distributed"))):
        mech = model.mechanism_law(F * k_static)
        a = mech["f2_per_newton"]
        out["conventions"][conv] = {
            **model.mass_info,
            "f2_per_newton": a,
            "force_factor": A / a,
            "intercept_relative": mech["intercept_relative"],
            "model_log_slope": [float(min(mech["log_slope"])), float(max(mech["log_slope"]))],
            "range_factor": float(F.max() / F.min()),
        }
    out["f2_per_newton"] = out["conventions"]["weighed"]["f2_per_newton"]
    out["force_factor_weighed"] = out["conventions"]["weighed"]["force_factor"]
    out["force_factor_distributed"] = out["conventions"]["distributed"]["force_factor"]
    out["factor_agreement_pct"] = 100 * abs(out["force_factor_weighed"] / out["force_factor_distributed"] - 1)
    out["static_force_factor"] = k_static
    out["dynamic_vs_static_pct"] = 100 * (k_static / out["force_factor_weighed"] - 1)
    a = out["f2_per_newton"]
    out["separation_at_static_force_hz2"] = {
        "zero_force": B,
        "highest_level": float(A * F.max() + B - a * k_static * F.max()),
    }
    slopes = local_log_slope(A, B, F)
    out["measured_log_slope"] = {"level_1": float(slopes[0]), "level_last": float(slopes[-1]), "ideal": 0.5}
    out["zero_force_hz"] = float(np.sqrt(B))
    out["k_theta_for_intercept_Nm_per_rad"] = weighed.joint_stiffness_for_intercept(B)
    return out


def extraction_study(hw: SimplexHardware, measured: dict, strike: dict) -> tuple[dict, dict]:
    """Simulated strike records at the chosen levels: extracted against true first frequency.

    The model carries the weighed masses, the static force factor and the
    joint stiffness that gives the measured intercept ``B`` at zero force;
    the strike is a half-sine hammer on the x axis of free node 3.

    Returns the summary and, for Figure 10, the arrays of the first and last
    level (time, projected and raw signals).
    """
    F, _ = _levels(measured)
    k_static = float(measured["static_force_factor"]["value"])
    B = float(measured["measured_law"]["B_hz2"])
    k_theta = SimplexModel(hw, "weighed").joint_stiffness_for_intercept(B)
    model = SimplexModel(hw, "weighed", k_theta=k_theta)
    dirs = tangential_directions(model.structure.nodes[list(TOP_NODES)])
    levels = strike.get("levels") or list(range(1, len(F) + 1))
    opts = {
        k: strike[k]
        for k in ("amplitude", "duration", "t_end", "sample_rate", "noise", "seed")
        if k in strike
    }
    rows, arrays = [], {}
    for lv in levels:
        force = F[lv - 1] * k_static
        rec = simulate_strike(model, force, **opts)
        proj = project_rotation(rec["acc"], dirs)
        got = first_frequency(rec["t"], proj, t_start=rec["strike_end_s"])
        raw = first_frequency(rec["t"], rec["acc"][:, 0, 0], t_start=rec["strike_end_s"])
        rows.append(
            {
                "level": int(lv),
                "transducer_force_N": float(F[lv - 1]),
                "model_force_N": float(force),
                "true_hz": rec["true_hz"],
                "extracted_hz": got["frequency_hz"],
                "error_pct": 100 * (got["frequency_hz"] / rec["true_hz"] - 1),
                "raw_channel_hz": raw["frequency_hz"],
                "raw_channel_error_pct": 100 * (raw["frequency_hz"] / rec["true_hz"] - 1),
                "energy_error": rec["energy_error"],
            }
        )
        if lv in (levels[0], levels[-1]):
            arrays[f"level{lv}_t"] = rec["t"]
            arrays[f"level{lv}_projected"] = proj
            arrays[f"level{lv}_raw"] = rec["acc"][:, 0, 0]
            arrays[f"level{lv}_true_hz"] = np.array(rec["true_hz"])
    err = np.array([r["error_pct"] for r in rows])
    raw_err = np.array([r["raw_channel_error_pct"] for r in rows])
    summary = {
        "k_theta_Nm_per_rad": k_theta,
        "strike": {**opts, "node": TOP_NODES[0], "axis": "x"},
        "levels": rows,
        "rms_error_pct": float(np.sqrt(np.mean(err**2))),
        "worst_error_pct": float(np.abs(err).max()),
        "raw_channel_worst_error_pct": float(np.abs(raw_err).max()),
    }
    return summary, arrays


def record_frequency(record, hw: SimplexHardware, *, band=(0.5, 30.0)) -> float:
    """First frequency (Hz) of a measured strike record (a ``data.record_csv.MeasuredRecord``).

    The three free nodes' accelerations (all three axes) are projected on
    the upper triangle's rotation; the free decay starts 20 ms after the
    largest projected acceleration (the strike).  The node positions are
    the rebuilt model's, which a measured record does not carry.
    """
    coords = [(n, a) for n in TOP_NODES for a in range(3)]
    acc = record.stack("acc", coords).reshape(len(record.t), len(TOP_NODES), 3)
    dirs = tangential_directions(SimplexModel(hw).structure.nodes[list(TOP_NODES)])
    proj = project_rotation(acc, dirs)
    t0 = record.t[int(np.argmax(np.abs(proj)))] + 0.02
    return first_frequency(record.t, proj, band=band, t_start=t0)["frequency_hz"]


def prestress_table(summary: dict, measured: dict, frequencies_hz=None) -> tuple[list[dict], dict]:
    """Table 8 rows and the three fits' summaries.

    Parameters
    ----------
    summary : dict
        :func:`model_summary` output (the model slope of the weighed masses).
    measured : dict
    frequencies_hz : dict, optional
        Level (1-based) -> measured first frequency (Hz); the other levels use the stand-in.
    """
    F, sd = _levels(measured)
    A, B = summary["measured_law"]["A_hz2_per_N"], summary["measured_law"]["B_hz2"]
    given = {int(k): float(v) for k, v in (frequencies_hz or {}).items()}
    f = np.array([given.get(i + 1, np.sqrt(A * Fi + B)) for i, Fi in enumerate(F)])
    source = ["record" if i + 1 in given else "stand-in" for i in range(len(F))]
    a, k = summary["f2_per_newton"], summary["static_force_factor"]
    fits = {}
    for method in ("model_loo", "free_loo", "no_constant"):
        pred = predict_forces(f**2, F, method=method, slope=a, force_factor=k)
        fits[method] = prediction_summary(pred, F)
    main = fits["model_loo"]
    rows = [
        {
            "level": i + 1,
            "measured_N": float(F[i]),
            "scatter_N": float(sd[i]),
            "first_frequency_hz": float(f[i]),
            "frequency_source": source[i],
            "predicted_N": main["predicted_N"][i],
            "error_N": main["error_N"][i],
            "error_pct": main["error_pct"][i],
        }
        for i in range(len(F))
    ]
    stand_in = all(s == "stand-in" for s in source)
    return rows, {
        "frequency_source": "stand-in" if stand_in else ("records" if "stand-in" not in source else "mixed"),
        "n_records": len(given),
        "model_loo": main,
        "free_loo": fits["free_loo"],
        "no_constant": fits["no_constant"],
        "within_scatter": int(np.sum(np.abs(main["error_N"]) <= sd)),
        "mean_scatter_N": float(np.mean(sd)),
        "exponent": power_law_exponent(f, F),
        "slope_used_hz2_per_N": a,
        "static_force_factor": k,
    }


def damping_study(hw: SimplexHardware, measured: dict, *, zeta_rot: float) -> dict:
    """The damping limit at every measured level (structure force = transducer force x static factor)."""
    F, _ = _levels(measured)
    k_static = float(measured["static_force_factor"]["value"])
    model = SimplexModel(hw, "weighed")
    per_level = []
    for i, Fi in enumerate(F):
        _, _, rot, _ = model.modes(Fi * k_static)
        d = damping_limit(model.family, Fi * k_static, rot, zeta_rot=zeta_rot)
        per_level.append({"level": i + 1, "transducer_force_N": float(Fi), **d})
    ratios = np.array([r["min_ratio_above"] for r in per_level])
    zetas = np.array([r["min_implied_damping_above"] for r in per_level])
    return {
        "cable_EA_N": hw.cable_EA,
        "zeta_rotational": zeta_rot,
        "levels": per_level,
        "extension_ratio": {
            "min": float(ratios.min()),
            "median": float(np.median(ratios)),
            "max": float(ratios.max()),
        },
        "implied_damping_ratio": {
            "min": float(zetas.min()),
            "median": float(np.median(zetas)),
            "max": float(zetas.max()),
        },
    }


def implied_frequencies(summary: dict, measured: dict, predicted_N) -> dict:
    """First frequencies implied by a published Table 8 and the measured law, under this model's slope.

    Leave-one-out prediction is invertible up to one constant: with
    ``s = a k`` and ``S = sum_j (f_j^2 - s F_j)``, ``f_i^2 = (s ((n-1) P_i + F_i)
    + S) / n`` for predicted forces ``P_i``.  If the published law is the
    least-squares line of ``f^2`` on ``F`` over the same levels, its residuals
    sum to zero and ``S = sum_j (A F_j + B) - s sum_j F_j``.  The frequencies
    so implied are a consistency check of the published numbers with this
    model's slope (their refitted law, scatter, lowest frequency and
    exponent against the published ones), not data: Table 8 computed from
    them would return the published predictions by construction.
    """
    F, _ = _levels(measured)
    P = np.asarray(predicted_N, float)
    A, B = summary["measured_law"]["A_hz2_per_N"], summary["measured_law"]["B_hz2"]
    s = summary["f2_per_newton"] * summary["static_force_factor"]
    n = len(F)
    S = np.sum(A * F + B) - s * F.sum()
    f2 = (s * ((n - 1) * P + F) + S) / n
    if (f2 <= 0).any():
        raise ValueError("the published predictions imply a negative squared frequency under this slope")
    slope, icpt = np.polyfit(F, f2, 1)
    resid = f2 - (slope * F + icpt)
    return {
        "frequencies_hz": np.sqrt(f2).tolist(),
        "refit_A_hz2_per_N": float(slope),
        "refit_B_hz2": float(icpt),
        "scatter_pct_of_mean": float(100 * np.sqrt(np.mean(resid**2)) / np.mean(f2)),
        "lowest_hz": float(np.sqrt(f2).min()),
        "exponent": power_law_exponent(np.sqrt(f2), F),
    }
