"""The reproduction scorecard: every number the paper prints, against the workflow's value.

``resources/published/claims.yaml`` holds the tolerance families and the claims::

    tolerances:                            # named widths: |here - paper| <= max(abs, rel * |paper|)
      ident_error_pct: {abs: 0.5, rel: 0.3, identification: true, why: the paper's scatter, cited}
    claims:
      - id: x1_sigma_top
        section: "§4.2"                    # the paper's section, table or figure
        quantity: X1 top-cable force density
        paper: 52.2                        # the paper's value (number or text; ">100" and "<1" allowed)
        unit: N/m
        tolerance: precision               # a class of TOLERANCES or a family's name
        source: {file: results/structures/x1.json, key: members.3.sigma}
        deviation: why it differs, in words   # no typed numbers: the scorecard writes both values
        anchor: docs/verification.md#structures   # the docs page and heading holding the evidence

``source`` is a JSON file with a dotted ``key`` (list indices as numbers) or
a CSV table with ``where: {column: value}`` selecting one row and
``column``; ``sd`` (a key or column of the same file) names the workflow's
own seed standard deviation where it has one.  ``run`` names the run behind
the value where the source is a summary (default: the source file and row).
``missing: <the data source>`` names the data a claim needs that this
repository cannot hold (then no ``source``); ``kind: input`` marks a value
equal by construction (an input of the workflow, e.g. a structure's node
count), ``kind: context`` a hardware-specific one (a wall time on the
paper's machine): both are shown and never counted.  No key sets a status.

A **table claim** expands to one scalar claim per row and column of a
published table (``resources/published/*.csv``) against the workflow's table
of the same rows::

    - id: table3
      section: Table 3 (§4.3)
      published: resources/published/table3.csv
      file: results/tables/table3.csv
      key: row                             # the row id column(s) in both files (a list for several)
      columns:                             # published column -> workflow column, unit, tolerance
        sigma_max_pct: {here: sigma_max_pct, here_sd: sigma_max_sd, unit: "%",
                        tolerance: ident_error_pct, paper_sd: sigma_max_sd}

(``paper_sd``: the published column of the row's seed standard deviation; a
row that has one is checked with ``seeds``, the others with the column's
tolerance.)

Tolerance classes (:data:`TOLERANCES`): ``exact`` (counts and labels),
``precision`` (within half a unit of the paper's last printed digit),
``rel:<r>`` / ``abs:<a>`` (a stated relative or absolute tolerance),
``order`` (within a factor of ten: round-off levels only), ``upper`` /
``lower`` (at or below / above the paper's value: categorical statements),
``seeds`` (a stochastic result the paper reports with its seed scatter:
within :data:`SEED_K` standard deviations of ``paper_sd``, or within
``paper_range``), a family (a result of one run: a width justified from the
paper's scatter), and ``qualitative`` (a statement checked by a boolean of
the workflow).  The workflow's own seed standard deviation widens a numeric
tolerance in quadrature (:func:`width`).

Statuses (:data:`STATUSES`), from the evidence only: ``match`` (within
tolerance), ``deviation`` (outside it, or produced but not a number: NaN,
inf or an empty cell; the reason is written from both values, the
tolerance and the claim's words on the cause), ``input`` and ``context``
(the claim's ``kind``: shown, not counted), ``not reproducible here`` (the
claim names its ``missing`` data source), ``not yet produced`` (the file,
row or key is absent in this configuration).  :func:`summary` counts them
per section and per class, with the independent runs behind them.
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
    "summary",
    "headline",
    "width",
    "claim_class",
    "claim_run",
    "published_tables",
    "read_claims_file",
]

STATUSES = ("match", "deviation", "input", "context", "not reproducible here", "not yet produced")
COUNTED = ("match", "deviation")
"""The statuses that count in a match rate (``input`` and ``context`` are shown, never counted)."""
KINDS = ("result", "input", "context")
"""A claim's ``kind``: a result of the workflow (default), an input equal by construction, or a
hardware-specific figure of the paper's machine."""
NOT_A_NUMBER = object()
"""What :func:`lookup` returns for a value that is there but is not a number (NaN, inf, empty)."""
TOLERANCES = ("exact", "precision", "rel", "abs", "order", "upper", "lower", "seeds", "qualitative")
RETIRED = {
    "band": "the same side of 5 % and 30 % was 5-70 times wider than the paper's own seed scatter; "
    "use 'seeds' (with paper_sd or paper_range) or a family of the file's 'tolerances'"
}
SEED_K = 2.0
"""Standard deviations of the seed-scatter checks: ``seeds`` matches within ``SEED_K`` combined
standard deviations (the paper's and the workflow's own), and a family's width is combined with
``SEED_K`` of the workflow's seed standard deviation where it has one."""
SCORECARD_COLUMNS = [
    "id",
    "section",
    "claim",
    "paper",
    "here",
    "unit",
    "tolerance",
    "class",
    "status",
    "reason",
    "source",
    "run",
]
SUMMARY_COLUMNS = ["scope", "name", "claims", "counted", *STATUSES, "match_rate", "runs"]
NUMBER_IN_TEXT = re.compile(r"\d\.\d|\d\s*%|\d[eE]-?\d|\d\s*(N/m|N s/m|N|Hz|s|deg|m|steps)\b|[±]|\bx\s?\d")
"""Numbers typed in a deviation's words (decimals, percentages, values with units): the scorecard
writes both values itself, so a typed number could only go stale."""
REFERENCE_IN_TEXT = re.compile(r"§\s*S?[\d.]*\d|\b(Table|Figure|Fig\.)\s*S?\d+[a-z]?")
"""Sections, tables and figures of the paper, which a deviation's words may name."""


