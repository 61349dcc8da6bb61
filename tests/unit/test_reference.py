"""Reference results (tensegrity_id.workflow.reference): publish a run, compare runs with it.

A small run tree is written by hand with Snakemake's provenance records
(``.snakemake/metadata``, urlsafe-base64 names), so the classes are known:
a table from a structure file is deterministic, a table and a value file
from an identification result are stochastic.
"""

import base64
import json
import shutil

import pytest
from tensegrity_id.results.identification import SeedGroupSummary, SeedStats
from tensegrity_id.workflow.reference import SEED_K, classify, compare, main, publish, seed_scatter

SCATTER = 0.1  # the seed group's relative scatter: std 1 over mean 10


def _record(workdir, output, inputs):
    name = base64.urlsafe_b64encode(output.encode()).decode()
    folder = workdir / ".snakemake" / "metadata"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps({"rule": "r", "input": inputs}))


def _group(n_seeds: int, errors: dict, fit: dict) -> dict:
    """A seed group's summary file: ``errors`` and ``fit`` as ``{name: (mean, std)}`` over ``n_seeds``."""

    def stats(block):
        return {k: SeedStats(mean=m, std=sd, min=m, max=m, n=n_seeds) for k, (m, sd) in block.items()}

    return SeedGroupSummary(
        method="pinn_smooth",
        structure="x1",
        record="taut_1pt",
        protocol="top_node",
        steps=100,
        variant=None,
        seeds=list(range(n_seeds)),
        n_seeds=n_seeds,
        diverged=[],
        outcomes={},
        parameters={},
        errors=stats(errors),
        fit=stats(fit),
        exact=None,
        wall_s=1.0,
    ).to_json()


def _run(tmp_path):
    wd = tmp_path / "run"
    r = wd / "results"
    for sub in ("tables", "values", "identify/pinn_smooth/x1/taut_1pt", "structures"):
        (r / sub).mkdir(parents=True, exist_ok=True)
    (r / "structures/x1.json").write_text("{}")
    (r / "tables/tableS3.csv").write_text("structure,rank,lambda_min\nx1,9,0.25\n")
    (r / "tables/tableS3.md").write_text("| structure | rank |\n")
    (r / "tables/table3.csv").write_text("case,sigma_max_pct,outcome,wall_s\nx1,3.0,identified,12.5\n")
    (r / "values/fig4.json").write_text(json.dumps({"sigma_pct": [1.0, 2.0], "wall_s": 3.0, "label": "ok"}))
    group = _group(2, errors={"sigma_max_pct": (10.0, 1.0)}, fit={"held_out_ratio": (2.0, 0.2)})
    (r / "identify/pinn_smooth/x1/taut_1pt/top_node_seeds_steps100.json").write_text(json.dumps(group))
    (r / "identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps100.json").write_text("{}")
    _record(wd, "results/tables/tableS3.csv", ["results/structures/x1.json"])
    _record(wd, "results/tables/tableS3.md", ["results/structures/x1.json"])
    _record(
        wd,
        "results/values/fig4.json",
        ["results/identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps100.json"],
    )
    _record(wd, "results/tables/table3.csv", ["results/values/fig4.json"])  # stochastic at one remove
    return wd


@pytest.fixture
def reference(tmp_path):
    wd = _run(tmp_path)
    out = tmp_path / "reference"
    manifest = publish(
        wd / "results",
        out,
        command="snakemake --cores 2",
        configs=["config/paper.yaml"],
        notes=["resumed once"],
    )
    return wd, out, manifest


