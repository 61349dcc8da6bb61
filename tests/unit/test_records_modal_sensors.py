"""Small-oscillation analysis, slackening threshold and sensor data."""

import numpy as np
import pytest
from tensegrity_id import build_structure
from tensegrity_id.data.records import forcing_from_spec, record_structure, slackening_threshold
from tensegrity_id.data.sensors import intermittent_mask, noise_realization, sensor_data
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.modal import constrained_modes, truss_frequencies, truss_limit_frequencies
from tensegrity_id.mechanics.simulate import simulate

SPECS = {
    "prism45": {
        "generator": "prism",
        "params": {"twist_deg": 45.0, "gravity": 9.81},
        "prestress": {"method": "lp", "sigma_min": 1.0},
    },
    "x5_bridge": {"generator": "x5_bridge", "prestress": {"method": "lp", "sigma_min": 25.0}},
}
"""Structures of these tests besides X1 and X2 (shared, from conftest)."""


@pytest.fixture
def structure(request):
    """The structure named by the parameter: X1 and X2 from conftest, the others built from SPECS."""
    name = request.param
    return request.getfixturevalue(name) if name in ("x1", "x2") else build_structure(name, SPECS[name])


@pytest.mark.parametrize("structure", ["x1", "x2", *SPECS], indirect=True)
def test_constrained_frequencies_equal_truss_classical_limit(structure):
    """Table 2: simulator against classical-limit truss frequencies (paper: 3e-9)."""
    s = structure
    f, modes = constrained_modes(Dynamics(s))
    assert len(f) == s.n_free - s.n_bars and (f > 0).all()
    ft = truss_limit_frequencies(s, n_lowest=len(f))
    assert np.abs(ft - f).max() / f.max() < 3e-9
    # a finite bar stiffness softens the truss: its frequencies approach from below
    assert (truss_frequencies(s, EA_bar=1e6, n_lowest=len(f)) < f).all()


def test_modes_are_mass_orthonormal_and_keep_bar_lengths(x2):
    s = x2
    dyn = Dynamics(s)
    _, phi = constrained_modes(dyn)
    np.testing.assert_allclose(phi.T @ dyn.Mff @ phi, np.eye(phi.shape[1]), atol=1e-10)
    J = dyn.constraint_jacobian(dyn.full(dyn.q0[dyn.free]))[:, dyn.free]
    assert np.abs(J @ phi).max() < 1e-10


def test_small_amplitude_response_oscillates_at_modal_frequency(x1):
    """Free vibration after a tiny kick: the dominant period is a constrained mode's."""
    s = x1
    dyn = Dynamics(s, c=0.0)
    f, _ = constrained_modes(dyn)
    spec = {"forcing": "half_sine", "drive": [[1, 0]], "amplitude": 0.01, "duration": 0.05, "start": 0.0}
    rec = simulate(dyn, forcing_from_spec(s, spec), t_end=20.0, dt_out=0.005, rtol=1e-10, atol=1e-12)
    x = rec.q[rec.t > 0.1, 2] - s.q0[2]
    spec_f = np.fft.rfftfreq(x.size, 0.005)
    peak = spec_f[np.argmax(np.abs(np.fft.rfft(x * np.hanning(x.size))))]
    assert min(abs(peak - fi) for fi in f) < 0.06  # FFT bin 0.05 Hz


def test_x1_slackening_threshold_between_taut_and_slack_records(x1):
    s = x1
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "frequency": 1.0}
    r = slackening_threshold(Dynamics(s), spec)
    assert 10.0 < r["threshold"] < 40.0
    assert r["threshold"] - r["taut_below"] <= 0.01 * r["threshold"]
    dyn = Dynamics(s)
    below = simulate(dyn, forcing_from_spec(s, spec, amplitude=r["taut_below"]))
    above = simulate(dyn, forcing_from_spec(s, spec, amplitude=r["threshold"]))
    assert below.n_transitions == 0 and above.n_transitions > 0


def test_prestress_scale_multiplies_force_densities_of_zero_gravity_forms():
    s = build_structure("p", {"generator": "prism", "prestress": {"method": "selfstress", "scale": 1.0}})
    t = record_structure(s, {"prestress_scale": 4.0})
    np.testing.assert_allclose(t.sigma, 4 * s.sigma)
    np.testing.assert_allclose(t.bar_sigma, 4 * s.bar_sigma)
    assert np.abs(Dynamics(t).static_residual()).max() < 1e-12


def test_prestress_scale_under_gravity_is_rejected(x1):
    from tensegrity_id.mechanics.simulate import SimulationError

    with pytest.raises(SimulationError, match="only without gravity"):
        record_structure(x1, {"prestress_scale": 2.0})


