"""Measured-data validation (the paper's §4.10-§4.12): known answers for the rebuilt models and the
extraction."""

import numpy as np
import pytest
import yaml
from tensegrity_id import build_structure
from tensegrity_id.data.record_csv import RecordFileError, read_record_csv
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.validation.damping import cable_extension_matrix, damping_limit
from tensegrity_id.validation.frequency import first_frequency, project_rotation, tangential_directions
from tensegrity_id.validation.hexprism import (
    fit_prestress_scale,
    line_frequencies,
    modal_identification,
    stiffness_profile,
)
from tensegrity_id.validation.modal_fit import ModalFamily, distinct_lines
from tensegrity_id.validation.prestress_law import local_log_slope, predict_forces
from tensegrity_id.validation.simplex import (
    CROSS_CABLES,
    TOP_NODES,
    SimplexHardware,
    SimplexModel,
    base_to_cross_ratio,
    simplex_mass,
    simplex_structure,
    simulate_strike,
)
from tensegrity_id.validation.simplex_study import (
    hardware_from_measured,
    implied_frequencies,
    model_summary,
    prestress_table,
    record_frequency,
)

MEASURED = "resources/measured/simplex_malyszko.yaml"


@pytest.fixture(scope="module")
def hexfamily():
    s = build_structure(
        "hexprism",
        {"generator": "hexprism", "prestress": {"method": "selfstress", "tension": 10.0, "cable": 0}},
    )
    return ModalFamily(Dynamics(s))


@pytest.fixture(scope="module")
def measured(repo):
    with open(repo / MEASURED) as fh:
        return yaml.safe_load(fh)


# ------------------------------------------------------------- hexagonal prism
def test_frequencies_scale_as_the_prestress_for_a_pure_geometric_stiffness(hexfamily):
    """With K_e switched off every frequency squared is linear in the prestress scale (the paper's Eq. 11)."""
    f1 = hexfamily.frequencies(1.0, 1e-12)
    f4 = hexfamily.frequencies(4.0, 1e-12)
    live = f1 > 1e-3 * f1.max()  # one shape carries neither stiffness: zero to rounding
    np.testing.assert_allclose(f4[live], 2 * f1[live], rtol=1e-6)


def test_distinct_lines_group_the_degenerate_pairs(hexfamily):
    lines, modes = distinct_lines(hexfamily.frequencies())
    assert modes[:6] == [[1], [2, 3], [4, 5], [6], [7], [8, 9]]
    assert np.all(np.diff(lines) > 0)


def test_scale_fit_recovers_a_known_scale_from_model_peaks(hexfamily):
    assignment = [2, 4, 6, 7]
    peaks = line_frequencies(hexfamily, assignment, 1.0731)
    fit = fit_prestress_scale(hexfamily, peaks, assignment)
    assert fit["scale"] == pytest.approx(1.0731, rel=1e-7)
    assert fit["rms_residual_hz"] < 1e-6


def test_modal_identification_of_the_published_peaks(hexfamily):
    """The paper's four peaks: order assignment near design, the alternative fits worse, EA is flat."""
    out = modal_identification(
        hexfamily,
        [7.285, 9.688, 10.430, 11.396],
        [2, 4, 6, 7],
        [2, 6, 7, 8],
        design_ring_tension=10.0,
        cable_EA=379.0,
    )
    assert 10.0 < out["ring_tension_N"] < 12.0  # the paper: 10.6 N
    assert 0.2 < out["rms_residual_hz"] < 0.5  # the paper: 0.33 Hz
    assert out["alternative"]["rms_residual_hz"] > 2 * out["rms_residual_hz"]  # the paper: 0.92 against 0.33
    assert out["alternative"]["ring_tension_N"] < out["ring_tension_N"]
    # following the assigned physical modes, a stiffer EA lowers the residual by at most ~10 %
    prof = out["with_EA"]["profile"]["rms_residual_hz"]
    e = np.asarray(out["with_EA"]["profile"]["ea_scale"])
    above = np.asarray(prof)[e >= 1]
    assert np.all(np.diff(above) <= 1e-9) and 0 < out["with_EA"]["residual_reduction_pct"] < 15
    # the cables-only assembly overestimates every one of the lowest modes
    assert all(r["ratio"] >= 1 - 1e-9 for r in out["bar_geometric_stiffness"])
    assert max(r["ratio"] for r in out["bar_geometric_stiffness"]) > 1.2