def test_published_files_classes_hashes_and_scatter(reference):
    wd, out, m = reference
    classes = {f["path"]: f["class"] for f in m["files"]}
    assert classes == {
        "results/tables/tableS3.csv": "deterministic",
        "results/tables/tableS3.md": "deterministic",
        "results/tables/table3.csv": "stochastic",
        "results/values/fig4.json": "stochastic",
    }
    assert all(len(f["sha256"]) == 64 and f["bytes"] > 0 for f in m["files"])
    assert (out / "tables/table3.csv").read_text() == (wd / "results/tables/table3.csv").read_text()
    assert not (out / "identify").exists() and not (out / "structures").exists()
    assert m["notes"] == ["resumed once"]
    assert json.loads((out / "MANIFEST.json").read_text())["notes"] == ["resumed once"]
    assert m["seed_scatter"]["groups"] == 1
    assert m["seed_scatter"]["metrics"] == pytest.approx(
        {"sigma_max_pct": SCATTER, "held_out_ratio": SCATTER}
    )
    assert m["seed_scatter"]["pooled"] == pytest.approx(SCATTER)
    for key in (
        "command",
        "configs",
        "commit",
        "date",
        "machine",
        "versions",
        "wall_s",
        "cpu_s",
        "peak_rss_mb",
    ):
        assert key in m
    assert m["machine"]["cores"] >= 1 and m["versions"]["numpy"]


def test_the_reference_compared_with_itself_is_equal(reference, capsys):
    wd, out, _ = reference
    report = compare(wd / "results", out)
    assert report.exit_code() == 0 and report.count("equal") == 4  # the Markdown twin byte for byte
    assert main(["compare", str(wd / "results"), "--reference", str(out)]) == 0
    assert "4 equal, 0 within scatter, 0 different" in capsys.readouterr().out


def _doctored(wd, tmp_path, edit):
    copy = tmp_path / "doctored"
    shutil.copytree(wd / "results", copy)
    edit(copy)
    return copy


T3 = "case,sigma_max_pct,outcome,wall_s\n"


def _write(rel, text):
    return lambda r: (r / rel).write_text(text)


def _fig4(sigma):
    return _write("values/fig4.json", json.dumps({"sigma_pct": sigma, "wall_s": 9.0, "label": "ok"}))


@pytest.mark.parametrize(
    ("edit", "path", "status"),
    [
        # a deterministic number 1 % off: different
        (
            _write("tables/tableS3.csv", "structure,rank,lambda_min\nx1,9,0.2525\n"),
            "tables/tableS3.csv",
            "different",
        ),
        # a stochastic number within SEED_K scatters (5 % against 2 x 10 %; timing ignored): within scatter
        (_write("tables/table3.csv", T3 + "x1,3.15,identified,99\n"), "tables/table3.csv", "within scatter"),
        # beyond it (50 %): different
        (_write("tables/table3.csv", T3 + "x1,4.5,identified,12.5\n"), "tables/table3.csv", "different"),
        # a label changed: different in any class
        (_write("tables/table3.csv", T3 + "x1,3.0,partial,12.5\n"), "tables/table3.csv", "different"),
        # a value file: timing ignored, a list entry beyond the scatter found
        (_fig4([1.0, 2.9]), "values/fig4.json", "different"),
        (_fig4([1.0, 2.0]), "values/fig4.json", "equal"),
        # a Markdown twin that differs is compared through its CSV
        (_write("tables/tableS3.md", "| other |\n"), "tables/tableS3.md", "not compared"),
        # not produced by this run: listed, not a failure
        (lambda r: (r / "tables/tableS3.csv").unlink(), "tables/tableS3.csv", "not produced"),
    ],
)
def test_a_doctored_run(reference, tmp_path, edit, path, status):
    wd, out, _ = reference
    report = compare(_doctored(wd, tmp_path, edit), out)
    got = {f.path: f for f in report.files}[f"results/{path}"]
    assert got.status == status, got
    assert report.exit_code() == (1 if status == "different" else 0)
    if status == "different":
        assert "reference" in got.detail and "here" in got.detail


def test_scatter_bound_is_seed_k_relative_scatters():
    assert SEED_K * SCATTER == pytest.approx(0.2)


def test_no_provenance_no_publication(tmp_path, capsys):
    wd = _run(tmp_path)
    shutil.rmtree(wd / ".snakemake")
    with pytest.raises(ValueError, match=r"\.snakemake/metadata"):
        classify(wd, ["results/tables/table3.csv"])
    assert (
        main(["publish", "--results", str(wd / "results"), "--out", str(tmp_path / "o"), "--command", "x"])
        == 2
    )
    assert "publish from the working directory" in capsys.readouterr().err


