"""What a finished run says last: where its results are, the report command, the scorecard's line.

The Snakefile's ``onsuccess`` handler prints :func:`run_summary` after a run
that executed jobs (not after a dry run, nor when there was nothing to do).
The scorecard's line is the ``headline`` of ``results/values/scorecard.json``
(rule ``make_scorecard``), where that file exists: a run whose targets leave
the scorecard out shows the one an earlier run left in the same results.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from .paths import RESULTS, result_path

__all__ = ["REPORT", "DEFAULT_SNAKEFILES", "scorecard_headline", "report_command", "run_summary"]

REPORT = f"{RESULTS}/report.zip"
"""Where the report command writes Snakemake's report (a zip: the HTML with its tables and figures)."""


def scorecard_headline(path=None) -> str | None:
    """The scorecard's one-line summary from its values file, or ``None`` where there is none.

    Parameters
    ----------
    path : path, optional
        The values file (default ``results/values/scorecard.json``, relative to the working
        directory).  A missing, unreadable or headline-less file gives ``None``: the summary
        of a run never fails the run.
    """
    path = Path(path or result_path("scorecard"))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    line = doc.get("headline") if isinstance(doc, dict) else None
    return line if isinstance(line, str) and line else None


DEFAULT_SNAKEFILES = ("Snakefile", "snakefile", "workflow/Snakefile", "workflow/snakefile")
"""Where Snakemake looks for a Snakefile when none is given, in its order."""


def _is_default(snakefile) -> bool:
    """Whether Snakemake would pick ``snakefile`` without ``--snakefile`` in the working directory."""
    found = next((Path(f) for f in DEFAULT_SNAKEFILES if Path(f).is_file()), None)
    return found is not None and os.path.abspath(found) == os.path.abspath(snakefile)


def _shown(path) -> str:
    """``path`` relative to the working directory where it lies under it (Snakemake hands the
    config files over as absolute paths)."""
    rel = os.path.relpath(os.path.abspath(path))
    return str(path) if rel.startswith(os.pardir) else rel


def report_command(configfiles=(), *, snakefile=None) -> str:
    """The command that writes this run's report: the same config files, the same Snakefile.

    ``snakefile`` is left out where Snakemake finds it by itself; paths under the working
    directory are written relative to it.

    Examples
    --------
    >>> report_command(["config/test.yaml"])
    'snakemake --configfile config/test.yaml --report results/report.zip'
    """
    args = ["snakemake"]
    if snakefile and not _is_default(snakefile):
        args += ["--snakefile", _shown(snakefile)]
    if configfiles:
        args += ["--configfile", *map(_shown, configfiles)]
    return shlex.join([*args, "--report", REPORT])


def run_summary(configfiles=(), *, snakefile=None, results=RESULTS) -> str:
    """The lines a successful run ends with.

    Parameters
    ----------
    configfiles : sequence of path
        The run's ``--configfile`` arguments, repeated in the report command.
    snakefile : path, optional
        The run's Snakefile (Snakemake's ``workflow.main_snakefile``); named in the report
        command only where Snakemake would not find it by itself.
    results : path
        The results folder (relative to the working directory).

    Returns
    -------
    str
        Three or four lines: the results folder (absolute), the tables and figures under it,
        the report command, and the scorecard's line where a scorecard exists.
    """
    root = Path(os.path.abspath(results))
    lines = [
        f"Results: {root}/ (tables/, figures/, values/)",
        f"Report: {report_command(configfiles, snakefile=snakefile)}",
    ]
    headline = scorecard_headline(root / "values" / "scorecard.json")
    if headline:
        lines.append(f"Scorecard: {headline}")
    return "\n".join(lines)
