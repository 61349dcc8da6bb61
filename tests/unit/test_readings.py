"""The pre-registered comparison of two identification readings (tensegrity_id.workflow.readings)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest
from tensegrity_id.report.scorecard.claims import load_claims
from tensegrity_id.workflow.readings import (
    SCORE_CAP,
    claim_score,
    compare,
    load_registration,
    main,
)

REPO = Path(__file__).resolve().parents[2]


def test_frozen_lists_are_what_the_rule_selects(monkeypatch):
    monkeypatch.chdir(REPO)
    assert main(["--check"]) == 0
    reg = load_registration(REPO / "resources/preregistration/identification_default.yaml")
    assert len(reg.claims) == 235 and "table3.x1_taut_1pt.sigma_max_pct" in reg.claims
    assert not any("crlb" in c or c.startswith(("s48_lm", "table6.lm")) for c in reg.claims)
    assert (
        reg.failure_claims[0] == "table3.x1_slack_1pt.outcome" and "fig7_taut_outcome" in reg.failure_claims
    )


TWO = {"tolerance": "rel:0.1"}
ERR = {"tolerance": "ident_error_pct", "family": {"better": "lower"}}


@pytest.mark.parametrize(
    ("claim", "paper", "here", "status", "expected"),
    [
        (TWO, 2.0, 4.0, "deviation", math.log(2)),
        (TWO, 2.0, 1.0, "deviation", math.log(2)),
        (TWO, 2.0, 2.0, "match", 0.0),
        (ERR, 3.5, 0.5, "better than the paper", 0.0),
        (ERR, 3.5, 3.0, "match", 0.0),
        (ERR, 3.5, 7.0, "deviation", math.log(2)),
        (TWO, 1.0, 500.0, "deviation", SCORE_CAP),
        (TWO, 0.7, -0.43, "deviation", SCORE_CAP),
        (TWO, 0.7, -0.43, "match", 0.0),
        ({"tolerance": "upper"}, "<1", 0.2, "match", 0.0),
        ({"tolerance": "upper"}, 1.0, 4.0, "deviation", math.log(4)),
        ({"tolerance": "exact"}, "identified", "partial", "deviation", 1.0),
        ({"tolerance": "exact"}, "identified", "fit failure", "deviation", 2.0),
        ({"tolerance": "exact"}, "partial", "identified", "deviation", 0.0),
        ({"tolerance": "exact"}, "silent failure", "fit failure", "deviation", 0.0),
        ({"tolerance": "qualitative"}, "yes", "no", "deviation", 1.0),
        (TWO, 2.0, None, "not yet produced", None),
        (TWO, 2.0, 3.0, "not reproducible here", None),
    ],
)
def test_claim_score(claim, paper, here, status, expected):
    got = claim_score(claim, paper, here, status)
    assert got == (None if expected is None else pytest.approx(expected, abs=1e-12))


def _run(root: Path, card: dict, table3: list[dict]) -> Path:
    tables = root / "results" / "tables"
    tables.mkdir(parents=True)
    with open(tables / "scorecard.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, ["id", "here", "status"])
        w.writeheader()
        w.writerows({"id": k, "here": h, "status": s} for k, (h, s) in card.items())
    with open(tables / "table3.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, ["row", "outcome", "held_out_ratio"])
        w.writeheader()
        w.writerows(table3)
    return root


def _reg(**over):
    from tensegrity_id.workflow.readings import Registration

    base = dict(
        readings={"a": "a.yaml", "b": "b.yaml"},
        sections=(),
        id_patterns=(),
        exclude_patterns=(),
        claims=("table3.x1_taut_1pt.sigma_max_pct", "table3.x1_taut_1pt.outcome"),
        failure_claims=("table3.x2_taut_1pt.outcome",),
        held_out_band=10.0,
    )
    return Registration(**{**base, **over})


def test_compare_decides_by_the_mean_and_reports_contradicted_failures(tmp_path):
    claims = load_claims(REPO / "resources/published/claims.yaml", REPO)
    paper = {c["id"]: c["paper"] for c in claims}
    assert paper["table3.x1_taut_1pt.outcome"] == "identified"
    assert paper["table3.x2_taut_1pt.outcome"] == "silent failure"
    p = float(paper["table3.x1_taut_1pt.sigma_max_pct"])
    a = _run(
        tmp_path / "a",
        {
            "table3.x1_taut_1pt.sigma_max_pct": (4 * p, "deviation"),
            "table3.x1_taut_1pt.outcome": ("partial", "deviation"),
            "table3.x2_taut_1pt.outcome": ("silent failure", "match"),
        },
        [{"row": "x1", "outcome": "partial", "held_out_ratio": 94}],
    )
    b = _run(
        tmp_path / "b",
        {
            "table3.x1_taut_1pt.sigma_max_pct": (p / 10, "better than the paper"),
            "table3.x1_taut_1pt.outcome": ("identified", "match"),
            "table3.x2_taut_1pt.outcome": ("identified", "deviation"),
        },
        [{"row": "x1", "outcome": "identified", "held_out_ratio": 1.6}],
    )
    out = compare({"a": a, "b": b}, _reg(), claims)
    assert out["n_counted"] == 2
    assert out["means"]["a"] == pytest.approx((math.log(4) + 1.0) / 2)
    assert out["means"]["b"] == 0.0
    assert out["decision"] == "b" and out["why"] == "the lower mean score"
    (fail,) = out["failures"]
    assert fail["a_contradicts"] is False and fail["b_contradicts"] is True


def test_a_tie_goes_to_the_held_out_ratios_in_the_paper_band(tmp_path):
    claims = load_claims(REPO / "resources/published/claims.yaml", REPO)
    same = {"table3.x1_taut_1pt.outcome": ("identified", "match")}
    a = _run(tmp_path / "a", same, [{"row": "x1", "outcome": "identified", "held_out_ratio": 94}])
    b = _run(tmp_path / "b", same, [{"row": "x1", "outcome": "identified", "held_out_ratio": 2.0}])
    out = compare({"a": a, "b": b}, _reg(claims=("table3.x1_taut_1pt.outcome",)), claims)
    assert out["means"] == {"a": 0.0, "b": 0.0}
    assert out["decision"] == "b" and out["why"].startswith("a tie")
    assert out["held_out"] == {"a": {"inside": 0, "successful": 1}, "b": {"inside": 1, "successful": 1}}


def test_a_missing_scorecard_is_named(tmp_path):
    claims = load_claims(REPO / "resources/published/claims.yaml", REPO)
    with pytest.raises(FileNotFoundError, match="reading 'a': no scorecard at .*run the study first"):
        compare({"a": tmp_path / "a", "b": tmp_path / "b"}, _reg(), claims)


def test_no_claim_produced_by_both_readings_is_no_decision(tmp_path, monkeypatch, capsys):
    """The command says so and exits 1 (a mean of no claims is none, not a number to print)."""
    from tensegrity_id.workflow.readings import REGISTRATION, load_registration, main

    monkeypatch.chdir(REPO)
    reg = load_registration(REGISTRATION)
    runs = []
    for name in reg.readings:  # scorecards in which no listed claim was produced
        tables = tmp_path / name / "results/tables"
        tables.mkdir(parents=True)
        (tables / "scorecard.csv").write_text("id,here,status\nno.such.claim,1.0,match\n")
        runs.append(str(tmp_path / name))
    assert main([*runs, "--out", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "mean score none over 0 claims" in out
    assert "decision: none (no claim was produced by every reading)" in out


def test_score_reads_a_protocol_run_without_its_own_scorecard(tmp_path):
    """--score: each run's claims scored from its results files by the scorecard's rules, a claim
    whose file the run lacks not produced; the scorecards come back beside the decision."""
    claims = load_claims(REPO / "resources/published/claims.yaml", REPO)
    paper = {c["id"]: float(c["paper"]) for c in claims if c["id"] == "table3.x1_taut_1pt.sigma_max_pct"}
    p = paper["table3.x1_taut_1pt.sigma_max_pct"]
    runs = {}
    for name, (err, label) in {"a": (4 * p, "partial"), "b": (p / 10, "identified")}.items():
        tables = tmp_path / name / "results" / "tables"
        tables.mkdir(parents=True)
        (tables / "table3.csv").write_text(
            f"row,outcome,held_out_ratio,sigma_max_pct\nx1_taut_1pt,{label},2.0,{err}\n"
        )
        runs[name] = tmp_path / name
    out = compare(runs, _reg(), claims, score=True)
    assert out["n_counted"] == 2
    assert out["means"]["a"] == pytest.approx((math.log(4) + 1.0) / 2)
    assert out["means"]["b"] == 0.0 and out["decision"] == "b"
    card = {r["id"]: r for r in out["scorecards"]["a"]}
    assert card["table3.x1_taut_1pt.sigma_max_pct"]["status"] == "deviation"
    assert card["table3.x1_taut_1pt.sigma_max_pct"]["source"] == "results/tables/table3.csv"
    # the failure claim's row (X2 taut) is not in these runs: not produced, not a contradiction
    assert card["table3.x2_taut_1pt.outcome"]["status"] == "not yet produced"
    assert out["failures"][0]["a_contradicts"] is False
    with pytest.raises(FileNotFoundError, match="reading 'a': no results folder"):
        compare({"a": tmp_path / "none", "b": runs["b"]}, _reg(), claims, score=True)


def test_score_command_writes_each_readings_scorecard(tmp_path, monkeypatch, capsys):
    from tensegrity_id.workflow.readings import REGISTRATION

    monkeypatch.chdir(REPO)
    runs = []
    for name, err in zip(load_registration(REGISTRATION).readings, (2.0, 20.0), strict=True):
        tables = tmp_path / name / "results" / "tables"
        tables.mkdir(parents=True)
        (tables / "table3.csv").write_text(f"row,outcome,sigma_max_pct\nx1_taut_1pt,identified,{err}\n")
        runs.append(str(tmp_path / name))
    assert main([*runs, "--score", "--out", str(tmp_path / "out")]) == 0
    assert "decision: default (the lower mean score)" in capsys.readouterr().out
    for name in load_registration(REGISTRATION).readings:
        with open(tmp_path / "out" / f"readings_scorecard_{name}.csv", newline="") as fh:
            rows = {r["id"]: r for r in csv.DictReader(fh)}
        assert rows["table3.x1_taut_1pt.outcome"]["status"] == "match"
    import json

    prov = json.loads((tmp_path / "out" / "readings_decision.json").read_text())["provenance"]
    assert prov["rule"] == "python -m tensegrity_id.workflow.readings"
    assert any(k.endswith("default/results/tables/table3.csv") for k in prov["inputs"])


def test_basis_rows_judge_each_readings_band_against_the_response(tmp_path, monkeypatch):
    """A record ringing at 0.5 and 2 Hz over 5 s: inside the geometric band (top 12.8 Hz), above the
    linear k-pi band (top 0.8 Hz); a network that reproduces the 2 Hz tone represents it there, one
    that leaves it out does not.  Runs with settings of their own (a suffix) are left out."""
    import numpy as np
    from tensegrity_id.workflow.readings_runs import basis_rows, reading_settings, run_settings

    monkeypatch.chdir(REPO)
    # the published readings keep the settings they ran with, whatever today's default
    reg = load_registration()
    published = {n: run_settings(REPO / "resources/readings" / n, f) for n, f in reg.readings.items()}
    assert published["default"]["fourier"] == "geometric" and published["default"]["init"] == "torch"
    assert published["linear_pi_glorot"]["fourier"] == "linear_pi"
    assert published["linear_pi_glorot"]["init"] == "glorot"
    settings = {
        "default": reading_settings("config/pinn_geometric_torch.yaml"),
        "linear_pi_glorot": reading_settings(reg.readings["linear_pi_glorot"]),
    }
    assert settings == published
    t = np.linspace(0.0, 5.0, 501)
    low, high = np.sin(2 * np.pi * 0.5 * t), 0.5 * np.sin(2 * np.pi * 2.0 * t)
    runs = {}
    for name, nets in {"default": [low], "linear_pi_glorot": [low + high, low + 0.99 * high, low]}.items():
        run = tmp_path / name
        sensors = run / "results/sensors/x2/taut_1pt"
        sensors.mkdir(parents=True)
        np.savez(sensors / "half.npz", t=t, clean=np.c_[low + high, low - high])
        folder = run / "results/identify/pinn_smooth/x2/taut_1pt"
        folder.mkdir(parents=True)
        for seed, net in enumerate(nets):
            np.savez(
                folder / f"half_seed{seed}_steps12000_series.npz",
                coord=4,
                record=0,
                t=t,
                true=low + high,
                resim=low + high,
                network=net,
            )
        np.savez(
            folder / "half_seed0_steps12000_fourierlinear_series.npz", coord=4, t=t, true=low, network=low
        )
        runs[name] = run
    rows = {r["reading"]: r for r in basis_rows(runs, settings)}
    assert len(rows) == 2
    d, lp = rows["default"], rows["linear_pi_glorot"]
    assert d["basis_top_hz"] == pytest.approx(12.8) and lp["basis_top_hz"] == pytest.approx(0.8)
    assert 1.8 <= d["f99_hz"] <= 2.4
    assert d["status"] == "inside the band"  # whatever its network does
    assert d["share_above"] < 1e-3 and d["captured_above"] is None  # nothing above 12.8 Hz to judge
    assert lp["seeds"] == 3 and lp["captured_above"] == pytest.approx(1 - 0.01**2, abs=1e-3)
    assert lp["status"] == "represented" and lp["share_above"] == pytest.approx(0.2, abs=5e-3)
    runs.pop("default")
    (
        runs["linear_pi_glorot"] / "results/identify/pinn_smooth/x2/taut_1pt/half_seed0_steps12000_series.npz"
    ).unlink()
    (lp2,) = basis_rows(runs, settings)
    assert lp2["seeds"] == 2 and lp2["status"] == "not represented"  # median of 0.9999 and 0


def test_the_report_page_shows_the_decision_the_parts_and_the_failures(tmp_path):
    from tensegrity_id.workflow.readings_report import part_of, render

    assert [
        part_of(i) for i in ("table3.x1_taut_1pt.outcome", "seed_study_sigma_sd", "fig7_taut_outcome")
    ] == [
        "table3",
        "seed_study",
        "fig7",
    ]
    claims = load_claims(REPO / "resources/published/claims.yaml", REPO)
    runs = {}
    for name, (err, label) in {"a": (40.0, "partial"), "b": (0.3, "identified")}.items():
        tables = tmp_path / name / "results" / "tables"
        tables.mkdir(parents=True)
        (tables / "table3.csv").write_text(
            f"row,outcome,held_out_ratio,sigma_max_pct\nx1_taut_1pt,{label},2.0,{err}\n"
            f"x2_taut_1pt,{label},2.0,{err}\n"
        )
        runs[name] = tmp_path / name
    page = render(compare(runs, _reg(), claims, score=True))
    assert "Decision: **b** (the lower mean score)" in page
    assert "| table3 | 2 |" in page
    assert "| table3.x1_taut_1pt.outcome | identified | partial (1) | identified (0) |" in page
    assert "| table3.x2_taut_1pt.outcome | silent failure | partial | identified | yes | yes |" in page
