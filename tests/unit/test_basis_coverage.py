"""The Fourier basis's band in Hz, a record's dominant frequencies and the coverage check: known answers."""

import logging
import math
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from tensegrity_id import build_structure
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.identify.base import RecordData
from tensegrity_id.identify.pinn import (
    basis_band_hz,
    coverage,
    dominant_frequencies_hz,
    modal_frequencies_hz,
    prepare_records,
    time_scale_s,
)
from tensegrity_id.identify.pinn.basis_coverage import record_coverage
from tensegrity_id.identify.pinn.net import fourier_features
from tensegrity_id.identify.pinn.settings import PINNSettings
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.modal import constrained_modes

F1_X2 = 1.50491  # Hz, the X2 frame's lowest natural frequency (tests/unit/test_x2_frequency.py)


# ------------------------------------------------------------------------------ tau's time scale
def _synthetic_record(structure, t, *, train, keep):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 10.0, "frequency": 1.0}
    forcing = forcing_from_spec(structure, spec, t_end=float(t[-1]))
    a = np.sin(2 * np.pi * t)[:, None]
    sensors = {"t": t, "channels": np.array([3]), "noisy": a, "train": train, "keep": keep}
    return RecordData("r", forcing, sensors, None, 0)


@pytest.mark.parametrize("t_ref", [None, 3.0])
def test_time_scale_is_the_trainers(x1, t_ref):
    """T_ref is what prepare_records builds: the last sample time (not the training split's or the
    kept samples' span, both ended early here), or the t_ref setting."""
    t = np.arange(0.0, 7.0 + 1e-9, 0.01)
    train = t < 4.0  # the training samples end at 3.99 s, the kept ones at 5.99 s
    keep = t < 6.0
    free = np.flatnonzero(x1.free_mask)
    assert 3 in free
    pos = {int(c): i for i, c in enumerate(free)}
    recs, _ = prepare_records(
        [[_synthetic_record(x1, t, train=train, keep=keep)]], pos, t_ref=t_ref, dtype=torch.float64
    )
    assert recs[0].T_ref == time_scale_s(t, t_ref) == (7.0 if t_ref is None else 3.0)
    assert recs[0].tau_train.max().item() == pytest.approx(3.99 / recs[0].T_ref, abs=1e-12)


def test_time_scale_refuses_bad_inputs():
    with pytest.raises(ValueError, match="t_ref"):
        time_scale_s([0.0, 1.0], 0.0)
    with pytest.raises(ValueError, match="ending after 0 s"):
        time_scale_s([0.0])


# ---------------------------------------------------------------------------------- the band
def test_band_known_answers():
    """n = 8, T = 5 s: geometric 0.1 x 2^j Hz (0.1 to 12.8), linear_pi 0.1 to 0.8, linear 0.2 to 1.6."""
    np.testing.assert_allclose(basis_band_hz(8, "geometric", 5.0), 0.1 * 2.0 ** np.arange(8), rtol=1e-14)
    np.testing.assert_allclose(basis_band_hz(8, "linear_pi", 5.0), 0.1 * np.arange(1, 9), rtol=1e-14)
    np.testing.assert_allclose(basis_band_hz(8, "linear", 5.0), 0.2 * np.arange(1, 9), rtol=1e-14)
    assert basis_band_hz(8, "geometric", 5.0)[-1] == pytest.approx(12.8, rel=1e-14)
    assert basis_band_hz(8, "linear_pi", 10.0)[-1] == pytest.approx(0.4, rel=1e-14)
    with pytest.raises(ValueError, match="unknown Fourier spacing"):
        basis_band_hz(8, "octave", 5.0)
    with pytest.raises(ValueError, match="duration_s"):
        basis_band_hz(8, "geometric", 0.0)


