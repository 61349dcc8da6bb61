"""The documentation's measured figures: generated tables current, no commit or date in prose.

Measured figures live in ``docs/measurements.yaml`` and reach the pages as the
tables between ``<!-- measurements:NAME -->`` markers
(:mod:`tensegrity_id.workflow.measurements`); the prose says what a figure
means and carries no commit hash and no date.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from tensegrity_id.workflow import measurements as m

ROOT = Path(__file__).resolve().parents[2]

HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
"""A commit hash: 7-40 hex characters with at least one digit and one letter a-f, as a word."""

DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
"""An ISO date."""

GENERATED = re.compile(r"<!-- (/?)(measurements|scorecard|catalog):[\w-]+ -->")
"""A generated block's marker: the measurements tables and the other generators' blocks."""

ALLOWED: dict[tuple[str, str], str] = {}
"""(page, text) -> why the text may stand in prose.  Empty: no exception is needed.
``CHANGELOG.md`` is out of scope (not a docs page), and the paper's line numbers
cited in ``docs/deviations.md`` and the results pages are not hashes."""


def _prose_lines(text: str):
    """(line number, line) of the prose: outside fenced code and generated blocks."""
    fence = None
    generated = False
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        marker = GENERATED.fullmatch(s)
        if fence is None and marker:
            generated = not marker.group(1)
            continue
        if s.startswith(("```", "~~~")):
            if fence is None:
                fence = s[:3]
            elif s.startswith(fence):
                fence = None
            continue
        if fence is None and not generated:
            yield i, line


def test_generated_tables_are_current():
    records = m.load_records(ROOT / m.RECORDS_FILE)
    assert m.stale_pages(records, ROOT) == [], f"stale: run {m.GENERATOR}"
    assert m.main(["--root", str(ROOT), "--check"]) == 0


@pytest.mark.parametrize("page", [p.relative_to(ROOT).as_posix() for p in m.pages(ROOT)], ids=lambda p: p)
def test_prose_carries_no_commit_or_date(page):
    found = []
    for i, line in _prose_lines((ROOT / page).read_text(encoding="utf-8")):
        for pattern, kind in ((HASH, "commit hash"), (DATE, "date")):
            for hit in pattern.findall(line):
                if (page, hit) not in ALLOWED:
                    found.append(f"{page}:{i}: {kind} {hit!r}")
    assert not found, (
        "commits and dates belong in docs/measurements.yaml and its generated tables:\n" + "\n".join(found)
    )


def test_every_entry_has_its_fields():
    data = yaml.safe_load((ROOT / m.RECORDS_FILE).read_text(encoding="utf-8"))
    assert m.validate(data) == []
    for e in data["entries"]:
        missing = [f for f in m.REQUIRED_FIELDS if f not in e]
        assert not missing, f"{e.get('id')}: missing {missing}"
        assert e["machine"]["cores"] >= 1 and isinstance(e["machine"]["gpu"], bool)


def test_validate_flags_a_broken_entry():
    data = {
        "groups": {"g": {"page": "README.md", "columns": ["what"]}},
        "entries": [{"id": "a", "group": "h", "what": "x", "command": "c", "value": "", "commit": "zz"}],
    }
    errors = "\n".join(m.validate(data))
    for needle in (
        "no 'machine'",
        "no 'date'",
        "'value' must be",
        "commit 'zz'",
        "no group 'h'",
        "group 'g': no entry",
    ):
        assert needle in errors


def test_scan_skips_code_and_generated_blocks():
    text = (
        "a\n```\nabc1234 2026-01-01\n```\n<!-- measurements:x -->\n| abc1234 |\n<!-- /measurements:x -->\nb\n"
    )
    assert [line for _, line in _prose_lines(text)] == ["a", "b"]
    assert HASH.findall("commit 68b67c1, not 1234567 nor deadbeef") == ["68b67c1"]


def test_render_and_update_a_block(tmp_path):
    records = m.Records(
        groups={"g": {"page": "README.md", "columns": ["what", ["time", "value"], "measured"]}},
        entries=[
            {
                "id": "a",
                "group": "g",
                "what": "x | y",
                "value": "1 s",
                "commit": "abc1234",
                "date": "2026-01-02",
            },
            {"id": "b", "group": "g", "what": "z", "value": "2 s", "commit": "", "date": ""},
        ],
    )
    table = m.render_group(records, "g")
    assert table.splitlines()[2] == r"| x \| y | 1 s | 2026-01-02, commit abc1234 |"
    assert table.splitlines()[3] == "| z | 2 s | date not stated, commit not stated |"
    page = "t\n\n<!-- measurements:g -->\nold\n<!-- /measurements:g -->\n"
    assert m.update_page(page, records) == f"t\n\n<!-- measurements:g -->\n{table}<!-- /measurements:g -->\n"
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text(page)
    assert m.stale_pages(records, tmp_path) == ["README.md"]
    (tmp_path / "README.md").write_text("no block\n")
    with pytest.raises(m.MeasurementsError, match="no block in README.md"):
        m.generated_pages(records, tmp_path)
