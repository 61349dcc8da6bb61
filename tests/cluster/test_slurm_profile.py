"""The SLURM profile, run for real against a single-node SLURM on this machine.

``tests/cluster/start_slurm.sh`` installs (if needed) and starts munge,
slurmctld and slurmd; a slice of the test study (``config/test.yaml``,
:data:`TARGETS`: every kind of job, from structures to physics-informed
training, baselines and local tables and figures) then goes through
``--profile profiles/slurm`` with one rule forced to fail, is fixed and
re-run, and its outputs are compared with the local run of the whole test
study.  A slice, not the whole study: each SLURM job parses the workflow
again (about 7 s) and the one-node test cluster runs two at a time, so the
whole study took 37 minutes here, most of CI's time.
The failing job is retried once (the profile's ``retries: 1``): its second
submission asks SLURM for twice the runtime and memory of the first (the
rule's request times the attempt, ``tensegrity_id.workflow.job_resources``).

Without slurmdbd there is no ``sacct`` ("accounting storage is disabled"), so
the status check uses ``squeue`` (``slurm.conf`` keeps finished jobs visible
for ``MinJobAge = 3600`` s, well over 3x the profile's 20 s before the first
check and longer than the whole test); no account is passed (``--slurm-no-account``: the plugin would ask
``sacctmgr``).

Skips where SLURM cannot be installed or started (no root, no package
access); with ``TENSEGRITY_REQUIRE_SLURM=1`` (set by ``.ci/run``) it fails
instead.  Run on its own: ``pytest -m slurm``.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytestmark = pytest.mark.slurm
HERE = Path(__file__).parent
SNAKEMAKE = [sys.executable, "-m", "snakemake", "--configfile", "config/test.yaml"]
SLURM_ARGS = [
    "--profile",
    "profiles/slurm",
    "--slurm-status-command",
    "squeue",
    "--slurm-no-account",
    "--keep-going",
    # the first status query 5 s after a submission, not the profile's 20 s: the plugin waits
    # that long again (plus 10 s per round without a finished job, up to 180 s) between queries,
    # so on a one-node test cluster the profile's value left the jobs' dependents waiting for
    # minutes (MinJobAge = 3600 s stays far above 3x this value)
    "--slurm-init-seconds-before-status-checks",
    "5",
]
FAILING_RULE = "assess_steel_design"  # runs on SLURM; plot_figS3 depends on it
TARGETS = [
    "results/figures/figS3_assessment.png",  # the steel design (FAILING_RULE) and its figure
    "results/tables/table5.csv",  # the three transition treatments' training jobs
    "results/tables/tableS5_baselines.csv",  # the baselines
    "results/identify/pinn_smooth/x1/taut_1pt/top_node_seeds_steps300.json",  # a two-seed batch job
]
"""What the SLURM run makes: 26 jobs on SLURM, 4 local (the tables, the figure, a seed group's summary)."""
LOCAL_RULES = {"make_table5", "make_tableS5_baselines", "plot_figS3", "summarize_pinn_group"}
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+) \(log: (\S+)\)")
TIMING = re.compile(r"wall|per_s$|^sec_per")
TIMING_ROW = re.compile(r"wall|sec_per")  # scorecard rows that report a wall time


def _snakemake(workdir, *args):
    proc = subprocess.run([*SNAKEMAKE, *args], cwd=workdir, capture_output=True, text=True, timeout=3000)
    proc.output = proc.stdout + proc.stderr
    return proc


def _executed_rules(output):
    return set(re.findall(r"^(?:local)?rule (\w+):$", output, re.M))


def _submitted(output):
    """SLURM job id -> rule, from the executor's submission lines."""
    return {
        int(j): re.search(r"slurm_logs/rule_(\w+?)/", log).group(1) for j, log in SUBMITTED.findall(output)
    }


def _minutes(limit):
    """A SLURM time limit (``[days-]hours:minutes:seconds``, ``minutes:seconds``, ``minutes``), in minutes."""
    days, _, clock = limit.rpartition("-")
    parts = [int(p) for p in clock.split(":")]
    if len(parts) == 1:
        parts = [0, parts[0], 0]
    elif len(parts) == 2:
        parts = [0, *parts]
    h, m, sec = parts
    return (int(days or 0) * 24 + h) * 60 + m + sec / 60


def _megabytes(mem):
    """A SLURM memory request (``2000M``, ``2G``, ``1T``; a plain number is MB) in MB."""
    unit = mem[-1].upper()
    scale = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024**2}
    return float(mem[:-1]) * scale[unit] if unit in scale else float(mem)