class ClaimError(ValueError):
    """A malformed claims file (names the claim and the field)."""


def _check_tolerance(c: dict, families: dict) -> None:
    cid, tol = c["id"], str(c["tolerance"])
    kind = tol.split(":")[0]
    if kind in RETIRED:
        raise ClaimError(f"claim '{cid}': tolerance {tol!r} is retired: {RETIRED[kind]}")
    if tol in families:
        return
    if kind not in TOLERANCES:
        raise ClaimError(
            f"claim '{cid}': tolerance {tol!r} is neither one of {', '.join(TOLERANCES)} nor a family "
            f"of the file's 'tolerances' ({', '.join(families) or 'none defined'})"
        )
    if kind in ("rel", "abs"):
        try:
            float(tol.split(":")[1])
        except (IndexError, ValueError):
            raise ClaimError(f"claim '{cid}': tolerance {tol!r} needs a number, e.g. 'rel:0.01'") from None
    if kind == "seeds":
        rng = c.get("paper_range")
        if ("paper_sd" in c) == (rng is not None):
            raise ClaimError(f"claim '{cid}': tolerance 'seeds' needs paper_sd or paper_range (one of them)")
        if rng is not None and not (isinstance(rng, list) and len(rng) == 2 and rng[0] <= rng[1]):
            raise ClaimError(f"claim '{cid}': paper_range must be [low, high], got {rng!r}")
        if "paper_sd" in c and not (isinstance(c["paper_sd"], int | float) and c["paper_sd"] >= 0):
            raise ClaimError(f"claim '{cid}': paper_sd must be a number >= 0, got {c['paper_sd']!r}")


def _check_families(families, path) -> dict:
    """The claims file's tolerance families ``{name: {abs?, rel?, why, identification?}}``, checked."""
    if not isinstance(families, dict):
        raise ClaimError(f"{path}: 'tolerances' must map a family name to {{abs, rel, why}}")
    for name, fam in families.items():
        where = f"{path}: tolerance family '{name}'"
        if name.split(":")[0] in TOLERANCES or name in RETIRED:
            raise ClaimError(f"{where}: the name is a tolerance class; choose another")
        if not isinstance(fam, dict) or not ({"abs", "rel"} & set(fam)):
            raise ClaimError(f"{where}: give 'abs' and/or 'rel' (match within max(abs, rel * |paper|))")
        unknown = set(fam) - {"abs", "rel", "why", "identification"}
        if unknown:
            raise ClaimError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for k in ("abs", "rel"):
            if k in fam and not (isinstance(fam[k], int | float) and fam[k] >= 0):
                raise ClaimError(f"{where}: '{k}' must be a number >= 0, got {fam[k]!r}")
        if not str(fam.get("why", "")).strip():
            raise ClaimError(f"{where}: 'why' must justify the width from the paper's own scatter")
    return families


