"""Faults and output files: an unreadable PINN checkpoint is moved aside and training restarts;
every output writer is atomic and leaves the mode the umask asks for; the cluster plan says what it
needs when no benchmarks exist (tensegrity_id.data.runio, identify.pinn, report, workflow.cluster_plan)."""

import json
import logging
import os
import subprocess
import sys

import matplotlib
import numpy as np
import pandas as pd
import pytest
import torch
from result_records import make_result
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.runio import (
    atomic_path,
    save_figure,
    write_bytes,
    write_csv,
    write_json,
    write_npz,
    write_text,
)
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.base import RecordData
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer
from tensegrity_id.identify.pinn.outputs import write_run
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate
from tensegrity_id.report.tables import write_table
from tensegrity_id.workflow.cluster_plan import main as cluster_plan_main

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PROTOCOL = {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}


@pytest.fixture(scope="module")
def taut(x1):
    """X1 under a small harmonic drive (taut throughout), with two sensor channels."""
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 10.0, "frequency": 1.0}
    f = forcing_from_spec(x1, spec)
    rec = simulate(Dynamics(x1), f)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    return x1, RecordData(
        "r", f, noise_realization(sensor_data(x1, arrays, PROTOCOL), 0), arrays, rec.n_transitions
    )


def _trainer(taut, **kw):
    s, rd = taut
    return PINNTrainer(s, [rd], PINNSettings(**{"log_every": 0, **kw}), seeds=0, lambda0=s.bar_sigma)


@pytest.fixture
def umask():
    """``umask(mask)`` sets the process umask for the test; the old one comes back afterwards."""
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


# ---------------------------------------------------------------- checkpoints
def test_truncated_checkpoint_is_moved_aside_and_training_restarts(taut, tmp_path, caplog):
    ck = tmp_path / "batch.pt"
    _trainer(taut, steps=40, checkpoint_every=20).train(checkpoint=ck, until=20)
    good = ck.read_bytes()
    assert torch.load(ck, weights_only=False)["step"] == 20
    ck.write_bytes(good[: len(good) // 2])  # a job killed while the disk filled up

    again = _trainer(taut, steps=40, checkpoint_every=20)
    with caplog.at_level(logging.WARNING, logger="tensegrity_id.identify.pinn.trainer"):
        again.train(checkpoint=ck, until=1)
    assert again.step == 1  # from scratch: a resumed batch would stand at step 20
    aside = tmp_path / "batch.pt.corrupt"
    assert aside.read_bytes() == good[: len(good) // 2]
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(lines) == 1 and str(ck) in lines[0] and str(aside) in lines[0], lines
    assert "training from scratch" in lines[0] and "\n" not in lines[0]
    # the run wrote a fresh, readable checkpoint of its own
    assert torch.load(ck, weights_only=False)["step"] == 1


def test_checkpoint_that_is_not_a_checkpoint_is_moved_aside(taut, tmp_path, caplog):
    ck = tmp_path / "batch.pt"
    ck.write_bytes(b"not a zip archive at all")
    tr = _trainer(taut, steps=10)
    with caplog.at_level(logging.WARNING, logger="tensegrity_id.identify.pinn.trainer"):
        assert tr.try_resume(ck, tr.fingerprint()) is False
    assert not ck.exists() and (tmp_path / "batch.pt.corrupt").read_bytes() == b"not a zip archive at all"
    assert any(str(ck) in r.getMessage() for r in caplog.records)


def test_checkpoint_write_is_atomic(taut, tmp_path):
    """A failure while pickling the state leaves the previous checkpoint as it was, and no temporary."""
    ck = tmp_path / "batch.pt"
    tr = _trainer(taut, steps=10)
    tr.save_checkpoint(ck, "fp")
    before = ck.read_bytes()
    tr.state_dict = lambda: {"unpicklable": lambda: None}
    with pytest.raises(Exception, match="pickle|lambda"):
        tr.save_checkpoint(ck, "fp")
    assert ck.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["batch.pt"]


# ---------------------------------------------------------------- file writers
def _figure():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [1, 0])
    return fig


def _write_all(folder, taut=None) -> list:
    """Every kind of output file, written once each into ``folder``; returns their paths."""
    df = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]})
    write_text(folder / "t.txt", "text\n")
    write_bytes(folder / "b.bin", b"\x00\x01")
    write_json(folder / "j.json", {"a": 1})
    write_npz(folder / "n.npz", x=np.arange(3))
    write_csv(df, folder / "c.csv", index=False)
    write_table(df, folder / "table.csv", folder / "table.md", title="T", note="A note.")
    fig = _figure()
    save_figure(fig, [folder / "f.png", folder / "f.pdf"], dpi=50)
    plt.close(fig)
    result = make_result(history=[{"step": 10, "L_total": 0.5}])
    write_run(result, folder / "run.json", folder / "run_history.csv", folder / "run_series.npz")
    with atomic_path(folder / "raw.npz") as tmp:
        np.savez(tmp, x=np.arange(2))
    paths = [
        "t.txt",
        "b.bin",
        "j.json",
        "n.npz",
        "c.csv",
        "table.csv",
        "table.md",
        "f.png",
        "f.pdf",
        "run.json",
        "run_history.csv",
        "run_series.npz",
        "raw.npz",
    ]
    if taut is not None:
        _trainer(taut, steps=10).save_checkpoint(folder / "ck.pt", "fp")
        paths.append("ck.pt")
    return [folder / p for p in paths]


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_every_writer_leaves_the_mode_of_the_umask(taut, tmp_path, umask, mask, mode):
    umask(mask)
    paths = _write_all(tmp_path, taut)
    modes = {p.name: oct(p.stat().st_mode & 0o777) for p in paths}
    assert modes == {p.name: oct(mode) for p in paths}
    # nothing but the outputs: no temporary left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)


