"""The documentation's measured figures, generated from one records file (``docs/measurements.yaml``).

Every measured figure the documentation quotes (a study's wall time, a test
tier's, a benchmark's, a step's, the paper grid's segments, the commit and
date a result was measured at) is an entry of ``docs/measurements.yaml``: its
``id``, what was measured, the command, the value(s) with units, the machine,
the commit and the date.  An entry is a row of a *group*; a group is a table
written between ``<!-- measurements:GROUP -->`` and ``<!-- /measurements:GROUP -->``
in ``README.md`` or a page of ``docs/``.  The prose around a table says what its
figures mean; commits and dates appear only in the tables and the records file
(``tests/unit/test_docs_measurements.py`` checks both).

``python -m tensegrity_id.workflow.measurements`` rewrites the tables;
``--check`` writes nothing and exits 1 when a table is stale or the records are
invalid.

The records file::

    groups:
      NAME:
        page: docs/performance.md          # where its block lies
        columns: [what, [wall time, value], measured]
        order: [id, ...]                   # optional: the rows' order
    entries:
      - id: ...
        group: NAME                        # also: [OTHER, ...]
        what: ...
        command: ...
        value: ... | {key: ..., ...}
        machine: {cores: 2, gpu: false}
        commit: abc1234 | [abc1234, def5678] | ""
        date: "2026-12-05" | [...] | ""
        show: {OTHER: {field: text}}       # optional: another table's wording

A column is a field name (its header the name) or ``[header, field]``; the
field ``value.KEY`` reads one value of a mapping, ``measured`` is the date and
commit together, ``machine`` the cores (and "GPU" where one was used).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

__all__ = [
    "RECORDS_FILE",
    "REQUIRED_FIELDS",
    "MeasurementsError",
    "Records",
    "load_records",
    "validate",
    "render_group",
    "block_pattern",
    "pages",
    "update_page",
    "generated_pages",
    "stale_pages",
    "main",
]

RECORDS_FILE = "docs/measurements.yaml"
"""The records file, relative to the repository root."""

GENERATOR = "python -m tensegrity_id.workflow.measurements"

REQUIRED_FIELDS = ("id", "group", "what", "command", "value", "machine", "commit", "date")
"""Every entry states these (``commit`` and ``date`` may be empty where the text never stated them)."""

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
_NAME = re.compile(r"[A-Za-z0-9_-]+")


class MeasurementsError(ValueError):
    """The records file is invalid, or a page lacks a group's block."""


def block_pattern(name: str = r"[A-Za-z0-9_-]+") -> re.Pattern:
    """A generated block ``<!-- measurements:NAME -->`` ... ``<!-- /measurements:NAME -->``."""
    return re.compile(
        rf"(?P<open><!-- measurements:(?P<name>{name}) -->\n)(?P<body>.*?)"
        r"(?P<close><!-- /measurements:(?P=name) -->)",
        re.S,
    )


def _as_list(v) -> list[str]:
    if v is None or v == "":
        return []
    items = v if isinstance(v, list) else [v]
    return [x.isoformat() if isinstance(x, _dt.date) else str(x) for x in items]


@dataclass
class Records:
    """The parsed records file: its groups (name -> spec) and entries (in file order)."""

    groups: dict
    entries: list

    def rows(self, group: str) -> list[dict]:
        """The entries of ``group``, each with its ``show`` wording for that group applied."""
        spec = self.groups[group]
        members = [e for e in self.entries if e.get("group") == group or group in (e.get("also") or [])]
        order = spec.get("order")
        if order:
            rank = {i: k for k, i in enumerate(order)}
            members.sort(key=lambda e: rank.get(e["id"], len(rank)))
        return [{**e, **((e.get("show") or {}).get(group) or {})} for e in members]


