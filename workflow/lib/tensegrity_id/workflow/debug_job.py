"""Run one job's script alone, outside Snakemake: the ``snakemake`` object of a target's job.

A rule's script reads ``snakemake.input``, ``snakemake.params``, ... and so
runs only under Snakemake.  To debug one job, build that object from the
workflow's DAG (the pattern of PyPSA-Eur's ``mock_snakemake``) and either
inspect it or run the script in this process::

    python -m tensegrity_id.workflow.debug_job results/structures/x1.json
    python -m tensegrity_id.workflow.debug_job results/structures/x1.json --run

The first prints the job that writes the target (rule, script, inputs,
outputs, wildcards, log); the second also runs the rule's script with the
global name ``snakemake`` bound to that object, as Snakemake's ``script:``
directive does, so a ``breakpoint()`` in the script stops in this terminal.
Nothing is scheduled and no job runs but that script; no file is deleted
(Snakemake would remove the job's old outputs first: here the script simply
overwrites them).  The inputs must exist already: missing ones are named and
nothing runs.

From Python (a notebook, a test)::

    from tensegrity_id.workflow.debug_job import mock_snakemake
    snakemake = mock_snakemake("results/structures/x1.json")
    snakemake.input.lib, snakemake.params.spec, snakemake.wildcards.structure

The config must be the run's: pass the same ``--configfile`` files (the
params and inputs of a job follow from the config).  Paths in the object are
relative to the workflow's root, as in a Snakemake job.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DebugJob",
    "load_job",
    "mock_snakemake",
    "missing_inputs",
    "missing_inputs_message",
    "describe",
    "run_script",
    "main",
]


@dataclass(frozen=True)
class DebugJob:
    """One job of the DAG: its ``snakemake`` object and the rule's script (``None``: not a script rule)."""

    target: str
    snakemake: object
    """A ``snakemake.iocontainers.Snakemake``, as Snakemake hands it to the script."""
    script: Path | None
    root: Path


def _dag_target_jobs(dag_api) -> tuple[list, dict]:
    """The jobs that produce the DAG's targets (Snakemake's ``Job`` objects, none of them run)
    and the workflow's config.

    The one place that reaches past Snakemake's public API (9.x), which builds
    DAGs but hands back no job.  It does what ``DAGApi.printdag()`` (``snakemake
    --dag``) does short of printing: ``WorkflowApi._workflow`` is the workflow
    object every ``DAGApi`` method uses; ``Workflow._prepare_dag()`` and
    ``Workflow._build_dag()`` build the DAG of the ``DAGSettings`` targets
    (without a lock: nothing runs); ``Workflow.dag.targetjobs`` are the jobs of
    the targets and ``Workflow.config`` the config the Snakefile saw.
    ``tests/unit/test_debug_job.py`` pins them.
    """
    workflow = dag_api.workflow_api._workflow
    workflow._prepare_dag(forceall=False, ignore_incomplete=True, lock_warn_only=True, nolock=True)
    workflow._build_dag()
    return list(workflow.dag.targetjobs), workflow.config


def _script_path(rule) -> Path | None:
    """The rule's ``script:`` as a path (relative to its rule file, as Snakemake resolves it)."""
    if not rule.script:
        return None
    script = Path(str(rule.script))
    if script.is_absolute():
        return script
    basedir = rule.basedir
    basedir = basedir.get_path_or_uri(secret_free=True) if hasattr(basedir, "get_path_or_uri") else basedir
    return Path(os.path.normpath(Path(str(basedir)) / script))


def load_job(target_file: str, configfiles: Iterable[str | Path] = (), root: str | Path = ".") -> DebugJob:
    """The job that writes ``target_file`` (relative to ``root``), resolved from the workflow's DAG.

    Reads the workflow at ``root`` (its ``Snakefile``) with ``configfiles``
    as ``snakemake --configfile`` would, builds the DAG for the target and
    returns its job; runs nothing.  Raises Snakemake's error when no rule
    writes the target.
    """
    from snakemake.settings.types import OutputSettings, Quietness

    root = Path(root).resolve()
    configfiles = [Path(f).resolve() for f in configfiles]
    output = OutputSettings(dryrun=True, quiet={Quietness.ALL}, enable_file_logging=False)
    # reading the Snakefile puts the workflow's library first on PYTHONPATH (for a run's jobs);
    # this process runs no job, so the variable is put back as it was
    pythonpath = os.environ.get("PYTHONPATH")
    try:
        return _load_job(target_file, configfiles, root, output)
    finally:
        if pythonpath is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = pythonpath


def _load_job(target_file, configfiles, root, output) -> DebugJob:
    from snakemake.api import SnakemakeApi
    from snakemake.iocontainers import Snakemake
    from snakemake.settings.types import ConfigSettings, DAGSettings, ResourceSettings

    with SnakemakeApi(output) as api:
        workflow_api = api.workflow(
            resource_settings=ResourceSettings(),
            config_settings=ConfigSettings(configfiles=configfiles),
            snakefile=root / "Snakefile",
            workdir=root,
        )
        dag_api = workflow_api.dag(DAGSettings(targets={str(target_file)}))
        jobs, config = _dag_target_jobs(dag_api)
        if len(jobs) != 1:
            raise ValueError(f"{target_file}: expected one job to write it, the DAG has {len(jobs)}")
        job = jobs[0]
        script = _script_path(job.rule)
        snakemake = Snakemake(
            job.input,
            job.output,
            job.params,
            job.wildcards,
            job.threads,
            job.resources,
            job.log,
            config,
            job.rule.name,
            None,
            str(script.parent) if script else None,
        )
    return DebugJob(target=str(target_file), snakemake=snakemake, script=script, root=root)