def test_compare_usage_errors(tmp_path, capsys):
    assert main(["compare", str(tmp_path), "--reference", str(tmp_path / "none")]) == 2
    assert "MANIFEST.json" in capsys.readouterr().err


def test_empty_run_is_not_a_pass(reference, tmp_path):
    _, out, _ = reference
    (tmp_path / "empty").mkdir()
    assert compare(tmp_path / "empty", out).exit_code() == 1


def test_seed_scatter_ignores_single_seed_groups(tmp_path):
    d = tmp_path / "results/identify/a"
    d.mkdir(parents=True)
    (d / "x_seeds_steps1.json").write_text(json.dumps(_group(1, errors={"c_pct": (1.0, 0.0)}, fit={})))
    (d / "y_seeds_steps1.json").write_text(json.dumps({"n_seeds": 2}))  # no schema: left out
    assert seed_scatter(tmp_path / "results") == {"metrics": {}, "pooled": None, "groups": 0}


def test_publishing_again_replaces_only_a_previous_reference(reference, tmp_path):
    wd, out, _ = reference
    (out / "NOTES.md").write_text("kept")
    publish(wd / "results", out, command="again", configs=[])
    assert (out / "NOTES.md").read_text() == "kept"
    assert json.loads((out / "MANIFEST.json").read_text())["command"] == "again"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_text("x")
    with pytest.raises(ValueError, match="no MANIFEST.json"):
        publish(wd / "results", elsewhere, command="x", configs=[])
    assert (elsewhere / "precious.txt").read_text() == "x"


def test_the_shipped_paper_reference_is_complete_and_quoted_in_the_docs(repo):
    """resources/reference/paper: a manifest with the run's provenance, every file it lists
    present with its hash, no claim of its scorecard left unproduced, and the reproduction
    page's paper-scale block generated from it."""
    import hashlib

    import pandas as pd
    from tensegrity_id.report.scorecard import PAPER_SCALE, doc_blocks

    ref = repo / "resources/reference/paper"
    m = json.loads((ref / "MANIFEST.json").read_text())
    for key in ("commit", "date", "machine", "versions", "wall_s", "cpu_s", "command", "files"):
        assert m[key], key
    assert m["machine"]["cores"] >= 1 and {"python", "torch", "numpy"} <= set(m["versions"])
    assert "config/paper.yaml" in m["command"] and m["configs"] == ["config/paper.yaml"]
    for f in m["files"]:
        p = ref / f["path"].removeprefix("results/")
        assert hashlib.sha256(p.read_bytes()).hexdigest() == f["sha256"], f["path"]
    listed = {f["path"].removeprefix("results/") for f in m["files"]}
    on_disk = {p.relative_to(ref).as_posix() for p in ref.rglob("*") if p.is_file()} - {"MANIFEST.json"}
    assert listed == on_disk
    assert sum(p.stat().st_size for p in ref.rglob("*") if p.is_file()) < 10e6
    card = pd.read_csv(repo / PAPER_SCALE, dtype=str, keep_default_na=False)
    assert "not yet produced" not in set(card["status"])
    block = doc_blocks(card, "x.csv", card)["paper_scale"]
    page = (repo / "docs/reproduction.md").read_text(encoding="utf-8")
    assert block in page


