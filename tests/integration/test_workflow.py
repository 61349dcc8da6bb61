"""The real DAG on config/test.yaml: outputs, incremental re-runs, bad input."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from tensegrity_id.results.identification import IdentificationResult, SeedGroupSummary, VariantsResult

pytestmark = pytest.mark.integration
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


def run(workdir, *args, check=True, targets=()):
    proc = subprocess.run(
        [*SNAKEMAKE, *targets, "--cores", "2", "--configfile", "config/test.yaml", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def scheduled(workdir, *extra):
    """Rule -> job count of a dry run (the PINN training jobs' rules identify_pinn_* counted as one)."""
    out = run(workdir, "-n", *extra).stdout
    table = out.split("Job stats:")[1] if "Job stats:" in out else ""
    jobs: dict[str, int] = {}
    for name, n in re.findall(r"^(\w+)\s+(\d+)$", table, re.M):
        if name != "total":
            group_rule = name.startswith("identify_pinn_") and name != "identify_pinn_lm"
            name = "identify_pinn" if group_rule else name
            jobs[name] = jobs.get(name, 0) + int(n)
    return jobs


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, test_study, copy_run):
    """The test study's run, in a copy these tests may edit and re-run."""
    return copy_run(test_study, tmp_path_factory.mktemp("wf") / "run")


def test_outputs_exist_and_follow_contracts(workdir):
    rep = json.loads((workdir / "results/structures/x1.json").read_text())
    assert rep["counts"] == {"n_free": 4, "n_members": 6, "rank_A": 4, "s": 2, "m": 0}
    sig = [m["sigma"] for m in rep["members"] if m["kind"] == "cable"]
    assert [round(v, 1) for v in sig] == [25.0, 52.2, 25.0, 25.0]
    cable = next(m for m in rep["members"] if m["kind"] == "cable")
    assert {"kind", "nodes", "L_ref", "EA", "c", "sigma", "K", "L0"} <= set(cable)
    df = pd.read_csv(workdir / "results/tables/tableS3.csv")
    assert list(df.columns)[:6] == ["structure", "free", "members", "rank_A", "s", "m"]
    t3 = df.set_index("structure").loc["t3_prism"]
    assert t3.tolist()[:6] == [9, 12, 8, 4, 1, "6/9"]
    assert t3["class"] == t3["paper_class"] == "super-stable" and t3["lambda_min"] > 0
    assert df.set_index("structure").loc["x1", "class"] == "stable"  # under gravity
    a = json.loads((workdir / "results/assess/t3_prism.json").read_text())
    assert a["rigid"]["class"] == a["flexible"]["class"] == "super-stable"
    # what made each: the rule, its input's hash (the structure file), a copy is no git checkout
    prov = a["provenance"]
    assert prov["rule"] == "assess_structure" and prov["commit"] == "not a git checkout"
    structure = "results/structures/t3_prism.json"
    assert prov["inputs"][structure] == hashlib.sha256((workdir / structure).read_bytes()).hexdigest()
    assert rep["provenance"]["rule"] == "generate_structure" and len(prov["config_sha256"]) == 64
    assert abs(a["margin_ratio_flexible"] - 1) < 5e-3
    assert abs(a["f1_tangent_hz"] / a["f1_modal_hz"] - 1) < 2e-3
    scan = json.loads((workdir / "results/assess/scan/t3_prism.json").read_text())["scan"]
    assert [r["class"] for r in scan] == ["super-stable", "unstable", "unstable"]
    rec = json.loads((workdir / "results/assess/records/prism45/slack_1pt.json").read_text())
    assert len(rec["class"]) == len(rec["t"]) == len(rec["E_T"]) == 51 and sum(rec["counts"].values()) == 51
    steel = json.loads((workdir / "results/assess/steel/x1.json").read_text())
    assert steel["design"]["class"] == "super-stable" and abs(steel["design"]["U_c_max"] - 0.5) < 1e-12
    assert [r["max_tension"] for r in steel["curves"]] == [1000.0, 3000.0, 6000.0]
    assert {"cable_area", "bar_radius", "sized_for"} <= set(steel["sections"])
    assert abs(steel["tension_at_U_c_1"] - 6000.0) < 1e-6 and steel["family"]["directions"]
    assert (workdir / "results/figures/figS3_assessment.png").stat().st_size > 10_000
    assert (workdir / "results/figures/figS2_spectra.png").stat().st_size > 10_000
    assert (workdir / "results/figures/figS1_classic_forms.png").stat().st_size > 10_000
    assert len(a["rigid"]["eigenvalues_Kt"]) == 6 and min(a["rigid"]["eigenvalues_KG"]) > -1e-9
    t9 = pd.read_csv(workdir / "results/tables/table9.csv")
    assert t9["method"].tolist() == ["pinn_smooth", "ukf"] and (t9["margin_err_pct"] >= 0).all()
    assert (workdir / "results/tables/tableS3.md").read_text().startswith("# Table S3")
    for ext in ("pdf", "png"):
        assert (workdir / f"results/figures/fig1_structures.{ext}").stat().st_size > 10_000
    rng = json.loads((workdir / "results/values/prism_twist_range.json").read_text())
    assert 30.0 <= rng["twist_min_deg"] < 30.5 and 57.0 < rng["twist_max_deg"] < 60.0
    assert (workdir / "logs/generate_structure/x1.log").read_text().count("counts") == 1


