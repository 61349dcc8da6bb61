"""Scoring of a finished identification: parameter errors, fit metrics and outcome labels, by hand."""

import numpy as np
import pytest
from tensegrity_id import IdentificationProblem, RecordData
from tensegrity_id.identify.scoring import (
    OUTCOME_RULE,
    classify_outcome,
    held_out_excess_pct,
    held_out_misfit_pct,
    held_out_ratio,
    outcome_rule_text,
    parameter_errors,
    reconstruction_pct,
    score_result,
    train_misfit_ratio,
)
from tensegrity_id.results.identification import IdentificationResult, Start

TOL = 1e-9
"""Relative tolerance of the known answers below (exact arithmetic up to round-off)."""


# ------------------------------------------------------------ parameter errors
def test_parameter_errors_count_identifiable_cables_only(x1):
    """X1: cable 0 joins two supported nodes (inert); errors of cables 1-3 are 10 %, 2 %, 4 %."""
    factors = np.array([1.5, 1.10, 0.98, 1.04])
    identified = {"sigma": x1.sigma * factors, "c": 1.05}
    exact = {"sigma": x1.sigma, "c": 1.0, "EA": 220.0}
    out = parameter_errors(x1, identified, exact)
    e = out.errors
    assert out.inert_members == [0] and out.identifiable == [1, 2, 3]
    assert e.sigma_pct[0] is None  # the 50 % error of the inert cable is never counted
    np.testing.assert_allclose(e.sigma_pct[1:], [10.0, 2.0, 4.0], rtol=TOL)
    assert e.sigma_max_pct == pytest.approx(10.0, rel=TOL)
    assert e.sigma_median_pct == pytest.approx(4.0, rel=TOL)
    assert e.c_pct == pytest.approx(5.0, rel=TOL)
    assert e.EA_pct is None and "EA_pct" not in e.to_json()  # EA was not identified
    assert out.inert_values == {"0": pytest.approx(1.5 * x1.sigma[0], rel=TOL)}


def test_parameter_errors_leave_undetermined_cables_out(x1):
    """A NaN (undetermined) cable is None and drops out of max and median; EA and c errors are relative."""
    sigma = x1.sigma * np.array([np.nan, 0.80, np.nan, 1.06])
    out = parameter_errors(
        x1, {"sigma": sigma, "c": 0.9, "EA": 231.0}, {"sigma": x1.sigma, "c": 1.2, "EA": 220.0}
    )
    e = out.errors
    assert e.sigma_pct[0] is None and e.sigma_pct[2] is None
    assert e.sigma_pct[1] == pytest.approx(20.0, rel=TOL) and e.sigma_pct[3] == pytest.approx(6.0, rel=TOL)
    assert e.sigma_max_pct == pytest.approx(20.0, rel=TOL)
    assert e.sigma_median_pct == pytest.approx(13.0, rel=TOL)  # median of two: their mean
    assert e.c_pct == pytest.approx(25.0, rel=TOL)  # |0.9 - 1.2| / 1.2
    assert e.EA_pct == pytest.approx(5.0, rel=TOL)
    assert out.inert_values == {"0": None}


def test_parameter_errors_without_any_determined_cable_or_damping(x1):
    sigma = np.full(x1.n_cables, np.nan)
    e = parameter_errors(x1, {"sigma": sigma, "c": None}, {"sigma": x1.sigma, "c": 1.0}).errors
    assert e.sigma_pct == [None] * 4
    assert e.sigma_max_pct is None and e.sigma_median_pct is None and e.c_pct is None


# ------------------------------------------------------------------ fit metrics
def _sensors(n=10, train=7):
    """One channel of measured value 2 everywhere; the first ``train`` samples train."""
    mask = np.arange(n) < train
    return {"noisy": np.full((n, 1), 2.0), "train": mask, "keep": np.ones(n, bool)}


def test_held_out_ratio_known_answer():
    """Misfit 1 on training samples and 2 on held-out samples: ratio of mean squares 4."""
    sens = _sensors()
    pred = sens["noisy"] + np.where(sens["train"], 1.0, 2.0)[:, None]
    assert held_out_ratio(sens, pred) == pytest.approx(4.0, rel=TOL)
    # misfits of dropped samples (keep False) do not count
    sens["keep"][[0, 9]] = False
    pred[[0, 9]] += 100.0
    assert held_out_ratio(sens, pred) == pytest.approx(4.0, rel=TOL)


