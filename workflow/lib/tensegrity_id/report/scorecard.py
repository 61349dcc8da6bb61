"""The reproduction scorecard: every number the seed prints, against the workflow's value.

``resources/published/claims.yaml`` lists the claims.  A **scalar claim**::

    - id: x1_sigma_top
      section: "§4.2"                      # the seed's section, table or figure
      quantity: X1 top-cable force density
      paper: 52.2                          # the seed's value (number or text; ">100" and "<1" allowed)
      unit: N/m
      tolerance: precision                 # see TOLERANCES
      source: {file: results/structures/x1.json, key: members.3.sigma}
      deviation: one line on why it differs   # where the evidence shows it does
      anchor: "#the-structures-and-what-is-verified"   # README section holding the evidence

``source`` is a JSON file with a dotted ``key`` (list indices as numbers) or
a CSV table with ``where: {column: value}`` selecting one row and
``column``.  ``missing: <the data source>`` names the data a claim needs
that this repository cannot hold (then no ``source``); ``kind: input``
marks a value equal by construction (an input of the workflow, e.g. a
structure's node count), ``kind: context`` a hardware-specific one (a wall
time on the paper's machine): both are shown and never counted.  No key
sets a status.

A **table claim** expands to one scalar claim per row and column of a
published table (``resources/published/*.csv``) against the workflow's table
of the same rows::

    - id: table3
      section: Table 3 (§4.3)
      published: resources/published/table3.csv
      file: results/tables/table3.csv
      key: row                             # the row id column(s) in both files (a list for several)
      columns:                              # published column -> workflow column, unit, tolerance
        sigma_max_pct: {here: sigma_max_pct, unit: "%", tolerance: band}

Tolerance classes (:data:`TOLERANCES`): ``exact`` (counts and labels),
``precision`` (within half a unit of the seed's last printed digit),
``rel:<r>`` / ``abs:<a>`` (a stated relative or absolute tolerance),
``order`` (within a factor of ten: round-off levels), ``upper`` (at or below
the seed's value: "at most" statements), ``band`` (the same side of the
5 % and 30 % identification thresholds: run-to-run quantities of a
stochastic training whose seed scatter the seed itself reports), and
``qualitative`` (a statement checked by a boolean of the workflow).

Statuses (:data:`STATUSES`), from the evidence only: ``match`` (within
tolerance), ``deviation`` (outside it, or produced but not a number: NaN,
inf or an empty cell; the claim's ``deviation`` line and anchor say why),
``input`` and ``context`` (the claim's ``kind``: shown, not counted),
``not reproducible here`` (the claim names its ``missing`` data source),
``not yet produced`` (the file, row or key is absent in this configuration).
"""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import pandas as pd
import yaml

from ..data.runio import write_text

__all__ = [
    "STATUSES",
    "COUNTED",
    "KINDS",
    "TOLERANCES",
    "SCORECARD_COLUMNS",
    "ClaimError",
    "load_claims",
    "claim_files",
    "lookup",
    "within",
    "scorecard",
    "status_counts",
]

STATUSES = ("match", "deviation", "input", "context", "not reproducible here", "not yet produced")
COUNTED = ("match", "deviation")
"""The statuses that count in a match rate (``input`` and ``context`` are shown, never counted)."""
KINDS = ("result", "input", "context")
"""A claim's ``kind``: a result of the workflow (default), an input equal by construction, or a
hardware-specific figure of the paper's machine."""
NOT_A_NUMBER = object()
"""What :func:`lookup` returns for a value that is there but is not a number (NaN, inf, empty)."""
TOLERANCES = ("exact", "precision", "rel", "abs", "order", "upper", "band", "qualitative")
SCORECARD_COLUMNS = [
    "id",
    "section",
    "claim",
    "paper",
    "here",
    "unit",
    "tolerance",
    "status",
    "reason",
    "source",
]
BAND_EDGES = (5.0, 30.0)
"""Identification thresholds (%) of the ``band`` class: identified, partial, beyond."""


class ClaimError(ValueError):
    """A malformed claims file (names the claim and the field)."""