def read_claims_file(path) -> tuple[dict, list]:
    """``(families, entries)`` of a claims file: a mapping ``{tolerances, claims}`` (or a bare list of
    claims, without families)."""
    raw = yaml.safe_load(Path(path).read_text())
    if isinstance(raw, list):
        return {}, raw
    if isinstance(raw, dict) and isinstance(raw.get("claims"), list) and set(raw) <= {"tolerances", "claims"}:
        return _check_families(raw.get("tolerances") or {}, path), raw["claims"]
    raise ClaimError(f"{path}: expected {{tolerances: {{...}}, claims: [...]}} (or a list of claims)")


def published_tables(path) -> list[str]:
    """The published tables (``resources/published/*.csv``) a claims file's table claims expand."""
    return sorted({e["published"] for e in read_claims_file(path)[1] if "published" in e})


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
            source = {"file": entry["file"], "where": {k: row[k] for k in keys}, "column": spec["here"]}
            if "here_sd" in spec:
                source["sd"] = spec["here_sd"]
            scatter = {}
            if "paper_sd" in spec:  # the row's seed scatter, where the paper gives one
                if spec["paper_sd"] not in row:
                    raise ClaimError(
                        f"claim '{entry['id']}': column '{pub_col}' names paper_sd '{spec['paper_sd']}', "
                        f"not a column of {entry['published']}"
                    )
                sd = row[spec["paper_sd"]]
                if sd not in ("", None):
                    scatter = {"tolerance": "seeds", "paper_sd": float(sd)}
            out.append(
                {
                    "id": f"{entry['id']}.{rid}.{pub_col}",
                    "section": entry["section"],
                    "quantity": f"{label}: {spec.get('name', pub_col)}",
                    "paper": paper,
                    "unit": spec.get("unit", ""),
                    "tolerance": spec["tolerance"],
                    "source": source,
                    **{
                        k: entry[k]
                        for k in ("deviation", "anchor", "missing", "kind", "private", "todo", "run")
                        if k in entry
                    },
                    **{k: spec[k] for k in ("deviation", "anchor", "kind", "needs_seeds") if k in spec},
                    **scatter,
                }
            )
    return out


def load_claims(path, root=".") -> list[dict]:
    """The claims of ``path``, table claims expanded, each checked for its fields.

    A claim of a tolerance family carries the family as ``family`` (``{abs?, rel?, why,
    identification?}``).
    """
    root = Path(root)
    families, raw = read_claims_file(path)
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
            need = c.get("needs_seeds")
            if need is not None and not (isinstance(need, int) and not isinstance(need, bool) and need >= 2):
                raise ClaimError(f"claim '{c['id']}': needs_seeds must be an integer >= 2, got {need!r}")
            if c.get("kind", "result") not in KINDS:
                raise ClaimError(f"claim '{c['id']}': kind {c['kind']!r} is not one of {', '.join(KINDS)}")
            if c["id"] in seen:
                raise ClaimError(f"claim '{c['id']}' appears twice")
            seen.add(c["id"])
            _check_tolerance(c, families)
            typed = NUMBER_IN_TEXT.search(REFERENCE_IN_TEXT.sub("", str(c.get("deviation", ""))))
            if typed:
                raise ClaimError(
                    f"claim '{c['id']}': the deviation's words type a number ({typed.group(0)!r}); the "
                    "scorecard writes both values itself: say why in words"
                )
            if c["tolerance"] in families:
                c = {**c, "family": families[c["tolerance"]]}
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


