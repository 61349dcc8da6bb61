"""The config by stage: ten top-level keys, old flat files refused with their new keys, or converted."""

import copy
import subprocess
import sys

import pytest
import yaml
from snakemake.utils import update_config
from tensegrity_id.workflow.config_check import ConfigError, check_config
from tensegrity_id.workflow.config_layout import MOVES, TOP_LEVEL, convert, old_keys

FLAT = """
build: [x1]
table_s3: {structures: [x1]}
figures:
  fig4: [{structure: x1, record: taut_1pt, protocol: top_node, treatment: smooth, steps: 300, seed: 0}]
  energy_balance: [{structure: x1, record: slack_1pt}]
records:
  x1: {taut_1pt_elastic: null, impulse_1pt: null}
protocols:
  x1: {top_node: {noise: 0.02}}
table_s5: {steps: 300}
table_s5_baselines: {methods: [ukf]}
silent_failures: {table: table4}
measured_peaks: {p: {file: resources/records/x1_peaks_simulated.csv, structure: x1}}
measured: {}
scorecard: {claims: resources/published/claims.yaml}
"""


@pytest.fixture
def default_config(repo):
    return yaml.safe_load((repo / "config/config.yaml").read_text())


def test_the_shipped_configs_have_at_most_ten_top_level_keys_in_stage_order(repo):
    assert len(TOP_LEVEL) == 10
    shipped = sorted(p.stem for p in (repo / "config").glob("*.yaml") if p.stem != "schema")
    assert {
        "config",
        "test",
        "paper",
        "example_measured",
        "pinn_linear_pi_glorot",
        "pinn_geometric_torch",
    } <= set(shipped)
    for name in shipped:
        keys = list(yaml.safe_load((repo / f"config/{name}.yaml").read_text()))
        assert keys == [k for k in TOP_LEVEL if k in keys], name
    schema = yaml.safe_load((repo / "config/schema.yaml").read_text())
    assert list(schema["properties"]) == list(TOP_LEVEL)


def test_a_flat_config_is_refused_naming_each_moved_key(repo, default_config):
    cfg = copy.deepcopy(default_config)
    flat = yaml.safe_load(FLAT)
    cfg.update({k: v for k, v in flat.items() if k not in ("build", "records", "measured")})
    with pytest.raises(ConfigError) as err:
        check_config(cfg, repo / "config/schema.yaml")
    text = str(err.value)
    for line in (
        "'table_s3' is now 'studies.tableS3'",
        "'figures.fig4' is now 'studies.fig4'",
        "'measured_peaks' is now 'measured.peaks'",
        "'scorecard' is now 'report.scorecard'",
    ):
        assert line in text
    assert "python -m tensegrity_id.workflow.config_layout OLD.yaml > NEW.yaml" in text
    assert old_keys(default_config) == []  # the shipped layout is not mistaken for the flat one


def test_the_conversion_moves_every_key_and_turns_null_records_into_omit():
    new = convert(yaml.safe_load(FLAT))
    assert list(new) == ["build", "records", "studies", "measured", "report"]
    assert new["records"] == {
        "omit": {"x1": ["taut_1pt_elastic", "impulse_1pt"]},
        "protocols": {"x1": {"top_node": {"noise": 0.02}}},
    }
    st = new["studies"]
    assert st["tableS3"] == {"structures": ["x1"]} and st["figS4"][0]["record"] == "slack_1pt"
    assert st["tableS5"] == {"steps": 300, "baselines": {"methods": ["ukf"]}}
    assert st["silent_failures"] == {"table": "table4"} and st["fig4"][0]["steps"] == 300
    assert new["measured"] == {
        "peaks": {"p": {"file": "resources/records/x1_peaks_simulated.csv", "structure": "x1"}},
        "records": {},
    }
    assert convert(new) == new  # already converted: unchanged
    assert {new_key.split(".")[0] for _, new_key in MOVES} <= set(TOP_LEVEL)


def test_a_converted_flat_overlay_runs_as_the_new_one(repo, default_config, tmp_path):
    flat = tmp_path / "flat.yaml"
    flat.write_text(FLAT)
    out = subprocess.run(
        [sys.executable, "-m", "tensegrity_id.workflow.config_layout", str(flat)],
        capture_output=True,
        text=True,
        check=True,
        cwd=repo,
    ).stdout
    overlay = yaml.safe_load(out)
    cfg = copy.deepcopy(default_config)
    update_config(cfg, overlay)
    # the omitted records are still read by the default's Table S5 rows: said, naming the row
    with pytest.raises(ConfigError, match=r"'studies.tableS5.rows\[4\]': record 'taut_1pt_elastic'"):
        check_config(cfg, repo / "config/schema.yaml")
    cfg = copy.deepcopy(default_config)
    update_config(cfg, {**overlay, "records": {"protocols": overlay["records"]["protocols"]}})
    sheet = check_config(cfg, repo / "config/schema.yaml")
    assert sheet.built == ["x1"] and cfg["records"]["protocols"]["x1"]["top_node"]["noise"] == 0.02
    assert sheet.rows["tableS3"] == ["x1"] and len(sheet.rows["fig4"]) == 1


def test_an_omitted_record_must_be_a_suite_record(repo, default_config):
    cfg = copy.deepcopy(default_config)
    update_config(cfg, {"records": {"omit": {"x1": ["taut_1pt_elastc"]}}})
    with pytest.raises(ConfigError, match=r"'records.omit.x1\[0\]': 'taut_1pt_elastc' is not a record"):
        check_config(cfg, repo / "config/schema.yaml")


def test_build_is_the_whole_truth(repo, default_config):
    """A study's structures outside build are out of scope, as every other section's rows."""
    cfg = copy.deepcopy(default_config)
    update_config(cfg, {"build": ["x1", "t3_prism"]})
    sheet = check_config(cfg, repo / "config/schema.yaml")
    assert sheet.structures == ["x1", "t3_prism"] and sheet.rows["tableS3"] == ["x1", "t3_prism"]
    assert sheet.rows["fig1"] == ["x1"] and {r["structure"] for r in sheet.records} == {"x1"}
    update_config(cfg, {"studies": {"fig1": {"structures": ["x1", "nope"]}}})
    with pytest.raises(ConfigError, match=r"'studies.fig1.structures\[1\]': structure 'nope' is not defined"):
        check_config(cfg, repo / "config/schema.yaml")
