"""Every mistake a user can make with a record, a config or a structure file: one line, before any job.

Each case is a bad input as a user would make it.  The start-up check
(:func:`tensegrity_id.workflow.config_check.check_config`, what the
Snakefile runs before it builds the DAG) must refuse it with one line naming
the file, row, column or key, and write nothing.  The cases of faults and
files (a truncated checkpoint, atomic writes, file modes, the cluster plan
without benchmarks) are in ``test_faults_and_files.py``.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from snakemake.utils import update_config
from tensegrity_id.mechanics.structure_io import StructureFileError, load_structure
from tensegrity_id.workflow.config_check import ConfigError, ConfigWarning, check_config
from tensegrity_id.workflow.config_files import ConfigFileError, read_config_file
from tensegrity_id.workflow.paths import PATHS, result_path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "resources/records/x1_shaker_simulated.csv"
"""The shipped example record of structure 'my_frame' (simulated; config/example_measured.yaml)."""


@pytest.fixture(scope="module")
def example() -> pd.DataFrame:
    return pd.read_csv(EXAMPLE, comment="#")


def _config(measured: dict | None = None, **top) -> dict:
    """The default config with the example's structure and the given measured records (no peak lists)."""
    cfg = yaml.safe_load((REPO / "config/config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config/example_measured.yaml").read_text()))
    cfg["measured"] = {"records": measured if measured is not None else {}, "peaks": {}}
    cfg.update(top)
    return cfg


def _entry(path, **extra) -> dict:
    return {"rec": {"file": str(path), "structure": "my_frame", "methods": ["lm_shooting"], **extra}}


def _snapshot(*dirs) -> set:
    return {p for d in dirs for p in Path(d).rglob("*")}


def refused(cfg: dict, field: str, *texts: str, folder=None) -> str:
    """The start-up check refuses ``cfg`` naming ``field``, in one line, writing nothing."""
    before = _snapshot(*(d for d in (folder,) if d))
    results_existed = (REPO / "results").exists()
    with pytest.raises(ConfigError) as err:
        check_config(cfg, REPO / "config/schema.yaml")
    msg = str(err.value)
    assert "\n" not in msg, msg
    assert msg.startswith(f"config field '{field}'"), msg
    for text in texts:
        assert re.search(text, msg), (text, msg)
    if folder is not None:
        assert _snapshot(folder) == before  # nothing written beside the inputs
    assert (REPO / "results").exists() == results_existed
    return msg


def _csv(df: pd.DataFrame, path: Path, *, prefix: str = "") -> Path:
    path.write_text(prefix + df.to_csv(index=False), encoding="utf-8")
    return path


# ------------------------------------------------------------------ measured records
def test_1_a_gzip_file_named_csv_and_a_latin1_line_are_named_not_utf8(example, tmp_path):
    raw = example.to_csv(index=False).encode()
    gz = tmp_path / "rec.csv"
    gz.write_bytes(gzip.compress(raw))
    refused(
        _config(_entry(gz)),
        "measured.records.rec.file",
        r"rec\.csv: not a UTF-8 text file \(a gzip archive\)",
    )
    latin = tmp_path / "latin.csv"
    latin.write_bytes("# essai à Grenoble\n".encode("latin-1") + raw)
    refused(
        _config(_entry(latin)),
        "measured.records.rec.file",
        r"latin\.csv: not a UTF-8 text file \(line 1: byte 0xe0",
    )
    # compressed under its own name, it is read
    ok = tmp_path / "rec2.csv.gz"
    ok.write_bytes(gzip.compress(raw))
    check_config(_config(_entry(ok)), REPO / "config/schema.yaml")


def test_2_a_utf8_byte_order_mark_is_accepted(example, tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + example.to_csv(index=False).encode())
    check_config(_config(_entry(path)), REPO / "config/schema.yaml")