def test_stiffness_profile_at_the_design_point_is_the_one_parameter_fit(hexfamily):
    peaks = [7.285, 9.688, 10.430, 11.396]
    prof = stiffness_profile(hexfamily, peaks, [2, 4, 6, 7], [1.0], tracked=True)
    one = fit_prestress_scale(hexfamily, peaks, [2, 4, 6, 7])
    assert prof["rms_residual_hz"][0] == pytest.approx(one["rms_residual_hz"], rel=1e-6)


# ------------------------------------------------------------------ simplex
def test_simplex_self_stress_against_the_hand_derivation():
    """At the 30 deg twist: q_triangle / q_cross = 1/sqrt(3); T_base / T_cross = R / L_cross."""
    hw = SimplexHardware()
    s = simplex_structure(hw, 1000.0)
    np.testing.assert_allclose(s.sigma[:6] / s.sigma[6], 1 / np.sqrt(3), rtol=1e-10)
    R, H = hw.diameter / 2, hw.height
    Lc = np.hypot(H, 2 * R * np.sin(np.radians(15.0)))
    np.testing.assert_allclose(s.cable_lengths[list(CROSS_CABLES)], Lc, rtol=1e-12)
    assert base_to_cross_ratio(s) == pytest.approx(R / Lc, rel=1e-10)
    np.testing.assert_allclose(s.cable_tension[list(CROSS_CABLES)], 1000.0, rtol=1e-10)


def test_mass_conventions():
    """Distributed: the paper's 0.342 kg per node; weighed: point masses keep the strut's total and centre."""
    hw = SimplexHardware()
    s = simplex_structure(hw)
    _, dist = simplex_mass(s, hw, "distributed")
    assert dist["distributed_share_kg"] == pytest.approx(0.342, abs=0.001)
    M, _ = simplex_mass(s, hw, "weighed")
    M0, _ = simplex_mass(s.with_changes(), SimplexHardware(strut_surplus=1e-12), "weighed")
    ones = np.tile([1.0, 0.0, 0.0], s.n_nodes)  # a rigid translation along x
    added = ones @ (M - M0) @ ones
    assert added == pytest.approx(3 * hw.strut_surplus, rel=1e-9)  # translation: every kilogram counts once
    with pytest.raises(ValueError, match="mass convention"):
        simplex_mass(s, hw, "lumped")


def test_mechanism_mode_of_the_pin_jointed_model():
    """f^2 proportional to the cable force (log-slope 1/2), and a joint stiffness gives the intercept."""
    model = SimplexModel(SimplexHardware())
    law = model.mechanism_law([300.0, 1500.0, 5000.0])
    np.testing.assert_allclose(law["log_slope"], 0.5, atol=1e-5)
    assert law["intercept_relative"] < 1e-5
    k = model.joint_stiffness_for_intercept(6.56)
    jointed = SimplexModel(SimplexHardware(), k_theta=k)
    assert jointed.rotational_frequency(0.0)[0] ** 2 == pytest.approx(6.56, rel=1e-8)


def test_model_summary_reproduces_the_seed_force_factors(measured):
    """Nothing fitted: the rebuilt masses and geometry give the paper's dynamic force factors to 0.5 %."""
    out = model_summary(hardware_from_measured(measured, 1.6e6), measured)
    assert out["force_factor_weighed"] == pytest.approx(1.384, rel=5e-3)
    assert out["force_factor_distributed"] == pytest.approx(1.373, rel=5e-3)
    assert out["measured_log_slope"]["level_1"] == pytest.approx(0.245, abs=1e-3)
    assert out["measured_log_slope"]["level_last"] == pytest.approx(0.464, abs=1e-3)


def test_projection_isolates_a_pure_rotation():
    """Rotation survives the projection exactly; translations and the flexural (E) patterns vanish."""
    s = simplex_structure(SimplexHardware())
    top = s.nodes[list(TOP_NODES)]
    d = tangential_directions(top)
    t = np.linspace(0, 1, 50)
    rot = np.sin(2 * np.pi * 3 * t)[:, None, None] * d[None]
    shift = np.cos(2 * np.pi * 7 * t)[:, None, None] * np.array([0.3, -0.2, 0.5])[None, None]
    phase = np.cos(2 * np.pi * np.arange(3) / 3)  # an E-type weighting of the tangential field
    flex = np.sin(2 * np.pi * 11 * t)[:, None, None] * (phase[:, None] * d)[None]
    got = project_rotation(rot + shift + flex, d)
    np.testing.assert_allclose(got, np.sin(2 * np.pi * 3 * t), atol=1e-12)