def test_held_out_ratio_is_none_without_a_split_or_prediction():
    sens = _sensors()
    assert held_out_ratio(sens, None) is None
    assert held_out_ratio({k: v for k, v in sens.items() if k != "train"}, sens["noisy"]) is None
    assert held_out_ratio(_sensors(train=10), sens["noisy"] + 1) is None  # no held-out sample
    assert held_out_ratio(_sensors(train=0), sens["noisy"] + 1) is None  # no training sample


def test_train_misfit_ratio_known_answer():
    """Two channels of noise std 0.5 and 2: training misfits 0.5 and 1 give (1 + 1/4) / 2 = 0.625."""
    sens = {
        "noisy": np.zeros((10, 2)),
        "train": np.arange(10) < 7,
        "keep": np.ones(10, bool),
        "noise_std": np.array([0.5, 2.0]),
    }
    pred = np.tile([0.5, 1.0], (10, 1))
    pred[7:] += 100.0  # held-out samples do not enter
    assert train_misfit_ratio(sens, pred) == pytest.approx(0.625, rel=TOL)
    # a channel without signal (noise level zero or of rounding size) is left out: 1/4 from channel 1
    for silent in (0.0, 1e-17):
        assert train_misfit_ratio({**sens, "noise_std": np.array([silent, 2.0])}, pred) == pytest.approx(0.25)
    assert train_misfit_ratio({**sens, "noise_std": np.zeros(2)}, pred) is None
    assert train_misfit_ratio({k: v for k, v in sens.items() if k != "noise_std"}, pred) is None
    assert train_misfit_ratio(sens, None) is None


def test_held_out_misfit_pct_known_answer():
    """Held-out misfits of +-0.1 on a signal of RMS 2: 5 %; training misfits do not enter."""
    sens = _sensors()
    pred = sens["noisy"].copy()
    pred[:7] += 50.0  # training samples: ignored
    pred[7:] += np.array([0.1, -0.1, 0.1])[:, None]
    assert held_out_misfit_pct(sens, pred) == pytest.approx(5.0, rel=TOL)
    # relative to the RMS of the measured signal on the held-out samples (values 1, 2, 2: RMS sqrt 3)
    sens["noisy"][7] = 1.0
    pred = sens["noisy"] + 0.3
    assert held_out_misfit_pct(sens, pred) == pytest.approx(100 * 0.3 / np.sqrt(3.0), rel=TOL)
    assert held_out_misfit_pct(sens, None) is None
    assert held_out_misfit_pct(_sensors(train=10), pred) is None


def test_reconstruction_pct_uses_the_unmeasured_free_coordinates(x1):
    """X1's free coordinates are 2, 3 (node 1, measured) and 6, 7 (node 3): error 0.1 on motion 1 is 10 %."""
    n = 20
    q = np.tile(x1.q0, (n, 1))
    q[:, [6, 7]] += np.where(np.arange(n) % 2, 1.0, -1.0)[:, None]  # RMS motion 1 about q0
    q_pred = q.copy()
    q_pred[:, 6] += 0.1
    q_pred[:, 7] -= 0.1
    q_pred[:, [2, 3]] += 5.0  # measured coordinates: not counted
    q_pred[:, [0, 1]] += 7.0  # supported coordinates: not counted
    assert reconstruction_pct(x1, {"q": q}, [2, 3], q_pred) == pytest.approx(10.0, rel=TOL)
    # with only node 1's x measured, coordinate 3 counts too: RMS error sqrt((25 + 0.01 + 0.01) / 3)
    # over RMS motion sqrt(2 / 3) (coordinate 3 does not move)
    expected = 100 * np.sqrt((25.0 + 0.02) / 3) / np.sqrt(2.0 / 3)
    assert reconstruction_pct(x1, {"q": q}, [2], q_pred) == pytest.approx(expected, rel=TOL)


def test_reconstruction_pct_is_none_when_undefined(x1):
    q = np.tile(x1.q0, (5, 1))
    assert (
        reconstruction_pct(x1, {"q": q}, [2, 3], q + 1.0) is None
    )  # no motion at the unmeasured coordinates
    assert reconstruction_pct(x1, {"q": q}, [2, 3, 6, 7], q + 1.0) is None  # every free coordinate measured
    assert reconstruction_pct(x1, None, [2, 3], q) is None
    assert reconstruction_pct(x1, {"q": q}, [2, 3], None) is None


