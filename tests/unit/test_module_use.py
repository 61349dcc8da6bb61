"""The workflow as a module of another workflow, and its own files found from its location.

A user's project (a temporary folder) holds a Snakefile that uses this
workflow as a module from its local path (``module tensegrity: snakefile:
...; config: config; use rule * from tensegrity as tensegrity_*``, the shape
``snakedeploy deploy-workflow`` writes), a config of its own (one structure
file, one record) and nothing else: the module's dry run names its jobs with
the prefix, reads the user's files from the project and the workflow's own
(scripts, library, published values) from the clone, and one table is built
into the project.
"""

import os
import re
import shutil
import subprocess
import sys

import pandas as pd
import pytest
from tensegrity_id.workflow.workflow_files import WorkflowFiles, with_defaults

USER_SNAKEFILE = """configfile: "config.yaml"


module tensegrity:
    snakefile:
        {snakefile!r}
    config:
        config


use rule * from tensegrity as tensegrity_*
"""

USER_CONFIG = """\
structures:
  my_frame:
    file: structures/my_frame.yaml
    prestress: {method: lp, sigma_min: 25.0}
build: [my_frame]
measured:
  records:
    shaker:
      file: records/shaker.csv
      structure: my_frame
      methods: [lm_shooting]
      starts: [[30.0, 1.0]]
studies:
  table1:
    structures: [my_frame]
    labels: {my_frame: My frame}
"""
"""One structure (a structure file) and one record (a record file), over the default config."""


def _snakemake(project, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
    )
    proc.output = proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.output[-3000:]
    return proc.output


@pytest.fixture
def project(tmp_path, repo):
    """A user's project: a Snakefile using the workflow as a module, a config, a structure and a record."""
    (tmp_path / "structures").mkdir()
    (tmp_path / "records").mkdir()
    shutil.copy(repo / "resources/structures/example_x1.yaml", tmp_path / "structures/my_frame.yaml")
    shutil.copy(repo / "resources/records/x1_shaker_simulated.csv", tmp_path / "records/shaker.csv")
    (tmp_path / "config.yaml").write_text(USER_CONFIG)
    (tmp_path / "Snakefile").write_text(USER_SNAKEFILE.format(snakefile=str(repo / "workflow/Snakefile")))
    return tmp_path


@pytest.mark.slow
def test_the_workflow_runs_as_a_module_of_another(project, repo):
    """About 30 s: two start-ups (the dry run of the module's default target, then one table)."""
    dry = _snakemake(project, "-n")
    stats = dry.split("Job stats:")[1].split("total")[0]
    jobs = {line.split()[0] for line in stats.splitlines()[3:] if line.strip()}
    assert {"tensegrity_all", "tensegrity_generate_structure", "tensegrity_import_measured_record"} <= jobs
    assert all(j.startswith("tensegrity_") for j in jobs), jobs
    # the user's files relative to the project; the workflow's own from the clone
    assert re.search(r"input: [^\n]*(?<![/\w])structures/my_frame\.yaml", dry)
    assert re.search(r"input: [^\n]*(?<![/\w])records/shaker\.csv", dry)
    assert f"{repo}/resources/published/table1.csv" in dry
    assert f"{repo}/workflow/lib/tensegrity_id/mechanics/structure.py" in dry
    assert "output: results/structures/my_frame.json" in dry

    run = _snakemake(project, "--cores", "1", "results/tables/table1.csv")
    assert "rule tensegrity_make_table1:" in run
    table = pd.read_csv(project / "results/tables/table1.csv")
    assert list(table["structure"]) == ["my_frame"] and list(table["label"]) == ["My frame"]
    assert (table[["nodes", "bars", "cables"]].iloc[0] == [4, 2, 4]).all()
    for out in ("results/structures/my_frame.json", "logs/make_table1.log", "benchmarks/generate_structure"):
        assert (project / out).exists(), out
    assert not (repo / "results/structures/my_frame.json").exists()


