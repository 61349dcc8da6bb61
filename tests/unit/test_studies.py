"""Issue 16, second part: the seed study (bias and scatter against the CRLB), the prism-series and
bridge summaries of Figures 6-7, the study rows of the run sheet, and records that share an amplitude."""

import copy
import re

import numpy as np
import pandas as pd
import pytest
import yaml
from result_records import make_fisher, make_result
from snakemake.utils import update_config
from tensegrity_id.analysis.seed_study import seed_study
from tensegrity_id.report.plot_studies import bridge_summary, prism_series_summary
from tensegrity_id.workflow.config_check import ConfigError, check_config
from tensegrity_id.workflow.runsheet import RunSheet, RunSheetError


@pytest.fixture(scope="module")
def default_config(repo):
    return yaml.safe_load((repo / "config/config.yaml").read_text())


EXACT = {"sigma": [25.0, 52.0, 25.0, 25.0], "c": 1.0}


def _run(sigma, c, *, seed=0, record="taut_1pt", ratio=2.5, outcome="identified"):
    sig = np.asarray(sigma, float)
    ex = np.asarray(EXACT["sigma"])
    pct = [None] + [float(100 * abs(sig[k] - ex[k]) / ex[k]) for k in (1, 2, 3)]
    return make_result(
        record=record,
        steps=12000,
        seed=seed,
        identified={"sigma": sig.tolist(), "c": c},
        exact=EXACT,
        errors={"sigma_pct": pct, "sigma_max_pct": max(pct[1:]), "c_pct": 100 * abs(c - 1.0)},
        held_out_ratio=ratio,
        outcome=outcome,
    )


FISHER = make_fisher(
    crlb={"sigma_1": 0.02, "sigma_2": 0.03, "sigma_3": 0.013, "c": 0.0026},
    crlb_relative={"sigma_1": 0.02 / 52, "sigma_2": 0.03 / 25, "sigma_3": 0.013 / 25, "c": 0.0026},
    null_members=["sigma_0"],
    condition_identifiable=190.0,
)


def test_seed_study_separates_bias_from_scatter():
    """Seed means 2-4 % off with a scatter an order smaller (the paper's §4.8 reading), constructed
    exactly."""
    offsets = np.array([-0.1, 0.1, -0.05, 0.05])  # zero mean, std 0.0913 (ddof 1)
    runs = [
        _run([10.0, 52 * 1.03 + d, 25 * 0.98 + d, 25 * 1.04 + d], 1.007 + d / 10, seed=k, ratio=2.0 + k)
        for k, d in enumerate(offsets)
    ]
    out = seed_study(runs, FISHER)
    p1, p2, c = out["parameters"]["sigma_1"], out["parameters"]["sigma_2"], out["parameters"]["c"]
    sd = np.std(offsets, ddof=1)
    assert p1["bias_pct"] == pytest.approx(3.0) and p2["bias_pct"] == pytest.approx(-2.0)
    assert p1["std"] == pytest.approx(sd) and p1["std_over_crlb"] == pytest.approx(sd / 0.02)
    assert c["bias_pct"] == pytest.approx(0.7) and c["std"] == pytest.approx(sd / 10)
    assert p1["bias_over_std"] == pytest.approx(52 * 0.03 / sd)
    assert "sigma_0" not in out["parameters"] and out["null_members"] == ["sigma_0"]
    assert out["sigma_bias_pct_range"] == pytest.approx([2.0, 4.0])
    assert (
        out["held_out_ratio"] == pytest.approx(3.5) and out["n_seeds"] == 4 and out["seeds"] == [0, 1, 2, 3]
    )
    with pytest.raises(ValueError, match="two or more seeds"):
        seed_study(runs[:1], FISHER)
    with pytest.raises(ValueError, match="repeats one run"):
        seed_study([runs[0], runs[1].replace(record="slack_1pt")], FISHER)