@pytest.mark.parametrize(
    "slip, text",
    [
        ("acc_mm", r"accelerations are 1\.\d+e\+03 x the design model's .* in mm/s\^2 or the force in kN"),
        ("force_kN", r"accelerations are 1\.\d+e\+03 x the design model's .* in mm/s\^2 or the force in kN"),
        ("time_ms", r"sampled at 0\.1 Hz .* Is the time in ms\?"),
        ("spike", r"sample at t = 3 s of 'force:1:y' \(1e\+12 N\) carries 100 % .* a corrupt sample\?"),
    ],
)
def test_3_unit_slips_are_named_at_start_up(example, tmp_path, slip, text):
    df = example.copy()
    acc = [c for c in df.columns if c.startswith("acc")]
    if slip == "acc_mm":
        df[acc] *= 1000.0
    elif slip == "force_kN":
        df["force:1:y"] /= 1000.0
    elif slip == "time_ms":
        df["time"] *= 1000.0
    else:
        df.loc[300, "force:1:y"] = 1e12
    path = _csv(df, tmp_path / f"{slip}.csv")
    refused(_config(_entry(path)), "measured.records.rec.file", text, folder=tmp_path)


def test_3_the_shipped_records_pass_the_unit_screen_near_one():
    from tensegrity_id.data.measured import measured_record
    from tensegrity_id.data.record_csv import read_record
    from tensegrity_id.mechanics.catalog import build_structure

    design = build_structure("my_frame", _config()["structures"]["my_frame"])
    for name in ("x1_shaker_simulated.csv", "x1_shaker_miscalibrated_simulated.csv"):
        rec = read_record(REPO / "resources/records" / name, design)
        screen = measured_record(design, rec, {}, name="x")["meta"]["unit_screen"]
        assert 0.5 < screen["ratio"] < 2.0  # 1.34 and 1.60: the screen flags factors of 100, slips are 1000
        assert screen["fs_hz"] == pytest.approx(100.0) and screen["f1_hz"] > 1.0


def test_3_an_assessment_of_a_fit_failure_says_it_is_one(x1):
    from result_records import make_result
    from tensegrity_id.analysis.assessment import assess_identified
    from tensegrity_id.report.measured_summary import method_summary, summary_table
    from tensegrity_id.results.assessment import DesignVerdict
    from tensegrity_id.results.screening import ChannelScreen, MeasuredSummary, ScreeningDigest

    result = make_result(
        method="lm_shooting",
        identified={"sigma": list(np.asarray(x1.sigma) * 2.0), "c": 1.0},
        exact=None,
        resimulation_chi2=4.0e5,
        spurious_minimum=True,
        held_out_excess_pct=95.0,
    ).to_json()  # as the rules read it, from its file
    members = {f"sigma_{k}": "determinable" for k in range(x1.n_cables)}
    screening = ChannelScreen(
        theta=[*x1.sigma, 1.0],
        names=[*members, "c"],
        condition_identifiable=10.0,
        lambda_min_identifiable=1.0,
        null_members=[],
        crlb_relative={},
        crlb_max_pct=1.0,
        crlb_max_parameter="c",
        weak_pct=10.0,
        members=members,
        point="nominal",
    )
    assessment = assess_identified(x1, [result], screening).methods["lm_shooting"]
    m = method_summary([result], assessment)
    assert m.fit_failure is True
    good = {**result, "spurious_minimum": False, "held_out_excess_pct": 0.5}
    assert method_summary([good], assessment).fit_failure is False

    summary = MeasuredSummary(
        structure="x1",
        record="r",
        source={},
        channels=[],
        noise_std=[],
        noise_method="stated",
        screening=ScreeningDigest(members, {}, 10.0, []),
        design=DesignVerdict(class_="stable", margin=1.0, sigma=list(x1.sigma)),
        methods=[m],
    )
    row = summary_table(summary).iloc[-1 if m.seed_scatter_relative is None else -2]
    cls = summary_table(summary).set_index("row").loc["lm_shooting (seeds 0)", "class"]
    assert cls.endswith("(fit failure: not an assessment of the structure)"), (cls, row)


