"""Cluster sizing from a dry run and measured benchmarks (tensegrity_id.workflow.cluster_plan)."""

import pytest
from tensegrity_id.workflow.cluster_plan import estimate, localrules, n_seeds, parse_dry_run, pinn_job

DRY = """
[Wed Dec  2 07:18:40 2026]
rule identify_pinn_smooth_x1_taut_1pt_top_node_steps1000_seed0:
    output: results/identify/pinn_smooth/x1/taut_1pt/top_node_seed0_steps1000.json
    jobid: 3
    benchmark: benchmarks/identify_pinn/smooth/x1/taut_1pt/top_node_seeds0_steps1000.tsv
    reason: Forced execution
    resources: tmpdir=/tmp, runtime=14, mem_mb=2000

[Wed Dec  2 07:18:40 2026]
rule identify_pinn_smooth_x1_pool_top_node_steps3000_seeds1to2_5:
    jobid: 4
    benchmark: benchmarks/identify_pinn/smooth/x1/pool/top_node_seeds1-2.5_steps3000.tsv
    threads: 2

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
    assert jobs["rule"].tolist()[2:] == ["identify_baseline"] * 2 + ["make_table9"]
    assert jobs["threads"].tolist() == [1, 2, 2, 2, 1] and jobs["local"].tolist() == [False] * 4 + [True]
    assert jobs.loc[2, "wildcards"]["method"] == "lm_shooting"
    measured = {
        "benchmarks/identify_pinn/smooth/x1/taut_1pt/top_node_seeds0_steps1000.tsv": 100.0,
        "benchmarks/identify_baseline/lm/x1/a.tsv": 30.0,
    }
    t = estimate(jobs, measured, {"x1": {"pool": ["r1", "r2", "r3"]}})
    pinn, base = t.loc["identify_pinn"], t.loc["identify_baseline"]
    # 0.1 s per step, record and seed: 3000 steps x 3 records x 3 seeds = 2700 s on one thread, over
    # 2**0.7 on the batch's two threads; plus the measured 100 s
    fast = 2700 / 2**0.7
    assert pinn["wall_h"] == pytest.approx((100 + fast) / 3600) and (pinn["measured"], pinn["estimated"]) == (
        1,
        1,
    )
    assert pinn["core_h"] == pytest.approx((100 + 2 * fast) / 3600) and pinn["jobs"] == 2
    # the unmeasured baseline job at its rule's median; two threads each
    assert base["core_h"] == pytest.approx(2 * 60 / 3600) and base["estimated"] == 1
    assert t.loc["make_table9", "unpriced"] == 1 and t.loc["make_table9", "cluster_jobs"] == 0


def test_seed_labels_count_their_seeds():
    assert [n_seeds(x) for x in ("0", "0-7", "0.2.5-6", "3-4.9")] == [1, 8, 4, 3]
    job = pinn_job("benchmarks/identify_pinn/fb/x2/slack_1pt/half_seeds0-3_steps12000_wbar10.tsv")
    assert job["structure"] == "x2" and job["n_seeds"] == 4 and job["steps"] == 12000


def test_localrules_are_read_from_the_study_catalog(repo):
    local = localrules(repo / "workflow/catalog.yaml")
    assert {"all", "make_tableS3", "plot_figS3", "make_table9"} <= local
    assert "identify_pinn" not in local