# ---------------------------------------------------------------- the workflow's files
def test_own_files_are_relative_in_the_clone_and_absolute_elsewhere(repo, tmp_path, monkeypatch):
    wf = WorkflowFiles.beside(repo / "workflow")
    assert wf.root == repo
    monkeypatch.chdir(repo)
    assert wf.path("workflow/catalog.yaml") == "workflow/catalog.yaml"
    assert wf.lib == "workflow/lib" and wf.script("make_table1") == "workflow/scripts/make_table1.py"
    assert wf.path(".") == "."
    monkeypatch.chdir(repo / "workflow")  # inside the clone, not above it: absolute
    assert wf.path("config/schema.yaml") == str(repo / "config/schema.yaml")
    monkeypatch.chdir(tmp_path)
    assert wf.path("resources/published/table6.csv") == str(repo / "resources/published/table6.csv")
    assert wf.own("resources/published/table6.csv") == str(repo / "resources/published/table6.csv")
    assert wf.own("results/tables/table6.csv") == "results/tables/table6.csv"
    monkeypatch.chdir(repo.parent)  # the clone below the working directory: relative
    assert wf.path("workflow/lib") == f"{repo.name}/workflow/lib"


def test_a_folder_that_is_not_the_workflow_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="not the workflow/ folder of this workflow"):
        WorkflowFiles.beside(tmp_path)


def test_shipped_inputs_in_a_config_are_found_unless_the_project_has_its_own(repo, tmp_path, monkeypatch):
    wf = WorkflowFiles(repo)
    monkeypatch.chdir(tmp_path)
    config = {
        "report": {"scorecard": {"claims": "resources/published/claims.yaml"}},
        "records": ["resources/records/mine.csv", "data/resources/x.csv"],
        "n": 3,
    }
    located = wf.located(config)
    assert located["report"]["scorecard"]["claims"] == str(repo / "resources/published/claims.yaml")
    assert located["records"] == [str(repo / "resources/records/mine.csv"), "data/resources/x.csv"]
    assert located["n"] == 3 and config["report"]["scorecard"]["claims"] == "resources/published/claims.yaml"
    (tmp_path / "resources/published").mkdir(parents=True)
    (tmp_path / "resources/published/claims.yaml").write_text("[]\n")
    assert wf.located(config)["report"]["scorecard"]["claims"] == "resources/published/claims.yaml"


def test_a_users_config_overlays_the_default():
    defaults = {"build": ["x1", "x2"], "structures": {"x1": {"a": 1}}, "records": {"omit": {}}}
    user = {"build": ["mine"], "structures": {"mine": {"file": "m.yaml"}}}
    merged = with_defaults(user, defaults)
    assert merged == {
        "build": ["mine"],
        "structures": {"x1": {"a": 1}, "mine": {"file": "m.yaml"}},
        "records": {"omit": {}},
    }
    assert with_defaults(merged, defaults) == merged  # a config that holds its defaults: unchanged
    merged["structures"]["x1"]["a"] = 2
    assert defaults["structures"]["x1"]["a"] == 1 and "mine" not in defaults["structures"]


def test_the_jobs_import_the_workflows_library(repo, monkeypatch):
    lib = str(repo / "workflow/lib")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["/elsewhere", lib]))
    WorkflowFiles(repo).export_lib()
    assert os.environ["PYTHONPATH"].split(os.pathsep) == [lib, "/elsewhere"]
    monkeypatch.delenv("PYTHONPATH")
    WorkflowFiles(repo).export_lib()
    assert os.environ["PYTHONPATH"] == lib


OWN_LITERAL = re.compile(r'([\w.]+\()?f?"(?:config|workflow|resources)/')
"""A string literal naming a file of the workflow's own, with the call it is the argument of."""


def test_the_workflow_reads_none_of_its_own_files_from_the_working_directory(repo):
    """The root Snakefile only includes workflow/Snakefile; there and in the rule files every
    path of the workflow's own goes through WF.path (tensegrity_id.workflow.workflow_files)."""
    root = (repo / "Snakefile").read_text()
    assert 'include: "workflow/Snakefile"' in root
    assert not [ln for ln in root.splitlines() if ln.startswith(("rule ", "configfile"))]
    for smk in [repo / "workflow/Snakefile", *(repo / "workflow/rules").glob("*.smk")]:
        code = "\n".join(ln for ln in smk.read_text().splitlines() if not ln.lstrip().startswith("#"))
        calls = [m.group(1) for m in OWN_LITERAL.finditer(code)]
        assert all(c == "WF.path(" for c in calls), (smk.name, calls)