def test_4_a_value_beyond_any_measurement_is_named_by_row_and_column(example, tmp_path):
    df = example.copy()
    df.loc[300, "force:1:y"] = 1e300
    path = _csv(df, tmp_path / "huge.csv", prefix="# two comment lines\n# before the header\n")
    refused(
        _config(_entry(path)),
        "measured.records.rec.file",
        r"huge\.csv: row 304, column 'force:1:y': 1e\+300 is beyond any measured value",
        folder=tmp_path,
    )


def test_5_a_dead_channel_and_a_zero_noise_estimate_are_refused_naming_the_channel(example, tmp_path):
    df = example.copy()
    df["acc:3:x"] = 0.0
    refused(
        _config(_entry(_csv(df, tmp_path / "dead.csv"))),
        "measured.records.rec.file",
        r"column 'acc:3:x' holds one value \(0\) throughout: a dead channel",
    )
    q = example.copy()
    q["acc:3:x"] = np.round(q["acc:3:x"], 0)  # quantised to 1 m/s^2: its fourth difference is mostly 0
    refused(
        _config(_entry(_csv(q, tmp_path / "quantised.csv"))),
        "measured.records.rec.noise",
        r"noise of channel 'acc:3:x' estimates to 0 .* noise: \{acc:3:x:",
    )


def test_6_a_record_in_motion_and_one_without_accelerations_are_found_at_start_up(example, tmp_path):
    late = example[example["time"] >= 1.0]  # starts in the middle of the shaking
    refused(
        _config(_entry(_csv(late, tmp_path / "late.csv"))),
        "measured.records.rec.file",
        r"does not start at rest in the prestressed equilibrium",
    )
    no_acc = example[["time", "force:1:y"]]
    refused(
        _config(_entry(_csv(no_acc, tmp_path / "noacc.csv"))),
        "measured.records.rec.file",
        r"no 'acc:\{node\}:\{axis\}' column",
    )


def test_7_columns_are_named_as_the_file_writes_them(example, tmp_path):
    df = example.rename(columns={"acc:1:x": "acc:1:0", "acc:3:x": "acc:3:0"})
    df["acc:1:0"] = df["acc:1:0"].astype(object)
    df.loc[10, "acc:1:0"] = "n/a"
    refused(
        _config(_entry(_csv(df, tmp_path / "numeric_axes.csv"))),
        "measured.records.rec.file",
        r"row 12, column 'acc:1:0': 'n/a' is not a finite number",
    )
    dead = example.rename(columns={"acc:3:x": "acc:3:0"})
    dead["acc:3:0"] = 0.0
    refused(
        _config(_entry(_csv(dead, tmp_path / "dead0.csv"))),
        "measured.records.rec.file",
        r"column 'acc:3:0' holds",
    )
    ok = _csv(example.rename(columns={"acc:3:x": "acc:3:0"}), tmp_path / "ok.csv")
    refused(
        _config(_entry(ok, noise={"acc:9:0": 0.1})),
        "measured.records.rec.noise.acc:9:0",
        r"acc:1:x, acc:1:y, acc:3:0",
    )
    check_config(_config(_entry(ok, noise={"acc:3:0": 0.05})), REPO / "config/schema.yaml")