def test_record_outputs_follow_contracts(workdir):
    import numpy as np

    z = np.load(workdir / "results/records/x1/slack_1pt.npz")
    for key in ("t", "q", "qd", "qdd", "lam", "tension", "taut", "transition_times"):
        assert key in z.files
    assert z["t"].size == 501 and z["q"].shape == (501, 8)
    meta = json.loads((workdir / "results/records/x1/slack_1pt.json").read_text())
    assert set(meta["checks"]) >= {
        "max_length_violation",
        "max_length_error_m",
        "max_energy_error_rel",
        "n_transitions",
    }
    assert 15 <= meta["checks"]["n_transitions"] <= 25
    s = np.load(workdir / "results/sensors/x1/slack_1pt/top_node.npz")
    assert s["clean"].shape == (501, 2) and "noisy" not in s.files  # noise drawn when loaded
    modal = json.loads((workdir / "results/modal/x1.json").read_text())
    assert len(modal["frequencies_hz"]) == 2 and len(modal["frequencies_truss_hz"]) == 2
    s1 = pd.read_csv(workdir / "results/tables/tableS1.csv")
    assert list(s1["row"]) == ["wb_10", "wb_100"] and list(s1["paper_sigma_max_pct"]) == [7.42, 3.25]
    assert s1["paper_block"].iloc[0] == "bar-constraint weight, matched"
    s4 = pd.read_csv(workdir / "results/tables/tableS4.csv")
    assert (
        list(s4["row"]) == ["joint_ea_taut"]
        and s4["EA_pct"].iloc[0] >= 0
        and s4["paper_EA_pct"].iloc[0] == 7.4
    )
    s5b = pd.read_csv(workdir / "results/tables/tableS5_baselines.csv")
    assert list(zip(s5b["row"], s5b["method"], strict=True)) == [
        (r, m) for r in ("taut_matched", "taut_mass") for m in ("pinn_smooth", "lm_shooting", "ukf")
    ]
    assert (s5b.loc[s5b["row"] == "taut_matched", "d_sigma_max_pct"] == 0).all()
    t2 = pd.read_csv(workdir / "results/tables/table2.csv").set_index("check")
    assert t2.filter(like="classical-limit truss", axis=0)["level"].iloc[0] < 3e-9
    assert (workdir / "results/figures/records/x1/slack_1pt.png").exists()


