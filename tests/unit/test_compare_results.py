"""tests/compare_results.py: two results/ trees compared by type, timing fields ignored, exit codes."""

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread, imsave

SCRIPT = Path(__file__).resolve().parents[1] / "compare_results.py"


def _load_script():
    """The script as a module (it is not part of a package)."""
    spec = importlib.util.spec_from_file_location("compare_results", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


cr = _load_script()

SIGMA = [1.0, 2.5, float("nan"), 0.1 + 0.2, -3.0]


def _make_tree(root: Path) -> Path:
    """A small synthetic results/ tree with one file of each type, plus files that must be skipped."""
    (root / "values").mkdir(parents=True)
    (root / "tables").mkdir()
    (root / "figures").mkdir()
    (root / "sensors").mkdir()
    (root / "checkpoints").mkdir()
    doc = {
        "structure": "x1",
        "errors": {"sigma_pct": SIGMA, "c": 0.5},
        "wall_s": 1.25,
        "timing": {"train_wall_s": 3.0, "steps_per_s": 100.0, "fit_seconds": 9.0},
        "runs": [{"seed": 1, "elapsed": 2.0, "ok": True}],
    }
    (root / "values" / "fit.json").write_text(json.dumps(doc, indent=1))
    table = pd.DataFrame(
        {"method": ["lm", "ukf", "pf"], "sigma_err": [0.1, float("nan"), 0.3], "wall_s": [1, 2, 3]}
    )
    table.to_csv(root / "tables" / "table2.csv", index=False)
    np.savez(
        root / "sensors" / "s.npz",
        y=np.linspace(0.0, 1.0, 7),
        nan=np.array([np.nan, 1.0]),
        names=np.array(["a", "b"]),
        k=np.arange(4, dtype=np.int32),
    )
    pixels = np.zeros((8, 10, 3), dtype=np.uint8)
    pixels[2:5, 3:7] = (200, 30, 10)
    imsave(root / "figures" / "fig.png", pixels)
    (root / "figures" / "fig.pdf").write_bytes(b"%PDF-1.4\n/CreationDate (D:20240101)\n%%EOF\n")
    (root / "tables" / "table2.md").write_text(
        "| method | err | wall_s |\n|---|---|---|\n| lm | 0.1 | 1.2 |\n"
    )
    (root / "checkpoints" / "model.pt").write_bytes(b"weights-old")
    (root / ".snakemake_timestamp").write_text("1")
    return root


@pytest.fixture
def trees(tmp_path):
    """Two identical synthetic trees (OLD, NEW)."""
    old = _make_tree(tmp_path / "old" / "results")
    new = tmp_path / "new" / "results"
    shutil.copytree(old, new)
    return old, new


def _edit_json(path: Path, edit) -> None:
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc, indent=1))


def _only(report, status):
    return [r for r in report.files if r.status == status]


def test_identical_trees_compare_equal(trees, capsys):
    old, new = trees
    # skipped: checkpoints, hidden and temporary files, on either side
    (new / "checkpoints" / "model.pt").write_bytes(b"weights-new")
    (new / "checkpoints" / "extra.pt").write_bytes(b"x")
    (new / "values" / "fit.json~").write_text("junk")
    (new / ".hidden.json").write_text("{}")
    report = cr.compare_trees(old, new)
    assert report.ok and report.exit_code() == 0
    assert {r.path for r in report.files} == {
        "values/fit.json",
        "tables/table2.csv",
        "tables/table2.md",
        "sensors/s.npz",
        "figures/fig.png",
        "figures/fig.pdf",
    }
    assert all(r.status == "equal" and not r.ignored_only for r in report.files)
    counts = report.counts()
    for t in ("json", "csv", "npz", "png", "md", "pdf"):
        assert counts[t]["equal"] == 1
    assert cr.main([str(old), str(new)]) == 0
    out = capsys.readouterr().out
    assert "RESULT: IDENTICAL (exit 0)" in out and "*_wall_s" in out


