"""What a finished run says last (tensegrity_id.workflow.run_summary, the Snakefile's onsuccess):
where the results are, the report command, the scorecard's one-line summary."""

import json
import subprocess
import sys

import pytest
from tensegrity_id.workflow.run_summary import report_command, run_summary, scorecard_headline

HEADLINE = "identification results: 3 of 4 within the paper's band, 1 better than the paper; ..."


def _scorecard(root, doc):
    path = root / "results/values/scorecard.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def test_the_summary_names_the_results_the_report_and_the_scorecard(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("")
    lines = run_summary(["config/test.yaml"], snakefile=tmp_path / "Snakefile").splitlines()
    assert lines == [
        f"Results: {tmp_path}/results/ (tables/, figures/, values/)",
        "Report: snakemake --configfile config/test.yaml --report results/report.zip",
    ]
    _scorecard(tmp_path, {"n_claims": 4, "headline": HEADLINE})
    assert run_summary().splitlines()[-1] == f"Scorecard: {HEADLINE}"


def test_the_report_command_repeats_a_snakefile_snakemake_would_not_find(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow/Snakefile").write_text("")
    (tmp_path / "probe.smk").write_text("")
    assert report_command(snakefile="workflow/Snakefile") == "snakemake --report results/report.zip"
    command = report_command([tmp_path / "a b.yaml", "/elsewhere/c.yaml"], snakefile=tmp_path / "probe.smk")
    assert command == (
        "snakemake --snakefile probe.smk --configfile 'a b.yaml' /elsewhere/c.yaml "
        "--report results/report.zip"
    )


@pytest.mark.parametrize("doc", ["{not json", "[1, 2]", {"headline": ""}, {"counts": {}}])
def test_a_missing_or_unreadable_scorecard_gives_no_line(tmp_path, doc):
    assert scorecard_headline(tmp_path / "absent.json") is None
    assert scorecard_headline(_scorecard(tmp_path, doc)) is None


@pytest.mark.slow
def test_a_run_ends_with_the_summary_and_prints_no_shell_command(repo, tmp_path):
    """The workflow included from another folder, with the local profile: one job (X1's structure),
    then the summary from the onsuccess handler.  About 15 s on an idle machine (8 s of CPU)."""
    (tmp_path / "Snakefile").write_text(f'include: "{repo}/workflow/Snakefile"\n')
    _scorecard(tmp_path, {"headline": HEADLINE})
    run = subprocess.run(
        [sys.executable, "-m", "snakemake", "--profile", str(repo / "profiles/default")]
        + ["--cores", "1", "results/structures/x1.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-3000:]
    assert (tmp_path / "results/structures/x1.json").is_file()
    assert "Shell command" not in out
    tail = out.split("1 of 1 steps (100%) done")[1]
    assert f"Results: {tmp_path}/results/ (tables/, figures/, values/)" in tail
    assert "Report: snakemake --report results/report.zip" in tail
    assert f"Scorecard: {HEADLINE}" in tail
