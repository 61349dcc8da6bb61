"""The scorecard counted: the summary per section and class, the headline, the documentation's
generated blocks, and the command that re-writes them or re-scores a published scorecard."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd
import yaml

from ...data.runio import write_json, write_text
from .claims import ClaimError, load_claims
from .score import COUNTED, STATUSES, change, rescore, status_counts

__all__ = [
    "SUMMARY_COLUMNS",
    "summary",
    "headline",
    "scorecard_values",
    "write_scorecard",
    "rescore_reference",
    "doc_blocks",
    "update_page",
    "update_docs",
    "main",
]

SUMMARY_COLUMNS = ["scope", "name", "claims", "counted", *STATUSES, "match_rate", "runs"]
RESCORE_COMMAND = "python -m tensegrity_id.report.scorecard rescore"
"""The command that re-scores a published reference (:func:`rescore_reference`); its ``rule`` in the
re-written values' provenance."""


def _section_of(section: str) -> str:
    """The part of the paper a claim's section names: '§4.3', 'Table 3 (§4.3)' -> '§4.3'."""
    m = re.search(r"§\s*(S?\d+(\.\d+)?)", str(section))
    if m:
        return f"§{m.group(1)}"
    return str(section).split("(")[0].strip()


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Claims per status over all claims, per section of the paper and per class
    (:data:`SUMMARY_COLUMNS`): the counted claims (match, better than the paper, deviation), the
    match rate over them, and the independent runs (distinct ``run``) behind the counted claims."""
    groups = [("all", "all claims", df)]
    groups += [("class", k, g) for k, g in df.groupby("class", sort=True)]
    sections = df["section"].map(_section_of)
    groups += [("section", k, df[sections == k]) for k in sorted(set(sections), key=_section_key)]
    rows = []
    for scope, name, g in groups:
        counts = status_counts(g)
        counted = sum(counts[s] for s in COUNTED)
        runs = g.loc[g["status"].isin(COUNTED), "run"]
        rows.append(
            {
                "scope": scope,
                "name": name,
                "claims": len(g),
                "counted": counted,
                **counts,
                "match_rate": round(counts["match"] / counted, 3) if counted else float("nan"),
                "runs": int(runs[runs != ""].nunique()),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _section_key(name: str):
    m = re.fullmatch(r"§(S?)(\d+)(?:\.(\d+))?", name)
    if not m:
        return (2, 0, 0, name)
    return (int(bool(m.group(1))), int(m.group(2)), int(m.group(3) or 0), name)


def headline(df: pd.DataFrame) -> str:
    """The scorecard in one line: identification results within the paper's band (and better than
    it), and all counted claims."""
    ident = df[df["class"] == "identification"]
    k, n = int((ident["status"] == "match").sum()), int(ident["status"].isin(COUNTED).sum())
    kb = int((ident["status"] == "better than the paper").sum())
    counts = status_counts(df)
    counted = sum(counts[s] for s in COUNTED)
    runs = df.loc[df["status"].isin(COUNTED), "run"]
    return (
        f"identification results: {k} of {n} within the paper's band, {kb} better than the paper; all "
        f"counted claims: {counts['match']} of {counted} match, {counts['better than the paper']} better "
        f"than the paper ({runs[runs != ''].nunique()} independent runs; {len(df)} claims, of which "
        f"{counts['input']} inputs and echoes and {counts['context']} hardware figures shown, not counted)"
    )


def scorecard_values(df: pd.DataFrame) -> dict:
    """The scorecard's counts as ``results/values/scorecard.json`` holds them."""
    counts = status_counts(df)
    ident = df["class"] == "identification"
    return {
        "n_claims": len(df),
        "counts": counts,
        "counted": sum(counts[s] for s in COUNTED),
        "matches_of_counted": counts["match"],
        "better_than_paper": counts["better than the paper"],
        "identification_matches": int((ident & (df["status"] == "match")).sum()),
        "identification_counted": int((ident & df["status"].isin(COUNTED)).sum()),
        "headline": headline(df),
    }