def validate(data) -> list[str]:
    """Everything wrong with a parsed records file (an empty list: valid)."""
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict):
        return ["the records file needs a 'groups' mapping and an 'entries' list"]
    if not isinstance(data.get("entries"), list):
        return ["the records file needs an 'entries' list"]
    errors = []
    groups = data["groups"]
    for name, spec in groups.items():
        if not _NAME.fullmatch(str(name)):
            errors.append(f"group {name!r}: a name of letters, digits, '_' and '-'")
        if not isinstance(spec, dict) or not spec.get("page") or not spec.get("columns"):
            errors.append(f"group {name!r}: needs 'page' and 'columns'")
            continue
        for col in spec["columns"]:
            if not (isinstance(col, str) or (isinstance(col, list) and len(col) == 2)):
                errors.append(f"group {name!r}: a column is a field or [header, field], not {col!r}")
    seen = set()
    for i, e in enumerate(data["entries"]):
        label = f"entry {e.get('id', i)!r}" if isinstance(e, dict) else f"entry {i}"
        if not isinstance(e, dict):
            errors.append(f"{label}: not a mapping")
            continue
        for f in REQUIRED_FIELDS:
            if f not in e:
                errors.append(f"{label}: no '{f}'")
        for f in ("id", "what", "command"):
            if f in e and not str(e[f] or "").strip():
                errors.append(f"{label}: '{f}' is empty")
        if e.get("id") in seen:
            errors.append(f"{label}: duplicate id")
        seen.add(e.get("id"))
        value = e.get("value")
        if "value" in e and not (
            (isinstance(value, str | int | float) and str(value).strip())
            or (isinstance(value, dict) and value and all(str(v).strip() for v in value.values()))
        ):
            errors.append(f"{label}: 'value' must be a non-empty string or mapping")
        machine = e.get("machine")
        if "machine" in e and not (
            isinstance(machine, dict)
            and isinstance(machine.get("cores"), int)
            and isinstance(machine.get("gpu"), bool)
        ):
            errors.append(f"{label}: 'machine' needs 'cores' (an integer) and 'gpu' (true or false)")
        for c in _as_list(e.get("commit")):
            if not _COMMIT.fullmatch(c):
                errors.append(f"{label}: commit {c!r} is not a 7-40 digit hex hash")
        for d in _as_list(e.get("date")):
            if not _DATE.fullmatch(d):
                errors.append(f"{label}: date {d!r} is not YYYY-MM-DD")
        for g in [e.get("group"), *(e.get("also") or [])]:
            if g not in groups:
                errors.append(f"{label}: no group {g!r}")
        for g in e.get("show") or {}:
            if g not in [e.get("group"), *(e.get("also") or [])]:
                errors.append(f"{label}: 'show' names {g!r}, not one of its groups")
    for name, spec in groups.items():
        if isinstance(spec, dict) and not any(
            isinstance(e, dict) and (e.get("group") == name or name in (e.get("also") or []))
            for e in data["entries"]
        ):
            errors.append(f"group {name!r}: no entry")
        for i in (spec.get("order") or []) if isinstance(spec, dict) else []:
            if i not in seen:
                errors.append(f"group {name!r}: 'order' names an unknown entry {i!r}")
    return errors