def test_prism_series_summary_reads_the_sqrt3_ratio_and_the_repeats():
    t = 5.0
    exact = [t / np.sqrt(3)] * 6 + [t] * 3  # base triangle (inert), top triangle, cross: -t : t : t/sqrt(3)
    ident = np.array(exact) * np.array([1, 1, 1, 1.1, 1.1, 1.1, 1, 1, 1])
    errors = {"sigma_pct": [None] * 3 + [10.0] * 3 + [0.0] * 3, "sigma_max_pct": 10.0, "c_pct": 0.5}
    run = make_result(
        identified={"sigma": ident.tolist()},
        exact={"sigma": exact},
        errors=errors,
        n_transitions=0,
        outcome="partial",
    )
    fisher = FISHER.replace(crlb_relative={"sigma_3": 0.0008, "c": 0.0001})
    rep = [
        make_result(
            seed=s,
            identified={"sigma": [*exact[:3], exact[3] * (1 - e / 100), *exact[4:]]},
            exact={"sigma": exact},
            errors={**errors, "sigma_pct": [None] * 3 + [e, 1, 1] + [1] * 3, "sigma_max_pct": e},
            outcome="partial",
        )
        for s, e in ((0, 60.0), (1, 70.0))
    ]
    out = prism_series_summary(
        [{"row": "l5", "level": 5.0, "record": "series_l5"}],
        [run],
        [fisher],
        [{"row": "l1_12k", "record": "series_l1", "steps": 12000}],
        [rep],
        cross=[6, 7, 8],
        triangle=[3, 4, 5],
    )
    (lv,) = out["levels"]
    assert lv["cross_triangle_ratio_exact"] == pytest.approx(np.sqrt(3))
    assert lv["cross_triangle_ratio"] == pytest.approx(np.sqrt(3) / 1.1) and lv[
        "crlb_max_pct"
    ] == pytest.approx(0.08)
    (r,) = out["repeats"]
    assert (
        r["mean_worst_pct"] == pytest.approx(65.0)
        and r["worst_member"] == [3, 3]
        and r["worst_sign"] == [-1, -1]
    )
    assert out["repeat_over_crlb"] == pytest.approx([65.0 / 0.08])


def test_bridge_summary_counts_cables_within_five_percent_and_marks_silent_channels():
    errs = [None, 1.0, 4.9, 5.1, 30.0]
    run = make_result(
        identified={"sigma": [25.0] * len(errs)},
        errors={"sigma_pct": errs, "c_pct": 0.9},
        held_out_ratio=3.3,
        outcome="partial",
        n_transitions=12,
    )
    out = bridge_summary(
        [{"row": "slack", "record": "slack_4pt", "steps": 12000}],
        [run],
        [FISHER],
        [[1, 0], [6, 1], [6, 0]],
        np.array([0.1, 0.0, 0.0]),
    )
    (r,) = out["records"]
    assert r["within"] == 2 and r["n_identifiable"] == 4 and r["sigma_max_pct"] == 30.0
    assert r["sigma_median_pct"] == pytest.approx(5.0) and r["crlb_max_pct"] == pytest.approx(
        0.26
    )  # c: 0.0026
    assert out["inactive_channels"] == [[6, 1], [6, 0]]


# -------------------------------------------------------------- config
def test_study_rows_join_the_pinn_sheet_and_merge_seed_groups(default_config):
    sheet = RunSheet(default_config)
    fig6 = sheet.rows["bench_fig6"]
    # the repeat at 25 000 steps is the paper config's (docs/performance.md)
    assert [r["row"] for r in fig6] == ["l1", "l5", "l15", "l1_12k"]
    assert [r.get("level") for r in fig6[:3]] == [1.0, 5.0, 15.0] and fig6[3]["label"] == "repeat"
    assert [len(r["runs"]) for r in fig6] == [1, 1, 1, 2] and fig6[3]["runs"][0]["steps"] == 12000
    assert all(run in sheet.pinn for row in fig6 for run in row["runs"])
    (ss,) = sheet.rows["bench_seed_study"]
    assert [r["seed"] for r in ss["runs"]] == [0, 1, 2, 3]
    groups = {
        (g["structure"], g["record"], g["protocol"], g["steps"]): g["seeds"]
        for g in sheet.pinn_groups
        if not g["variant"]
    }
    # Table 3's (and Tables S5-S6's) seed 0 is in the seed-study batch
    assert groups[("x1", "taut_1pt", "top_node", 12000)] == [0, 1, 2, 3]
    assert groups[("prism30_zg", "series_l1", "four", 12000)] == [0, 1]
    assert [r["record"] for r in sheet.rows["bench_fig7"]] == ["taut_4pt", "slack_4pt"]


def test_the_paper_overlay_keeps_the_rows_the_default_leaves_to_it(repo, default_config):
    """What the default trims for time (docs/performance.md) the paper config runs."""
    cfg = copy.deepcopy(default_config)
    update_config(cfg, yaml.safe_load((repo / "config/paper.yaml").read_text()))
    paper, default = RunSheet(cfg), RunSheet(default_config)
    assert [r["row"] for r in paper.rows["bench_fig6"]][-1] == "l1_25k"
    assert paper.rows["bench_fig6"][-1]["runs"][0]["steps"] == 25000
    for rows in (paper.rows["fig4"], paper.rows["table6_pinn"]):
        assert {r["steps"] for r in rows} == {25000}
    for rows in (default.rows["fig4"], default.rows["table6_pinn"]):
        assert {r["steps"] for r in rows} == {12000}
    steps = {(r["treatment"], r["steps"]) for r in paper.pinn if r["record"] == "slack_1pt"}
    assert {("fb", 25000), ("event", 25000), ("smooth", 25000)} <= steps
    assert not any(r["steps"] > 12000 for r in default.pinn if not r["variant"])


