"""Records that pass the file checks and the unit screen yet would give confident wrong answers.

Each case is a fault a user's record can carry: a force in daN or an
accelerometer in g (factors the x100 unit screen lets through), a channel
with its sign reversed, two channels exchanged, a channel that stuck, a
stated noise level the record does not carry, one corrupt sample (which
took Levenberg-Marquardt shooting to a linear-algebra traceback), and a
spreadsheet's CSV dialect.  Every fault passed the import before (the
dialects were refused as files without a 'time' column); each must now be
refused naming the channel, sample or setting, or warned of, at screening
(:mod:`tensegrity_id.data.outliers`, :mod:`tensegrity_id.data.screening`,
run by :func:`tensegrity_id.data.measured.measured_record` at start-up and
in the import job), a dialect read or named with its fix, and a
linear-algebra failure in LM shooting must end as the method's failure.
The faults are put into the shipped example record (X1, a 1 Hz shaker test,
551 samples) or into a 3 s broadband X1 record simulated here: a harmonic
drive moves every channel alike, so an exchange of two channels shows only
under a broadband force.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from snakemake.utils import update_config
from tensegrity_id import IdentificationProblem, RecordData, get_method
from tensegrity_id.data.measured import measured_record
from tensegrity_id.data.record_csv import RecordFileError, read_record
from tensegrity_id.data.screening import RecordScreenWarning
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify import shooting
from tensegrity_id.mechanics.catalog import build_structure
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.excitation import make_forcing, sampled_forcing
from tensegrity_id.mechanics.simulate import simulate
from tensegrity_id.results.screening import RECORD_SCREENS, RecordScreens
from tensegrity_id.workflow.config_check import ConfigError, check_config

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "resources/records/x1_shaker_simulated.csv"
"""The shipped example record of structure 'my_frame' (simulated; config/example_measured.yaml)."""
ACC = ["acc:1:x", "acc:1:y", "acc:3:x"]


@pytest.fixture(scope="module")
def design():
    """The example's structure file, prestressed as config/example_measured.yaml configures it."""
    spec = yaml.safe_load((REPO / "config/example_measured.yaml").read_text())["structures"]["my_frame"]
    return build_structure("my_frame", {**spec, "file": str(REPO / spec["file"])})


@pytest.fixture(scope="module")
def example() -> pd.DataFrame:
    return pd.read_csv(EXAMPLE, comment="#")


def _simulated(design, force, dt=0.01) -> pd.DataFrame:
    """The design structure's response to force samples (N, on node 1, y) as a record; 2 % noise."""
    t = np.arange(len(force)) * dt
    rec = simulate(
        Dynamics(design),
        sampled_forcing(t, [3], force[:, None]),
        t_end=t[-1],
        dt_out=dt,
        rtol=1e-8,
        atol=1e-8,
    )
    acc = rec.qdd[:, [2, 3, 6]]
    rng = np.random.default_rng(48)
    acc = acc + rng.standard_normal(acc.shape) * 0.02 * np.sqrt(np.mean(acc**2, axis=0))
    return pd.DataFrame(np.column_stack([t, force, acc]), columns=["time", "force:1:y", *ACC])


@pytest.fixture(scope="module")
def broadband_force() -> np.ndarray:
    """3 s of a band-limited random force (5 N RMS to 10 Hz) after 0.2 s at rest, sampled at 100 Hz."""
    t = np.arange(301) * 0.01
    force = make_forcing("noise", [3], t_end=3.0, amplitude=5.0, seed=1, cutoff=10.0).at(t, 4)[:, 3]
    return np.where(t < 0.2, 0.0, force)  # a quiet lead-in: the record starts at rest


@pytest.fixture(scope="module")
def broadband(design, broadband_force) -> pd.DataFrame:
    """X1 under the broadband force on node 1, y; channels acc:1:x, acc:1:y, acc:3:x."""
    return _simulated(design, broadband_force)


def _screens(imported: dict) -> RecordScreens:
    """The screens an import wrote into the record's metadata, read back as its record."""
    return RecordScreens.from_json(imported["meta"][RECORD_SCREENS])