# ------------------------------------------------------------------------- UFF-58
def _uff(path, df):
    pyuff = pytest.importorskip("pyuff")
    u = pyuff.UFF(str(path))
    for col in df.columns[1:]:
        kind, node, axis = col.split(":")
        u.write_sets(
            pyuff.prepare_58(
                func_type=1,
                rsp_node=int(node),
                rsp_dir="xyz".index(axis) + 1,
                ref_node=1,
                ref_dir=2,
                ordinate_spec_data_type={"force": 13, "acc": 12}[kind],
                orddenom_spec_data_type=0,
                abscissa_spec_data_type=17,
                abscissa_spacing=1,
                x=df["time"].to_numpy(),
                data=df[col].to_numpy(),
                id1="bad-input test",
            ),
            mode="add",
        )
    return path


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_8_a_truncated_uff_file_is_said_to_be_truncated(example, tmp_path, keep):
    whole = _uff(tmp_path / "whole.uff", example)
    check_config(_config(_entry(whole)), REPO / "config/schema.yaml")
    raw = whole.read_bytes()
    cut = tmp_path / "cut.uff"
    cut.write_bytes(raw[: int(keep * len(raw))])
    refused(_config(_entry(cut)), "measured.records.rec.file", r"cut\.uff: .*truncated")


def test_8_a_csv_named_unv_is_not_a_uff_file(example, tmp_path):
    path = _csv(example, tmp_path / "rec.unv")
    refused(_config(_entry(path)), "measured.records.rec.file", r"rec\.unv: not a UFF file")


# --------------------------------------------------------------------------- config
def _snakemake_n(work, *args):
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", *args],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_9_a_measured_record_may_share_a_simulated_records_name_on_another_structure(tmp_path, copy_workflow):
    """Record names are per structure: 'taut_1pt' measured on my_frame beside x1's simulated one."""
    work = copy_workflow(tmp_path / "wf", extra=("profiles",))
    extra = work / "extra.yaml"
    extra.write_text(
        yaml.safe_dump(
            {
                "build": ["x1", "my_frame"],
                "measured": {
                    "records": {
                        "taut_1pt": {
                            "file": "resources/records/x1_shaker_simulated.csv",
                            "structure": "my_frame",
                            "methods": ["lm_shooting"],
                        }
                    }
                },
            }
        )
    )
    targets = ["results/records/x1/taut_1pt.npz", "results/measured/my_frame/taut_1pt/summary.md"]
    out = _snakemake_n(work, *targets, "--configfile", "config/example_measured.yaml", str(extra))
    assert out.returncode == 0, out.stderr[-2000:]
    log = out.stdout + out.stderr
    assert re.search(r"rule simulate_record:\n(.*\n)*?\s+wildcards: structure=x1, record=taut_1pt", log)
    assert re.search(
        r"rule import_measured_record:\n(.*\n)*?\s+wildcards: structure=my_frame, record=taut_1pt", log
    )
    assert not (work / "results").exists()


def test_10_users_outputs_sit_where_no_study_output_can_collide():
    summary = result_path("measured_summary", ".csv", structure="my_frame", record="validation")
    assert summary == "results/measured/my_frame/validation/summary.csv"
    study = [t for k, t in PATHS.items() if not k.startswith("measured") and k != "peaks"]
    assert not any(t.startswith("measured/") for t in study)
    assert result_path("peaks", ".json", structure="my_frame", name="validation").startswith(
        "results/measured/"
    )