@pytest.mark.parametrize("spacing", ["geometric", "linear", "linear_pi"])
@pytest.mark.parametrize("T", [5.0, 3.7])
def test_band_is_the_frequency_of_the_networks_features(spacing, T):
    """Each (cos, sin) pair of the network's own features, evaluated at tau = t / T, turns at
    basis_band_hz's frequency: the unwrapped phase of cos + i sin grows by 2 pi f per second
    (to 1e-9 relative; a missing 2 pi or T would be off by far more)."""
    n = 8
    t = np.linspace(0.0, T, 40_001)  # 12.8 Hz x T: far below the grid's Nyquist
    g0, _, _ = fourier_features(torch.as_tensor(t / T)[:, None], n, spacing)
    g0 = g0.numpy()
    s, c = g0[:, 1 : 1 + n], g0[:, 1 + n : 1 + 2 * n]
    phase = np.unwrap(np.angle(c + 1j * s), axis=0)
    measured = (phase[-1] - phase[0]) / (2 * math.pi * T)
    np.testing.assert_allclose(np.sort(measured), basis_band_hz(n, spacing, T), rtol=1e-9)


# ------------------------------------------------------------------ dominant frequencies
def _two_tones(rng, T=5.0, dt=0.01, noise=0.02):
    """0.7 Hz at amplitude 1 and 1.6 Hz at 0.5: power shares 0.8 and 0.2, with 2 % white noise."""
    t = np.arange(0.0, T + dt / 2, dt)
    y = np.sin(2 * np.pi * 0.7 * t + 0.3) + 0.5 * np.sin(2 * np.pi * 1.6 * t + 1.1)
    return t, y + noise * np.sqrt(np.mean(y**2)) * rng.standard_normal(t.size)


def test_dominant_frequencies_of_two_tones(rng):
    """Peaks within half a resolution (0.1 Hz for 5 s) of 0.7 and 1.6 Hz; f75 in the 0.7 Hz lobe
    (0.8 of the power below 1 Hz; by amplitude, 0.67), f95 and f99 in the 1.6 Hz lobe (two
    resolutions wide either side)."""
    t, y = _two_tones(rng)
    r = dominant_frequencies_hz(t, y, fractions=(0.5, 0.75, 0.95, 0.99))
    df = r.resolution_hz
    assert df == pytest.approx(1.0 / 5.01) and r.nyquist_hz == pytest.approx(50.0)
    assert r.peaks_hz.size == 2
    np.testing.assert_allclose(r.peaks_hz, [0.7, 1.6], atol=df / 2)
    assert r.peak_power[1] == pytest.approx(0.25, rel=0.2)  # (0.5 / 1)^2
    assert 0.7 - 2 * df <= r.quantile_hz[0.5] <= 0.7 + 2 * df
    assert 0.7 - 2 * df <= r.quantile_hz[0.75] <= 0.7 + 2 * df
    for q in (0.95, 0.99):
        assert 1.6 - 2 * df <= r.quantile_hz[q] <= 1.6 + 2 * df
    assert r.quantile_hz[0.95] <= r.quantile_hz[0.99]
    assert r.power.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(r.dominant_hz, np.unique(np.r_[list(r.quantile_hz.values()), r.peaks_hz]))
    one = dominant_frequencies_hz(t, y, n_peaks=1)  # the highest peak, not the first
    np.testing.assert_allclose(one.peaks_hz, [0.7], atol=df / 2)


def test_dominant_frequencies_sum_the_channels(rng):
    """One tone per channel and a constant one: the weak tone (0.25 % of the power) is below the
    peak floor (1 %) of the summed spectrum; unit power per channel makes it count as much as the
    strong one, and leaves the constant channel out."""
    t, _ = _two_tones(rng)
    y = np.c_[np.sin(2 * np.pi * 0.7 * t), 0.05 * np.sin(2 * np.pi * 1.6 * t), np.full(t.size, 2.0)]
    raw = dominant_frequencies_hz(t, y, fractions=(0.95,))
    eq = dominant_frequencies_hz(t, y, fractions=(0.75,), normalise=True)
    df = raw.resolution_hz
    assert raw.peaks_hz.size == 1 and abs(raw.peaks_hz[0] - 0.7) <= df / 2  # 1.6 Hz: 0.25 % of the power
    assert raw.quantile_hz[0.95] <= 0.7 + 2 * df
    np.testing.assert_allclose(eq.peaks_hz, [0.7, 1.6], atol=df / 2)
    assert eq.peak_power.min() == pytest.approx(1.0, abs=0.05)
    assert 1.6 - 2 * df <= eq.quantile_hz[0.75] <= 1.6 + 2 * df


