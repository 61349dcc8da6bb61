"""The size of a configuration on a cluster: jobs per rule and CPU-hours from measured benchmarks.

``python -m tensegrity_id.workflow.cluster_plan --configfile config/paper.yaml`` runs
``snakemake --dry-run --forceall`` on that configuration, reads every job's
rule, wildcards, threads and ``benchmark:`` file, and prices each job from the
benchmark files already in ``benchmarks/`` (those of the default run):

* a job whose own benchmark file exists is priced at its measured wall time;
* a physics-informed training job (rules ``identify_pinn_*``, one per job of
  at most ``identify.pinn.batch.seeds_per_job`` seeds of a seed group; its
  benchmark file names structure, record, seeds and steps) without one is
  priced from the measured seconds per training step, record and seed
  (median over the measured runs of the same structure, else of all
  structures) times its steps, record count and seeds, over
  ``threads**0.7``: a batch costs at least its seeds times one seed's
  arithmetic on one core (the step is bound by its matrix products and
  memory traffic), and two threads run it 1.6x faster
  (``tests/benchmarks/bench_pinn.py --seeds 8``; the exponent 0.7
  extrapolates that measurement to more threads); benchmarks of one-seed
  jobs price batches low, those of batches price one-seed jobs high;
* any other job without one at the median of its rule's measured jobs;
* rules without a ``benchmark:`` directive (tables, figures, assessment,
  sensor data: seconds each) are counted but not priced.

Core-hours are wall time times the job's threads (what a SLURM allocation
charges).  Printed as a table; ``--json PATH`` also writes it.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..data.runio import write_text
from .study_catalog import CATALOG_FILE, load_catalog

__all__ = [
    "parse_dry_run",
    "localrules",
    "read_benchmarks",
    "n_seeds",
    "pinn_job",
    "estimate",
    "no_benchmarks_message",
    "main",
]

THREAD_EXPONENT = 0.7
"""A PINN batch on T threads runs T**0.7 times faster than on one (measured: 1.6 at T = 2)."""
_BLOCK = re.compile(r"^(local)?rule (\w+):$", re.M)
_PINN = re.compile(
    r"identify_pinn/(?P<treatment>\w+)/(?P<structure>[^/]+)/(?P<record>[^/]+)/"
    r"(?P<protocol>.+)_seeds(?P<seeds>[0-9.\-]+)_steps(?P<steps>\d+)"
)


def parse_dry_run(text: str) -> pd.DataFrame:
    """One row per job of a ``snakemake -n`` listing: rule, local, wildcards, threads, benchmark."""
    rows = []
    heads = list(_BLOCK.finditer(text))
    for k, m in enumerate(heads):
        body = text[m.end() : heads[k + 1].start() if k + 1 < len(heads) else len(text)]
        field = {}
        for line in body.splitlines():
            line = line.strip()
            if not line or line.startswith("["):
                if field:
                    break
                continue
            key, _, value = line.partition(": ")
            field[key] = value
        wildcards = dict(kv.split("=", 1) for kv in field.get("wildcards", "").split(", ") if "=" in kv)
        rows.append(
            {
                "rule": m.group(2),
                "local": bool(m.group(1)),
                "wildcards": wildcards,
                "threads": int(field.get("threads", 1)),
                "benchmark": field.get("benchmark"),
            }
        )
    return pd.DataFrame(rows, columns=["rule", "local", "wildcards", "threads", "benchmark"])


def localrules(catalog=CATALOG_FILE) -> set[str]:
    """The rules that run on the submitting host: ``all`` and the study catalog's local rules."""
    return {"all", *load_catalog(catalog, check_captions=False).local_rules}


def read_benchmarks(root) -> dict[str, float]:
    """Benchmark file path (relative to ``root``'s parent, as the rules name it) -> wall seconds."""
    root = Path(root)
    out = {}
    for f in root.rglob("*.tsv"):
        t = pd.read_csv(f, sep="\t")
        if len(t) and "s" in t:
            out[str(Path(root.name) / f.relative_to(root))] = float(t["s"].median())
    return out


def n_seeds(label: str) -> int:
    """Seeds in a seed-set label (``0-7`` -> 8, ``0.2.5-6`` -> 4)."""
    n = 0
    for part in label.split("."):
        a, _, b = part.partition("-")
        n += int(b or a) - int(a) + 1
    return n


def pinn_job(benchmark) -> dict | None:
    """Structure, record, seed count and steps of a PINN training job, from its benchmark path."""
    m = _PINN.search(benchmark) if isinstance(benchmark, str) else None
    if not m:
        return None
    return {**m.groupdict(), "n_seeds": n_seeds(m["seeds"]), "steps": int(m["steps"])}


def _units(job, groups) -> float:
    """Steps x records x seeds of a PINN job (what its cost scales with)."""
    p = pinn_job(job["benchmark"])
    n_rec = len(groups.get(p["structure"], {}).get(p["record"], [None]))
    return p["steps"] * n_rec * p["n_seeds"]


