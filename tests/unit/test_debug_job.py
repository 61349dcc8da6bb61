"""The one-job debugging helper (tensegrity_id.workflow.debug_job): the ``snakemake`` object of a
target's job, read from the DAG of a copy of the workflow, and the refusal to run with missing inputs."""

import inspect

import pytest
from tensegrity_id.workflow import debug_job

TARGET = "results/records/x1/taut_1pt.json"
"""A record of the default config; in a fresh copy its input ``results/structures/x1.json`` is absent."""


@pytest.fixture(scope="module")
def job(tmp_path_factory, copy_workflow):
    """The job that writes TARGET in a fresh copy of the workflow (the DAG is built once: ~10-30 s)."""
    root = copy_workflow(tmp_path_factory.mktemp("wf"))
    return debug_job.load_job(TARGET, root=root)


def test_the_job_is_read_from_the_dag(job):
    sm = job.snakemake
    assert sm.rule == "simulate_record"
    assert job.script == job.root / "workflow/scripts/simulate_record.py"
    assert sm.scriptdir == str(job.root / "workflow/scripts")
    assert sm.output.json == TARGET
    assert list(sm.output) == ["results/records/x1/taut_1pt.npz", TARGET]
    assert sm.input.structure == "results/structures/x1.json"
    assert "workflow/lib/tensegrity_id/mechanics/simulate.py" in sm.input.lib
    assert dict(sm.wildcards) == {"structure": "x1", "record": "taut_1pt"}
    assert sm.wildcards.structure == "x1"
    assert list(sm.log) == ["logs/simulate_record/x1/taut_1pt.log"]
    assert sm.threads == 1
    assert sm.resources.mem_mb > 0
    assert set(sm.params.keys()) >= {"spec", "sim"}
    assert "x1" in sm.config["structures"]


def test_run_refuses_missing_inputs_and_names_them(job, monkeypatch, capsys):
    monkeypatch.setattr(debug_job, "load_job", lambda *a, **k: job)
    monkeypatch.setattr(debug_job, "run_script", lambda *a: pytest.fail("the script ran"))
    assert debug_job.missing_inputs(job.snakemake, job.root) == ["results/structures/x1.json"]

    assert debug_job.main([TARGET, "--run", "-d", str(job.root)]) == 1
    out, err = capsys.readouterr()
    assert "rule:      simulate_record" in out
    assert "structure: results/structures/x1.json  (missing)" in out
    assert f"1 input(s) of the job that writes {TARGET} do not exist; nothing was run" in err
    assert "\n  results/structures/x1.json\n" in err
    assert not (job.root / "results/records").exists()


def test_the_non_public_snakemake_api_it_relies_on_is_still_there():
    """``debug_job._dag_target_jobs`` reaches past Snakemake's public API: pin what it uses."""
    from snakemake.api import WorkflowApi
    from snakemake.dag import DAG
    from snakemake.workflow import Workflow

    assert isinstance(inspect.getattr_static(WorkflowApi, "_workflow"), property)
    params = inspect.signature(Workflow._prepare_dag).parameters
    assert {"forceall", "ignore_incomplete", "lock_warn_only", "nolock"} <= set(params)
    assert inspect.signature(Workflow._build_dag).parameters.keys() == {"self"}
    assert isinstance(inspect.getattr_static(Workflow, "dag"), property)
    assert "targetjobs" in inspect.getsource(DAG.__init__)
