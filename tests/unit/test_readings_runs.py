"""The runs behind the readings' comparison: their folders, publication and scoring from a
published copy (tensegrity_id.workflow.readings_runs)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tensegrity_id.report.scorecard.claims import load_claims
from tensegrity_id.workflow.readings_runs import (
    MANIFEST,
    held_out_share,
    main,
    publish,
    published_files,
    results_file,
    results_root,
    score_run,
)

REPO = Path(__file__).resolve().parents[2]


def _run(root: Path, sigma: float = 2.0) -> Path:
    res = root / "results"
    (res / "tables").mkdir(parents=True)
    (res / "tables" / "table3.csv").write_text(
        f"row,outcome,held_out_ratio,sigma_max_pct\nx1_taut_1pt,identified,2.0,{sigma}\n"
        "x2_taut_1pt,partial,40,7.0\nx2_slack_1pt,fit failure,1.5,60\n"
    )
    ident = res / "identify/pinn_smooth/x1/taut_1pt"
    ident.mkdir(parents=True)
    (ident / "top_node_seed0_steps12000.json").write_text("{}")
    np.savez(ident / "top_node_seed0_steps12000_series.npz", coord=4, t=np.arange(3.0))
    (ident / "top_node_seed0_steps12000_history.csv").write_text("step\n0\n")  # not published
    (res / "records/x1").mkdir(parents=True)
    (res / "records/x1/taut_1pt.json").write_text("{}")  # not published
    (root / "config").mkdir()
    (root / "config/config.yaml").write_text("identify:\n  pinn:\n    settings: {n_fourier: 8}\n")
    (root / "config/paper.yaml").write_text("{}\n")
    (root / "config/reading.yaml").write_text(
        "identify:\n  pinn:\n    settings: {fourier: geometric, init: torch}\n"
    )
    return root


def test_publish_copies_what_the_comparison_reads_and_records_the_part(tmp_path):
    run = _run(tmp_path / "run")
    assert [str(p) for p in published_files(run / "results")] == [
        "identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps12000.json",
        "identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps12000_series.npz",
        "tables/table3.csv",
    ]
    out = tmp_path / "pub"
    part = publish(run, out, command="snakemake ... table3", wall_s=12.5, date="2026-12-07")
    assert part["added"] == 3 and part["equal"] == 0 and part["commit"] == "not a git checkout"
    assert (out / "tables/table3.csv").read_bytes() == (run / "results/tables/table3.csv").read_bytes()
    assert not (out / "records").exists() and not list(out.rglob("*_history.csv"))
    manifest = json.loads((out / MANIFEST).read_text())
    assert (
        manifest["parts"][0]["command"] == "snakemake ... table3" and manifest["parts"][0]["wall_s"] == 12.5
    )
    assert len(manifest["files"]) == 3 and all(len(h) == 64 for h in manifest["files"].values())
    # a second part: equal files left as they are, new ones added, both parts recorded
    (run / "results/tables/table5.csv").write_text("row\nx\n")
    again = publish(run, out, command="snakemake ... table5")
    assert (again["added"], again["equal"]) == (1, 3)
    assert [p["command"] for p in json.loads((out / MANIFEST).read_text())["parts"]] == [
        "snakemake ... table3",
        "snakemake ... table5",
    ]


def test_publish_refuses_other_content_naming_it_before_copying_anything(tmp_path, capsys):
    out = tmp_path / "pub"
    publish(_run(tmp_path / "a"), out, command="first")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    other = _run(tmp_path / "b", sigma=9.0)
    (other / "results/tables/table5.csv").write_text("row\nnew\n")
    with pytest.raises(FileExistsError, match=r"1 path\(s\): tables/table3.csv; publish into another folder"):
        publish(other, out, command="second")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before  # table5 not copied either
    assert main([str(other), str(out), "--command", "second"]) == 1
    assert "error:" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match="has no results/ folder"):
        publish(tmp_path / "nothing", out, command="x")


def test_a_published_copy_scores_as_its_run(tmp_path):
    """The layout without results/ (a published copy) reads the same values as the run."""
    claims = load_claims(REPO / "resources/published/claims.yaml", REPO)
    ids = ["table3.x1_taut_1pt.sigma_max_pct", "table3.x2_taut_1pt.outcome", "table3.x3_taut_1pt.outcome"]
    run = _run(tmp_path / "run")
    publish(run, tmp_path / "pub", command="x")
    assert results_root(tmp_path / "pub") == tmp_path / "pub"
    assert results_file(tmp_path / "pub", "results/tables/table3.csv") == tmp_path / "pub/tables/table3.csv"
    a, b = score_run(run, claims, ids), score_run(tmp_path / "pub", claims, ids)
    assert a == b
    rows = {r["id"]: r for r in a}
    assert float(rows["table3.x1_taut_1pt.sigma_max_pct"]["here"]) == 2.0
    assert rows["table3.x1_taut_1pt.sigma_max_pct"]["source"] == "results/tables/table3.csv"
    assert rows["table3.x2_taut_1pt.outcome"]["here"] == "partial"
    assert rows["table3.x3_taut_1pt.outcome"]["status"] == "not yet produced"
    # the tie rule's share: successful rows (identified, partial) with a held-out ratio below 10
    assert held_out_share(run, 10.0) == held_out_share(tmp_path / "pub", 10.0) == (1, 2)
    with pytest.raises(FileNotFoundError, match="no results folder in"):
        results_root(tmp_path / "empty")


def test_fisher_evidence_beside_a_failure_claims_error(tmp_path):
    """A Table 3 row's record: the largest relative bound (%, which parameter), the near-null
    parameters and the condition, with the row's identified error; nothing for other claims."""
    from tensegrity_id.data.runio import write_json
    from tensegrity_id.results.fisher import FisherAnalysis, StructuralIdentifiability
    from tensegrity_id.workflow.readings_runs import fisher_evidence

    run = _run(tmp_path / "run")
    (run / "results/tables/table3.csv").write_text(
        "row,structure,record,protocol,sigma_max_pct,outcome\nx2_taut_1pt,x2,taut_1pt,half,6.5,partial\n"
    )
    fa = FisherAnalysis(
        names=["sigma_0", "sigma_1", "c"],
        theta=[100.0, 50.0, 0.5],
        J=[[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]],
        eigenvalues=[1.0, 1.0, 1.0],
        eigenvectors=[[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]],
        near_null=[],
        null_members=["sigma_1"],
        identifiable=["sigma_0", "c"],
        condition_identifiable=37.0,
        lambda_min_identifiable=1.0,
        crlb={"sigma_0": 40.0, "c": 0.01},
        crlb_relative={"sigma_0": 0.4, "c": 0.02},
        sensitivity_norms={"sigma_0": 1.0, "sigma_1": 1.0, "c": 1.0},
        structural=StructuralIdentifiability(
            resolvable=2, n_cables=2, invisible=[], n_combinations=0, combinations=[], n_cable_self_stresses=0
        ),
        channels=[3],
        active_channels=[3],
    )
    (run / "results/fisher/x2/taut_1pt").mkdir(parents=True)
    write_json(run / "results/fisher/x2/taut_1pt/half.json", fa.to_json(provenance={"rule": "test"}))
    ev = fisher_evidence(run, "table3.x2_taut_1pt.outcome")
    assert ev["crlb_max_pct"] == pytest.approx(40.0) and ev["crlb_max_parameter"] == "sigma_0"
    assert ev["null_members"] == "sigma_1" and ev["condition_identifiable"] == 37.0
    assert ev["sigma_max_pct"] == 6.5
    assert fisher_evidence(run, "fig7_taut_outcome") == {}
    assert fisher_evidence(run, "table3.x9_taut_1pt.outcome") == {}