def test_pinn_outputs_follow_contracts(workdir):
    import numpy as np

    base = workdir / "results/identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps300"
    r = json.loads(base.with_suffix(".json").read_text())
    assert r["schema"] == {"kind": "identification", "version": IdentificationResult.VERSION}
    keys = {"method", "structure", "record", "protocol", "seed", "steps", "identified", "exact", "errors"}
    keys |= {"inert_members", "reconstruction_pct", "held_out_ratio", "resimulation_pct", "outcome", "wall_s"}
    assert keys <= set(r) and r["method"] == "pinn_smooth" and r["steps"] == 300
    assert {"sigma_pct", "sigma_max_pct", "c_pct"} <= set(r["errors"]) and r["inert_members"] == [0]
    assert len(r["identified"]["sigma"]) == 4 and r["exact"]["c"] == 1.0
    assert r["outcome"] in {"identified", "partial", "silent failure", "fit failure"}
    hist = pd.read_csv(f"{base}_history.csv")
    assert {"step", "L_total", "L_data", "L_eom", "L_bar", "sigma_0", "c"} <= set(hist.columns)
    assert hist["step"].iloc[-1] == 300
    z = np.load(f"{base}_series.npz")
    assert z["true"].shape == z["resim"].shape == (501,)
    assert not (
        workdir / "results/checkpoints/pinn_smooth/x1/taut_1pt/top_node_seeds0-1_steps300.pt"
    ).exists()
    # seeds 0 and 1 trained as one batch: one log, both seeds' files, the group summary
    log = (workdir / "logs/identify_pinn/smooth/x1/taut_1pt/top_node_seeds0-1_steps300.log").read_text()
    assert "step 300/300, 2 seeds" in log and "ETA" in log and "seed 1: max sigma error" in log
    r1 = json.loads(
        (workdir / "results/identify/pinn_smooth/x1/taut_1pt/top_node_seed1_steps300.json").read_text()
    )
    assert r1["seed"] == 1 and r1["batch"]["seeds"] == [0, 1] and r["batch"] == r1["batch"]
    assert r1["identified"] != r["identified"] and r["step_mode"] == "eager"
    assert IdentificationResult.load(base.with_suffix(".json")).diverged is None
    group = workdir / "results/identify/pinn_smooth/x1/taut_1pt/top_node_seeds_steps300.json"
    summ = json.loads(group.read_text())
    assert SeedGroupSummary.load(group).errors["sigma_max_pct"].n == 2
    assert summ["seeds"] == [0, 1] and summ["n_seeds"] == 2
    err = [r["errors"]["sigma_max_pct"], r1["errors"]["sigma_max_pct"]]
    assert summ["errors"]["sigma_max_pct"]["mean"] == pytest.approx(sum(err) / 2)
    assert (summ["errors"]["sigma_max_pct"]["min"], summ["errors"]["sigma_max_pct"]["max"]) == (
        min(err),
        max(err),
    )
    t5 = pd.read_csv(workdir / "results/tables/table5.csv")
    assert len(t5) == 6 and set(t5["steps"]) == {100, 200} and (t5["transitions"] == 20).all()
    # with Table 3's X1 row and Figure 6's two prism runs
    # + S1, S4-S6, force scale, and the specification study's Glorot-trunk run
    assert pd.read_csv(workdir / "results/tables/pinn_runs.csv").shape[0] == 19
    t3 = pd.read_csv(workdir / "results/tables/table3.csv")
    assert list(t3["row"]) == ["x1_taut_1pt"] and {"paper_sigma_max_pct", "sigma_max_all_pct"} <= set(t3)
    assert t3["paper_sigma_max_pct"].iloc[0] == 3.5 and t3["steps"].iloc[0] == 200
    sf = pd.read_csv(workdir / "results/tables/silent_failures.csv")
    assert list(sf["row"]) == ["x1_taut_1pt"] and sf["resim_chi2"].iloc[0] > 0
    hybrid = json.loads(
        (workdir / "results/identify/pinn_lm/x1/taut_1pt/top_node_smooth_seed0_steps200.json").read_text()
    )
    assert hybrid["method"] == "pinn_lm" and hybrid["start"]["steps"] == 200 and "chi2" in hybrid
    fish = hybrid["fisher_at_start"]
    assert fish["theta"][:4] == pytest.approx(hybrid["start"]["identified"]["sigma"])
    assert fish["condition_identifiable"] > 1 and {"fisher_cond", "crlb_max_pct", "flag_crlb"} <= set(sf)
    ss = json.loads((workdir / "results/values/seed_study_x1.json").read_text())
    assert ss["seeds"] == [0, 1] and set(ss["parameters"]) == {"sigma_1", "sigma_2", "sigma_3", "c"}
    p1 = ss["parameters"]["sigma_1"]
    assert p1["std_over_crlb"] == pytest.approx(p1["std"] / p1["crlb"]) and ss["paper"]["n_seeds"] == 8
    f6 = json.loads((workdir / "results/values/fig6_prism_series.json").read_text())
    assert [lv["level"] for lv in f6["levels"]] == [1.0] and f6["repeats"][0]["seeds"] == [0, 1]
    assert f6["triangle"] == [3, 4, 5] and f6["cross"] == [6, 7, 8] and f6["paper"]["mean_worst_pct"]
    f7 = json.loads((workdir / "results/values/fig7_bridge.json").read_text())
    assert [r["record"] for r in f7["records"]] == ["taut_1pt", "slack_1pt"] and f7["inactive_channels"] == []
    assert all(r["n_identifiable"] == 3 for r in f7["records"])
    s5 = pd.read_csv(workdir / "results/tables/tableS5.csv")
    assert list(s5["row"]) == ["taut_matched", "taut_mass"] and list(s5["paper_sigma_max_pct"]) == [3.5, 3.0]
    assert (s5["sigma_mean_pct"] <= s5["sigma_max_pct"]).all() and list(s5["steps"]) == [300, 300]
    s6 = pd.read_csv(workdir / "results/tables/tableS6.csv")
    assert list(s6["row"]) == ["single_sensor"] and s6["paper_sigma_max_pct"].iloc[0] == 4.9
    assert s6["protocol"].iloc[0] == "single" and s6["paper_sensors"].iloc[0] == 1
    t2 = pd.read_csv(workdir / "results/tables/table2.csv").set_index("check")
    assert (t2.filter(like="Residual", axis=0)["level"] < 1e-12).all()
    # the mass-perturbed record is not the residual's model: it is reported apart, and it is not zero
    mf = json.loads((workdir / "results/values/residual_checks.json").read_text())["model_form"]
    assert (
        mf["x1/taut_1pt_mass"]["generator"] == "mass_perturbation"
        and mf["x1/taut_1pt_mass"]["on_record"] > 1e-3
    )
    assert t2.filter(like="Smoothed", axis=0)["level"].iloc[0] < 0.01
    for fig in ("fig4_identification", "fig5_resimulation", "fig6_prism_series", "fig7_bridge"):
        assert (workdir / f"results/figures/{fig}.png").stat().st_size > 10_000


