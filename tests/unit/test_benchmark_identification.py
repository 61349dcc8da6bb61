"""Issue 16: records specified by their transition count, the no-truth re-simulation misfit,
LM shooting from a PINN estimate (pinn_lm), Tables 3-4 and the silent-failure table."""

import copy

import numpy as np
import pandas as pd
import pytest
from result_records import make_result
from tensegrity_id import IdentificationProblem, RecordData, get_method
from tensegrity_id.data.records import amplitude_for_transitions, forcing_from_spec
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.scoring import resimulation_chi2, simulate_identified
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import SimulationError, simulate
from tensegrity_id.report.tables import (
    BENCH_COLUMNS,
    MODEL_FORM_METHOD_COLUMNS,
    SILENT_COLUMNS,
    bench_table,
    model_form_methods_table,
    silent_failure_table,
)
from tensegrity_id.results.fisher import LocalFisher
from tensegrity_id.workflow.runsheet import RunSheet, RunSheetError

SPEC = {"forcing": "harmonic", "drive": [[1, 1]], "frequency": 1.0}
SIM = {"t_end": 5.0, "dt_out": 0.01, "rtol": 1e-8, "atol": 1e-8, "method": "RK45"}


def _taut_problem(s, amplitude=10.0):
    f = forcing_from_spec(s, {**SPEC, "amplitude": amplitude}, t_end=5.0)
    rec = simulate(Dynamics(s), f, **SIM)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    sens = noise_realization(
        sensor_data(s, arrays, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}), 0
    )
    rd = RecordData("taut", f, sens, arrays, rec.n_transitions)
    return IdentificationProblem(s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": 220.0}, sim=SIM)


@pytest.fixture(scope="module")
def taut(x1):
    return _taut_problem(x1)


# ------------------------------------------------------------ transition search
def test_transition_search_finds_the_papers_count_on_x1(x1):
    """The paper's X1 slack record has 20 transitions at 40 N; the search between 20 and 60 N finds an
    amplitude with exactly 20, and the record at that amplitude has them."""
    out = amplitude_for_transitions(Dynamics(x1), SPEC, 20, p_lo=20.0, p_hi=60.0, n_scan=12, **SIM)
    assert out["exact"] and out["n_transitions"] == 20 and 20.0 <= out["amplitude"] <= 60.0
    rec = simulate(Dynamics(x1), forcing_from_spec(x1, {**SPEC, "amplitude": out["amplitude"]}), **SIM)
    assert rec.n_transitions == 20
    assert out["n_simulations"] == len(out["scan"]) >= 12


def test_transition_search_refuses_a_range_without_enough_transitions(x1):
    with pytest.raises(SimulationError, match="fewer than 500 transitions up to 30 N"):
        amplitude_for_transitions(Dynamics(x1), SPEC, 500, p_lo=10.0, p_hi=30.0, n_scan=3, **SIM)


# ------------------------------------------------------- re-simulation chi2
def test_resimulation_chi2_is_one_at_the_exact_parameters_and_large_far_off(x1, taut):
    rd = taut.records[0]
    exact = simulate_identified(x1, rd.forcing, {"sigma": x1.sigma, "c": 1.0}, rd.sensors["t"], SIM)
    assert resimulation_chi2(rd.sensors, exact) == pytest.approx(1.0, abs=0.15)  # the 2 % noise floor
    off = simulate_identified(x1, rd.forcing, {"sigma": 1.3 * x1.sigma, "c": 1.0}, rd.sensors["t"], SIM)
    assert resimulation_chi2(rd.sensors, off) > 20.0
    assert resimulation_chi2(rd.sensors, "the simulation failed") == float("inf")
    assert resimulation_chi2({}, exact) is None


# ------------------------------------------------------------------ pinn_lm
@pytest.mark.slow
def test_pinn_lm_recovers_taut_x1_from_a_start_30_percent_off(x1, taut):
    start = {"sigma": list(x1.sigma * np.array([1.3, 0.7, 1.3, 0.7])), "c": 1.3}
    out = get_method("pinn_lm", start_from=start).run(taut)
    assert out.method == "pinn_lm" and out.outcome == "identified"
    assert out.errors.sigma_max_pct < 0.5 and out.errors.c_pct < 1.0
    assert 0.7 < out.chi2 < 1.3 and 0.7 < out.resimulation_chi2 < 1.3
    assert out.starts[0].start[0] == pytest.approx(start["sigma"])


def test_pinn_lm_refuses_a_missing_or_mismatched_start(taut):
    with pytest.raises(ValueError, match="needs start_from"):
        get_method("pinn_lm").run(taut)
    with pytest.raises(ValueError, match="has 2 force densities, the structure 4 cables"):
        get_method("pinn_lm", start_from={"sigma": [10.0, 10.0], "c": 0.3}).run(taut)


# ------------------------------------------------------------------ tables
def _res(sig_max, *, seed=0, outcome="identified", chi2=1.0, sigma=(25.0, 40.0, 26.0, 26.0)):
    return make_result(
        seed=seed,
        identified={"sigma": list(sigma), "c": 1.0},
        exact={"sigma": [25.0, 40.0, 25.0, 25.0], "c": 1.0},
        identifiable=[1, 2, 3],
        errors={"sigma_max_pct": sig_max, "c_pct": 1.0},
        reconstruction_pct=2.0,
        held_out_ratio=1.5,
        held_out_misfit_pct=2.1,
        resimulation_chi2=chi2,
        n_transitions=20,
        outcome=outcome,
    )


def test_bench_table_means_over_seeds_with_the_paper_beside():
    rows = [
        {
            "row": "x1_taut_1pt",
            "forcing": "1-pt",
            "structure": "x1",
            "record": "taut_1pt",
            "protocol": "top_node",
            "steps": 12000,
        }
    ]
    pub = pd.DataFrame({"row": ["x1_taut_1pt"], "sigma_max_pct": ["3.5"], "outcome": ["identified"]})
    df = bench_table(rows, [[_res(2.0), _res(4.0, seed=1, outcome="partial")]], pub)
    r = df.iloc[0]
    assert set(BENCH_COLUMNS) <= set(df.columns) and {"paper_sigma_max_pct", "paper_outcome"} <= set(
        df.columns
    )
    assert r["seeds"] == 2 and r["sigma_max_pct"] == pytest.approx(3.0)
    assert r["sigma_max_sd"] == pytest.approx(np.std([2.0, 4.0], ddof=1))
    assert r["sigma_max_all_pct"] == pytest.approx(4.0)  # (26 - 25) / 25, every cable counted
    assert r["outcome"] == "identified x1, partial x1" and r["forcing"] == "1-pt"
    assert r["paper_sigma_max_pct"] == "3.5"


def test_model_form_methods_table_measures_each_method_against_its_matched_record():
    """Table S5's companion: changes against the same method on the row labelled matched of its prefix."""
    rows = [
        {"row": "taut_matched", "label": "matched", "structure": "x1", "record": "taut_1pt"},
        {"row": "taut_mass", "label": "mass perturbation", "structure": "x1", "record": "taut_1pt_mass"},
        {"row": "prism_mass", "label": "mass perturbation", "structure": "prism45", "record": "m"},
    ]
    results = {
        ("taut_matched", "pinn_smooth"): [_res(2.0), _res(4.0, seed=1)],
        ("taut_mass", "pinn_smooth"): [_res(10.0)],
        ("prism_mass", "pinn_smooth"): [_res(3.5)],
        ("taut_matched", "lm_shooting"): [_res(0.1, chi2=0.9)],
        ("taut_mass", "lm_shooting"): [_res(6.1, chi2=3.0, outcome="partial")],
    }
    df = model_form_methods_table(rows, results)
    assert list(df.columns) == MODEL_FORM_METHOD_COLUMNS
    assert list(zip(df["row"], df["method"], strict=True)) == [
        ("taut_matched", "pinn_smooth"),
        ("taut_matched", "lm_shooting"),
        ("taut_mass", "pinn_smooth"),
        ("taut_mass", "lm_shooting"),
        ("prism_mass", "pinn_smooth"),
    ]
    r = df.set_index(["row", "method"])
    assert r.loc[("taut_matched", "pinn_smooth"), "seeds"] == 2
    assert r.loc[("taut_mass", "pinn_smooth"), "d_sigma_max_pct"] == pytest.approx(10.0 - 3.0)
    assert r.loc[("taut_mass", "lm_shooting"), "d_sigma_max_pct"] == pytest.approx(6.0)
    assert r.loc[("taut_matched", "lm_shooting"), "d_sigma_max_pct"] == pytest.approx(0.0)
    assert r.loc[("taut_mass", "lm_shooting"), "outcome"] == "partial"
    assert pd.isna(r.loc[("prism_mass", "pinn_smooth"), "d_sigma_max_pct"])  # no matched prism row
    assert pd.isna(r.loc[("taut_mass", "pinn_smooth"), "sigma_mean_pct"])  # no per-member errors given
    with pytest.raises(ValueError, match="row 'taut_mass', method 'ukf' has no results"):
        model_form_methods_table(rows, {**results, ("taut_mass", "ukf"): []})


def _fisher_at_start(condition: float, crlb_max_pct: float) -> LocalFisher:
    """The Fisher information at a hybrid's start: its condition and worst relative bound (%)."""
    return LocalFisher(
        theta=[25.0, 1.0],
        names=["sigma_0", "c"],
        condition_identifiable=condition,
        lambda_min_identifiable=1.0,
        null_members=[],
        crlb_relative={"sigma_0": crlb_max_pct / 100, "c": 0.0},
        crlb_max_pct=crlb_max_pct,
        crlb_max_parameter="sigma_0",
    )


def test_silent_failure_table_flags_by_fixed_thresholds():
    rows = [
        {"row": "a", "structure": "x2", "record": "taut_1pt", "protocol": "half"},
        {"row": "b", "structure": "x1", "record": "taut_1pt", "protocol": "top_node"},
    ]
    silent = [
        _res(80.0, outcome="silent failure", chi2=6.0, sigma=(25.0, 20.0, 40.0, 30.0)),
        _res(80.0, seed=1, outcome="silent failure", chi2=6.0, sigma=(25.0, 30.0, 10.0, 20.0)),
    ]
    good = [_res(1.0)]
    hybrid = [[_res(0.1)], [_res(0.2)]]
    hybrid[0][0] = hybrid[0][0].replace(fisher_at_start=_fisher_at_start(5e4, 12.0))
    hybrid[1][0] = hybrid[1][0].replace(fisher_at_start=_fisher_at_start(2e2, 0.3))
    df = silent_failure_table(
        rows, [silent, good], hybrid, {"chi2": 2.0, "scatter_pct": 5.0, "misfit_pct": 10.0, "crlb_pct": 5.0}
    )
    assert list(df.columns) == SILENT_COLUMNS
    a, b = df.iloc[0], df.iloc[1]
    assert a["flag_chi2"] and a["flag_scatter"] and not a["flag_fit"] and a["flag_crlb"]
    assert a["flagged_by"] == "chi2, scatter, crlb" and a["fisher_cond"] == pytest.approx(5e4)
    assert not b["flag_crlb"] and b["crlb_max_pct"] == pytest.approx(0.3)
    assert a["pinn_lm_removes"] and a["pinn_lm_outcome"] == "identified"
    assert b["flagged_by"] == "none" and b["flag_scatter"] is None and not b["pinn_lm_removes"]


# -------------------------------------------------------------- run sheet
def _config(x1_spec, **extra):
    return {
        "structures": {"x1": x1_spec},
        "build": ["x1"],
        "records": {
            "suite": {"x1": {"taut_1pt": {**SPEC, "amplitude": 10.0}}},
            "protocols": {"x1": {"top_node": {"channels": [[1, 0], [1, 1]]}}},
        },
        "studies": extra,
    }


def test_run_sheet_expands_bench_tables_and_the_hybrid_rows(x1_spec):
    row = {
        "row": "x1_taut_1pt",
        "structure": "x1",
        "record": "taut_1pt",
        "protocol": "top_node",
        "forcing": "1-pt",
        "steps": 300,
    }
    cfg = _config(x1_spec, table3={"seeds": [0, 1], "rows": [row]}, silent_failures={"table": "table3"})
    sheet = RunSheet(cfg)
    rows = sheet.rows
    (t3,) = rows["bench_table3"]
    assert [r["seed"] for r in t3["runs"]] == [0, 1] and t3["forcing"] == "1-pt" and t3["steps"] == 300
    assert len(rows["pinn_lm"]) == 2 and rows["silent_rows"][0]["runs"] == [0, 1]
    assert all(r in sheet.pinn for r in rows["pinn_lm"]) and rows["bench_table4"] == []
    bad = copy.deepcopy(cfg)
    bad["studies"]["table3"]["rows"][0]["protocol"] = "all"
    with pytest.raises(RunSheetError, match="protocol 'all' is not defined under 'records.protocols.x1'"):
        RunSheet(bad)
    bad["studies"]["table3"]["rows"][0].update(protocol="top_node", steps=None)
    del bad["studies"]["table3"]["rows"][0]["steps"]
    with pytest.raises(RunSheetError, match="give 'steps'"):
        RunSheet(bad)


# ------------------------------------------------- Fisher at identified values
@pytest.mark.slow
def test_fisher_at_the_exact_values_is_the_identifiability_analysis(taut):
    """At the exact parameters the local Fisher summary is the before-inversion one (the paper's §3.3:
    condition ~1.9e2 on the taut X1 record, base cable null); away from them it moves, and a pooled
    problem adds its records' information (the same record twice: the bounds shrink by sqrt(2))."""
    from tensegrity_id.analysis.local_fisher import local_fisher

    s = taut.structure
    exact = local_fisher(taut, s.sigma, 1.0)
    assert exact.null_members == ["sigma_0"] and 170 < exact.condition_identifiable < 210
    assert exact.theta[:4] == pytest.approx(list(s.sigma)) and exact.crlb_max_parameter in exact.names
    off = local_fisher(taut, 1.3 * s.sigma, 0.7)
    assert off.theta[-1] == pytest.approx(0.7) and off.crlb_max_pct != pytest.approx(exact.crlb_max_pct)
    twice = IdentificationProblem(s, taut.records * 2, truth=taut.truth, sim=taut.sim)
    assert local_fisher(twice, s.sigma, 1.0).crlb_max_pct == pytest.approx(
        exact.crlb_max_pct / np.sqrt(2), rel=1e-9
    )
    with pytest.raises(ValueError, match="cables"):
        local_fisher(taut, s.sigma[:2], 1.0)