def test_a_published_folder_is_verified_against_its_manifest(tmp_path, monkeypatch, capsys):
    from tensegrity_id.workflow.readings import REGISTRATION, load_registration
    from tensegrity_id.workflow.readings import main as readings_main
    from tensegrity_id.workflow.readings_runs import verify

    pub = tmp_path / "pub"
    publish(_run(tmp_path / "run"), pub, command="x")
    assert verify(pub) == [] and verify(tmp_path / "run") == []
    (pub / "tables/table3.csv").write_text("row\nedited\n")
    (pub / "identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps12000.json").unlink()
    problems = verify(pub)
    assert len(problems) == 2
    assert any("table3.csv: changed since it was published" in p for p in problems)
    assert any("top_node_seed0_steps12000.json: listed in" in p and "but missing" in p for p in problems)
    monkeypatch.chdir(REPO)
    names = list(load_registration(REGISTRATION).readings)
    assert readings_main([str(pub), str(pub), "--score", "--out", str(tmp_path / "out")]) == 1
    assert "changed since it was published" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and len(names) == 2


def test_the_published_comparison_runs_are_intact():
    """resources/readings/<reading>/: every file its manifest lists, with the SHA-256 recorded."""
    from tensegrity_id.workflow.readings import REGISTRATION, load_registration
    from tensegrity_id.workflow.readings_runs import verify

    for name in load_registration(REPO / REGISTRATION).readings:
        folder = REPO / "resources/readings" / name
        manifest = json.loads((folder / MANIFEST).read_text())
        assert manifest["parts"] and len(manifest["files"]) > 100
        assert verify(folder) == [], name


def test_a_published_reading_keeps_the_settings_it_ran_with(tmp_path, monkeypatch):
    """Each part records the network settings read in the run's own directory; the comparison reads
    them from the folder (not from today's configs), and one folder holds one reading."""
    from tensegrity_id.identify.pinn.settings import PINNSettings
    from tensegrity_id.workflow.readings_runs import run_settings

    run = _run(tmp_path / "run")
    out = tmp_path / "pub"
    part = publish(run, out, command="x", overlay="config/reading.yaml")
    assert part["settings"] == {"n_fourier": 8, "fourier": "geometric", "t_ref": None, "init": "torch"}
    monkeypatch.chdir(tmp_path)  # today's configs: none here, the folder's record is read
    assert run_settings(out, "config/anything.yaml") == part["settings"]
    # another reading's run into the same folder is refused before anything is copied
    (run / "results/tables/table5.csv").write_text("row\nx\n")
    with pytest.raises(FileExistsError, match="publish each reading into its own folder"):
        publish(run, out, command="y")
    assert not (out / "tables/table5.csv").exists()
    # without an overlay: the base configs over the library's defaults
    other = publish(run, tmp_path / "pub2", command="z")
    assert other["settings"]["fourier"] == PINNSettings().fourier and other["settings"]["n_fourier"] == 8
    with pytest.raises(FileNotFoundError, match="missing.yaml: no such config"):
        publish(run, tmp_path / "pub3", command="z", overlay="config/missing.yaml")