def test_writers_write_what_the_plain_calls_wrote(tmp_path):
    """The atomic writers change where bytes go first, not the bytes (figures: the format)."""
    df = pd.DataFrame({"a": [1, 2], "b": [0.5, float("nan")], "c": ["x|y", "z"]})
    write_table(df, tmp_path / "t.csv", tmp_path / "t.md", title="Table", note="Note.")
    assert (tmp_path / "t.csv").read_text() == df.to_csv(index=False)
    md = (tmp_path / "t.md").read_text()
    assert md.startswith("# Table\n\n| a | b | c |\n|---|---|---|\n| 1 | 0.5 | x\\|y |\n")
    assert md.endswith(" |\n\nNote.\n")
    write_json(tmp_path / "j.json", {"a": [1, 2]})
    assert (tmp_path / "j.json").read_text() == json.dumps({"a": [1, 2]}, indent=1) + "\n"
    fig = _figure()
    save_figure(fig, [tmp_path / "f.png", str(tmp_path / "f.pdf")], dpi=50)
    plt.close(fig)
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "f.pdf").read_bytes()[:5] == b"%PDF-"


def _fail_json(path):
    write_json(path, {"a": 1, "b": object()})  # json.dump has written '{"a": 1, "b": ' by then


def _fail_csv(path):
    class Boom(pd.DataFrame):
        def to_csv(self, path_or_buf=None, **kw):
            with open(path_or_buf, "w") as fh:
                fh.write("a,b\n1,")
            raise OSError("disk full")

    write_csv(Boom({"a": [1]}), path, index=False)


def _fail_figure(path):
    fig = _figure()
    fig.axes[0].set_title(r"$\frac{1$")  # mathtext fails while the figure is drawn into the file
    try:
        save_figure(fig, [path])
    finally:
        plt.close(fig)


def _fail_npz(path):
    with atomic_path(path) as tmp:
        np.savez(tmp, x=np.arange(3))
        raise KeyboardInterrupt  # a job killed between write and rename


@pytest.mark.parametrize(
    "name, fail, error",
    [
        ("j.json", _fail_json, TypeError),
        ("c.csv", _fail_csv, OSError),
        ("f.png", _fail_figure, ValueError),
        ("f.pdf", _fail_figure, ValueError),
        ("n.npz", _fail_npz, KeyboardInterrupt),
    ],
)
def test_a_failed_write_leaves_the_previous_file_and_no_partial_one(tmp_path, name, fail, error):
    path = tmp_path / name
    path.write_bytes(b"previous complete file")
    with pytest.raises(error):
        fail(path)
    assert path.read_bytes() == b"previous complete file"
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_failed_first_write_leaves_no_file(tmp_path):
    with pytest.raises(TypeError):
        _fail_json(tmp_path / "sub" / "j.json")
    assert list((tmp_path / "sub").iterdir()) == []


# ---------------------------------------------------------------- cluster plan
def test_cluster_plan_without_benchmarks_says_what_it_needs(tmp_path, capsys):
    empty = tmp_path / "benchmarks"
    empty.mkdir()
    (empty / "notes.txt").write_text("no timings here")
    for root in (tmp_path / "missing", empty):
        assert cluster_plan_main(["--configfile", "config/paper.yaml", "--benchmarks", str(root)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1, lines
        assert "no benchmark timings" in lines[0] and f"{root.resolve()}/" in lines[0]
        assert "*.tsv" in lines[0] and "default configuration" in lines[0]


def test_cluster_plan_module_exits_non_zero_without_benchmarks(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "tensegrity_id.workflow.cluster_plan", "--configfile", "config/paper.yaml"],
        cwd=tmp_path,  # no benchmarks/ here
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "no benchmark timings" in proc.stderr and str((tmp_path / "benchmarks").resolve()) in proc.stderr
    assert "Traceback" not in proc.stderr