def test_json_timing_fields_ignored(trees):
    old, new = trees

    def edit(doc):
        doc["wall_s"] = 99.0
        doc["timing"].update(train_wall_s=7.0, steps_per_s=1.0, fit_seconds=0.0)
        doc["runs"][0]["elapsed"] = 5.0

    _edit_json(new / "values" / "fit.json", edit)
    report = cr.compare_trees(old, new)
    (fit,) = [r for r in report.files if r.path == "values/fit.json"]
    assert fit.status == "equal" and fit.ignored_only
    assert report.exit_code() == 0


def test_json_last_bit_float_reported_with_path(trees, capsys):
    old, new = trees
    bumped = float(np.nextafter(SIGMA[3], np.inf))

    def edit(doc):
        doc["errors"]["sigma_pct"][3] = bumped

    _edit_json(new / "values" / "fit.json", edit)
    report = cr.compare_trees(old, new)
    (diff,) = _only(report, "different")
    assert diff.path == "values/fit.json" and diff.type == "json"
    assert f"errors.sigma_pct[3]: old={SIGMA[3]!r} new={bumped!r}" in diff.detail
    assert cr.main([str(old), str(new)]) == 1
    assert "errors.sigma_pct[3]" in capsys.readouterr().out


def test_json_types_and_nan(trees):
    """NaN equals NaN (as in SIGMA); an int is not a float, -0.0 is not 0.0, a new key is a difference."""
    old, new = trees
    _edit_json(new / "values" / "fit.json", lambda d: d["errors"].update(c=1))
    assert "errors.c: old=0.5 new=1" in _only(cr.compare_trees(old, new), "different")[0].detail
    assert not list(cr.json_diffs(float("nan"), float("nan"), ()))
    assert list(cr.json_diffs(0.0, -0.0, ()))
    assert list(cr.json_diffs(1, 1.0, ()))
    assert list(cr.json_diffs({"a": 1}, {"a": 1, "b": 2}, ())) == [("b", "<missing>", "2")]


def test_csv_value_reported_wall_s_not(trees):
    old, new = trees
    path = new / "tables" / "table2.csv"
    df = pd.read_csv(path)
    df["wall_s"] = [10, 20, 30]
    df.to_csv(path, index=False)
    report = cr.compare_trees(old, new)
    (csv,) = [r for r in report.files if r.type == "csv"]
    assert csv.status == "equal" and csv.ignored_only

    df.loc[2, "sigma_err"] = 0.30000000000000004
    df.to_csv(path, index=False)
    (csv,) = [r for r in cr.compare_trees(old, new).files if r.type == "csv"]
    assert csv.status == "different"
    assert "column 'sigma_err' row 2" in csv.detail and "1 differing cell" in csv.detail


def test_npz_changed_array_reported(trees):
    old, new = trees
    with np.load(new / "sensors" / "s.npz") as z:
        arrays = {k: z[k] for k in z.files}
    arrays["y"][4] = np.nextafter(arrays["y"][4], 0.0)
    np.savez(new / "sensors" / "s.npz", **arrays)
    (npz,) = _only(cr.compare_trees(old, new), "different")
    assert npz.type == "npz" and npz.detail.startswith("npz: y[4]:") and "1 of 7 elements" in npz.detail


def test_png_one_pixel_reported(trees):
    old, new = trees
    pixels = (imread(new / "figures" / "fig.png")[..., :3] * 255).round().astype(np.uint8)
    pixels[0, 0] = (1, 0, 0)
    imsave(new / "figures" / "fig.png", pixels)
    (png,) = _only(cr.compare_trees(old, new), "different")
    assert png.type == "png" and "1 of 80 pixels differ (1.250%)" in png.detail