def test_dominant_frequencies_refuse_bad_inputs(rng):
    t, y = _two_tones(rng)
    t_bad = t.copy()
    t_bad[10] += 0.003
    with pytest.raises(ValueError, match="uniformly sampled"):
        dominant_frequencies_hz(t_bad, y)
    with pytest.raises(ValueError, match="fractions"):
        dominant_frequencies_hz(t, y, fractions=(0.0,))
    with pytest.raises(ValueError, match="constant"):
        dominant_frequencies_hz(t, np.ones_like(t))


def test_modal_frequencies_of_x2(x2):
    """The X2 frame's constrained modes, lowest 1.5049 Hz (the workflow's value), ascending."""
    f = modal_frequencies_hz(x2)
    assert f[0] == pytest.approx(F1_X2, abs=1e-3)
    assert (np.diff(f) >= 0).all()
    np.testing.assert_allclose(f, np.sort(constrained_modes(Dynamics(x2))[0]), rtol=1e-12)
    np.testing.assert_array_equal(modal_frequencies_hz(x2, n_lowest=2), f[:2])


def test_modal_frequencies_leave_rigid_body_modes_out():
    """The free-floating hexagonal prism: six rigid-body modes (rounding-size frequencies, some
    negative) left out, the elastic ones from 5.43 Hz kept."""
    hexprism = build_structure(
        "hexprism",
        {"generator": "hexprism", "prestress": {"method": "selfstress", "tension": 10.0, "cable": 0}},
    )
    every = np.sort(constrained_modes(Dynamics(hexprism))[0])
    f = modal_frequencies_hz(hexprism)
    assert f.size == every.size - 6 and f[0] == pytest.approx(5.428, abs=1e-3)
    np.testing.assert_allclose(f, every[6:], rtol=1e-12)


# ------------------------------------------------------------------------------ coverage
def test_coverage_flags_a_frequency_above_the_band():
    """1.6 Hz: above the 0.8 Hz band of linear_pi (n = 8, 5 s), inside geometric's 12.8 Hz one at
    its basis frequency 1.6; the band's top counts as inside."""
    narrow = coverage(basis_band_hz(8, "linear_pi", 5.0), [0.7, 0.8, 1.6])
    assert narrow.top_hz == pytest.approx(0.8)
    assert [r.inside for r in narrow.rows] == [True, True, False]
    assert not narrow.all_inside and narrow.outside_hz == (1.6,)
    assert narrow.rows[2].nearest_hz == pytest.approx(0.8) and narrow.rows[2].ratio == pytest.approx(2.0)
    assert narrow.rows[0].nearest_hz == pytest.approx(0.7) and narrow.rows[0].ratio == pytest.approx(1.0)
    assert narrow.summary() == "1 of 3 above the band (top 0.8 Hz): 1.6 Hz"
    wide = coverage(basis_band_hz(8, "geometric", 5.0), [0.7, 1.6])
    assert wide.all_inside and wide.outside_hz == () and wide.top_hz == pytest.approx(12.8)
    assert wide.rows[1].nearest_hz == pytest.approx(1.6) and wide.rows[0].nearest_hz == pytest.approx(0.8)
    assert wide.summary() == "all 2 inside the band (top 12.8 Hz)"
    with pytest.raises(ValueError, match="frequencies_hz"):
        coverage([0.1], [-1.0])


def _tone_record(name, f_hz, t_end=5.0, dt=0.01):
    t = np.arange(0.0, t_end + dt / 2, dt)
    noisy = np.column_stack([np.sin(2 * np.pi * f_hz * t), 0.5 * np.cos(2 * np.pi * f_hz * t)])
    return SimpleNamespace(name=name, sensors={"t": t, "noisy": noisy})