def test_baseline_outputs_follow_contracts(workdir):
    import numpy as np

    for method, n_hyper in (("lm_shooting", 2), ("ukf", 11), ("pf_enkf", 6)):
        for rec in ("taut_1pt", "slack_1pt"):
            r = json.loads((workdir / f"results/identify/{method}/x1/{rec}/top_node_seed0.json").read_text())
            assert r["method"] == method and r["record"] == rec and r["protocol"] == "top_node"
            assert r["n_hyperparameters"] == n_hyper and r["wall_s"] > 0 and r["inert_members"] == [0]
            assert {"sigma_max_pct", "c_pct"} <= set(r["errors"]) and r["exact"]["c"] == 1.0
    lm = json.loads((workdir / "results/identify/lm_shooting/x1/taut_1pt/top_node_seed0.json").read_text())
    assert lm["n_forward_simulations"] > 4 and isinstance(lm["spurious_minimum"], bool)
    pf = json.loads((workdir / "results/identify/pf_enkf/x1/slack_1pt/top_node_seed0.json").read_text())
    assert pf["ess"]["n_particles"] == 40 and len(pf["ess"]["value"]) == len(pf["ess"]["t"]) > 100
    rs = json.loads(
        (workdir / "results/identify/lm_shooting/x1/slack_1pt/top_node_seed0_restarts.json").read_text()
    )
    assert [s["start"] for s in rs["starts"]] == [[10.0, 0.3], [30.0, 1.0]]
    assert all({"chi2", "spurious", "sigma_max_pct", "c_pct"} <= set(s) for s in rs["starts"])
    var = workdir / "results/identify/lm_shooting/x1/taut_1pt/top_node_seed0_variants_lm_diff_step.json"
    assert VariantsResult.load(var).variants[0].errors.sigma_max_pct is not None
    var = json.loads(var.read_text())
    assert [v["options"] for v in var["variants"]] == [{"diff_step": 1e-3}] and "chi2" in var["variants"][0]
    scan = json.loads((workdir / "results/values/lm_landscape/x1/slack_1pt/top_node.json").read_text())
    assert len(scan["chi2_line"]) == 5 and np.asarray(scan["chi2_plane"]).shape == (2, 2)
    t6 = pd.read_csv(workdir / "results/tables/table6.csv")
    assert len(t6) == 5 and t6["hyperparameters"].tolist()[:4] == [15, 2, 11, 6]
    assert t6["paper_slack_sigma_max_pct"].iloc[1] == 0.07
    assert t6["slack_sigma_max_pct"].iloc[4] < 1e-6  # full-state regression on noise-free states
    sr = json.loads((workdir / "results/identify/springrod/summary.json").read_text())
    # the peer's trained one-step regression: biased by about (K/M) dt / 2 against RK45 data (0.1-0.5 %)
    assert sr["regression"]["success"] and sr["regression"]["K_over_M_err_pct"] < 1.0
    assert set(sr["black_box"]) == {"lbfgsb", "cmaes"}
    assert (workdir / "results/figures/baselines.png").stat().st_size > 10_000


def test_measured_validation_outputs_follow_contracts(workdir):
    """The paper's §4.10-4.12: the keys other stages and the docs quote, and the stand-in labelled as such."""
    hexp = json.loads((workdir / "results/values/hexprism_modal_id.json").read_text())
    assert {"ring_tension_N", "rms_residual_hz", "alternative", "with_EA"} <= set(hexp)
    assert (
        10.0 < hexp["ring_tension_N"] < 12.0
        and hexp["alternative"]["rms_residual_hz"] > hexp["rms_residual_hz"]
    )
    model = json.loads((workdir / "results/values/simplex_model.json").read_text())
    for key in ("base_to_cross_ratio", "f2_per_newton", "force_factor_weighed", "force_factor_distributed"):
        assert isinstance(model[key], float)
    ext = json.loads((workdir / "results/values/simplex_frequency_extraction.json").read_text())
    assert [r["level"] for r in ext["levels"]] == [1, 13] and ext["worst_error_pct"] < 0.5
    damp = json.loads((workdir / "results/values/damping_limit.json").read_text())
    assert damp["extension_ratio"]["min"] > 100
    t8 = pd.read_csv(workdir / "results/tables/table8.csv")
    assert len(t8) == 13 and set(t8["frequency_source"]) == {"stand-in"}
    assert {"measured_N", "predicted_N", "error_N", "paper_predicted_N"} <= set(t8.columns)
    t7 = (workdir / "results/tables/table7.md").read_text()
    assert "not public" in t7
    summary = pd.read_csv(workdir / "results/tables/measured_validation.csv")
    assert {"section", "quantity", "here", "paper", "basis"} <= set(summary.columns)
    assert summary["basis"].str.contains("stand-in").any()
    for fig in ("fig8_hexprism", "fig10_simplex", "fig11_simplex_law"):
        assert (workdir / f"results/figures/{fig}.png").stat().st_size > 10_000


