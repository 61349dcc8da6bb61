"""Each rule's cluster request stated once (the rule), grown with each retry; the profiles hold
executor settings only (tensegrity_id.workflow.job_resources)."""

import json
import subprocess
import sys

import pytest
import yaml
from tensegrity_id.workflow.job_resources import SCALED, per_attempt, scaled

PROBE = """import json


include: {snakefile!r}


print(
    "RESOURCES "
    + json.dumps(
        {{
            r.name: {{
                k: [r.resources[k].evaluate(None, attempt=a).value for a in (1, 2, 3)]
                for k in ("runtime", "mem_mb")
                if k in r.resources
            }}
            for r in workflow.rules
        }}
    )
)
"""
"""Parses the workflow (default config) and prints every rule's runtime and mem_mb for attempts 1-3,
as Snakemake evaluates them for a job (``Resource.evaluate``: Snakemake 9's resource objects)."""


@pytest.fixture(scope="module")
def requested(repo, tmp_path_factory):
    """Rule -> {runtime, mem_mb} -> [attempt 1, 2, 3] (one parse of the workflow, about 10 s)."""
    work = tmp_path_factory.mktemp("probe")
    (work / "probe.smk").write_text(PROBE.format(snakefile=str(repo / "workflow/Snakefile")))
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", "probe.smk", "--list-rules"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("RESOURCES "))
    return json.loads(line.removeprefix("RESOURCES "))


def test_every_rule_requests_runtime_and_memory_that_grow_with_the_attempt(requested):
    # the target rules (all, own_records): local, no job
    jobs = {name: r for name, r in requested.items() if name not in ("all", "own_records")}
    assert len(jobs) > 60 and any(name.startswith("identify_pinn_") for name in jobs)
    for name, r in jobs.items():
        assert set(r) == set(SCALED), name
        for key, (first, second, third) in r.items():
            assert isinstance(first, int) and first > 0, (name, key, first)
            assert (second, third) == (2 * first, 3 * first), (name, key)


def test_requests_of_known_rules(requested):
    """The values the rules state (the SLURM profile once repeated some of them, differently)."""
    assert requested["compute_threshold"] == {"runtime": [30, 60, 90], "mem_mb": [1000, 2000, 3000]}
    assert requested["assess_steel_design"]["runtime"] == [10, 20, 30]
    assert requested["compute_fisher"]["mem_mb"] == [2000, 4000, 6000]


@pytest.mark.parametrize("profile", ["default", "slurm"])
def test_the_profiles_set_no_per_rule_resources(repo, profile):
    settings = yaml.safe_load((repo / "profiles" / profile / "config.yaml").read_text())
    assert not {"set-resources", "set-threads", "set-resource-scopes"} & set(settings)
    assert not set(SCALED) & set(settings.get("default-resources") or {})
    # every rule runs a script: printshellcmds would print "Shell command: None" per job
    assert not settings.get("printshellcmds")
    if profile == "slurm":
        assert settings["retries"] >= 1 and settings["executor"] == "slurm"


def test_per_attempt_scales_runtime_and_memory_only():
    r = per_attempt(runtime=10, mem_mb=1000, disk_mb=50)
    assert [r["runtime"](None, attempt=a) for a in (1, 2, 3)] == [10, 20, 30]
    assert r["mem_mb"]({}, 2) == 2000 and r["disk_mb"] == 50
    assert scaled(7).base == 7


@pytest.mark.parametrize("bad", [0, -5, 2.5, "10", True])
def test_a_request_must_be_a_positive_whole_number(bad):
    with pytest.raises(ValueError, match="positive whole number"):
        scaled(bad)


def test_a_rule_states_both_requests():
    with pytest.raises(ValueError, match="needs mem_mb"):
        per_attempt(runtime=10)


def test_training_jobs_start_longest_first():
    """The expected minutes: 7 ms a step per seed and record, times the trunk's size; X3's wide
    network (5 x 160, 60 000 steps: 25 min measured alone) ranks above a 25 000-step run, which
    ranks above a 12 000-step one; every training job ranks above the other rules' 0."""
    from tensegrity_id.workflow.job_resources import pinn_expected_minutes, pinn_priority

    one = pinn_expected_minutes(12000, 1, 1, 1, {})
    assert one == pytest.approx(12000 * 0.007 / 60)
    assert pinn_expected_minutes(12000, 1, 1, 1, {"width": 64, "depth": 4}) == one
    wide = pinn_expected_minutes(60000, 1, 1, 1, {"width": 160, "depth": 5})
    assert wide == pytest.approx(60000 * 0.007 * 3.125 / 60) and 20 < wide < 30
    assert pinn_expected_minutes(12000, 4, 2, 1, {}) == pytest.approx(8 * one)
    assert pinn_expected_minutes(12000, 1, 2, 2, {}) == pytest.approx(2 * one / 2**0.7)
    ranks = [pinn_priority(m) for m in (wide, pinn_expected_minutes(25000, 1, 1, 1, {}), one)]
    assert ranks == sorted(ranks, reverse=True) and ranks[-1] == 1 and ranks[0] == 22
    assert pinn_priority(0.01) == 1