def write_scorecard(df: pd.DataFrame, tables: Path, values: Path, *, provenance=None) -> list[Path]:
    """Write ``scorecard.{csv,md}`` and ``scorecard_summary.{csv,md}`` under ``tables`` and
    ``scorecard.json`` under ``values`` (with ``provenance``: what made it,
    :mod:`tensegrity_id.results.provenance`); returns the paths written."""
    from ..tables import write_table

    tables, values = Path(tables), Path(values)
    write_table(df, tables / "scorecard.csv", tables / "scorecard.md", title="Reproduction scorecard")
    write_table(
        summary(df),
        tables / "scorecard_summary.csv",
        tables / "scorecard_summary.md",
        title="Scorecard summary",
        note=headline(df),
    )
    write_json(values / "scorecard.json", scorecard_values(df), provenance=provenance)
    return [
        tables / f for f in ("scorecard.csv", "scorecard.md", "scorecard_summary.csv", "scorecard_summary.md")
    ] + [values / "scorecard.json"]


def _merged_config(root: Path, configfiles) -> dict:
    """``config/config.yaml`` updated by ``configfiles``, merged as Snakemake merges them."""
    from snakemake.utils import update_config

    cfg: dict = {}
    for f in ["config/config.yaml", *configfiles]:
        update_config(cfg, yaml.safe_load((root / f).read_text()) or {})
    return cfg