def test_measured_record_outputs_follow_contracts(workdir):
    """Issue 19: a record file as a record of its structure, identified without exact values, summarised."""
    meta = json.loads((workdir / "results/records/x1/x1_shaker_miscal.json").read_text())
    assert meta["measured"] and meta["exact_parameters"] is None and meta["at_rest"]["passed"]
    assert meta["channels"] == ["acc:1:x", "acc:1:y", "acc:3:x"] and meta["forcing"]["kind"] == "sampled"
    res = json.loads(
        (workdir / "results/identify/lm_shooting/x1/x1_shaker_miscal/measured_seed0.json").read_text()
    )
    assert res["exact"] is None and res["errors"]["sigma_max_pct"] is None
    assert res["identified"]["force_scale_channels"] == ["x1_shaker_miscal:force:1:y"]
    assert {"crlb_relative", "null_members"} <= set(res["bounds"]) and "f_0" in res["bounds"]["crlb_relative"]
    summary = json.loads((workdir / "results/measured/x1/x1_shaker_miscal/summary.json").read_text())
    assert summary["screening"]["members"]["sigma_0"] == "undeterminable"
    assert {"class", "margin", "U_c_max"} <= set(summary["methods"][0]["assessment"])
    table = pd.read_csv(workdir / "results/measured/x1/x1_shaker_miscal/summary.csv")
    assert table["row"].iloc[0] == "screening (before inversion)" and "force scale" in table.columns
    peaks = json.loads((workdir / "results/measured/x1/peaks/x1_peaks.json").read_text())
    assert peaks["scale"] == pytest.approx(1.25, rel=2e-3)
    fs = pd.read_csv(workdir / "results/tables/force_scale.csv")
    assert list(fs["row"]) == ["pinn_known", "pinn_fit", "lm_known", "lm_fit"]
    assert fs["force_scale_true"].eq(1.2).all() and fs["force_scale"].isna().tolist() == [
        True,
        False,
        True,
        False,
    ]


def test_report_and_scorecard_outputs_follow_contracts(workdir):
    cross = json.loads((workdir / "results/values/quaternion_crosscheck.json").read_text())
    assert cross["summary"]["passed"] and {r["structure"] for r in cross["records"]} == {"x1", "prism45"}
    assert cross["summary"]["max_derivative_diff_rel"] < 1e-12 and cross["summary"]["n_transitions"] > 20
    t2 = pd.read_csv(workdir / "results/tables/table2.csv")
    assert t2["check"].str.contains("independent quaternion model").sum() == 2
    t1 = pd.read_csv(workdir / "results/tables/table1.csv", dtype=str).set_index("structure")
    assert list(t1.index) == ["x1", "prism45"]
    assert t1.loc["x1", ["nodes", "bars", "cables", "mech_dofs"]].tolist() == ["4", "2", "4", "2"]
    s2 = pd.read_csv(workdir / "results/tables/tableS2.csv").set_index("parameter")
    assert s2.loc["smoothing sharpness beta", "value"] == "800"
    sc = pd.read_csv(workdir / "results/tables/scorecard.csv").set_index("id")
    assert sc.loc["x1_sigma_top", "status"] == "match" and sc.loc["t2_stedy", "status"] == "match"
    assert sc.loc["table8.1.predicted_N", "status"] == "not reproducible here"
    # Table 4's X2 rows are not run by the test config: not produced here, never read from elsewhere
    assert sc.loc["table4.baseline.sigma_max_pct", "status"] == "not yet produced"
    # the mutation self-test on this run's scorecard: no counted claim a wrong value could not fail
    from tensegrity_id.report.scorecard import mutation_survivors

    survivors = mutation_survivors(
        pd.read_csv(workdir / "results/tables/scorecard.csv", dtype=str, keep_default_na=False)
    )
    print(f"unfailable claims in the test study's scorecard: {len(survivors)}")
    assert survivors == []
    assert (workdir / "results/figures/fig2_network.png").stat().st_size > 10_000
    run(workdir, "--report", "results/report.zip")
    with zipfile.ZipFile(workdir / "results/report.zip") as z:
        names = z.namelist()
    assert any(n.endswith("scorecard.csv") for n in names) and any(
        n.endswith("fig2_network.png") for n in names
    )


def test_the_specification_study_has_a_line_per_setting_record_and_seed(workdir):
    df = pd.read_csv(workdir / "results/tables/pinn_spec_study.csv")
    assert df["setting"].tolist() == ["default", "init_torch"]
    assert df["overrides"].tolist() == ["(default)", "init=torch"] and (df["seed"] == 0).all()
    assert df["held_out_ratio"].gt(0).all() and df["train_misfit_ratio"].gt(0).all()
    # the reading's run has its own path; the default setting's is the run the other studies use
    runs = workdir / "results/identify/pinn_smooth/x1/taut_1pt"
    assert (runs / "top_node_seed0_steps300_inittorch.json").exists()
    assert json.loads((runs / "top_node_seed0_steps300.json").read_text())["seed"] == 0