# -------------------------------------------------------------- outcome labels
def test_default_outcome_rule():
    assert OUTCOME_RULE == {
        "fit_misfit_pct": 10.0,
        "fit_recon_pct": 30.0,
        "identified_pct": 5.0,
        "partial_pct": 30.0,
    }


@pytest.mark.parametrize(
    ("sigma_max", "misfit", "recon", "label"),
    [
        # fit failure by the held-out misfit (strictly above 10 %), whatever the parameter error
        (1.0, 10.0 + 1e-9, 5.0, "fit failure"),
        (1.0, 10.0, 5.0, "identified"),
        # fit failure by the reconstruction error (strictly above 30 %)
        (1.0, 2.0, 30.0 + 1e-9, "fit failure"),
        (1.0, 2.0, 30.0, "identified"),
        (None, 50.0, None, "fit failure"),  # the misfit flag needs no exact parameters
        # a good fit: labelled by the largest force-density error
        (5.0, 2.0, 5.0, "identified"),
        (5.0 + 1e-9, 2.0, 5.0, "partial"),
        (30.0, 2.0, 5.0, "partial"),
        (30.0 + 1e-9, 2.0, 5.0, "silent failure"),
        (80.0, 2.0, 5.0, "silent failure"),
        # missing metrics do not flag a fit failure
        (3.0, None, None, "identified"),
        (None, 2.0, 5.0, None),  # no exact parameters, fit fine: no label
    ],
)
def test_classify_outcome_at_the_default_thresholds(sigma_max, misfit, recon, label):
    assert classify_outcome(sigma_max, misfit, recon) == label


def test_classify_outcome_with_config_thresholds():
    rule = {"fit_misfit_pct": 4.0, "identified_pct": 1.0}  # the others keep their defaults
    assert classify_outcome(0.5, 4.5, 5.0, rule) == "fit failure"
    assert classify_outcome(0.5, 3.9, 5.0, rule) == "identified"
    assert classify_outcome(2.0, 3.9, 5.0, rule) == "partial"
    assert classify_outcome(2.0, 3.9, 31.0, rule) == "fit failure"
    assert classify_outcome(2.0, 3.9, 5.0, None) == "identified"


def _noisy_sines(noise: float, n: int = 4000, seed: int = 0):
    """Two unit-RMS sine channels, Gaussian noise of ``noise`` x the RMS, every other sample held out."""
    t = np.linspace(0.0, 5.0, n)
    clean = np.sqrt(2.0) * np.c_[np.sin(2 * np.pi * t), np.cos(3 * np.pi * t)]
    std = np.full(2, noise)
    noisy = clean + np.random.default_rng(seed).normal(size=clean.shape) * std
    train = np.arange(n) % 2 == 0
    return {"noisy": noisy, "clean": clean, "noise_std": std, "train": train, "keep": np.ones(n, bool)}


def test_held_out_excess_removes_the_noise_floor_only():
    """At 10 % noise a perfect fit misfits by ~10 % of the signal; beyond the floor it is ~0.

    A model error of 15 % of the signal (in quadrature with the noise) is
    recovered to sampling accuracy (2000 held-out samples x 2 channels:
    the floor's estimate is good to about 2 %)."""
    sen = _noisy_sines(0.10)
    misfit = held_out_misfit_pct(sen, sen["clean"])
    assert misfit == pytest.approx(100 * 0.10 / np.sqrt(1 + 0.01), rel=0.03)  # noise / RMS noisy signal
    assert held_out_excess_pct(sen, sen["clean"]) < 2.5
    assert classify_outcome(3.0, held_out_excess_pct(sen, sen["clean"]), 5.0) == "identified"
    wrong = sen["clean"] * (1 + 0.15)  # 15 % of the clean signal, RMS
    ex = held_out_excess_pct(sen, wrong)
    assert ex == pytest.approx(100 * 0.15 / np.sqrt(1 + 0.01), rel=0.03)
    assert held_out_excess_pct(sen, wrong) < held_out_misfit_pct(sen, wrong)
    # no stated noise: the raw misfit (nothing to subtract)
    bare = {k: v for k, v in sen.items() if k != "noise_std"}
    assert held_out_excess_pct(bare, wrong) == pytest.approx(held_out_misfit_pct(bare, wrong), rel=TOL)
    assert held_out_excess_pct(sen, None) is None


