"""Table writing and assembly (tensegrity_id.report.tables) on small hand-made inputs."""

import json
import math
from pathlib import Path

import pandas as pd
import pytest
from result_records import make_result
from tensegrity_id.report.tables import (
    RUN_COLUMNS,
    TABLE5_COLUMNS,
    TABLE_S3_COLUMNS,
    run_summary,
    table5,
    table6,
    table_s3,
    write_table,
)
from tensegrity_id.results.assessment import StructureAssessment
from tensegrity_id.results.fisher import StructuralIdentifiability
from tensegrity_id.results.identification import Batch, ParticleEss


def _run(method, seed, sigma_max, *, record="slack_1pt", steps=100, **extra):
    """A minimal identification result record (the fields the tables read)."""
    fields = dict(
        method=method,
        record=record,
        seed=seed,
        steps=steps,
        errors={"sigma_max_pct": sigma_max, "c_pct": 2.0 * sigma_max},
        reconstruction_pct=10.0 + seed,
        held_out_ratio=1.0 + 0.1 * seed,
        held_out_misfit_pct=2.0,
        resimulation_pct=3.0,
        n_transitions=20,
        outcome="identified",
        wall_s=100.0 * (seed + 1),
    )
    return make_result(**{**fields, **extra})


# ------------------------------------------------------------------ write_table
def test_write_table_writes_csv_and_markdown(tmp_path):
    df = pd.DataFrame({"name": ["a|b", "c"], "n": [1, 22], "x": [0.123456789, 12345678.9]})
    csv, md = tmp_path / "out" / "t.csv", tmp_path / "out" / "t.md"
    write_table(df, csv, md, title="Table T: a test")
    assert csv.read_text().splitlines() == ["name,n,x", "a|b,1,0.123456789", "c,22,12345678.9"]
    pd.testing.assert_frame_equal(pd.read_csv(csv), df)
    assert md.read_text() == (
        "# Table T: a test\n"
        "\n"
        "| name | n | x |\n"
        "|---|---|---|\n"
        "| a\\|b | 1 | 0.123457 |\n"  # floats to 6 significant digits, '|' escaped in cells
        "| c | 22 | 1.23457e+07 |\n"
    )


def test_write_table_of_an_empty_frame_keeps_the_header(tmp_path):
    write_table(pd.DataFrame(columns=["a", "b"]), tmp_path / "e.csv", tmp_path / "e.md", title="Empty")
    assert (tmp_path / "e.csv").read_text().strip() == "a,b"
    assert (tmp_path / "e.md").read_text() == "# Empty\n\n| a | b |\n|---|---|\n"


# ----------------------------------------------------------------- run_summary
def test_run_summary_one_row_per_result_in_order():
    runs = [
        _run("pinn_smooth", 0, 1.5),
        _run("lm_shooting", 0, 80.0, steps=None, protocol=None, reconstruction_pct=None, held_out_ratio=None),
    ]
    df = run_summary(runs)
    assert list(df.columns) == RUN_COLUMNS and len(df) == 2
    assert df["method"].tolist() == ["pinn_smooth", "lm_shooting"]
    first = df.iloc[0]
    assert first["sigma_max_pct"] == 1.5 and first["c_pct"] == 3.0 and first["recon_pct"] == 10.0
    assert first["held_out_ratio"] == 1.0 and first["resim_pct"] == 3.0 and first["transitions"] == 20
    assert first["outcome"] == "identified" and first["wall_s"] == 100.0 and first["steps"] == 100
    second = df.iloc[1]
    assert pd.isna(second["protocol"]) and pd.isna(second["steps"])  # missing values: empty cells
    assert pd.isna(second["recon_pct"]) and pd.isna(second["held_out_ratio"])
    assert second["sigma_max_pct"] == 80.0 and second["c_pct"] == 160.0