def test_reference_results_of_the_run(workdir, tmp_path):
    """Publish the run as reference results (classes from Snakemake's provenance), compare it with
    itself (exit 0) and with a doctored copy (exit 1)."""
    from tensegrity_id.workflow.reference import compare, main

    ref = tmp_path / "reference"
    args = ["--command", "snakemake --configfile config/test.yaml", "--config", "config/test.yaml"]
    assert main(["publish", "--results", str(workdir / "results"), "--out", str(ref), *args]) == 0
    m = json.loads((ref / "MANIFEST.json").read_text())
    classes = {f["path"]: f["class"] for f in m["files"]}
    assert classes["results/tables/table1.csv"] == "deterministic"
    assert classes["results/tables/tableS3.csv"] == "deterministic"
    assert classes["results/tables/pinn_spec_study.csv"] == "stochastic"
    assert classes["results/tables/scorecard.csv"] == "stochastic"
    assert not any(p.startswith(("results/records/", "results/identify/")) for p in classes)
    assert "commit" in m and m["versions"]["torch"] and m["files"]  # the copy is no git tree: commit None
    assert compare(workdir / "results", ref).exit_code() == 0
    doctored = tmp_path / "doctored" / "results"
    for sub in ("tables", "values", "figures"):
        shutil.copytree(workdir / "results" / sub, doctored / sub)
    t1 = pd.read_csv(doctored / "tables/table1.csv", dtype=str, keep_default_na=False)
    t1.loc[0, "nodes"] = str(int(t1.loc[0, "nodes"]) + 1)
    t1.to_csv(doctored / "tables/table1.csv", index=False)
    report = compare(doctored, ref)
    assert report.exit_code() == 1
    assert [f.path for f in report.files if f.status == "different"] == ["results/tables/table1.csv"]


def test_nothing_to_do_after_a_run(workdir):
    assert scheduled(workdir) == {}


TABLES = {"make_tableS3", "make_table2", "make_table5", "make_table6", "make_table9", "make_pinn_summary"}
TABLES |= {
    "make_table3",
    "make_silent_failures",
    "make_tableS1",
    "make_tableS4",
    "make_tableS5",
    "make_tableS6",
}
TABLES |= {"make_tableS5_baselines"}
TABLES |= {"make_table7", "make_table8", "make_measured_validation", "plot_fig11"}
TABLES |= {"make_measured_summary", "identify_measured_peaks", "make_force_scale_table"}
TABLES |= {"make_pinn_spec_study"}
PINN_DOWNSTREAM = {"make_table5", "make_table6", "make_table9", "make_pinn_summary", "plot_fig4", "plot_fig5"}
PINN_DOWNSTREAM |= {"make_table3", "identify_pinn_lm", "make_silent_failures", "make_tableS5", "make_tableS6"}
PINN_DOWNSTREAM |= {"make_seed_study", "plot_fig3", "plot_fig6", "plot_fig7"}
PINN_DOWNSTREAM |= {"make_tableS1", "make_tableS4", "make_tableS5_baselines", "make_force_scale_table"}
PINN_DOWNSTREAM |= {"make_tableS2", "plot_fig2"}  # they state the settings a run used
PINN_DOWNSTREAM |= {"make_pinn_spec_study", "summarize_pinn_group"}
MEASURED_FIGURES = {"plot_fig8", "plot_fig10", "plot_fig11"}
SIMPLEX_RULES = {
    "compute_simplex_model",
    "validate_simplex_extraction",
    "make_table8",
    "compute_damping_limit",
}
SIMPLEX_RULES |= {"plot_fig10", "plot_fig11", "make_measured_validation"}
BASELINES = {"identify_baseline", "lm_restarts", "baseline_variants", "plot_baselines"}
BASELINES |= {"make_table6", "make_table9", "make_tableS5_baselines"}
BASELINES |= {"make_measured_summary", "make_force_scale_table"}  # LM on the measured record, LM variants
BASELINES |= {"assess_measured_record"}  # the assessment of the measured record's identified prestress
BASELINES |= {"plot_measured_fit"}  # the fit figure of the measured record's identification
ASSESSMENT = {"assess_structure", "assess_prestress_scan", "assess_record", "assess_steel_design"}
ASSESSMENT |= {"make_table9", "make_tableS3", "plot_figS1", "plot_figS2", "plot_figS3"}
ASSESSMENT |= {"make_measured_summary", "identify_measured_peaks", "assess_measured_record"}
SENSORS = {"make_sensor_data", "compute_fisher", "identify_pinn", "fit_regression", "assess_record"}
SENSORS |= BASELINES | PINN_DOWNSTREAM | {"lm_landscape", "plot_fig3", "plot_figS3"}
SENSORS |= {"screen_measured_record"}  # loads the measured record as a problem
# the scorecard reads results of every stage; Tables 1 and S2 read the assessment library's materials
TABLES |= {"make_table1", "make_tableS2", "make_scorecard"}
ASSESSMENT |= {"make_table1", "make_tableS2", "make_scorecard"}
for _rules in (PINN_DOWNSTREAM, SIMPLEX_RULES, BASELINES, SENSORS):
    _rules |= {"make_scorecard"}