def test_first_frequency_of_a_damped_sinusoid():
    t = np.arange(0, 4, 1 / 512)
    x = np.exp(-0.3 * t) * np.sin(2 * np.pi * 4.321 * t + 0.4) + 0.3 * np.sin(2 * np.pi * 40 * t)
    x += 0.02 * np.random.default_rng(0).standard_normal(len(t))
    out = first_frequency(t, x, band=(1, 20))
    assert out["frequency_hz"] == pytest.approx(4.321, rel=2e-4)
    assert out["decay_per_s"] == pytest.approx(0.3, abs=0.05)


def test_strike_extraction_recovers_the_true_frequency_where_one_channel_fails(tmp_path, measured):
    """Lowest level: the projection gives the model's rotational frequency; node 3's x channel picks a
    flexural mode (the paper: the projection matters at the lowest levels)."""
    hw = hardware_from_measured(measured, 1.6e6)
    k = SimplexModel(hw).joint_stiffness_for_intercept(6.56)
    model = SimplexModel(hw, k_theta=k)
    rec = simulate_strike(model, 263 * 1.41, t_end=2.0, sample_rate=512.0)
    assert rec["energy_error"] < 1e-3
    d = tangential_directions(model.structure.nodes[list(TOP_NODES)])
    got = first_frequency(rec["t"], project_rotation(rec["acc"], d), t_start=rec["strike_end_s"])
    assert got["frequency_hz"] == pytest.approx(rec["true_hz"], rel=2e-3)
    raw = first_frequency(rec["t"], rec["acc"][:, 0, 0], t_start=rec["strike_end_s"])
    assert abs(raw["frequency_hz"] / rec["true_hz"] - 1) > 0.5
    # the same record as a measured file (time, acc:{node}:{axis}) goes through the record path
    cols = [f"acc:{n}:{a}" for n in TOP_NODES for a in "xyz"]
    table = np.column_stack([rec["t"], rec["acc"].reshape(len(rec["t"]), -1)])
    path = tmp_path / "strike_level1.csv"
    np.savetxt(path, table, delimiter=",", header=",".join(["time", *cols]), comments="", fmt="%.10g")
    f_file = record_frequency(read_record_csv(path, model.structure, require_force=False), hw)
    assert f_file == pytest.approx(rec["true_hz"], rel=2e-3)
    rows, summary = prestress_table(model_summary(hw, measured), measured, {1: f_file})
    assert [r["frequency_source"] for r in rows[:2]] == ["record", "stand-in"]
    assert summary["frequency_source"] == "mixed" and summary["n_records"] == 1


# --------------------------------------------------------------- prestress law
def test_leave_one_out_predictions_on_exact_data():
    F = np.array([300.0, 800.0, 1500.0, 2200.0, 3000.0])
    a, k, C = 0.017, 1.4, 6.0
    f2 = a * k * F + C
    np.testing.assert_allclose(
        predict_forces(f2, F, method="model_loo", slope=a, force_factor=k), F, rtol=1e-12
    )
    np.testing.assert_allclose(predict_forces(f2, F, method="free_loo"), F, rtol=1e-10)
    none = predict_forces(f2, F, method="no_constant", slope=a, force_factor=k)
    np.testing.assert_allclose(none - F, C / (a * k), rtol=1e-12)
    with pytest.raises(ValueError, match="needs the model slope"):
        predict_forces(f2, F, method="model_loo")


def test_implied_frequencies_invert_the_leave_one_out_prediction(measured):
    """Frequencies -> least-squares law -> Table 8 predictions -> implied frequencies: an exact round trip."""
    F = np.asarray(measured["levels"]["force_N"], float)
    rng = np.random.default_rng(3)
    f2 = 0.024 * F + 6.5 + rng.normal(0, 0.5, F.size)
    A, B = np.polyfit(F, f2, 1)
    summary = {
        "measured_law": {"A_hz2_per_N": A, "B_hz2": B},
        "f2_per_newton": 0.0173,
        "static_force_factor": 1.41,
    }
    P = predict_forces(f2, F, method="model_loo", slope=0.0173, force_factor=1.41)
    got = implied_frequencies(summary, measured, P)
    np.testing.assert_allclose(np.square(got["frequencies_hz"]), f2, rtol=1e-10)
    assert got["refit_A_hz2_per_N"] == pytest.approx(A, rel=1e-10)