@pytest.mark.parametrize(
    "patch, message",
    [
        (
            {"records": {"suite": {"prism30_zg": {"series_l5": {"amplitude_of": "nope"}}}}},
            "'records.suite.prism30_zg.series_l5.amplitude_of': 'nope' is not another record of 'prism30_zg'",
        ),
        (
            {"records": {"suite": {"prism30_zg": {"series_l5": {"amplitude_factor": 0.5}}}}},
            "'amplitude_of' takes the amplitude of record 'series_l1'; remove 'amplitude_factor'",
        ),
        (
            {"records": {"suite": {"prism30_zg": {"series_l5": {"amplitude_of": "series_l15"}}}}},
            "record 'series_l15' must have its own amplitude and the same forcing ('multi_harmonic')",
        ),
    ],
)
def test_amplitude_of_names_a_record_with_its_own_amplitude(repo, default_config, patch, message):
    cfg = copy.deepcopy(default_config)
    update_config(cfg, patch)
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_config(cfg, repo / "config/schema.yaml")


def test_the_specification_study_is_a_row_per_setting_and_record_over_the_seeds(
    default_config, repo, tmp_path
):
    from tensegrity_id.report.tables import SPEC_STUDY_COLUMNS, pinn_spec_table

    cfg = copy.deepcopy(default_config)
    records = [
        {"structure": "x1", "record": "taut_1pt", "protocol": "top_node"},
        {"structure": "x1", "record": "slack_1pt", "protocol": "top_node"},
    ]
    settings = {"default": {}, "geometric_torch": {"fourier": "geometric", "init": "torch"}}
    update_config(
        cfg,
        {
            "studies": {
                "pinn_spec_study": {"steps": 300, "seeds": [0, 1], "records": records, "settings": settings}
            }
        },
    )
    sheet = RunSheet(cfg)
    rows = sheet.rows["bench_pinn_spec_study"]
    assert [r["row"] for r in rows] == [
        "default__x1_taut_1pt",
        "default__x1_slack_1pt",
        "geometric_torch__x1_taut_1pt",
        "geometric_torch__x1_slack_1pt",
    ]
    assert [len(r["runs"]) for r in rows] == [2, 2, 2, 2] and rows[2]["label"] == "geometric_torch"
    assert (
        rows[0]["runs"][0]["variant"] == "" and rows[2]["runs"][1]["variant"] == "fouriergeometric_inittorch"
    )
    assert all(run in sheet.pinn for row in rows for run in row["runs"])
    # the table: one line per run, the overrides spelled out
    res = [
        [
            make_result(
                seed=k,
                errors={"sigma_max_pct": 1.0 + k, "c_pct": 2.0},
                reconstruction_pct=3.0,
                held_out_ratio=1.5,
                train_misfit_ratio=0.7,
                outcome="success",
                train_wall_s=9.0,
            )
            for k in (0, 1)
        ]
        for _ in rows
    ]
    labelled = [
        {**{k: v for k, v in r.items() if k != "runs"}, "overrides": r["runs"][0]["settings"]} for r in rows
    ]
    df = pinn_spec_table(labelled, res)
    assert list(df.columns) == SPEC_STUDY_COLUMNS and len(df) == 8
    assert df["overrides"].tolist()[::2] == ["(default)", "(default)", "fourier=geometric, init=torch"] + [
        "fourier=geometric, init=torch"
    ]
    assert df["sigma_max_pct"].tolist()[:2] == [1.0, 2.0] and df["seed"].tolist()[:2] == [0, 1]
    # the figure: a column of panels per record, the paper's Table 3 line where it has the row
    from tensegrity_id.report.plot_spec_study import plot_spec_study

    table3 = pd.read_csv(repo / "resources/published/table3.csv")
    out = tmp_path / "spec.png"
    plot_spec_study(df, table3, [out])
    assert out.stat().st_size > 20_000