def test_11_a_repeated_key_is_named_with_its_lines(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("build: [x1]\nidentify:\n  pinn:\n    steps: 10\n  pinn:\n    steps: 20\n")
    with pytest.raises(
        ConfigFileError, match=r"dup\.yaml': key 'pinn' is given twice in one mapping \(lines 3 and 5\)"
    ):
        read_config_file(path)


def test_12_an_empty_seed_list_is_refused():
    cfg = _config()
    cfg["identify"]["baselines"]["seeds"] = []
    refused(cfg, "identify.baselines.seeds", r"should be non-empty")


def test_13_a_measured_entry_of_an_unbuilt_structure_is_said(tmp_path):
    cfg = _config({"rec": {"file": str(EXAMPLE), "structure": "x1"}})
    with pytest.warns(
        ConfigWarning, match=r"config field 'measured\.records\.rec': structure 'x1' is not in 'build'"
    ):
        check_config(cfg, REPO / "config/schema.yaml")


def test_14_a_yaml_syntax_error_names_file_line_and_column(tmp_path):
    path = tmp_path / "syntax.yaml"
    path.write_text("build: [x1\nseeds: 3\n")
    with pytest.raises(ConfigFileError, match=r"syntax\.yaml', line 2, column 6: not valid YAML"):
        read_config_file(path)
    out = subprocess.run(
        [sys.executable, "-m", "tensegrity_id.workflow.config_files", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "line 2, column 6" in out.stderr


@pytest.mark.slow
def test_11_14_the_snakefile_reads_config_files_strictly(tmp_path, copy_workflow):
    """The default config with a YAML error, and an extra config with a repeated key: one line each."""
    work = copy_workflow(tmp_path / "wf", extra=("profiles",))
    (work / "dup.yaml").write_text("build: [x1]\nbuild: [x2]\n")
    out = _snakemake_n(work, "--configfile", "dup.yaml")
    assert out.returncode != 0
    twice = r"Error: config file '\S*dup\.yaml': key 'build' is given twice in one mapping \(lines 1 and 2\)"
    assert re.search(twice, out.stderr)
    cfg = work / "config/config.yaml"
    cfg.write_text(cfg.read_text().replace("build:", "build: [", 1))
    out = _snakemake_n(work)
    assert out.returncode != 0
    assert re.search(
        r"Error: config file 'config/config\.yaml', line \d+, column \d+: not valid YAML", out.stderr
    )
    assert not (work / "results").exists()


def test_15_lm_starts_are_typed(tmp_path):
    refused(
        _config(_entry(EXAMPLE, starts=[["a", 10.0]])),
        "measured.records.rec.starts[0][0]",
        r"'a' is not of type 'number'",
    )


def test_16_an_at_rest_window_longer_than_the_record_blames_the_setting():
    refused(
        _config(_entry(EXAMPLE, at_rest={"window_s": 100.0})),
        "measured.records.rec.at_rest.window_s",
        r"100 s is more than half of the record",
    )


# ------------------------------------------------------------------ structure files
def _structure_file(tmp_path, edit) -> Path:
    doc = yaml.safe_load((REPO / "resources/structures/example_x1.yaml").read_text())
    edit(doc)
    path = tmp_path / "frame.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_17_coincident_unconnected_nodes_are_named(tmp_path):
    def dup(doc):
        doc["nodes"].append(list(doc["nodes"][2]))
        doc["cables"].append([len(doc["nodes"]) - 1, 1])

    path = _structure_file(tmp_path, dup)
    with pytest.raises(StructureFileError, match=r"structure 'example_x1': nodes 2 and 4 coincide"):
        load_structure(path)
    cfg = _config()
    cfg["structures"]["my_frame"]["file"] = str(path)
    refused(cfg, "structures.my_frame.file", r"nodes 2 and 4 coincide")


def test_18_a_massless_bar_is_refused_at_load(tmp_path):
    path = _structure_file(tmp_path, lambda doc: doc.update(bar_density=0.0))
    with pytest.raises(StructureFileError, match=r"structure 'example_x1': bar_density\[0\] must be > 0"):
        load_structure(path)


# -------------------------------------------------------------------------- files
def test_22_no_file_content_is_echoed(tmp_path):
    secret = tmp_path / "not_a_record.csv"
    secret.write_text("root:S3CR3T-HASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n")
    msg = refused(
        _config(_entry(secret)), "measured.records.rec.file", r"the first row is not a record header"
    )
    assert "S3CR3T" not in msg and "daemon" not in msg


def test_23_a_file_name_with_braces_is_refused(example, tmp_path):
    path = _csv(example, tmp_path / "rec_{date}.csv")
    refused(
        _config(_entry(path)),
        "measured.records.rec.file",
        r"contains a brace, which Snakemake reads as a wildcard",
    )