def width(paper, tolerance: str, *, family=None, paper_sd=None, here_sd=None):
    """The largest ``|here - paper|`` that matches under a numeric tolerance (``None`` for the
    classes that are not a distance: exact, upper, lower, order, qualitative).

    A family's width is ``max(abs, rel * |paper|)``; ``seeds`` is ``SEED_K`` standard deviations of
    the paper's scatter.  The workflow's own seed standard deviation ``here_sd`` adds in quadrature
    (as ``SEED_K * here_sd``).
    """
    p = _number(paper)
    if p is None:
        return None
    pv = abs(p[1])
    kind, _, arg = str(tolerance).partition(":")
    if family is not None:
        w = max(float(family.get("abs", 0.0)), float(family.get("rel", 0.0)) * pv)
    elif kind == "precision":
        w = _half_unit(paper) * (1 + 1e-9)
    elif kind == "rel":
        w = float(arg) * pv
    elif kind == "abs":
        w = float(arg)
    elif kind == "seeds":
        w = SEED_K * float(paper_sd or 0.0)
    else:
        return None
    return math.hypot(w, SEED_K * float(here_sd or 0.0))


def within(
    paper, here, tolerance: str, *, family=None, paper_sd=None, paper_range=None, here_sd=None
) -> bool:
    """Whether the workflow's value ``here`` agrees with the paper's ``paper`` under ``tolerance``.

    ``family`` is a tolerance family (``{abs?, rel?}``) where ``tolerance`` names one; ``seeds``
    takes the paper's scatter as ``paper_sd`` or ``paper_range`` ``[low, high]``; ``here_sd`` is the
    workflow's own seed standard deviation, where it has one (see :func:`width`).
    """
    kind, _, arg = str(tolerance).partition(":")
    if kind in ("exact", "qualitative") and family is None:
        p, h = _number(paper), _number(here)
        if p is not None and h is not None:
            return p[1] == h[1]
        return str(paper).strip().lower() == str(here).strip().lower()
    p, h = _number(paper), _number(here)
    if p is None or h is None:
        return False
    op, pv = p
    hv = h[1]
    if op == ">" or kind == "lower" and family is None:
        return hv > pv if op == ">" else hv >= pv
    if op == "<" or kind == "upper" and family is None:
        return hv <= pv if op != "<" else hv < pv
    if kind == "order" and family is None:
        return hv > 0 and pv > 0 and abs(math.log10(hv / pv)) <= 1.0
    if kind == "seeds" and family is None and paper_range is not None:
        slack = SEED_K * float(here_sd or 0.0)
        return paper_range[0] - slack <= hv <= paper_range[1] + slack
    w = width(paper, tolerance, family=family, paper_sd=paper_sd, here_sd=here_sd)
    if w is None:
        raise ClaimError(f"unknown tolerance {tolerance!r}")
    return abs(hv - pv) <= w


def _fmt(x) -> str:
    if x is None:
        return ""
    p = _number(x)  # text and "<"/">" values print as given
    if p is None or isinstance(x, str) and not re.fullmatch(r"[-+0-9.eE]+", x.strip()):
        return str(x)
    v = p[1]
    return f"{v:.4g}" if v != int(v) or abs(v) >= 1e6 else str(int(v))


def claim_class(c: dict) -> str:
    """A claim's class in the summary: ``identification`` (a seed-scatter check, or a family marked
    ``identification``), else its tolerance family or class."""
    tol = str(c["tolerance"])
    if tol == "seeds" or (c.get("family") or {}).get("identification"):
        return "identification"
    return tol if "family" in c else tol.split(":")[0]


def claim_run(c: dict) -> str:
    """The run (results file, and row of a table) a claim reads: its ``run``, or its source."""
    if "run" in c:
        return str(c["run"])
    if "source" not in c:
        return ""
    src = c["source"]
    where = src.get("where")
    return src["file"] + (f"#{'/'.join(str(v) for v in where.values())}" if where else "")


def _sd_source(source: dict) -> dict | None:
    """The source of the workflow's own seed standard deviation (``sd``: a column or key)."""
    if "sd" not in source:
        return None
    field = "column" if "column" in source else "key"
    return {**{k: v for k, v in source.items() if k != "sd"}, field: source["sd"]}