def _import(design, df, tmp_path, entry=None, name="rec.csv"):
    """The record imported as the workflow imports it (file checks, then every screen)."""
    path = tmp_path / name
    df.to_csv(path, index=False)
    return measured_record(design, read_record(path, design), entry or {}, name="rec")


def _number(pattern, text) -> float:
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return float(m.group(1))


# --------------------------------------------------------------------------- unit factors
def test_the_example_sits_at_one_times_the_design_model(design, example, tmp_path):
    """The rule's premise: a record in SI units sits near 1 (here 1.006; allowed within 3)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RecordScreenWarning)
        screens = _screens(_import(design, example, tmp_path))
    assert screens.level_ratio == pytest.approx(1.0, abs=0.05)
    assert all(a > 0.95 for a in screens.agreement.values())  # 1 = the model's shape and level
    assert screens.warnings == [] and screens.outliers.found == [] and screens.model_agrees


def test_a_force_in_daN_is_refused_at_start_up_naming_the_unit(example, tmp_path):
    df = example.copy()
    df["force:1:y"] /= 10.0  # recorded in daN
    path = tmp_path / "daN.csv"
    df.to_csv(path, index=False)
    cfg = yaml.safe_load((REPO / "config/config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config/example_measured.yaml").read_text()))
    cfg["measured"] = {"records": {"rec": {"file": str(path), "structure": "my_frame"}}, "peaks": {}}
    with pytest.raises(ConfigError) as err:
        check_config(cfg, REPO / "config/schema.yaml")
    msg = str(err.value)
    assert msg.startswith("config field 'measured.records.rec.file': ") and "\n" not in msg
    assert "Is the force in daN or kgf (a factor 10 or 9.81)?" in msg, msg
    assert _number(r"the accelerations are ([\d.]+) x the design model", msg) == pytest.approx(10.0, rel=0.05)


@pytest.mark.parametrize(
    "slip, text, ratio",
    [
        (
            "acc_g",
            r"Are the accelerations in g \(a factor 1/9\.81\)\? .* multiply the acceleration",
            1 / 9.81,
        ),
        (
            "one_g",
            r"channel 'acc:3:x' is ([\d.e+-]+) x .* Is 'acc:3:x' in g \(a factor 1/9\.81\)\?",
            1 / 9.81,
        ),
        (
            "one_mm",
            r"channel 'acc:1:y' is ([\d.e+]+) x .* Is 'acc:1:y' in mm/s\^2 \(a factor 1000\)\?",
            1000.0,
        ),
    ],
)
def test_accelerations_in_g_or_one_channel_in_g_or_mm_are_named(design, example, tmp_path, slip, text, ratio):
    df = example.copy()
    if slip == "acc_g":
        df[ACC] /= 9.81
    elif slip == "one_g":
        df["acc:3:x"] /= 9.81
    else:
        df["acc:1:y"] *= 1000.0
    with pytest.raises(RecordFileError) as err:
        _import(design, df, tmp_path)
    msg = str(err.value)
    assert re.search(text, msg), msg
    found = _number(r"(?:accelerations are|channel '[^']+' is) ([\d.e+-]+) x", msg)
    assert found == pytest.approx(ratio, rel=0.05)


def test_a_level_off_by_4_but_no_unit_factor_is_a_warning_and_2_passes(design, example, tmp_path):
    df = example.copy()
    df["force:1:y"] *= 0.5  # a 2 x miscalibration: within the model's factor 3, silent
    with warnings.catch_warnings():
        warnings.simplefilter("error", RecordScreenWarning)
        assert _screens(_import(design, df, tmp_path)).level_ratio == pytest.approx(2.0, rel=0.05)
    df["force:1:y"] *= 0.5  # 4 x: beyond 3, not a unit factor
    with pytest.warns(
        RecordScreenWarning, match=r"are 4\.\d+ x the design model's .* not a known unit factor"
    ):
        out = _import(design, df, tmp_path)
    assert len(_screens(out).warnings) == 1


# ------------------------------------------------------------- reversed, swapped, stuck
def test_a_reversed_channel_is_named(design, broadband, tmp_path):
    df = broadband.copy()
    df["acc:1:x"] *= -1.0
    with pytest.raises(RecordFileError) as err:
        _import(design, df, tmp_path)
    msg = str(err.value)
    assert "channel 'acc:1:x' runs against the design model's response" in msg
    assert "its sign reversed? Multiply the column by -1" in msg
    assert _number(r"\(agreement (-[\d.]+),", msg) < -0.9


def test_a_reversed_force_is_a_warning_naming_the_force_channel(design, example, tmp_path):
    df = example.copy()
    df["force:1:y"] *= -1.0  # every channel then runs against the model: the force, or an anti-resonance
    with pytest.warns(
        RecordScreenWarning, match=r"every acceleration channel runs against .* 'force:1:y' reversed"
    ):
        out = _import(design, df, tmp_path)
    assert max(_screens(out).agreement.values()) < -0.9


def test_two_swapped_channels_are_named_as_a_pair(design, broadband, tmp_path):
    df = broadband.rename(columns={"acc:1:x": "acc:3:x", "acc:3:x": "acc:1:x"})
    with pytest.raises(RecordFileError) as err:
        _import(design, df, tmp_path)
    msg = str(err.value)
    assert (
        "channels 'acc:1:x' and 'acc:3:x' fit the design model's response to the recorded force better "
        in msg
    )
    assert "swapped columns? Exchange the two column names" in msg
    exchanged = re.search(r"exchanged (-?[\d.]+) and (-?[\d.]+);", msg)
    assert min(float(exchanged.group(1)), float(exchanged.group(2))) > 0.8, msg
    _import(design, broadband, tmp_path)  # as recorded: passes


@pytest.mark.parametrize(
    "fault, text",
    [
        (
            "stuck",
            r"'acc:3:x' holds one value \(-?[\d.]+\) from t = 3 s \(sample index 300\) to the end "
            r"\(251 samples\)",
        ),
        ("dead", r"'acc:3:x' holds one value \(0\) from t = 3 s \(sample index 300\) to the end"),
        ("mid", r"'acc:3:x' holds one value \(-?[\d.]+\) from t = 2 s to 3 s \(sample indices 200 to 300\)"),
    ],
)
def test_a_stuck_or_dead_channel_is_named_with_the_time_it_stuck(design, example, tmp_path, fault, text):
    df = example.copy()
    if fault == "stuck":
        df.loc[300:, "acc:3:x"] = df.loc[300, "acc:3:x"]
    elif fault == "dead":
        df.loc[300:, "acc:3:x"] = 0.0
    else:
        df.loc[200:300, "acc:3:x"] = df.loc[200, "acc:3:x"]
    with pytest.raises(RecordFileError, match=text) as err:
        _import(design, df, tmp_path)
    assert "a dead or stuck channel?" in str(err.value)
    if fault != "mid":  # the fix the message gives works
        assert "t_end below 3" in str(err.value)
        _import(design, df, tmp_path, {"t_end": 2.99})


# ------------------------------------------------------------------------------- noise
def test_a_stated_noise_the_record_does_not_carry_is_a_warning(design, example, tmp_path):
    with pytest.warns(
        RecordScreenWarning, match=r"differs from the noise stated in 'noise' by more than a factor 2"
    ):
        out = _import(design, example, tmp_path, {"noise": 0.2})
    noise = _screens(out).noise
    # the example carries 2 % of each channel's RMS (1.77, 1.77, 1.42 m/s^2): 0.035, 0.035, 0.028
    for label, true in zip(ACC, (0.0353, 0.0354, 0.0285), strict=True):
        assert noise[label].ratio == pytest.approx(true / 0.2, rel=0.25) and noise[label].reliable
    assert all(f"'{c}'" in _screens(out).warnings[0] for c in ACC)
    with warnings.catch_warnings():  # within a factor 2 of the estimate: silent
        warnings.simplefilter("error", RecordScreenWarning)
        _import(design, example, tmp_path, {"noise": 0.04})
    with pytest.warns(
        RecordScreenWarning, match=r"'acc:1:y' 0\.0\d+ m/s\^2 against 0\.01 stated \([34]\.\d+ x\)"
    ):
        out = _import(design, example, tmp_path, {"noise": {"acc:1:y": 0.01}})
    assert list(_screens(out).noise) == ["acc:1:y"]


# ---------------------------------------------------------------------------- outliers
def test_one_corrupt_sample_is_named_by_time_and_index_or_dropped(design, example, tmp_path):
    df = example.copy()
    df.loc[200, "acc:1:y"] = 1e6  # passed every screen before and took LM shooting to a LinAlgError
    with pytest.raises(RecordFileError) as err:
        _import(design, df, tmp_path)
    msg = str(err.value)
    assert "sample at t = 2 s of 'acc:1:y' (1e+06 m/s^2) carries 100 % of the channel's energy" in msg
    assert "(sample index 200 of the kept record; the recorded force does not explain it)" in msg
    assert "a corrupt sample? Repair or remove it, or set 'outliers: drop'" in msg
    out = _import(design, df, tmp_path, {"outliers": "drop"})
    found = _screens(out).outliers.found
    assert [(e.channel, e.index, e.t) for e in found] == [("acc:1:y", 200, 2.0)]
    sens = out["sensors"]
    assert not sens["keep"][200] and sens["keep"].sum() == len(df) - 1
    mid = 0.5 * (df.loc[199, "acc:1:y"] + df.loc[201, "acc:1:y"])
    assert sens["noisy"][200, 1] == pytest.approx(mid, abs=1e-12)
    # trimmed: the index counts the kept samples, the time is the file's
    with pytest.raises(
        RecordFileError, match=r"t = 2 s of 'acc:1:y' .*\(sample index 100 of the kept record"
    ):
        _import(design, df, tmp_path, {"t_start": 1.0})


def test_a_corrupt_force_sample_is_named_but_an_impact_is_not(design, example, broadband_force, tmp_path):
    df = example.copy()
    df.loc[200, "force:1:y"] = 1e4  # below the old screen's reach (the median level stayed above 1/100)
    with pytest.raises(
        RecordFileError, match=r"t = 2 s of 'force:1:y' \(1e\+04 N\) .* the accelerations do not follow"
    ):
        _import(design, df, tmp_path)
    # an impact: a one-sample force pulse (a hammer at 100 Hz), the structure's response to it recorded
    force = broadband_force.copy()
    force[150] += 100.0
    out = _import(design, _simulated(design, force), tmp_path)
    report = _screens(out).outliers
    assert report.found == [] and _screens(out).warnings == []
    assert any(e.channel == "force:1:y" and e.index == 150 and e.verifiable for e in report.impacts)


def test_the_outliers_setting_is_read_at_start_up_and_checked_by_the_schema(example, tmp_path):
    df = example.copy()
    df.loc[200, "acc:1:y"] = 1e6
    path = tmp_path / "spike.csv"
    df.to_csv(path, index=False)
    cfg = yaml.safe_load((REPO / "config/config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config/example_measured.yaml").read_text()))
    entry = {"file": str(path), "structure": "my_frame"}
    cfg["measured"] = {"records": {"rec": entry}, "peaks": {}}
    with pytest.raises(
        ConfigError, match=r"^config field 'measured\.records\.rec\.file': .* a corrupt sample\?"
    ):
        check_config(cfg, REPO / "config/schema.yaml")  # refused by default
    entry["outliers"] = "drop"
    check_config(cfg, REPO / "config/schema.yaml")  # dropped: the run goes on
    entry["outliers"] = "ignore"
    with pytest.raises(ConfigError, match=r"^config field 'measured\.records\.rec\.outliers'.*ignore"):
        check_config(cfg, REPO / "config/schema.yaml")


@pytest.fixture(scope="module")
def short_problem(design):
    """0.5 s of X1 under a 1 Hz force, two channels: a shooting problem of a few cheap simulations."""
    forcing = make_forcing("harmonic", [3], amplitude=10.0, frequency=1.0)
    rec = simulate(Dynamics(design), forcing, t_end=0.5, dt_out=0.01)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    sens = noise_realization(
        sensor_data(design, arrays, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}), 0
    )
    rd = RecordData("short", forcing, sens, arrays, rec.n_transitions)
    return IdentificationProblem(design, [rd], truth=None)


def test_a_linear_algebra_failure_in_lm_shooting_is_its_failure_outcome(short_problem, monkeypatch):
    def singular(*args, **kwargs):
        raise np.linalg.LinAlgError("Singular matrix")

    monkeypatch.setattr(shooting, "least_squares", singular)
    out = get_method("lm_shooting", starts=[[30.0, 1.0], [10.0, 0.3]]).run(short_problem)
    assert out.outcome == "diverged" and out.bounds is None
    assert out.diverged["reason"].startswith(
        "this start stopped: linear algebra failed (LinAlgError: Singular"
    )
    assert [s.chi2 for s in out.starts] == [np.inf, np.inf] and all(s.failed for s in out.starts)
    assert out.identified.sigma[1] == pytest.approx(30.0)  # the (first) guess kept


def test_a_linear_algebra_failure_of_the_bounds_leaves_the_fit(short_problem, monkeypatch):
    def singular(*args, **kwargs):
        raise np.linalg.LinAlgError("Eigenvalues did not converge")

    monkeypatch.setattr(shooting, "shooting_fisher", singular)
    out = get_method("lm_shooting", starts=[[30.0, 1.0]], max_nfev=2).run(short_problem)
    assert out.outcome != "diverged" and out.bounds is None
    assert out.bounds_failure.startswith("no Cramér-Rao bounds: linear algebra failed (LinAlgError: Eigen")


# -------------------------------------------------------------------------- CSV dialects
@pytest.mark.parametrize(
    "dialect, write",
    [
        ("tab", {"sep": "\t"}),
        ("semicolon", {"sep": ";", "decimal": ","}),
        ("semicolon", {"sep": ";"}),
        ("tab", {"sep": "\t", "decimal": ","}),
    ],
)
def test_tab_and_semicolon_exports_with_decimal_commas_are_read(design, example, tmp_path, dialect, write):
    path = tmp_path / "export.csv"
    path.write_text("# a spreadsheet export\n" + example.to_csv(index=False, **write), encoding="utf-8")
    rec = read_record(path, design)
    assert rec.dialect == {
        "delimiter": write["sep"],
        "decimal": write.get("decimal", "."),
        "name": dialect,
    }
    ref = read_record(EXAMPLE, design)
    np.testing.assert_array_equal(rec.t, ref.t)
    for kind in ("force", "acc"):
        for key, values in ref.channels[kind].items():
            np.testing.assert_array_equal(rec.channels[kind][key], values)


def test_a_dialect_that_cannot_be_read_is_said_with_the_fix(design, example, tmp_path):
    spaces = tmp_path / "spaces.csv"
    spaces.write_text(example.to_string(index=False), encoding="utf-8")
    with pytest.raises(
        RecordFileError, match=r"the header row separates its columns by spaces; .* save it as CSV"
    ):
        read_record(spaces, design)
    commas = tmp_path / "commas.csv"
    commas.write_text(example.to_csv(index=False, decimal=","), encoding="utf-8")  # cells quoted: "0,01"
    with pytest.raises(
        RecordFileError, match=r"row 2, column 'time': '0,0' is not a finite number: a decimal comma"
    ):
        read_record(commas, design)
    bare = tmp_path / "bare.csv"
    bare.write_text(example.to_csv(index=False, decimal=",").replace('"', ""), encoding="utf-8")
    with pytest.raises(RecordFileError, match=r"row 2 has \d+ values, the header names 5: .* decimal commas"):
        read_record(bare, design)
    mixed = tmp_path / "mixed.csv"
    mixed.write_text(example.to_csv(index=False, sep=";", decimal=",").replace("0,0107", "0.0107"))
    with pytest.raises(RecordFileError, match=r"separated by semicolons .* a cell also holds a point"):
        read_record(mixed, design)