def load_records(path) -> Records:
    """Read and validate the records file (:class:`MeasurementsError` listing every problem)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    errors = validate(data)
    if errors:
        raise MeasurementsError(f"{path}:\n  " + "\n  ".join(errors))
    return Records(groups=data["groups"], entries=data["entries"])


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def measured(entry: dict) -> str:
    """The date and commit of an entry as one cell: "2026-12-05, commit 68b67c1"."""
    dates, commits = _as_list(entry.get("date")), _as_list(entry.get("commit"))
    date = _join(dates) if dates else "date not stated"
    if not commits:
        return f"{date}, commit not stated"
    return f"{date}, {'commit' if len(commits) == 1 else 'commits'} {_join(commits)}"


def _machine(entry: dict) -> str:
    m = entry.get("machine") or {}
    cores = m.get("cores")
    text = f"{cores} core{'s' if cores != 1 else ''}"
    return text + (", GPU" if m.get("gpu") else "")


def _cell(entry: dict, field: str) -> str:
    if field == "measured":
        text = measured(entry)
    elif field == "machine":
        text = _machine(entry)
    elif field in ("commit", "date"):
        text = _join(_as_list(entry.get(field))) if _as_list(entry.get(field)) else "not stated"
    elif field.startswith("value."):
        value = entry.get("value")
        text = value.get(field[len("value.") :], "") if isinstance(value, dict) else ""
    else:
        text = entry.get(field, "")
        if isinstance(text, dict):
            text = "; ".join(f"{k}: {v}" for k, v in text.items())
    text = " ".join(str(text if text is not None else "").split())
    return text.replace("|", r"\|")


def _columns(spec: dict) -> list[tuple[str, str]]:
    return [(c, c) if isinstance(c, str) else (str(c[0]), str(c[1])) for c in spec["columns"]]


def render_group(records: Records, name: str) -> str:
    """The markdown table of group ``name`` (one row an entry), ending in a newline."""
    if name not in records.groups:
        raise MeasurementsError(f"no group {name!r} in {RECORDS_FILE}")
    cols = _columns(records.groups[name])
    lines = [
        "| " + " | ".join(h for h, _ in cols) + " |",
        "| " + " | ".join("---" for _ in cols) + " |",
    ]
    for e in records.rows(name):
        lines.append("| " + " | ".join(_cell(e, f) for _, f in cols) + " |")
    return "\n".join(lines) + "\n"


def pages(root=".") -> list[Path]:
    """The pages that may hold a block: ``README.md`` and every ``docs/**/*.md``."""
    root = Path(root)
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def update_page(text: str, records: Records, *, name: str = "the page") -> str:
    """``text`` with every measurements block rewritten from ``records``."""

    def body(m: re.Match) -> str:
        group = m.group("name")
        if group not in records.groups:
            raise MeasurementsError(f"{name}: block '{group}' names no group of {RECORDS_FILE}")
        return m.group("open") + render_group(records, group) + m.group("close")

    return block_pattern().sub(body, text)


def _blocks(text: str) -> list[str]:
    return [m.group("name") for m in block_pattern().finditer(text)]


def generated_pages(records: Records, root=".") -> dict[Path, str]:
    """Every page holding a block -> its text with the blocks current.

    Raises :class:`MeasurementsError` when a group's block is missing from its
    page or lies elsewhere.
    """
    root = Path(root)
    out = {}
    found: dict[str, list[str]] = {}
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        names = _blocks(text)
        rel = page.relative_to(root).as_posix()
        for n in names:
            found.setdefault(n, []).append(rel)
        if names:
            out[page] = update_page(text, records, name=rel)
    problems = []
    for group, spec in records.groups.items():
        where = found.get(group, [])
        if spec["page"] not in where:
            problems.append(f"group {group!r}: no block in {spec['page']}")
        for other in where:
            if other != spec["page"]:
                problems.append(f"group {group!r}: a block in {other}, but its page is {spec['page']}")
    if problems:
        raise MeasurementsError("\n".join(problems))
    return out


def stale_pages(records: Records, root=".") -> list[str]:
    """The pages whose blocks differ from what the records give (relative paths)."""
    root = Path(root)
    return [
        p.relative_to(root).as_posix()
        for p, text in generated_pages(records, root).items()
        if p.read_text(encoding="utf-8") != text
    ]


def write_pages(records: Records, root=".") -> list[Path]:
    """Rewrite the stale pages; the pages written."""
    written = []
    for p, text in generated_pages(records, root).items():
        if p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
            written.append(p)
    return written


def main(argv: Iterable[str] | None = None) -> int:
    """Rewrite the measurements tables (``--check``: list the stale pages, exit 1 if any)."""
    parser = argparse.ArgumentParser(
        prog=GENERATOR,
        description=f"Regenerate the measurements tables of README.md and docs/ from {RECORDS_FILE}.",
    )
    parser.add_argument("--root", default=".", help="the repository root (default: the working directory)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a table is stale")
    args = parser.parse_args(None if argv is None else list(argv))
    root = Path(args.root)
    try:
        records = load_records(root / RECORDS_FILE)
        if args.check:
            stale = stale_pages(records, root)
            for p in stale:
                print(f"stale: {p}")
            print(f"run {GENERATOR}" if stale else "all measurements tables are current")
            return 1 if stale else 0
        written = write_pages(records, root)
    except MeasurementsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for p in written:
        print(f"wrote {p}")
    if not written:
        print("all measurements tables are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