def rescore_reference(
    reference: Path, claims_path: Path, root: Path = Path(".")
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Re-score a published reference (``reference/tables/scorecard.csv``) from its own values under
    the current claims and rules, re-write its scorecard files, and bring its manifest's hashes up to
    date with a note that only the scoring changed (nothing is written where the scorecard comes
    out the same).  Returns ``(new, old)`` scorecards."""
    import datetime
    import json

    from ...results.provenance import provenance_of
    from ...workflow.reference.manifest import sha256_of

    reference, root = Path(reference), Path(root)
    manifest_path = reference / "MANIFEST.json"
    manifest = json.loads(manifest_path.read_text())
    old = pd.read_csv(reference / "tables/scorecard.csv", dtype=str, keep_default_na=False)
    config = _merged_config(root, manifest.get("configs") or [])
    new = rescore(old, load_claims(claims_path, root=root), config=config, files=reference)
    if list(old.columns) == list(new.columns) and old.astype(str).equals(new.astype(str)):
        return new, old  # nothing to re-score: no file written, no note added
    # what made the new values: the claims, and the reference as published (its manifest hashes
    # every file the values are read from), hashed before anything is re-written
    prov = provenance_of(
        RESCORE_COMMAND,
        config=config,
        inputs=[claims_path, manifest_path, reference / "tables/scorecard.csv"],
    )
    written = write_scorecard(new, reference / "tables", reference / "values", provenance=prov)
    entries = {e["path"]: e for e in manifest["files"]}
    for path in written:
        key = "results/" + path.relative_to(reference).as_posix()
        if key not in entries:
            raise ClaimError(f"{manifest_path}: lists no {key}; re-publish the reference instead")
        entries[key].update(sha256=sha256_of(path), bytes=path.stat().st_size)
    counts = status_counts(new)
    manifest.setdefault("notes", []).append(
        f"{datetime.date.today().isoformat()}: re-scored from the reference's own scorecard values under "
        f"the claims and rules of this commit (python -m tensegrity_id.report.scorecard rescore): each value "
        f"read from the reference's own files where it holds the source, else from its scorecard; only the "
        f"scoring changed, no result was re-run: " + ", ".join(f"{n} {s}" for s, n in counts.items())
    )
    write_text(manifest_path, json.dumps(manifest, indent=1) + "\n")
    return new, old


# ------------------------------------------------------------------ documentation blocks
DOC_BLOCKS = {
    "counts": "docs/reproduction.md",
    "paper_scale": "docs/reproduction.md",
    "summary": "docs/reproduction.md",
    "verification": "docs/verification.md",
    "readme": "README.md",
}
"""The documentation's generated blocks, between ``<!-- scorecard:NAME -->`` and
``<!-- /scorecard:NAME -->``, and the page holding each (relative to the repository root)."""

PAPER_SCALE = "resources/reference/paper/tables/scorecard.csv"
"""The paper-scale scorecard: the published reference results of ``config/paper.yaml``."""

VERIFICATION_SECTIONS = ("§2", "Table 2", "§4.2")
"""Claims quoted in the verification page's table (sections starting so)."""


def _rate(x) -> str:
    return "" if pd.isna(x) else f"{100 * x:.0f} %"


def _counts_line(df: pd.DataFrame) -> str:
    return ", ".join(f"**{n}** {s}" for s, n in status_counts(df).items())


def _change_line(new: pd.DataFrame, old: pd.DataFrame) -> str:
    moved = change(new, old)
    before, after = status_counts(old), status_counts(new)
    deltas = ", ".join(f"{s} {after[s] - before[s]:+d}" for s in STATUSES if after[s] != before[s]) or "none"
    return f"{len(moved)} claims changed status ({deltas})"


def doc_blocks(
    df: pd.DataFrame,
    source: str,
    paper_scale: pd.DataFrame | None = None,
    previous: pd.DataFrame | None = None,
) -> dict:
    """The documentation's generated text: the counts per status and the summary per section and
    class (the default study's and, beside them, the paper-scale reference's when published), the
    change against a ``previous`` scorecard of the default study where given, the README's one
    line, and the verification claims as a table."""
    counted = sum(status_counts(df)[s] for s in COUNTED)
    rate = f"{100 * status_counts(df)['match'] / counted:.0f} %" if counted else "none counted"
    blocks = {
        "counts": f"Reproduction scorecard ({len(df)} claims of the paper, `{source}`, rule "
        f"`make_scorecard`): {_counts_line(df)}; match rate over the counted claims {rate}."
        + ("" if previous is None else f" Against the previous scorecard: {_change_line(df, previous)}."),
        "readme": f"Reproduction scorecard of the default study: {_counts_line(df)} "
        f"({len(df)} claims; [reproduction status](docs/reproduction.md)).",
    }
    if paper_scale is None:
        blocks["paper_scale"] = (
            f"At the paper's scale (`config/paper.yaml`): not yet published (`{PAPER_SCALE}` is "
            "written when the paper grid has run to the end)."
        )
    else:
        head = headline(paper_scale)
        blocks["paper_scale"] = (
            f"At the paper's scale (`config/paper.yaml`, `{PAPER_SCALE}`; {len(paper_scale)} claims): "
            f"{_counts_line(paper_scale)}. {head[0].upper()}{head[1:]}."
        )
    table, head = summary(df), headline(df)
    paper = None if paper_scale is None else summary(paper_scale).set_index(["scope", "name"])
    cols = ["scope", "claims", "counted", "match", "better", "deviation", "match rate", "independent runs"]
    if paper is not None:
        cols += ["paper scale: counted", "match", "better", "match rate"]
    lines = [f"**{head[0].upper()}{head[1:]}.**", "", f"| {' | '.join(cols)} |", "| --- " * len(cols) + "|"]
    for _, r in table[table["scope"] != "all"].iterrows():
        row = (
            f"| {r['scope']} {r['name']} | {r['claims']} | {r['counted']} | {r['match']} | "
            f"{r['better than the paper']} | {r['deviation']} | {_rate(r['match_rate'])} | {r['runs']} |"
        )
        if paper is not None:
            key = (r["scope"], r["name"])
            p = paper.loc[key] if key in paper.index else None
            row += (
                " | | | |"
                if p is None
                else f" {int(p['counted'])} | {int(p['match'])} | {int(p['better than the paper'])} | "
                f"{_rate(p['match_rate'])} |"
            )
        lines.append(row)
    blocks["summary"] = "\n".join(lines)
    ver = df[df["section"].astype(str).str.startswith(VERIFICATION_SECTIONS)]
    lines = ["| claim | paper | here | band | status |", "| --- | --- | --- | --- | --- |"]
    for _, r in ver.iterrows():
        status = r["status"] if r["status"] != "deviation" else f"deviation: {r['reason']}"
        unit = f" {r['unit']}" if isinstance(r["unit"], str) and r["unit"] else ""
        here = r["here"] if isinstance(r["here"], str) or not pd.isna(r["here"]) else ""
        lines.append(
            f"| {r['claim']} ({r['section']}) | {r['paper']}{unit} | {here} | "
            f"{r.get('rule', r['tolerance'])} | {status} |"
        )
    blocks["verification"] = "\n".join(lines)
    return blocks


def update_page(page: str, blocks: dict, *, name: str = "the page") -> str:
    """``page`` with each of ``blocks`` replaced (each block's marker pair must be present in it)."""
    for block, text in blocks.items():
        pattern = re.compile(rf"(<!-- scorecard:{block} -->\n).*?(<!-- /scorecard:{block} -->)", re.S)
        if not pattern.search(page):
            raise ClaimError(
                f"{name} has no '<!-- scorecard:{block} -->' ... '<!-- /scorecard:{block} -->' block"
            )
        page = pattern.sub(lambda m, t=text: m.group(1) + t + "\n" + m.group(2), page)
    return page


def update_docs(blocks: dict, root=".") -> list[Path]:
    """Rewrite each block in its page of :data:`DOC_BLOCKS` under ``root``; returns the pages written."""
    by_page: dict[str, dict] = {}
    for block, text in blocks.items():
        by_page.setdefault(DOC_BLOCKS[block], {})[block] = text
    written = []
    for rel, page_blocks in by_page.items():
        path = Path(root) / rel
        write_text(path, update_page(path.read_text(encoding="utf-8"), page_blocks, name=rel))
        written.append(path)
    return written


def main(argv=None) -> None:
    """Re-write the documentation's generated blocks, or re-score a published reference.

    ``python -m tensegrity_id.report.scorecard results/tables/scorecard.csv [--root .] [--previous
    OLD.csv]`` re-writes :data:`DOC_BLOCKS` from a scorecard of the default study and, where
    published, the paper-scale one (:data:`PAPER_SCALE`); ``--previous`` adds the change against an
    earlier scorecard.  ``python -m tensegrity_id.report.scorecard rescore [--reference
    resources/reference/paper]`` re-scores the reference from its own values (see
    :func:`rescore_reference`) and prints the claims whose status changed.
    """
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["rescore"]:
        ap = argparse.ArgumentParser(prog=RESCORE_COMMAND)
        ap.add_argument("--reference", default=str(Path(PAPER_SCALE).parents[1]))
        ap.add_argument("--claims", default="resources/published/claims.yaml")
        ap.add_argument("--root", default=".")
        a = ap.parse_args(args[1:])
        new, old = rescore_reference(Path(a.root) / a.reference, Path(a.root) / a.claims, Path(a.root))
        print(f"{a.reference}: {_change_line(new, old)}")
        for _, r in change(new, old).iterrows():
            print(f"  {r['id']}: {r['before']} -> {r['after']} ({r['here_before']} -> {r['here']})")
        return
    ap = argparse.ArgumentParser(prog="python -m tensegrity_id.report.scorecard")
    ap.add_argument("scorecard")
    ap.add_argument("root", nargs="?", default=".")
    ap.add_argument("--previous", default=None, help="an earlier scorecard.csv: the change against it")
    a = ap.parse_args(args)
    df = pd.read_csv(a.scorecard, dtype=str, keep_default_na=False)
    paper = Path(a.root) / PAPER_SCALE
    paper_df = pd.read_csv(paper, dtype=str, keep_default_na=False) if paper.is_file() else None
    prev = None if a.previous is None else pd.read_csv(a.previous, dtype=str, keep_default_na=False)
    for path in update_docs(doc_blocks(df, a.scorecard, paper_df, prev), a.root):
        print(f"wrote {path}")
