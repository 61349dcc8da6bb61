"""The command line: ``python -m tensegrity_id.workflow.reference publish|compare``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .comparison import BROKEN, CompareReport, compare
from .publication import publish

__all__ = ["main"]

DESCRIPTION = "Reference results: publish a finished run's outputs, and compare a run with them."


# ------------------------------------------------------------------ command line
def _print(report: CompareReport) -> None:
    width = max((len(f.path) for f in report.files), default=10)
    for f in report.files:
        if f.status in ("not produced", "not compared"):
            continue
        line = f"{f.path:<{width}}  {f.cls:<13}  {f.status}"
        shown = f.detail and f.status in ("different", *BROKEN)
        print(line + (f"  ({f.detail})" if shown else ""))
    counts = report.to_dict()["counts"]
    broken = counts["reference changed"] + counts["reference missing"]
    if broken:
        print(
            f"\nerror: {counts['reference changed']} reference files changed since publishing and "
            f"{counts['reference missing']} missing (their sha256 in MANIFEST.json): the reference is "
            "damaged; restore it (git checkout -- <folder>) before comparing",
            file=sys.stderr,
        )
    print(
        f"\n{report.compared} files compared with {report.reference}: "
        + ", ".join(f"{counts[k]} {k}" for k in ("equal", "within scatter", "different"))
        + f"; {counts['not compared']} figures and Markdown twins not compared; "
        + f"{counts['not produced']} reference files not produced by this run"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tensegrity_id.workflow.reference", description=DESCRIPTION)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("publish", help="copy a finished run's outputs into a reference folder")
    p.add_argument("--results", default="results", type=Path)
    p.add_argument("--out", default="resources/reference/paper", type=Path)
    p.add_argument("--command", required=True, help="the command that produced the run")
    p.add_argument("--config", action="append", default=[], help="a config file of the run (repeatable)")
    p.add_argument("--wall-s", type=float)
    p.add_argument("--cpu-s", type=float)
    p.add_argument("--peak-rss-mb", type=float)
    p.add_argument("--date")
    p.add_argument("--note", action="append", default=[], help="a note on how the run was made (repeatable)")
    p.add_argument(
        "--replace",
        action="store_true",
        help="replace a reference that lists files this run lacks (refused without it)",
    )
    c = sub.add_parser("compare", help="compare a run's results/ with a reference")
    c.add_argument("results", type=Path)
    c.add_argument("--reference", default="resources/reference/paper", type=Path)
    c.add_argument("--json", type=Path, help="also write the report as JSON")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "publish":
            m = publish(
                args.results,
                args.out,
                command=args.command,
                configs=args.config,
                wall_s=args.wall_s,
                cpu_s=args.cpu_s,
                peak_rss_mb=args.peak_rss_mb,
                date=args.date,
                notes=args.note,
                replace=args.replace,
            )
            print(f"published {len(m['files'])} files to {args.out} (MANIFEST.json)")
            if m["commit"] is None:
                print("warning: the run's folder is no git working tree; no commit recorded", file=sys.stderr)
            return 0
        if not (args.reference / "MANIFEST.json").is_file():
            raise ValueError(f"{args.reference}: no MANIFEST.json; pass --reference the published folder")
        if not args.results.is_dir():
            raise ValueError(f"{args.results}: not a folder; pass your run's results/ folder")
        report = compare(args.results, args.reference)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _print(report)
    if args.json:
        args.json.write_text(json.dumps(report.to_dict(), indent=1) + "\n")
    return report.exit_code()