def test_missing_files_reported(trees, tmp_path, capsys):
    old, new = trees
    (new / "sensors" / "s.npz").unlink()
    (new / "values" / "extra.json").write_text("{}")
    report = cr.compare_trees(old, new)
    assert [r.path for r in _only(report, "only_old")] == ["sensors/s.npz"]
    assert [r.path for r in _only(report, "only_new")] == ["values/extra.json"]
    assert report.counts()["npz"]["only_old"] == 1 and report.counts()["json"]["only_new"] == 1
    out_json = tmp_path / "report.json"
    assert cr.main([str(old), str(new), "--json", str(out_json)]) == 1
    data = json.loads(out_json.read_text())
    assert (
        data["exit_code"] == 1
        and data["only_old"] == ["sensors/s.npz"]
        and data["only_new"] == ["values/extra.json"]
    )
    assert "only in OLD (1):" in capsys.readouterr().out


def test_pdf_bytes_allowed_md_text_not(trees):
    old, new = trees
    (new / "figures" / "fig.pdf").write_bytes(b"%PDF-1.4\n/CreationDate (D:20250505)\n%%EOF\n")
    report = cr.compare_trees(old, new)
    assert not _only(report, "different") and report.exit_code() == 0  # only the embedded date differs
    (new / "figures" / "fig.pdf").write_bytes(b"%PDF-1.5\n/CreationDate (D:20250505)\n%%EOF\n")
    report = cr.compare_trees(old, new)
    (pdf,) = _only(report, "different")
    assert pdf.type == "pdf" and "beyond the embedded dates" in pdf.detail and report.exit_code() == 1
    (new / "figures" / "fig.pdf").write_bytes(b"%PDF-1.4\n/CreationDate (D:20250505)\n%%EOF\n")

    (new / "tables" / "table2.md").write_text(
        "| method | err | wall_s |\n|---|---|---|\n| lm | 0.1 | 9.9 |\n"
    )
    report = cr.compare_trees(old, new)
    assert not _only(report, "different") and report.exit_code() == 0  # a timing column of a table

    (new / "tables" / "table2.md").write_text(
        "| method | err | wall_s |\n|---|---|---|\n| lm | 0.2 | 3.4 |\n"
    )
    report = cr.compare_trees(old, new)
    (md,) = _only(report, "different")
    assert md.type == "md" and md.detail.startswith("text: first at line 3") and "numbers only" in md.detail
    assert report.exit_code() == 1


def test_ignore_key_option(trees, tmp_path, capsys):
    old, new = trees
    _edit_json(new / "values" / "fit.json", lambda d: d.update(structure="x2"))
    assert cr.main([str(old), str(new)]) == 1
    report_path = tmp_path / "r.json"
    assert cr.main([str(old), str(new), "--ignore-key", "structure", "--json", str(report_path)]) == 0
    assert "structure" in json.loads(report_path.read_text())["ignored_keys"]
    assert "ignored keys/columns: wall_s" in capsys.readouterr().out
    # without the defaults, the timing fields count
    _edit_json(new / "values" / "fit.json", lambda d: d.update(structure="x1", wall_s=0.0))
    assert cr.main([str(old), str(new)]) == 0
    assert cr.main([str(old), str(new), "--no-default-ignores"]) == 1


def test_usage_error_exit_2(tmp_path):
    with pytest.raises(SystemExit) as exc:
        cr.main([str(tmp_path / "nope"), str(tmp_path)])
    assert exc.value.code == 2


def test_a_renamed_output_is_compared_with_its_new_name(trees, capsys):
    old, new = trees
    (new / "values" / "fit.json").rename(new / "values" / "fitS.json")
    assert cr.main([str(old), str(new)]) == 1
    assert cr.main([str(old), str(new), "--rename", "fit.json=fitS.json"]) == 0
    _edit_json(new / "values" / "fitS.json", lambda d: d.update(structure="x2"))
    report = cr.compare_trees(old, new, renames={"fit.json": "fitS.json"})
    assert [r.path for r in _only(report, "different")] == ["values/fitS.json"]
    with pytest.raises(SystemExit):
        cr.main([str(old), str(new), "--rename", "fit.json"])