@pytest.mark.parametrize(
    "module, expected",
    [
        # mechanics: everything that simulates or assesses, and what follows
        (
            "mechanics/dynamics.py",
            "ALL - generate_structure - compute_prism_feasibility - plot_fig1 - springrod_example"
            " - make_table7",
        ),
        ("data/sensors.py", SENSORS),
        ("analysis/stability.py", ASSESSMENT),
        ("identify/filters.py", BASELINES),
        ("identify/pinn/trainer.py", {"identify_pinn"} | PINN_DOWNSTREAM),
        ("report/plot_pinn.py", {"plot_fig4", "plot_fig5"}),
        # the figures drawing structures (Figures 6-7 share the module that draws the bridge)
        (
            "report/plot_structures.py",
            # (Figure 7's rule also writes the values the scorecard quotes)
            {"plot_fig1", "plot_figS1", "plot_fig6", "plot_fig7", "make_scorecard"} | MEASURED_FIGURES,
        ),
        # the measured-data validation: its own stage only
        ("validation/simplex.py", SIMPLEX_RULES),
        ("report/tables.py", TABLES | {"springrod_example"}),
        # the independent forward model: its cross-check and Table 2 only
        ("mechanics/quaternion.py", {"crosscheck_quaternion", "make_table2", "make_scorecard"}),
    ],
)
def test_editing_one_module_reruns_exactly_its_dependents(workdir, module, expected):
    """One module per stage: the dry run schedules exactly the rules whose scripts import it (directly
    or through other modules) and what depends on their outputs; reverting the edit schedules nothing
    (Snakemake 9 compares checksums of small inputs, so the edit changes content)."""
    target = workdir / "workflow/lib/tensegrity_id" / module
    original = target.read_text()
    if isinstance(expected, str):
        every = set(scheduled(workdir, "--forceall")) - {"all"}
        expected = every - {name.strip() for name in expected.split(" - ")[1:]}
    try:
        time.sleep(1.1)
        target.write_text(original + "\n# edited\n")
        os.utime(target)
        assert set(scheduled(workdir)) - {"all"} == expected
    finally:
        target.write_text(original)
    assert scheduled(workdir) == {}


def test_a_pinn_settings_variant_is_a_row_with_its_own_path(workdir):
    extra = workdir / "variant.yaml"
    row = "{structure: x1, record: taut_1pt, protocol: top_node, treatment: smooth, steps: 300"
    extra.write_text(f"studies:\n  fig4:\n    - {row}}}\n    - {row}, settings: {{w_bar: 20}}}}\n")
    out = run(workdir, "-n", "--configfile", "config/test.yaml", str(extra)).stdout
    assert "results/identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps300_wbar20.json" in out
    jobs = scheduled(workdir, "--configfile", "config/test.yaml", str(extra))
    assert jobs.get("identify_pinn") == 1 and "identify_baseline" not in jobs  # only the new run


def test_pinn_run_is_deterministic(workdir):
    path = workdir / "results/identify/pinn_event/x1/slack_1pt/top_node_seed0_steps100.json"
    first = json.loads(path.read_text())
    rule = "identify_pinn_event_x1_slack_1pt_top_node_steps100_seed0"  # the group's job of seed 0
    run(workdir, "--forcerun", rule, targets=[str(path.relative_to(workdir))])
    again = json.loads(path.read_text())
    assert again["identified"] == first["identified"] and again["errors"] == first["errors"]


def test_changing_the_seed_list_reruns_only_that_group(workdir):
    extra = workdir / "seeds.yaml"
    extra.write_text(
        "identify:\n  pinn:\n    runs:\n      - {structure: x1, records: [taut_1pt], protocol: top_node, "
        "treatments: [smooth], steps: [300], seeds: [0, 1, 2]}\n"
    )
    out = run(workdir, "-n", "--configfile", "config/test.yaml", str(extra)).stdout
    # two seeds a job (config/test.yaml): seeds 0 and 1 keep their job and files, seed 2 is a new
    # job, and the group's summary is made again from the three seeds' files
    assert "identify_pinn_smooth_x1_taut_1pt_top_node_steps300_seed2" in out
    assert "identify_pinn_smooth_x1_taut_1pt_top_node_steps300_seeds0to1" not in out
    assert "results/identify/pinn_smooth/x1/taut_1pt/top_node_seed2_steps300.json" in out
    jobs = scheduled(workdir, "--configfile", "config/test.yaml", str(extra))
    assert jobs.get("identify_pinn") == 1  # no other group's training
    # the group's summary is made again (a forced re-run above may leave another's to be remade)
    assert re.search(r"output: results/identify/pinn_smooth/x1/taut_1pt/top_node_seeds_steps300\.json", out)
    assert not {"identify_baseline", "simulate_record", "make_sensor_data", "compute_fisher"} & set(jobs)