def _too_few_seeds(c: dict, root, cache) -> str | None:
    """Why a claim on a spread over seeds (``needs_seeds: n``) is not produced here: the row of its
    table (column ``seeds``) or its JSON document (key ``seeds``, a list or a count) holds fewer
    than ``n`` seeds; ``None`` where it holds enough."""
    need = c.get("needs_seeds")
    if not need:
        return None
    src = c["source"]
    field = "column" if "column" in src else "key"
    key = src["key"].rsplit(".", 1)[0] + ".seeds" if field == "key" and "." in src["key"] else "seeds"
    n = lookup({**src, field: key}, root, cache)
    if isinstance(n, list):
        n = len(n)
    n = _number(n)
    if n is None or n[1] >= need:
        return None
    return f"this configuration runs {n[1]:g} seed(s); a spread needs {need} (config/paper.yaml runs more)"


def _tolerance_words(c: dict, here_sd) -> str:
    """The tolerance of a deviation's reason, with its width where it is a distance."""
    tol = str(c["tolerance"])
    if tol == "seeds" and "paper_range" in c:
        lo, hi = c["paper_range"]
        return f"the paper's seed range {_fmt(lo)} to {_fmt(hi)}"
    w = width(c["paper"], tol, family=c.get("family"), paper_sd=c.get("paper_sd"), here_sd=here_sd)
    if w is None:
        return tol
    what = {"seeds": f"{SEED_K:g} combined seed standard deviations"}.get(tol, tol)
    return f"{what}, ±{_fmt(w)}"


def _deviation_reason(c: dict, here, here_sd) -> str:
    unit = f" {c['unit']}" if c.get("unit") else ""
    sd = f" (seed sd {_fmt(here_sd)})" if here_sd else ""
    text = (
        f"{_fmt(here)}{unit}{sd} against the paper's {_fmt(c['paper'])}{unit}, outside "
        f"{_tolerance_words(c, here_sd)}: "
    )
    text += c.get("deviation", "no documented cause")
    if c.get("anchor"):
        text += f" (evidence: {c['anchor']})"
    return text