# ---------------------------------------------------------------------- table5
def test_table5_medians_over_seeds_per_case_treatment_and_steps():
    runs = [
        _run("pinn_smooth", 0, 3.0),
        _run("pinn_fb", 0, 50.0),
        _run("pinn_smooth", 1, 1.0),
        _run("pinn_smooth", 2, 2.0),
        _run("pinn_smooth", 0, 0.5, steps=200),
    ]
    df = table5(runs)
    assert list(df.columns) == TABLE5_COLUMNS
    # groups in order of first appearance
    assert df[["treatment", "steps", "seeds"]].values.tolist() == [
        ["smoothed cable law", 100, 3],
        ["Fischer-Burmeister NCP", 100, 1],
        ["smoothed cable law", 200, 1],
    ]
    row = df.iloc[0]
    assert (row["structure"], row["record"]) == ("x1", "slack_1pt")
    assert row["sigma_max_pct"] == pytest.approx(2.0)  # median of 3, 1, 2
    assert row["sigma_max_pct_range"] == "1-3"
    assert row["c_pct"] == pytest.approx(4.0)
    assert row["recon_pct"] == pytest.approx(11.0)  # 10, 11, 12
    assert row["held_out_ratio"] == pytest.approx(1.1)
    assert row["wall_s"] == pytest.approx(200.0)  # 100, 200, 300 (batches of one)
    assert row["transitions"] == 20
    assert df.iloc[1]["sigma_max_pct_range"] == "50-50"


def test_table5_cost_is_per_seed_of_a_batch():
    """Seeds trained as one batch share its job time: the table's cost is the batch's over its seeds."""
    batch = Batch(seeds=[0, 1], size=2, train_wall_s=290.0)
    runs = [_run("pinn_smooth", k, 1.0, wall_s=300.0, batch=batch) for k in (0, 1)]
    assert table5(runs).iloc[0]["wall_s"] == pytest.approx(150.0)
    assert run_summary(runs)["batch_size"].tolist() == [2, 2]


def test_table5_keeps_unknown_methods_by_name():
    df = table5([_run("pinn_new", 0, 1.234567)])
    assert df.iloc[0]["treatment"] == "pinn_new" and df.iloc[0]["sigma_max_pct_range"] == "1.23-1.23"


# ---------------------------------------------------------------------- table6
def _pair(method, taut, slack):
    return {
        "taut": _run(method, 0, taut, record="taut_1pt", n_hyperparameters=2),
        "slack": _run(method, 0, slack, record="slack_1pt", n_hyperparameters=2),
    }


def test_table6_rows_notes_and_published_values():
    lm = _pair("lm_shooting", 97.0, 0.07)
    lm["taut"] = lm["taut"].replace(chi2=123.456, spurious_minimum=True, steps=None)
    lm["slack"] = lm["slack"].replace(chi2=1.02, spurious_minimum=False, steps=None)
    pf = _pair("pf_enkf", 60.0, 400.0)
    ess = ParticleEss(
        t=[0.0], value=[12.345], median=12.345, min=12.345, fraction_below_2=0.0, n_particles=400
    )
    pf["taut"] = pf["taut"].replace(ess=ess, steps=None)
    pf["slack"] = pf["slack"].replace(ess=None, steps=None)
    runs = {
        "pinn": _pair("pinn_smooth", 1.0, 1.3),
        "lm_shooting": lm,
        "pf_enkf": pf,
        "mine": _pair("x", 5, 6),
    }
    published = pd.DataFrame(
        {
            "method": ["pinn", "lm_shooting"],
            "taut_sigma_max_pct": [1.0, 97.4],
            "taut_c_pct": [0.3, 6504],
            "slack_sigma_max_pct": [1.3, 0.07],
            "slack_c_pct": [6.2, 0.2],
            "wall_taut_s": [2819, 10700],
            "wall_slack_s": [4643, 83],
            "hyperparameters": [15, 2],
        }
    )
    df = table6(runs, published)
    assert df["method"].tolist() == [
        "Physics-informed identification",
        "Levenberg-Marquardt shooting",
        "Particle filter with EnKF",
        "mine",
    ]
    pinn, lm_row, pf_row, mine = (df.iloc[k] for k in range(4))
    assert pinn["taut_sigma_max_pct"] == 1.0 and pinn["slack_sigma_max_pct"] == 1.3
    assert pinn["taut_c_pct"] == 2.0 and pinn["slack_c_pct"] == pytest.approx(2.6)
    assert pinn["wall_taut_s"] == 100.0 and pinn["hyperparameters"] == 2
    assert pinn["taut_outcome"] == "identified" and pinn["taut_note"] == "100 steps"
    assert lm_row["taut_note"] == "chi2 123 (spurious minimum)" and lm_row["slack_note"] == "chi2 1.02"
    assert pf_row["taut_note"] == "median ESS 12.3 of 400" and pf_row["slack_note"] == ""
    # published values sit next to the reproduced ones, where the method has them
    assert pinn["paper_slack_c_pct"] == 6.2 and lm_row["paper_taut_c_pct"] == 6504.0
    assert pinn["paper_wall_s"] == "2819 / 4643" and lm_row["paper_hyperparameters"] == 2
    assert math.isnan(pf_row["paper_taut_sigma_max_pct"]) and math.isnan(mine["paper_taut_c_pct"])