def mock_snakemake(target_file: str, configfiles: Iterable[str | Path] = (), root: str | Path = "."):
    """The ``snakemake`` object of the job that writes ``target_file``: ``input``, ``output``,
    ``params``, ``wildcards``, ``log``, ``threads``, ``resources``, ``config``, ``rule``."""
    return load_job(target_file, configfiles, root).snakemake


def missing_inputs(snakemake, root: str | Path = ".") -> list[str]:
    """The job's input files that do not exist under ``root``."""
    return [f for f in snakemake.input if not (Path(root) / f).exists()]


def missing_inputs_message(target: str, missing: Sequence[str]) -> str:
    """Why the script of ``target``'s job was not run: its missing inputs, one a line."""
    lines = [
        f"debug_job: {len(missing)} input(s) of the job that writes {target} do not exist; nothing was run:",
        *(f"  {f}" for f in missing),
        f"Make them first (e.g. `snakemake --cores 1 {' '.join(missing)}`), with the same config.",
    ]
    return "\n".join(lines)


def _entries(files) -> list[tuple[str, str]]:
    """A Snakemake ``Namedlist`` of paths as ``(name, path)`` rows (name ``""`` when unnamed)."""
    rows, named = [], set()
    for name, value in files.items():
        values = [value] if isinstance(value, str) else list(value)
        rows += [(name, str(v)) for v in values]
        named.update(map(str, values))
    return rows + [("", str(f)) for f in files if str(f) not in named]


def describe(job: DebugJob) -> str:
    """The job as text: rule, script, wildcards, inputs (missing ones marked), outputs, log, params."""
    sm = job.snakemake
    missing = set(missing_inputs(sm, job.root))
    script = (
        job.script.relative_to(job.root) if job.script and job.script.is_relative_to(job.root) else job.script
    )

    def block(title, files, mark=frozenset()):
        rows = _entries(files)
        out = [f"{title}:" + ("" if rows else " none")]
        out += [f"  {name + ': ' if name else ''}{f}{'  (missing)' if f in mark else ''}" for name, f in rows]
        return out

    lines = [
        f"target:    {job.target}",
        f"rule:      {sm.rule}",
        f"script:    {script if script else 'none (not a script rule: --run cannot run it)'}",
        f"wildcards: {', '.join(f'{k}={v}' for k, v in sm.wildcards.items()) or 'none'}",
        f"threads:   {sm.threads}",
        *block("input", sm.input, missing),
        *block("output", sm.output),
        *block("log", sm.log),
        f"params:    {', '.join(sm.params.keys()) or 'none'}",
    ]
    return "\n".join(lines)


def run_script(job: DebugJob) -> None:
    """Run the rule's script in this process, ``snakemake`` bound to the job's object.

    As under Snakemake: the working directory is the workflow's root, the
    script's folder is on ``sys.path`` and the output and log folders exist.
    Deletes nothing.
    """
    if job.script is None:
        raise ValueError(f"rule {job.snakemake.rule} has no script: directive")
    sm = job.snakemake
    cwd, path = Path.cwd(), list(sys.path)
    os.chdir(job.root)
    try:
        for f in [*sm.output, *sm.log]:
            Path(f).parent.mkdir(parents=True, exist_ok=True)
        sys.path.append(str(job.script.parent))
        runpy.run_path(str(job.script), init_globals={"snakemake": sm}, run_name="__main__")
    finally:
        sys.path[:] = path
        os.chdir(cwd)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tensegrity_id.workflow.debug_job",
        description="Print the job that writes TARGET and, with --run, run its script in this process.",
    )
    ap.add_argument("target", help="an output file of the workflow, relative to the root (as for snakemake)")
    ap.add_argument(
        "--configfile", action="append", default=[], help="extra config file(s), as for snakemake"
    )
    ap.add_argument("--directory", "-d", default=".", help="the workflow's root (default: here)")
    ap.add_argument("--run", action="store_true", help="run the rule's script (breakpoint() works)")
    args = ap.parse_args(argv)

    from snakemake.exceptions import ApiError, RuleException, WorkflowError

    try:
        job = load_job(args.target, args.configfile, args.directory)
    except (WorkflowError, RuleException, ApiError, ValueError) as exc:
        print(f"debug_job: {exc}", file=sys.stderr)
        return 1
    print(describe(job))
    if not args.run:
        return 0
    if job.script is None:
        print(f"debug_job: rule {job.snakemake.rule} has no script to run", file=sys.stderr)
        return 1
    missing = missing_inputs(job.snakemake, job.root)
    if missing:
        print(missing_inputs_message(args.target, missing), file=sys.stderr)
        return 1
    print(f"running {job.script} ...", flush=True)
    run_script(job)
    return 0


if __name__ == "__main__":
    sys.exit(main())