def test_local_log_slope_of_the_measured_law():
    np.testing.assert_allclose(local_log_slope(0.0239, 6.56, [263, 3584]), [0.2447, 0.4644], atol=1e-4)
    assert local_log_slope(1.0, 0.0, [5.0])[0] == pytest.approx(0.5)


# --------------------------------------------------------------- damping limit
def test_damping_ratios_from_one_axial_coefficient():
    """zeta_j = c |C phi_j|^2 / (2 w_j) equals phi^T (c C^T C) phi / (2 w) with the dashpot matrix; the
    fitted coefficient returns the rotational ratio; the mechanism extends the cables far less."""
    model = SimplexModel(SimplexHardware())
    f, phi, rot, _ = model.modes(2000.0)
    out = damping_limit(model.family, 2000.0, rot, zeta_rot=0.03)
    C = cable_extension_matrix(model.family)
    Cd = out["c_fitted_Ns_per_m"] * C.T @ C
    w = 2 * np.pi * f
    quad = np.einsum("ik,ij,jk->k", phi, Cd, phi) / (2 * w)
    # the mechanism's extension is ~1e-3 of the others': its quadratic form loses digits to cancellation
    np.testing.assert_allclose(quad, out["implied_damping_ratio"], rtol=1e-6)
    assert out["implied_damping_ratio"][rot] == pytest.approx(0.03)
    assert out["min_ratio_above"] > 100 and out["min_implied_damping_above"] > 1e3


# ------------------------------------------------------------- record files
def _write(tmp_path, text):
    p = tmp_path / "rec.csv"
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    "text, match",
    [
        ("t,acc:3:x\n", "first column must be 'time'"),
        ("time,acc:9:x\n" + "".join(f"{i / 100},0\n" for i in range(40)), "node '9'"),
        ("time,acc:3:w\n" + "".join(f"{i / 100},0\n" for i in range(40)), "axis 'w'"),
        ("time,acc:0:x\n" + "".join(f"{i / 100},0\n" for i in range(40)), "fixed by a support"),
        ("time,acc:3:x,acc:3:0\n" + "".join(f"{i / 100},0,0\n" for i in range(40)), "repeats"),
        ("time,acc:3:x\n" + "".join(f"{i / 100},{'nan' if i == 7 else 0}\n" for i in range(40)), "row 9"),
        (
            "time,acc:3:x\n" + "".join(f"{(i if i != 5 else 3.5) / 100},0\n" for i in range(40)),
            "does not increase",
        ),
        (
            "time,acc:3:x\n" + "".join(f"{(i + (0.3 if i == 20 else 0)) / 100},0\n" for i in range(40)),
            "irregular",
        ),
        ("time,acc:3:x\n" + "".join(f"{i / 100},0\n" for i in range(10)), "at least 32"),
        ("time,acc:3:x\n" + "".join(f"{i / 100},0\n" for i in range(40)), "force"),
    ],
)
def test_record_file_errors_name_the_problem(tmp_path, text, match):
    s = simplex_structure(SimplexHardware())
    need_force = match == "force"
    with pytest.raises(RecordFileError, match=match):
        read_record_csv(_write(tmp_path, text), s, require_force=need_force)


def test_record_file_reads_channels(tmp_path):
    s = simplex_structure(SimplexHardware())
    rows = "".join(f"{i / 100},{i},{-i},{2 * i}\n" for i in range(40))
    rec = read_record_csv(_write(tmp_path, "time,force:3:x,acc:3:x,acc:4:z\n" + rows), s)
    assert rec.dt == pytest.approx(0.01)
    np.testing.assert_allclose(rec.stack("acc", [(3, 0), (4, 2)])[:, 1], 2 * np.arange(40))
    with pytest.raises(RecordFileError, match="no column 'acc:5:y'"):
        rec.stack("acc", [(5, 1)])
