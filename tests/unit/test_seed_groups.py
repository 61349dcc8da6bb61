"""Seed groups: their training jobs (tensegrity_id.workflow.job_names.seed_jobs) and their summary
from the seeds' result files (tensegrity_id.identify.seeds.summarize_seed_group)."""

import keyword
import re

import pytest
from result_records import make_result
from tensegrity_id.identify.seeds import seed_group_summary, summarize_seed_group
from tensegrity_id.results.identification import Batch, SeedGroupSummary
from tensegrity_id.workflow.job_names import seed_groups, seed_jobs, seeds_rule_tag

ROW = {"structure": "x1", "record": "taut_1pt", "protocol": "top_node", "treatment": "smooth", "steps": 300}


def _rows(seeds, **extra):
    return [{**ROW, "variant": "", "settings": {}, **extra, "seed": s} for s in seeds]


@pytest.mark.parametrize(
    "per_job, chunks",
    [
        (1, [[0], [1], [2], [3], [4], [5], [6], [7]]),
        (3, [[0, 1, 2], [3, 4, 5], [6, 7]]),
        (8, [[0, 1, 2, 3, 4, 5, 6, 7]]),
        (10, [[0, 1, 2, 3, 4, 5, 6, 7]]),
    ],
)
def test_a_group_of_eight_is_split_into_consecutive_chunks(per_job, chunks):
    (group,) = seed_groups(_rows([7, 3, 0, 5, 1, 6, 2, 4]))  # any order: sorted first
    jobs = seed_jobs([group], per_job)
    assert [j["seeds"] for j in jobs] == chunks
    names = [j["rule"] for j in jobs]
    assert len(set(names)) == len(names)
    for j in jobs:
        assert j["rule"].isidentifier() and not keyword.iskeyword(j["rule"])
        assert j["rule"].startswith("identify_pinn_smooth_x1_taut_1pt_top_node_steps300_")
        assert {k: j[k] for k in ROW} == ROW and j["name"] == group["name"]
    if per_job == 1:
        assert names[0].endswith("_steps300_seed0") and names[7].endswith("_steps300_seed7")
    if per_job == 3:
        assert [j["label"] for j in jobs] == ["0-2", "3-5", "6-7"]
        assert names[0].endswith("_steps300_seeds0to2")
    if per_job >= 8:
        assert jobs[0]["label"] == group["label"] == "0-7" and names[0].endswith("_steps300_seeds0to7")


def test_job_rule_names_stay_unique_across_groups_and_seed_sets():
    rows = _rows([0, 2, 5, 6]) + _rows([0], variant="wbar10", settings={"w_bar": 10})
    rows += _rows([0], treatment="fb")
    jobs = seed_jobs(seed_groups(rows), 4)
    assert [j["rule"] for j in jobs] == [
        "identify_pinn_smooth_x1_taut_1pt_top_node_steps300_seeds0_2_5to6",
        "identify_pinn_smooth_x1_taut_1pt_top_node_steps300_wbar10_seed0",
        "identify_pinn_fb_x1_taut_1pt_top_node_steps300_seed0",
    ]
    assert [seeds_rule_tag(s) for s in ([4], [1, 2], [0, 2, 5, 6])] == ["seed4", "seeds1to2", "seeds0_2_5to6"]
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match="seeds_per_job must be an integer >= 1"):
            seed_jobs(seed_groups(rows), bad)


def _result(seed, err, *, batch, wall_s, **fields):
    return make_result(
        seed=seed,
        steps=300,
        errors={"sigma_max_pct": err},
        outcome="identified",
        wall_s=wall_s,
        batch=Batch(seeds=batch, size=len(batch), train_wall_s=wall_s),
        **fields,
    )


def test_the_summary_of_files_from_several_jobs(tmp_path):
    """Seeds 0-1 trained as one batch (10 s), seed 2 alone (4 s): the statistics over all three; the
    group's wall_s is the jobs' wall times summed, each batch once."""
    runs = [
        _result(0, 1.0, batch=[0, 1], wall_s=10.0),
        _result(1, 3.0, batch=[0, 1], wall_s=10.0),
        _result(2, 5.0, batch=[2], wall_s=4.0),
    ]
    paths = []
    for r in runs:
        paths.append(tmp_path / f"top_node_seed{r.seed}_steps300.json")
        r.write(paths[-1])
    summ = summarize_seed_group(paths)
    assert summ == seed_group_summary(runs)
    assert summ.seeds == [0, 1, 2] and summ.n_seeds == 3 and summ.wall_s == 14.0
    e = summ.errors["sigma_max_pct"]
    assert (e.mean, e.min, e.max, e.n) == (3.0, 1.0, 5.0, 3)
    summ.write(tmp_path / "top_node_seeds_steps300.json")
    assert SeedGroupSummary.load(tmp_path / "top_node_seeds_steps300.json") == summ
    # the group as one job: that job's wall time
    one = [_result(k, 1.0, batch=[0, 1, 2], wall_s=12.0) for k in range(3)]
    assert seed_group_summary(one).wall_s == 12.0


def test_a_file_of_another_group_or_a_repeated_seed_is_named(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    _result(0, 1.0, batch=[0], wall_s=1.0).write(a)
    _result(1, 1.0, batch=[1], wall_s=1.0, protocol="single").write(b)
    with pytest.raises(ValueError, match=re.escape(f"{b}: protocol 'single' differs from {a}'s 'top_node'")):
        summarize_seed_group([a, b])
    _result(0, 2.0, batch=[0], wall_s=1.0).write(b)
    with pytest.raises(ValueError, match=re.escape(f"{b}: seed 0 is also {a}'s")):
        summarize_seed_group([a, b])
    with pytest.raises(ValueError, match="at least one result"):
        summarize_seed_group([])
