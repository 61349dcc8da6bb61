"""Cluster sizing from a dry run and measured benchmarks (tensegrity_id.workflow.cluster_plan)."""

import pytest
from tensegrity_id.workflow.cluster_plan import estimate, localrules, parse_dry_run

DRY = """
[Wed Dec  2 07:18:40 2026]
rule identify_pinn:
    output: results/identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps1000.json
    jobid: 3
    benchmark: benchmarks/identify_pinn/smooth/x1/taut_1pt/top_node_seed0_steps1000.tsv
    reason: Forced execution
    wildcards: treatment=smooth, structure=x1, record=taut_1pt, protocol=top_node, seed=0, steps=1000
    resources: tmpdir=/tmp, runtime=14, mem_mb=2000

[Wed Dec  2 07:18:40 2026]
rule identify_pinn:
    jobid: 4
    benchmark: benchmarks/identify_pinn/smooth/x1/pool/top_node_seed1_steps3000.tsv
    wildcards: treatment=smooth, structure=x1, record=pool, protocol=top_node, seed=1, steps=3000

[Wed Dec  2 07:18:40 2026]
rule identify_baseline:
    jobid: 5
    benchmark: benchmarks/identify_baseline/lm/x1/a.tsv
    wildcards: method=lm_shooting, structure=x1
    threads: 2

[Wed Dec  2 07:18:40 2026]
rule identify_baseline:
    jobid: 6
    benchmark: benchmarks/identify_baseline/lm/x1/b.tsv
    threads: 2

[Wed Dec  2 07:18:40 2026]
localrule make_table9:
    jobid: 7
"""


def test_dry_run_jobs_are_priced_from_measured_scaled_and_median_benchmarks():
    jobs = parse_dry_run(DRY)
    assert jobs["rule"].tolist() == ["identify_pinn"] * 2 + ["identify_baseline"] * 2 + ["make_table9"]
    assert jobs["threads"].tolist() == [1, 1, 2, 2, 1] and jobs["local"].tolist() == [False] * 4 + [True]
    assert jobs.loc[1, "wildcards"]["steps"] == "3000"
    measured = {
        "benchmarks/identify_pinn/smooth/x1/taut_1pt/top_node_seed0_steps1000.tsv": 100.0,
        "benchmarks/identify_baseline/lm/x1/a.tsv": 30.0,
    }
    t = estimate(jobs, measured, {"x1": {"pool": ["r1", "r2", "r3"]}})
    pinn, base = t.loc["identify_pinn"], t.loc["identify_baseline"]
    # 0.1 s per step and record: 3000 steps x 3 records = 900 s, plus the measured 100 s
    assert pinn["wall_h"] == pytest.approx(1000 / 3600) and (pinn["measured"], pinn["estimated"]) == (1, 1)
    # the unmeasured baseline job at its rule's median; two threads each
    assert base["core_h"] == pytest.approx(2 * 60 / 3600) and base["estimated"] == 1
    assert t.loc["make_table9", "unpriced"] == 1 and t.loc["make_table9", "cluster_jobs"] == 0


def test_localrules_are_read_from_the_snakefile(repo):
    local = localrules(repo / "Snakefile")
    assert {"all", "make_table_s3", "plot_figS3", "make_table9"} <= local
    assert "identify_pinn" not in local