def _check_tolerance(cid: str, tol: str) -> None:
    kind = str(tol).split(":")[0]
    if kind not in TOLERANCES:
        raise ClaimError(f"claim '{cid}': tolerance {tol!r} is not one of {', '.join(TOLERANCES)}")
    if kind in ("rel", "abs"):
        try:
            float(str(tol).split(":")[1])
        except (IndexError, ValueError):
            raise ClaimError(f"claim '{cid}': tolerance {tol!r} needs a number, e.g. 'rel:0.01'") from None


def _expand_table(entry: dict, root: Path) -> list[dict]:
    with open(root / entry["published"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    keys = entry["key"] if isinstance(entry["key"], list) else [entry["key"]]
    out = []
    for row in rows:
        rid = ".".join(row[k] for k in keys)
        if entry.get("rows") and rid not in entry["rows"]:
            continue
        for pub_col, spec in entry["columns"].items():
            paper = row.get(pub_col, "")
            if paper in ("", None):
                continue
            label = row.get(entry["label"]) if "label" in entry else " ".join(row[k] for k in keys)
            out.append(
                {
                    "id": f"{entry['id']}.{rid}.{pub_col}",
                    "section": entry["section"],
                    "quantity": f"{label}: {spec.get('name', pub_col)}",
                    "paper": paper,
                    "unit": spec.get("unit", ""),
                    "tolerance": spec["tolerance"],
                    "source": {
                        "file": entry["file"],
                        "where": {k: row[k] for k in keys},
                        "column": spec["here"],
                    },
                    **{
                        k: entry[k]
                        for k in ("deviation", "anchor", "missing", "kind", "private", "todo")
                        if k in entry
                    },
                    **{k: spec[k] for k in ("deviation", "anchor", "kind") if k in spec},
                }
            )
    return out


def load_claims(path, root=".") -> list[dict]:
    """The claims of ``path``, table claims expanded, each checked for its fields."""
    root = Path(root)
    raw = yaml.safe_load(Path(path).read_text())
    if not isinstance(raw, list):
        raise ClaimError(f"{path}: expected a list of claims")
    claims, seen = [], set()
    for i, entry in enumerate(raw):
        cid = entry.get("id") or f"#{i}"
        if "published" in entry:
            for f in ("section", "file", "key", "columns"):
                if f not in entry:
                    raise ClaimError(f"claim '{cid}': table claim without '{f}'")
            expanded = _expand_table(entry, root)
        else:
            expanded = [entry]
        for c in expanded:
            for f in ("id", "section", "quantity", "paper", "unit", "tolerance"):
                if f not in c:
                    raise ClaimError(f"claim '{c.get('id', cid)}': missing field '{f}'")
            for key in ("private", "todo", "status"):
                if key in c:
                    raise ClaimError(
                        f"claim '{c['id']}': '{key}' would set a status by hand; give a 'source' (the "
                        "status follows its value), or 'missing' naming a data source this repository "
                        "cannot hold"
                    )
            if ("source" in c) == ("missing" in c):
                raise ClaimError(f"claim '{c['id']}': give either 'source' or 'missing' (the data source)")
            if "missing" in c and not str(c["missing"]).strip():
                raise ClaimError(f"claim '{c['id']}': 'missing' must name the data source")
            if c.get("kind", "result") not in KINDS:
                raise ClaimError(f"claim '{c['id']}': kind {c['kind']!r} is not one of {', '.join(KINDS)}")
            if c["id"] in seen:
                raise ClaimError(f"claim '{c['id']}' appears twice")
            seen.add(c["id"])
            _check_tolerance(c["id"], c["tolerance"])
            claims.append(c)
    return claims


def claim_files(claims: list[dict]) -> list[str]:
    """Every results file the claims read, in order, once."""
    return list(dict.fromkeys(c["source"]["file"] for c in claims if "source" in c))


def _json_key(doc, key: str):
    node = doc
    for part in str(key).split("."):
        if isinstance(node, list):
            node = node[int(part)]
        else:
            node = node[part]
    return node


def _read(path: Path, cache: dict):
    """A results file's content (JSON document or CSV table as text), read once per scorecard."""
    if path not in cache:
        if path.suffix == ".json":
            cache[path] = json.loads(path.read_text())
        else:
            cache[path] = pd.read_csv(path, dtype=str, keep_default_na=False)
    return cache[path]


def lookup(source: dict, root=".", cache: dict | None = None):
    """The workflow's value of a claim source, ``None`` where the file, row or key is absent, and
    :data:`NOT_A_NUMBER` where the value is there but empty, NaN or infinite.

    ``cache`` (a dict, optional) keeps each file's parsed content between calls.
    """
    path = Path(root) / source["file"]
    if not path.exists():
        return None
    try:
        doc = _read(path, {} if cache is None else cache)
        if path.suffix == ".json":
            value = _json_key(doc, source["key"])
        else:
            sel = doc
            for col, val in source["where"].items():
                sel = sel[sel[col].astype(str) == str(val)]
            if len(sel) != 1:
                return None
            value = sel.iloc[0][source["column"]]
        return NOT_A_NUMBER if _not_a_number(value) else value
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def _not_a_number(value) -> bool:
    """An empty, null, NaN or infinite value (text as a CSV cell or JSON writes it)."""
    if value is None:
        return True
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, str) and value.strip().lower() in ("", "none", "nan", "inf", "-inf", "null")


def _number(x):
    """(comparator, float) of a value: '>100' -> ('>', 100.0); a plain number -> ('=', x)."""
    if isinstance(x, bool):
        return None
    if isinstance(x, int | float):
        return ("=", float(x))
    m = re.fullmatch(r"\s*([<>]?)\s*([-+0-9.eE]+)\s*%?\s*", str(x))
    if not m:
        return None
    try:
        return (m.group(1) or "=", float(m.group(2)))
    except ValueError:
        return None


def _half_unit(paper) -> float:
    text = str(paper).strip().lstrip("<>").strip()
    if "e" in text.lower():
        mant, exp = text.lower().split("e")
        decimals = len(mant.split(".")[1]) if "." in mant else 0
        return 0.5 * 10.0 ** (int(exp) - decimals)
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0**-decimals


def _band(v: float) -> int:
    return sum(abs(v) >= e for e in BAND_EDGES)


def within(paper, here, tolerance: str) -> bool:
    """Whether the workflow's value ``here`` agrees with the seed's ``paper`` under ``tolerance``."""
    kind, _, arg = str(tolerance).partition(":")
    if kind in ("exact", "qualitative"):
        p, h = _number(paper), _number(here)
        if p is not None and h is not None:
            return p[1] == h[1]
        return str(paper).strip().lower() == str(here).strip().lower()
    p, h = _number(paper), _number(here)
    if p is None or h is None:
        return False
    op, pv = p
    hv = h[1]
    if op == ">":
        return hv > pv
    if op == "<" or kind == "upper":
        return hv <= pv if op != "<" else hv < pv
    if kind == "precision":
        return abs(hv - pv) <= _half_unit(paper) * (1 + 1e-9)
    if kind == "rel":
        return abs(hv - pv) <= float(arg) * abs(pv)
    if kind == "abs":
        return abs(hv - pv) <= float(arg)
    if kind == "order":
        return hv > 0 and pv > 0 and abs(math.log10(hv / pv)) <= 1.0
    if kind == "band":
        return _band(hv) == _band(pv)
    raise ClaimError(f"unknown tolerance {tolerance!r}")


def _fmt(x) -> str:
    if x is None:
        return ""
    p = _number(x)  # text and "<"/">" values print as given
    if p is None or isinstance(x, str) and not re.fullmatch(r"[-+0-9.eE]+", x.strip()):
        return str(x)
    v = p[1]
    return f"{v:.4g}" if v != int(v) or abs(v) >= 1e6 else str(int(v))


def scorecard(claims: list[dict], root=".", available=None) -> pd.DataFrame:
    """One row per claim (:data:`SCORECARD_COLUMNS`).

    ``available`` (a set of results files, optional) restricts the sources
    read to the files this configuration produces; others count as not yet
    produced here, so a stale file of another run is never read.
    """
    rows, cache = [], {}
    for c in claims:
        here, reason, src = None, "", ""
        if "missing" in c:
            status, reason = "not reproducible here", f"needs {c['missing']}"
        else:
            src = c["source"]["file"]
            if available is not None and src not in available:
                here = None
                reason = f"{src} is not produced by this configuration"
            else:
                here = lookup(c["source"], root, cache)
                where = c["source"].get("where") or {"key": c["source"].get("key")}
                missing = ", ".join(f"{k} {v}" for k, v in where.items())
                reason = f"{src} has no {missing} (not run by this configuration)" if here is None else ""
            if here is None:
                status = "not yet produced"
            elif here is NOT_A_NUMBER:
                here, status, reason = "", "deviation", "produced, not a number (empty, NaN or infinite)"
            elif c.get("kind", "result") != "result":
                status = c["kind"]
                reason = (
                    "equal by construction (an input of the workflow): shown, not counted"
                    if status == "input"
                    else "hardware-specific (the paper's machine): shown, not counted"
                )
            elif within(c["paper"], here, c["tolerance"]):
                status = "match"
            else:
                status = "deviation"
                reason = c.get("deviation", "outside the tolerance; no documented reason")
                if c.get("anchor"):
                    reason += f" (README {c['anchor']})"
        rows.append(
            {
                "id": c["id"],
                "section": c["section"],
                "claim": c["quantity"],
                "paper": _fmt(c["paper"]),
                "here": _fmt(here),
                "unit": c["unit"],
                "tolerance": c["tolerance"],
                "status": status,
                "reason": reason,
                "source": src,
            }
        )
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)