def test_changing_one_sigma_min_reruns_only_that_chain(workdir):
    extra = workdir / "sigma.yaml"
    extra.write_text("structures:\n  prism45:\n    prestress: {sigma_min: 2.0}\n")
    jobs = scheduled(workdir, "--configfile", "config/test.yaml", str(extra))
    assert jobs.get("generate_structure") == 1
    # prism45's own chain: its records, their sensors and figures, its modal
    # analysis, and the tables/figures that collect it; not Table S3 (no prism45 row)
    assert (
        jobs.get("simulate_record") == 2 and jobs.get("compute_threshold") == 1
    )  # its model-form one dropped
    assert "make_tableS3" not in jobs and jobs.get("compute_modal") == 1
    # the test config's Fisher case is on x1; Figure 6's stand-in level row is prism45's own
    assert jobs.get("compute_fisher") == 1 and jobs.get("plot_fig6") == 1


@pytest.mark.parametrize(
    "config_text, field",
    [
        ("structures:\n  x1:\n    prestress: {sigma_min: -5}\n", "structures.x1.prestress.sigma_min"),
        ("studies:\n  prism_feasibility: {step_deg: 0}\n", "studies.prism_feasibility.step_deg"),
        ("identify:\n  baselines:\n    methods:\n      ukf: {alpa: 1.0}\n", "identify.baselines.methods.ukf"),
        ("studies:\n  table6: {records: {taut: nope}}\n", "studies.table6.records.taut"),
        ("unknown_top_key: 3\n", "unknown_top_key"),
        ("identify:\n  pinn:\n    settings: {widht: 64}\n", "identify.pinn.settings.widht"),
        ("studies:\n  fig4: [[x1, taut_1pt, top_node, smooth, 300, 0]]\n", "studies.fig4[0]"),
        # a record file that does not fit its structure (node 3 x is free, node 0 is pinned)
        (
            "measured:\n  records:\n    bad_rec: {file: bad_record.csv, structure: x1}\n",
            "measured.records.bad_rec.file",
        ),
    ],
)
def test_bad_config_stops_before_any_job(workdir, config_text, field):
    before = (workdir / "results/structures/x1.json").read_bytes()
    (workdir / "bad_record.csv").write_text(
        "time,force:1:y,acc:0:x\n" + "".join(f"{i / 100},0,0\n" for i in range(40))
    )
    bad = workdir / "bad.yaml"
    bad.write_text(config_text)
    proc = run(workdir, "--configfile", "config/test.yaml", str(bad), check=False)
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and field in errors[0]
    assert "Building DAG" not in proc.stdout + proc.stderr
    assert (workdir / "results/structures/x1.json").read_bytes() == before


def test_bad_structure_file_stops_before_any_job(workdir):
    (workdir / "resources/structures/broken.yaml").write_text(
        "name: broken\nnodes: [[0, 0], [1, 0], [0, 1]]\nbars: [[0, 5]]\n"
        "cables: [[0, 1], [1, 2]]\npinned: [0]\n"
    )
    cfg = workdir / "user.yaml"
    cfg.write_text("structures:\n  broken: {file: resources/structures/broken.yaml}\nbuild: [broken]\n")
    proc = run(workdir, "--configfile", "config/test.yaml", str(cfg), check=False)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert proc.returncode != 0 and len(errors) == 1
    assert "structures.broken.file" in errors[0] and "bars[0]" in errors[0] and "node 5" in errors[0]


def test_user_structure_file_runs(workdir):
    cfg = workdir / "user_ok.yaml"
    cfg.write_text(
        "structures:\n  mine:\n    file: resources/structures/example_x1.yaml\n"
        "    prestress: {method: lp, sigma_min: 25.0}\nbuild: [mine]\n"
    )
    run(workdir, "--configfile", "config/test.yaml", str(cfg), targets=["results/structures/mine.json"])
    a = json.loads((workdir / "results/structures/mine.json").read_text())
    b = json.loads((workdir / "results/structures/x1.json").read_text())
    assert [m["sigma"] for m in a["members"]] == pytest.approx([m["sigma"] for m in b["members"]], rel=1e-12)


def test_outputs_are_deterministic(workdir, tmp_path):
    first = Path(workdir / "results/structures/t3_prism.json").read_bytes()
    run(workdir, "--forcerun", "generate_structure", targets=["results/structures/t3_prism.json"])
    assert Path(workdir / "results/structures/t3_prism.json").read_bytes() == first