def test_record_coverage_uses_the_runs_basis_and_time_scale():
    """A 1.5 Hz record of 5 s: inside the geometric band (top 12.8 Hz), above linear_pi's (0.8 Hz);
    with t_ref = 1 s linear_pi's top is 4 Hz and the tone is inside."""
    rec = [_tone_record("r", 1.5)]
    ((name, geo),) = record_coverage(rec, PINNSettings(fourier="geometric"))
    assert name == "r" and geo.all_inside and geo.top_hz == pytest.approx(12.8)
    ((_, lin),) = record_coverage(rec, PINNSettings(fourier="linear_pi"))
    assert not lin.all_inside and lin.top_hz == pytest.approx(0.8)
    assert all(abs(f - 1.5) < 0.45 for f in lin.outside_hz)  # f95, f99 and the peak: the tone
    ((_, scaled),) = record_coverage(rec, PINNSettings(fourier="linear_pi", t_ref=1.0))
    assert scaled.all_inside and scaled.top_hz == pytest.approx(4.0)


def test_a_pinn_run_logs_its_basis_coverage_and_says_when_the_response_is_above_it(caplog):
    from tensegrity_id.identify.pinn.methods import PINNSmooth

    rec = [_tone_record("taut", 1.5)]
    with caplog.at_level(logging.INFO):
        PINNSmooth()._log_basis_coverage(rec)  # the default: linear_pi
        PINNSmooth(fourier="geometric")._log_basis_coverage(rec)
    (above, inside) = caplog.records
    assert above.levelno == logging.INFO and "record taut" in above.getMessage()
    assert "8 linear_pi terms" in above.getMessage() and "above the band (top 0.8 Hz)" in above.getMessage()
    assert "left to the trunk's nonlinearity" in above.getMessage()
    assert inside.levelno == logging.INFO and "inside the band (top 12.8 Hz)" in inside.getMessage()
    assert "nonlinearity" not in inside.getMessage()
    caplog.clear()
    with caplog.at_level(logging.INFO):  # a record whose samples are not uniform is not checked
        t = np.r_[0.0, 0.1, 0.3, np.arange(0.4, 5, 0.1)]
        bad = SimpleNamespace(name="m", sensors={"t": t, "noisy": np.ones((t.size, 1))})
        PINNSmooth()._log_basis_coverage([bad])
    assert "not checked" in caplog.records[0].getMessage()


def test_band_capture_known_answers():
    """Two tones, 0.5 Hz (amplitude 1) and 2 Hz (amplitude 0.5), split at 0.8 Hz: the power share
    above is 0.25 / 1.25; a fit of the low tone alone captures none of it, an exact fit all, a fit
    off by a tenth of the high tone 1 - 0.1^2."""
    from tensegrity_id.identify.pinn.basis_coverage import band_capture

    t = np.arange(1000) * 0.005  # 5 s at 200 Hz: both tones on the grid
    low, high = np.sin(2 * np.pi * 0.5 * t), 0.5 * np.sin(2 * np.pi * 2.0 * t)
    true = low + high
    blind = band_capture(t, true, low, 0.8)
    assert blind.share_above == pytest.approx(0.2, abs=2e-3)
    assert blind.captured_above == pytest.approx(0.0, abs=5e-3)  # the low tone's Hann lobe
    assert blind.captured_below == pytest.approx(1.0, abs=1e-3)
    assert band_capture(t, true, true, 0.8).captured_above == pytest.approx(1.0, abs=1e-12)
    near = band_capture(t, true, low + 0.9 * high, 0.8)
    assert near.captured_above == pytest.approx(0.99, abs=1e-3)
    assert band_capture(t, true, low - high, 0.8).captured_above == pytest.approx(-3.0, abs=1e-2)
    two = band_capture(t, np.c_[true, true], np.c_[low, true], 0.8)  # the channels' power adds
    assert two.captured_above == pytest.approx(0.5, abs=1e-3)


def test_band_capture_refuses_bad_inputs():
    from tensegrity_id.identify.pinn.basis_coverage import band_capture

    t = np.arange(64) * 0.01
    with pytest.raises(ValueError, match="same shape"):
        band_capture(t, np.ones(64), np.ones(63), 1.0)
    with pytest.raises(ValueError, match="top_hz must be a positive"):
        band_capture(t, np.sin(t), np.sin(t), 0.0)
    with pytest.raises(ValueError, match="constant"):
        band_capture(t, np.ones(64), np.ones(64), 1.0)