def scorecard(claims: list[dict], root=".", available=None) -> pd.DataFrame:
    """One row per claim (:data:`SCORECARD_COLUMNS`).

    ``available`` (a set of results files, optional) restricts the sources
    read to the files this configuration produces; others count as not yet
    produced here, so a stale file of another run is never read.  A
    deviation's reason is written from the two values, the tolerance and the
    claim's words on the cause.
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
            few = _too_few_seeds(c, root, cache) if here is not None else None
            if few is not None:  # a spread over seeds, where this configuration runs fewer
                here, reason = None, few
            sd_src = _sd_source(c["source"])
            here_sd = lookup(sd_src, root, cache) if sd_src and here is not None else None
            here_sd = None if here_sd is NOT_A_NUMBER or _number(here_sd) is None else _number(here_sd)[1]
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
            elif within(
                c["paper"],
                here,
                c["tolerance"],
                family=c.get("family"),
                paper_sd=c.get("paper_sd"),
                paper_range=c.get("paper_range"),
                here_sd=here_sd,
            ):
                status = "match"
            else:
                status, reason = "deviation", _deviation_reason(c, here, here_sd)
        rows.append(
            {
                "id": c["id"],
                "section": c["section"],
                "claim": c["quantity"],
                "paper": _fmt(c["paper"]),
                "here": _fmt(here),
                "unit": c["unit"],
                "tolerance": c["tolerance"],
                "class": claim_class(c),
                "status": status,
                "reason": reason,
                "source": src,
                "run": claim_run(c),
            }
        )
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)


def _section_of(section: str) -> str:
    """The part of the paper a claim's section names: '§4.3', 'Table 3 (§4.3)' -> '§4.3'."""
    m = re.search(r"§\s*(S?\d+(\.\d+)?)", str(section))
    if m:
        return f"§{m.group(1)}"
    return str(section).split("(")[0].strip()


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Claims per status over all claims, per section of the paper and per class
    (:data:`SUMMARY_COLUMNS`): the counted claims (match and deviation), the match rate over them,
    and the independent runs (distinct ``run``) behind the counted claims."""
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
    """The scorecard in one line: identification results within the paper's seed scatter, and all
    counted claims."""
    ident = df[df["class"] == "identification"]
    k, n = int((ident["status"] == "match").sum()), int(ident["status"].isin(COUNTED).sum())
    counts = status_counts(df)
    counted = sum(counts[s] for s in COUNTED)
    runs = df.loc[df["status"].isin(COUNTED), "run"]
    return (
        f"identification results within the paper's seed scatter: {k} of {n}; all counted claims: "
        f"{counts['match']} of {counted} match ({runs[runs != ''].nunique()} independent runs; "
        f"{len(df)} claims, of which {counts['input']} inputs and {counts['context']} hardware figures "
        f"shown, not counted)"
    )


def status_counts(df: pd.DataFrame) -> dict:
    """Claims per status, every status listed."""
    return {s: int((df["status"] == s).sum()) for s in STATUSES}


# ------------------------------------------------------------------ documentation blocks
DOC_BLOCKS = {
    "counts": "docs/reproduction.md",
    "paper_scale": "docs/reproduction.md",
    "summary": "docs/reproduction.md",
    "verification": "docs/verification.md",
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


def doc_blocks(df: pd.DataFrame, source: str, paper_scale: pd.DataFrame | None = None) -> dict:
    """The documentation's generated text: the counts per status and the summary per section and
    class (the default study's and, beside them, the paper-scale reference's when published), and
    the verification claims as a table."""
    blocks = {
        "counts": f"Reproduction scorecard ({len(df)} claims of the paper, `{source}`, rule "
        f"`make_scorecard`): {_counts_line(df)}.",
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
    cols = ["scope", "claims", "counted", "match", "deviation", "match rate", "independent runs"]
    if paper is not None:
        cols += ["paper scale: counted", "match", "match rate"]
    lines = [f"**{head[0].upper()}{head[1:]}.**", "", f"| {' | '.join(cols)} |", "| --- " * len(cols) + "|"]
    for _, r in table[table["scope"] != "all"].iterrows():
        row = (
            f"| {r['scope']} {r['name']} | {r['claims']} | {r['counted']} | {r['match']} | "
            f"{r['deviation']} | {_rate(r['match_rate'])} | {r['runs']} |"
        )
        if paper is not None:
            key = (r["scope"], r["name"])
            p = paper.loc[key] if key in paper.index else None
            row += (
                " | | |"
                if p is None
                else f" {int(p['counted'])} | {int(p['match'])} | {_rate(p['match_rate'])} |"
            )
        lines.append(row)
    blocks["summary"] = "\n".join(lines)
    ver = df[df["section"].astype(str).str.startswith(VERIFICATION_SECTIONS)]
    lines = ["| claim | paper | here | tolerance | status |", "| --- | --- | --- | --- | --- |"]
    for _, r in ver.iterrows():
        status = r["status"] if r["status"] != "deviation" else f"deviation: {r['reason']}"
        unit = f" {r['unit']}" if isinstance(r["unit"], str) and r["unit"] else ""
        here = r["here"] if isinstance(r["here"], str) or not pd.isna(r["here"]) else ""
        lines.append(
            f"| {r['claim']} ({r['section']}) | {r['paper']}{unit} | {here} | {r['tolerance']} | {status} |"
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
    """``python -m tensegrity_id.report.scorecard results/tables/scorecard.csv [ROOT]``.

    Rewrites the documentation's generated blocks (:data:`DOC_BLOCKS`) from a scorecard of the
    default study and, where published, the paper-scale one (:data:`PAPER_SCALE` under ``ROOT``);
    ``ROOT`` is the repository root (default: the current directory).
    """
    import sys

    args = list(argv or sys.argv[1:])
    table, root = args[0], (args[1] if len(args) > 1 else ".")
    df = pd.read_csv(table, dtype=str, keep_default_na=False)
    paper = Path(root) / PAPER_SCALE
    paper_df = pd.read_csv(paper, dtype=str, keep_default_na=False) if paper.is_file() else None
    for path in update_docs(doc_blocks(df, table, paper_df), root):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