@pytest.fixture(scope="module")
def x1_record(x1):
    s = x1
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 10.0, "frequency": 1.0}
    rec = simulate(Dynamics(s), forcing_from_spec(s, spec))
    return s, {"t": rec.t, "qdd": rec.qdd}


def test_sensor_noise_is_two_percent_of_channel_rms(x1_record):
    s, rec = x1_record
    data = noise_realization(
        sensor_data(s, rec, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 3}), 0, 3
    )
    rms = np.sqrt(np.mean(data["clean"] ** 2, axis=0))
    np.testing.assert_allclose(data["noise_std"], 0.02 * rms, rtol=1e-12)
    emp = (data["noisy"] - data["clean"]).std(axis=0) / data["noise_std"]
    assert np.all(np.abs(emp - 1) < 0.15)  # 501 samples: about 3 standard errors
    assert abs(data["train"].mean() - 0.7) < 0.005
    again = sensor_data(s, rec, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 3})
    assert np.array_equal(noise_realization(again, 0, 3)["noisy"], data["noisy"])
    assert not np.array_equal(noise_realization(again, 0, 4)["noisy"], data["noisy"])


def test_a_block_split_holds_out_three_whole_tenths_and_the_noise_is_unchanged(x1_record):
    s, rec = x1_record
    proto = {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 3}
    rand = sensor_data(s, rec, proto)
    blocks = sensor_data(s, rec, {**proto, "split": "blocks"})
    n = blocks["train"].size
    tenth = np.arange(n) * 10 // n
    held = sorted(set(tenth[~blocks["train"]].tolist()))
    assert len(held) == 3 and not set(tenth[blocks["train"]].tolist()) & set(held)  # whole tenths
    assert abs(blocks["train"].mean() - 0.7) < 0.01 and np.count_nonzero(np.diff(blocks["train"])) <= 6
    assert np.array_equal(sensor_data(s, rec, {**proto, "split": "blocks"})["train"], blocks["train"])
    # the noise draws do not depend on the split (it follows seed 0's noise in the stream)
    for seed in (0, 2):
        assert np.array_equal(
            noise_realization(rand, seed, 3)["noisy"], noise_realization(blocks, seed, 3)["noisy"]
        )


def test_intermittent_mask_keeps_a_quarter_in_blocks():
    keep = intermittent_mask(501)
    assert abs(keep.mean() - 0.25) < 0.01
    edges = np.flatnonzero(np.diff(keep.astype(int)) != 0)
    assert (
        len(edges) == 6
    )  # four on-blocks, three dropouts between them (first starts at 0, last ends at end)


def test_sensor_on_fixed_coordinate_rejected(x1_record):
    s, rec = x1_record
    with pytest.raises(ValueError, match="fixed by a support"):
        sensor_data(s, rec, {"channels": [[0, 1]]})


def _prism30(EA):
    return build_structure(
        "p",
        {
            "generator": "prism",
            "params": {"twist_deg": 30.0, "members": {"cable_EA": EA}},
            "prestress": {"method": "selfstress", "scale": 1.0},
        },
    )


def test_geometric_fraction_is_the_log_slope_of_w2_in_prestress():
    """Eq. 10-11: phi^T K_g phi / phi^T H phi = d ln w^2 / d ln(prestress scale)."""
    from tensegrity_id.mechanics.modal import geometric_fractions

    s = _prism30(219.9)
    _, frac = geometric_fractions(Dynamics(s))
    h = 1e-5
    w2 = [
        constrained_modes(Dynamics(record_structure(s, {"prestress_scale": k})))[0] ** 2
        for k in (1 - h, 1 + h)
    ]
    slope = (np.log(w2[1]) - np.log(w2[0])) / (np.log(1 + h) - np.log(1 - h))
    np.testing.assert_allclose(frac, slope, rtol=1e-5, atol=1e-8)


def test_mechanism_mode_w2_linear_in_prestress():
    """Zero-gravity 30 deg prism: w^2 of the mechanism mode over a 12-fold prestress range.

    The fraction tends to 1 as the cables stiffen (K_e >> K_g); with stiff
    cables the fit's intercept is ~1e-6 of the mean (the paper's figure).
    """
    from tensegrity_id.mechanics.modal import geometric_fractions

    levels = np.linspace(1.25, 15.0, 12)
    for EA, tol_frac, tol_icpt in ((219.9, 2e-3, 1e-2), (2.2e6, 2e-7, 2e-6)):
        s = _prism30(EA)
        _, frac = geometric_fractions(Dynamics(s))
        assert abs(frac[0] - 1) < tol_frac
        w2 = np.array(
            [
                (2 * np.pi * constrained_modes(Dynamics(record_structure(s, {"prestress_scale": k})))[0][0])
                ** 2
                for k in levels
            ]
        )
        slope, icpt = np.polyfit(levels, w2, 1)
        assert abs(icpt) / w2.mean() < tol_icpt and slope > 0