def status_counts(df: pd.DataFrame) -> dict:
    """Claims per status, every status listed."""
    return {s: int((df["status"] == s).sum()) for s in STATUSES}


# ------------------------------------------------------------------ README blocks
README_BLOCKS = ("counts", "verification")
"""The README's generated blocks, between ``<!-- scorecard:NAME -->`` and ``<!-- /scorecard:NAME -->``."""

VERIFICATION_SECTIONS = ("§2", "Table 2", "§4.2")
"""Claims quoted in the README's verification list (sections starting so)."""


def readme_blocks(df: pd.DataFrame, source: str) -> dict:
    """The README's generated text: the counts per status, and the verification claims as a table."""
    counts = status_counts(df)
    line = ", ".join(f"**{n}** {s}" for s, n in counts.items())
    blocks = {
        "counts": f"Reproduction scorecard ({len(df)} claims of the seed, `{source}`, rule "
        f"`make_scorecard`): {line}.",
    }
    ver = df[df["section"].astype(str).str.startswith(VERIFICATION_SECTIONS)]
    lines = ["| claim | seed | here | tolerance | status |", "| --- | --- | --- | --- | --- |"]
    for _, r in ver.iterrows():
        status = r["status"] if r["status"] != "deviation" else f"deviation: {r['reason']}"
        unit = f" {r['unit']}" if isinstance(r["unit"], str) and r["unit"] else ""
        here = r["here"] if isinstance(r["here"], str) or not pd.isna(r["here"]) else ""
        lines.append(
            f"| {r['claim']} ({r['section']}) | {r['paper']}{unit} | {here} | {r['tolerance']} | {status} |"
        )
    blocks["verification"] = "\n".join(lines)
    return blocks


def update_readme(readme: str, blocks: dict) -> str:
    """``readme`` with every generated block replaced (each marker pair must be present)."""
    for name, text in blocks.items():
        pattern = re.compile(rf"(<!-- scorecard:{name} -->\n).*?(<!-- /scorecard:{name} -->)", re.S)
        if not pattern.search(readme):
            raise ClaimError(
                f"README has no '<!-- scorecard:{name} -->' ... '<!-- /scorecard:{name} -->' block"
            )
        readme = pattern.sub(lambda m, t=text: m.group(1) + t + "\n" + m.group(2), readme)
    return readme


def main(argv=None) -> None:
    """``python -m tensegrity_id.report.scorecard README.md results/tables/scorecard.csv``."""
    import sys

    readme, table = (argv or sys.argv[1:])[:2]
    df = pd.read_csv(table, dtype=str, keep_default_na=False)
    text = Path(readme).read_text()
    write_text(readme, update_readme(text, readme_blocks(df, table)))


if __name__ == "__main__":
    main()