def estimate(jobs: pd.DataFrame, measured: dict[str, float], groups: dict | None = None) -> pd.DataFrame:
    """Per rule: jobs, jobs on the cluster, jobs priced exactly / scaled, wall hours, core-hours."""
    groups = groups or {}
    jobs = jobs.copy()
    jobs["seconds"] = np.nan
    jobs["how"] = "unpriced"
    exact = jobs["benchmark"].map(lambda b: measured.get(b) if b else None)
    has = exact.notna()
    jobs.loc[has, "seconds"] = exact[has].astype(float)
    jobs.loc[has, "how"] = "measured"
    by_rule: dict[str, list[float]] = {}
    for path, s in measured.items():
        by_rule.setdefault(Path(path).parts[1].removesuffix(".tsv"), []).append(s)
    # PINN: seconds per step, record and seed, per structure
    is_pinn = jobs["benchmark"].map(lambda b: pinn_job(b) is not None)
    jobs.loc[is_pinn, "rule"] = "identify_pinn"  # one row for the rule family
    rate, rate_all = {}, []
    for _, j in jobs[has & is_pinn].iterrows():
        r = j["seconds"] * j["threads"] ** THREAD_EXPONENT / _units(j, groups)
        rate.setdefault(pinn_job(j["benchmark"])["structure"], []).append(r)
        rate_all.append(r)
    for i, j in jobs[~has & jobs["benchmark"].notna()].iterrows():
        if is_pinn[i] and rate_all:
            r = np.median(rate.get(pinn_job(j["benchmark"])["structure"], rate_all))
            jobs.loc[i, ["seconds", "how"]] = [
                r * _units(j, groups) / j["threads"] ** THREAD_EXPONENT,
                "scaled",
            ]
        elif by_rule.get(j["rule"]):
            jobs.loc[i, ["seconds", "how"]] = [float(np.median(by_rule[j["rule"]])), "rule median"]
    jobs["core_seconds"] = jobs["seconds"] * jobs["threads"]
    table = jobs.groupby("rule", sort=False).agg(
        jobs=("rule", "size"),
        cluster_jobs=("local", lambda x: int((~x).sum())),
        measured=("how", lambda x: int((x == "measured").sum())),
        estimated=("how", lambda x: int(x.isin(["scaled", "rule median"]).sum())),
        unpriced=("how", lambda x: int((x == "unpriced").sum())),
        wall_h=("seconds", lambda x: x.sum(min_count=1) / 3600),
        core_h=("core_seconds", lambda x: x.sum(min_count=1) / 3600),
    )
    return table.sort_values("core_h", ascending=False, na_position="last")


def _merged_config(configfiles) -> dict:
    """``config/config.yaml`` updated by ``configfiles``, merged as Snakemake merges them."""
    from snakemake.utils import update_config

    cfg: dict = {}
    for f in ["config/config.yaml", *configfiles]:
        update_config(cfg, yaml.safe_load(Path(f).read_text()) or {})
    return cfg


def no_benchmarks_message(root) -> str:
    """The one line printed when ``root`` holds no benchmark timings to price a plan from."""
    return (
        f"cluster_plan: no benchmark timings (*.tsv with an 's' column) under {Path(root).resolve()}/; "
        "they are written by a finished run of the workflow: run the default configuration first "
        "(snakemake --profile profiles/default, or with the --configfile you plan for), "
        "or pass --benchmarks DIR of a finished run"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--configfile", action="append", default=[], help="extra config file(s), as for snakemake"
    )
    ap.add_argument("--benchmarks", default="benchmarks", help="benchmark directory of a finished run")
    ap.add_argument("--json", help="also write the table here")
    args = ap.parse_args(argv)
    # the timings come first: without them there is nothing to price, and the dry run takes a while
    measured = read_benchmarks(args.benchmarks)
    if not measured:
        print(no_benchmarks_message(args.benchmarks), file=sys.stderr)
        return 2
    cmd = [sys.executable, "-m", "snakemake", "--dry-run", "--forceall"]
    for f in args.configfile:
        cmd += ["--configfile", f]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
        return proc.returncode
    jobs = parse_dry_run(proc.stdout)
    if jobs.empty:
        print(
            f"cluster_plan: the dry run ({' '.join(cmd[1:])}) listed no jobs; its output ends: "
            f"{proc.stdout[-300:]!r}",
            file=sys.stderr,
        )
        return 2
    jobs["local"] = jobs["local"] | jobs["rule"].isin(localrules())
    groups = _merged_config(args.configfile).get("identify", {}).get("pinn", {}).get("groups", {})
    table = estimate(jobs, measured, groups)
    n_bench = int(jobs["benchmark"].notna().sum())
    if n_bench and not int(table["measured"].sum() + table["estimated"].sum()):
        print(
            f"cluster_plan: none of the {n_bench} jobs with a benchmark: directive can be priced from "
            f"the {len(measured)} benchmark files under {Path(args.benchmarks).resolve()}/ (other rules); "
            "run the default configuration first (snakemake --profile profiles/default)",
            file=sys.stderr,
        )
        return 2
    total = table[["jobs", "cluster_jobs", "measured", "estimated", "unpriced", "wall_h", "core_h"]].sum()
    with pd.option_context("display.width", 140, "display.max_rows", 200):
        print(table.round(3).to_string())
    print(
        f"total: {int(total['jobs'])} jobs ({int(total['cluster_jobs'])} on the cluster), "
        f"{total['core_h']:.2f} core-hours, {total['wall_h']:.2f} job-hours "
        f"({int(total['measured'])} jobs measured, {int(total['estimated'])} estimated, "
        f"{int(total['unpriced'])} without a benchmark directive: seconds each)"
    )
    if args.json:
        write_text(
            args.json,
            json.dumps(
                {
                    "configfiles": args.configfile,
                    "rules": table.reset_index().to_dict(orient="records"),
                    "total": {k: float(v) for k, v in total.items()},
                },
                indent=1,
            ),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