def test_the_specification_studys_extra_rows_vary_what_is_not_a_network_setting(default_config):
    cfg = copy.deepcopy(default_config)
    case = {"structure": "x1", "record": "taut_1pt", "protocol": "top_node"}
    extra = [{"label": "one_sensor", "structure": "x1", "record": "taut_1pt", "protocol": "single"}]
    study = {"steps": 300, "seeds": [0], "records": [case], "settings": {"default": {}}, "extra": extra}
    update_config(cfg, {"studies": {"pinn_spec_study": study}})
    rows = RunSheet(cfg).rows["bench_pinn_spec_study"]
    assert [(r["row"], r["label"], r["protocol"]) for r in rows] == [
        ("default__x1_taut_1pt", "default", "top_node"),
        ("one_sensor__x1_taut_1pt", "one_sensor", "single"),
    ]
    assert rows[1]["runs"][0]["variant"] == ""
    cfg["studies"]["pinn_spec_study"]["extra"][0]["protocol"] = "nope"
    with pytest.raises(RunSheetError, match="pinn_spec_study.rows\\[1\\]': protocol 'nope'"):
        RunSheet(cfg)


def test_amplitude_of_a_two_coordinate_record_repeats_its_forcing():
    """A record at another prestress level takes the reference record's force: for the prism's
    two-coordinate drive (a multi-harmonic forcing) that is the set's largest amplitude, so the
    forcing built from it equals the reference's, coordinate by coordinate."""
    from tensegrity_id.data.records import resolve_amplitude

    spec = {
        "forcing": "multi_harmonic",
        "drive": [[3, 0], [3, 1]],
        "amplitudes": [1.0, 1.0],
        "frequencies": [1.0, 1.0],
        "amplitude_of": "series_l1",
    }
    reference = {"forcing": {"kind": "multi_harmonic", "coords": [9, 10], "amplitudes": [6.6442, 6.6442]}}
    amplitude, out, search = resolve_amplitude(None, spec, {"threshold": 0.5}, reference)
    assert amplitude == 6.6442 and search is None
    assert out["amplitude_factor"] == pytest.approx(6.6442 / 0.5, rel=1e-12)
    one = {"forcing": {"kind": "harmonic", "coords": [9], "amplitude": 12.61}}
    assert resolve_amplitude(None, {**spec, "forcing": "harmonic"}, None, one)[0] == 12.61


def test_the_specification_study_varies_its_readings_from_its_base_and_a_default_reading_is_the_default_run(
    default_config,
):
    """``base`` applies under every setting: the study keeps its reading whatever the default; a
    setting whose overrides equal the default settings is the default's run (no variant, no rerun)."""
    cfg = copy.deepcopy(default_config)
    update_config(cfg, {"identify": {"pinn": {"settings": {"fourier": "linear_pi", "init": "glorot"}}}})
    study = {
        "steps": 300,
        "seeds": [0],
        "base": {"fourier": "geometric", "init": "torch"},
        "records": [{"structure": "x1", "record": "taut_1pt", "protocol": "top_node"}],
        "settings": {
            "geometric_torch": {},
            "fourier_linear": {"fourier": "linear"},
            "linear_pi_glorot": {"fourier": "linear_pi", "init": "glorot"},
        },
        "extra": [{"label": "split_blocks", "structure": "x1", "record": "taut_1pt", "protocol": "top_node"}],
    }
    update_config(cfg, {"studies": {"pinn_spec_study": study}})
    sheet = RunSheet(cfg)
    runs = {r["label"]: r["runs"][0] for r in sheet.rows["bench_pinn_spec_study"]}
    assert runs["geometric_torch"]["settings"] == {"fourier": "geometric", "init": "torch"}
    assert runs["geometric_torch"]["variant"] == "fouriergeometric_inittorch"
    assert runs["fourier_linear"]["settings"] == {"fourier": "linear", "init": "torch"}
    assert runs["split_blocks"]["variant"] == "fouriergeometric_inittorch"
    # the base's own reading of the default: no overrides left, the default's run
    assert runs["linear_pi_glorot"]["settings"] == {} and runs["linear_pi_glorot"]["variant"] == ""
    # without a base the settings are overrides of the default, as before
    del cfg["studies"]["pinn_spec_study"]["base"]
    runs = {r["label"]: r["runs"][0] for r in RunSheet(cfg).rows["bench_pinn_spec_study"]}
    assert runs["fourier_linear"]["settings"] == {"fourier": "linear"}
    assert runs["geometric_torch"]["variant"] == ""


def test_a_named_variant_whose_overrides_are_all_the_default_is_refused(default_config):
    cfg = copy.deepcopy(default_config)
    row = {"structure": "x1", "records": ["taut_1pt"], "protocol": "top_node", "treatments": ["smooth"]}
    row |= {"steps": [300], "seeds": [0], "variant": "same", "settings": {"w_bar": 100.0}}
    update_config(cfg, {"identify": {"pinn": {"runs": [row]}}})
    with pytest.raises(RunSheetError, match="no 'settings' that differ from identify.pinn.settings"):
        RunSheet(cfg)