def _squeue_jobs():
    """SLURM job id -> (state, time limit in minutes, memory requested in MB), finished jobs included."""
    out = subprocess.run(
        ["squeue", "--states=all", "--noheader", "-o", "%i %T %l %m"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {
        int(i): (state, _minutes(limit), _megabytes(mem))
        for i, state, limit, mem in (line.split() for line in out.splitlines())
    }


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    state = tmp_path_factory.mktemp("slurm-state")
    env = {**os.environ, "SLURM_TEST_STATE": str(state)}
    proc = subprocess.run(["bash", str(HERE / "start_slurm.sh")], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        reason = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] or ["no output"]
        if proc.returncode == 3 and os.environ.get("TENSEGRITY_REQUIRE_SLURM") != "1":
            pytest.skip(f"no local SLURM: {reason[0]}")
        pytest.fail(f"start_slurm.sh exited {proc.returncode}: {proc.stdout}\n{proc.stderr}")
    yield proc.stdout.strip()
    subprocess.run(["bash", str(HERE / "stop_slurm.sh")], env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def local_run(test_study):
    """The same config run locally (shared with the integration tier when both run in one command)."""
    return test_study


@pytest.fixture(scope="module")
def cluster_run(tmp_path_factory, copy_workflow, slurm):
    """A SLURM run with FAILING_RULE broken, then the fixed re-run."""
    wd = copy_workflow(tmp_path_factory.mktemp("cluster"), extra=("profiles",))
    script = wd / "workflow" / "scripts" / f"{FAILING_RULE}.py"
    original = script.read_text()
    script.write_text('raise RuntimeError("forced failure (tests/cluster)")\n' + original)
    # the targets after the options (--configfile would take them for config files)
    first = _snakemake(wd, *SLURM_ARGS, *TARGETS)
    jobs_after_first = _squeue_jobs()
    script.write_text(original)
    second = _snakemake(wd, *SLURM_ARGS, *TARGETS)
    return wd, first, jobs_after_first, second


def test_jobs_went_through_slurm(cluster_run):
    wd, first, slurm_jobs, _ = cluster_run
    states = {j: state for j, (state, _, _) in slurm_jobs.items()}
    jobs = _submitted(first.output)
    assert len(jobs) == 27, first.output[-3000:]  # 26 jobs, the failing one twice
    assert FAILING_RULE in jobs.values() and any(r.startswith("identify_pinn_") for r in jobs.values())
    # every submitted job is known to SLURM; all but the forced failure completed
    assert set(jobs) <= set(states)
    assert {states[j] for j, r in jobs.items() if r != FAILING_RULE} == {"COMPLETED"}
    # the executor's per-job logs are named by the SLURM job id (kept: slurm-keep-successful-logs)
    for j, log in SUBMITTED.findall(first.output):
        assert Path(log).name == f"{j}.log" and Path(log).is_file()
        assert str(wd) in log
        assert "--executor slurm-jobstep" in Path(log).read_text()  # written by the job inside SLURM
    # table and figure rules and a seed group's summary ran locally, not on the cluster
    assert not LOCAL_RULES & set(jobs.values())
    assert LOCAL_RULES - {"plot_figS3"} <= _executed_rules(first.output)


def test_forced_failure_is_retried_with_more_and_reported(cluster_run):
    _, first, slurm_jobs, _ = cluster_run
    assert first.returncode != 0
    assert f"Error in rule {FAILING_RULE}" in first.output
    # submitted twice (retries: 1), both failed; the retry asked for twice the runtime and memory
    failed = sorted(j for j, r in _submitted(first.output).items() if r == FAILING_RULE)
    assert len(failed) == 2 and [slurm_jobs[j][0] for j in failed] == ["FAILED", "FAILED"]
    (_, minutes_1, mb_1), (_, minutes_2, mb_2) = (slurm_jobs[j] for j in failed)
    assert minutes_1 > 0 and mb_1 > 0
    assert (minutes_2, mb_2) == (2 * minutes_1, 2 * mb_1), (minutes_1, mb_1, minutes_2, mb_2)


def test_after_the_fix_only_the_failed_job_and_its_dependents_rerun(cluster_run):
    _, _, _, second = cluster_run
    assert second.returncode == 0, second.output[-3000:]
    assert sorted(_submitted(second.output).values()) == [FAILING_RULE]
    assert _executed_rules(second.output) == {FAILING_RULE, "plot_figS3"}


def _strip_timing(obj):
    """``obj`` without timing fields, nor the provenance: its inputs' hashes differ where an input
    holds a wall time (a record's solver time)."""
    if isinstance(obj, dict):
        return {k: _strip_timing(v) for k, v in obj.items() if not TIMING.search(k) and k != "provenance"}
    if isinstance(obj, list):
        return [_strip_timing(v) for v in obj]
    return obj


def test_outputs_equal_a_local_run(cluster_run, local_run):
    wd = cluster_run[0]
    files = sorted(p.relative_to(wd) for p in (wd / "results").rglob("*") if p.is_file())
    assert len(files) > 50  # 56 files from the 30 jobs
    for rel in files:
        a, b = local_run / rel, wd / rel
        assert a.is_file(), f"{rel} made by the SLURM run, not by the local run"
        if rel.suffix == ".json":
            assert _strip_timing(json.loads(b.read_text())) == _strip_timing(json.loads(a.read_text())), rel
        elif rel.suffix == ".npz":
            x, y = np.load(a), np.load(b)
            assert x.files == y.files, rel
            for k in x.files:
                np.testing.assert_array_equal(y[k], x[k], err_msg=f"{rel}[{k}]")
        elif rel.suffix == ".csv":
            x, y = pd.read_csv(a), pd.read_csv(b)
            keep = [c for c in x.columns if not TIMING.search(c)]
            if "id" in x.columns:  # the scorecard: one row per claim, some of them wall times
                timed = [t["id"].astype(str).str.contains(TIMING_ROW) for t in (x, y)]
                x, y = (t[~m].reset_index(drop=True) for t, m in zip((x, y), timed, strict=True))
            pd.testing.assert_frame_equal(y[keep], x[keep], check_exact=True, obj=str(rel))
        elif rel.suffix in (".png", ".pt", ".txt", ".yaml"):
            assert b.read_bytes() == a.read_bytes(), rel
        # .pdf (creation date) and .md (tables with wall times) are covered by the PNG and CSV twins