def test_outcome_rule_text():
    assert outcome_rule_text({}) == (
        "fit failure if held-out misfit beyond the noise floor > 10 % of the signal or reconstruction > "
        "30 %; "
        "else identified if max sigma error <= 5 %, partial if <= 30 %, silent failure otherwise"
    )
    text = outcome_rule_text({"identified_pct": 2.5, "fit_recon_pct": 40.0})
    assert (
        "reconstruction > 40 %" in text
        and "max sigma error <= 2.5 %" in text
        and "noise floor > 10 %" in text
    )


# ------------------------------------------------------------ the result record
RECORD_KEYS = [
    "schema", "method", "structure", "record", "protocol", "seed", "steps", "identified", "exact", "errors",
    "inert_members", "identifiable", "inert_values", "reconstruction_pct", "held_out_ratio",
    "held_out_misfit_pct", "held_out_excess_pct", "train_misfit_ratio", "resimulation_pct",
    "resimulation_chi2", "per_record", "n_transitions", "outcome", "outcome_rule", "wall_s",
    "n_forward_simulations", "n_hyperparameters", "options",
]  # fmt: skip
"""The result file's fixed keys, in order (the method's own fields and undeclared keys follow)."""


def _record_problem(x1, truth):
    return IdentificationProblem(x1, [RecordData("r", None, n_transitions=3)], truth=truth, seed=7)


def _start(sigma, c):
    return Start(
        start=[10.0, 0.3], sigma=sigma, c=c, chi2=1.0, spurious=False, status=1, message="", n_simulations=2
    )


def test_score_result_builds_the_record_from_a_fit(x1, tmp_path):
    """No sensor data: errors and outcome by hand, the fit's own keys after the fixed ones, ``out`` kept."""
    fit = {
        "sigma": x1.sigma * np.array([np.nan, 1.10, 0.98, 1.04]),
        "c": 1.05,
        "steps": 12,
        "n_forward_simulations": 4,
        "starts": [_start(list(x1.sigma * 1.2), 1.0)],
        "novel_key": "kept",
    }
    before = dict(fit)
    problem = _record_problem(x1, {"sigma": x1.sigma, "c": 1.0, "EA": 220.0})
    opts = {"max_nfev": 5}
    r = score_result(problem, fit, 2.5, method_name="m", n_hyperparameters=3, options=opts)
    assert isinstance(r, IdentificationResult) and fit.keys() == before.keys()
    assert list(r.to_json()) == [*RECORD_KEYS, "starts", "novel_key"]
    assert (r.method, r.structure, r.record, r.seed, r.steps) == ("m", x1.name, "r", 7, 12)
    assert (r.wall_s, r.n_forward_simulations, r.n_hyperparameters) == (2.5, 4, 3)
    assert r.options is opts and r.extra == {"novel_key": "kept"}
    assert r.identified.sigma[0] is None and r.exact.EA == 220.0
    assert r.errors.sigma_max_pct == pytest.approx(10.0, rel=TOL)
    assert r.outcome == "partial" and r.n_transitions == 3  # 10 % is within the partial band
    assert r.starts[0].sigma_max_pct == pytest.approx(20.0, rel=TOL)  # each start scored
    assert r.per_record["r"].resimulation_pct is None and r.series is None and r.bounds is None
    # the file: written with its schema, read back equal
    r.write(tmp_path / "r.json")
    assert IdentificationResult.load(tmp_path / "r.json") == r


def test_score_result_of_a_diverged_fit_and_of_a_measured_record(x1):
    """A diverged fit is labelled so whatever its errors; without exact values nothing is an error."""
    fit = {"sigma": x1.sigma, "c": 1.0, "diverged": {"step": 3}}
    truth = {"sigma": x1.sigma, "c": 1.0}
    r = score_result(_record_problem(x1, truth), fit, 0.0, method_name="m", n_hyperparameters=0, options={})
    assert r.outcome == "diverged" and r.errors.sigma_max_pct == 0.0 and r.diverged == {"step": 3}
    m = score_result(
        _record_problem(x1, None),
        {"sigma": x1.sigma, "c": 1.0},
        0.0,
        method_name="m",
        n_hyperparameters=0,
        options={},
    )
    assert m.exact is None and m.errors.sigma_max_pct is None and m.outcome is None
    assert m.bounds is None  # bounds need sensor data