def test_table6_without_published_values_has_no_paper_columns():
    df = table6({"ukf": _pair("ukf", 3.1, 182.7)})
    assert df["method"].tolist() == ["Unscented Kalman filter"]
    assert not [c for c in df.columns if c.startswith("paper_")]


# --------------------------------------------------------------------- table_s3
REPORTS = [
    {"name": "x1", "counts": {"n_free": 4, "n_members": 6, "rank_A": 4, "s": 2, "m": 0}},
    {"name": "t3_prism", "counts": {"n_free": 12, "n_members": 12, "rank_A": 11, "s": 1, "m": 1}},
]


def test_table_s3_counts_only():
    df = table_s3(REPORTS)
    assert list(df.columns) == TABLE_S3_COLUMNS[:-1]
    assert df.values.tolist() == [["x1", 4, 6, 4, 2, 0], ["t3_prism", 12, 12, 11, 1, 1]]


def test_table_s3_with_identifiability_assessment_and_published_values():
    ident = [StructuralIdentifiability(3, 4, [0], 0, [], 0), StructuralIdentifiability(0, 9, [], 0, [], 0)]
    data = json.loads((Path(__file__).resolve().parents[1] / "data" / "analysis_results.json").read_text())
    kind = StructureAssessment
    x1 = kind.from_json(
        {"schema": {"kind": kind.KIND, "version": kind.VERSION}, **data["assessment"]["data"]}
    )
    assess = [
        x1.replace(rigid=x1.rigid.replace(class_="stable", lambda_min=148.61)),
        x1.replace(rigid=x1.rigid.replace(class_="super-stable", lambda_min=28.2)),
    ]
    published = pd.DataFrame(
        {"structure": ["x1", "x2"], "class": ["stable", "stable"], "lambda_min": [148.6, 211.6]}
    )
    df = table_s3(REPORTS, ident, assess, published)
    assessed = ["class", "lambda_min", "lambda_min_grounding_free", "connelly", "nullity_Omega"]
    assert list(df.columns) == [*TABLE_S3_COLUMNS, *assessed, "paper_class", "paper_lambda_min"]
    assert df["resolvable"].tolist() == ["3/4", "0/9"]
    assert df["class"].tolist() == ["stable", "super-stable"]
    assert df["lambda_min"].tolist() == [148.61, 28.2]
    assert df["paper_class"].tolist() == ["stable", ""]  # t3_prism is not in the published table
    assert df.loc[0, "paper_lambda_min"] == 148.6 and math.isnan(df.loc[1, "paper_lambda_min"])
    # without the published table the assessment columns stand alone
    assert list(table_s3(REPORTS, ident, assess).columns) == [*TABLE_S3_COLUMNS, *assessed]