# ------------------------------------------------------------------ nothing lost
def _hashes(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def shipped(repo, tmp_path):
    """A copy of the shipped paper-scale reference, in a folder of its own."""
    copy = tmp_path / "ref" / "paper"
    shutil.copytree(repo / "resources/reference/paper", copy)
    return copy


def test_a_partial_run_does_not_replace_a_complete_reference(shipped, tmp_path, capsys):
    wd = _run(tmp_path)  # 4 files, 3 of them in the paper reference of 90
    before = _hashes(shipped)
    args = ["publish", "--results", str(wd / "results"), "--out", str(shipped), "--command", "x"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "the run lacks 87 of the 90 files" in err and "results/figures/baselines.png" in err
    assert "--replace" in err
    assert _hashes(shipped) == before
    assert sorted(p.name for p in shipped.parent.iterdir()) == ["paper"]  # no temporary folder left
    # asked for, it replaces the whole reference, and the old files go
    assert main([*args, "--replace"]) == 0
    m = json.loads((shipped / "MANIFEST.json").read_text())
    assert len(m["files"]) == 4 and not (shipped / "figures").exists()
    assert sorted(p.name for p in shipped.parent.iterdir()) == ["paper"]


def test_a_manifest_path_leaving_its_folder_deletes_nothing(shipped, tmp_path):
    victim = shipped.parent / "victim.txt"
    victim.write_text("precious")
    m = json.loads((shipped / "MANIFEST.json").read_text())
    m["files"].append({"path": "results/../victim.txt", "sha256": "0" * 64, "bytes": 8, "class": "x"})
    (shipped / "MANIFEST.json").write_text(json.dumps(m))
    before = _hashes(shipped)
    wd = _run(tmp_path)
    with pytest.raises(ValueError, match=r"files\[90\]\.path 'results/../victim.txt'"):
        publish(wd / "results", shipped, command="x", configs=[], replace=True)
    with pytest.raises(ValueError, match="not a path inside the reference"):
        compare(wd / "results", shipped)
    assert victim.read_text() == "precious" and _hashes(shipped) == before


@pytest.mark.parametrize("bad", ["/etc/passwd", "results", "tables/x.csv", "results/a/../../../x"])
def test_manifest_paths_are_checked(reference, bad):
    from tensegrity_id.workflow.reference import listed_paths

    _, out, m = reference
    with pytest.raises(ValueError, match=r"files\[0\]\.path"):
        listed_paths(out, {"files": [{"path": bad}]})
    assert [p.relative_to(out).as_posix() for p in listed_paths(out, m)] == [
        f["path"].removeprefix("results/") for f in m["files"]
    ]


def test_a_link_out_of_the_reference_is_refused(reference, tmp_path):
    from tensegrity_id.workflow.reference import listed_paths

    _, out, _ = reference
    (tmp_path / "outside").mkdir()
    (out / "tables" / "linked").symlink_to(tmp_path / "outside")
    with pytest.raises(ValueError, match="resolves outside"):
        listed_paths(out, {"files": [{"path": "results/tables/linked/x.csv"}]})


def test_a_failure_while_publishing_leaves_the_reference_as_it_was(reference, tmp_path, monkeypatch):
    import tensegrity_id.workflow.reference.publication as pub

    wd, out, _ = reference
    before = _hashes(out)
    (wd / "results/tables/table3.csv").write_text(T3 + "x1,9.0,identified,1\n")
    calls, copy2 = [], shutil.copy2

    def failing_copy(src, dst):
        calls.append(src)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return copy2(src, dst)

    monkeypatch.setattr(pub.shutil, "copy2", failing_copy)
    with pytest.raises(OSError, match="No space"):
        publish(wd / "results", out, command="again", configs=[])
    assert _hashes(out) == before
    assert sorted(p.name for p in out.parent.iterdir()) == sorted(["run", "reference"])


@pytest.mark.parametrize("damage", ["changed", "missing"])
def test_compare_verifies_the_reference_hashes(shipped, damage, capsys):
    results = shipped.parent / "results"
    shutil.copytree(shipped, results)  # a run equal to the reference, file for file
    (results / "MANIFEST.json").unlink()
    assert main(["compare", str(results), "--reference", str(shipped)]) == 0
    capsys.readouterr()
    target = shipped / "tables/table3.csv"
    if damage == "changed":  # one digit of a published number edited after publishing
        text = target.read_text()
        target.write_text(text.replace("3", "4", 1))
    else:
        target.unlink()
    report = compare(results, shipped)
    got = {f.path: f for f in report.files}["results/tables/table3.csv"]
    assert got.status == f"reference {damage}" and "table3.csv" in got.detail
    assert report.exit_code() == 1
    assert main(["compare", str(results), "--reference", str(shipped)]) == 1
    out, err = capsys.readouterr()
    assert f"reference {damage}" in out and "the reference is damaged" in err
