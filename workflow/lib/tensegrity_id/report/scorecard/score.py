"""Scoring the claims: each claim's value read from the results, judged by its band, and counted.

Statuses (:data:`STATUSES`), from the evidence only: ``match`` (within the band), ``better than
the paper`` (beyond the band on the side the claim calls better: counted, apart from the
matches), ``deviation`` (outside it, or produced but not a number: NaN, inf or an empty cell),
``input`` (an input or echo whose value is the paper's: shown, not counted; one that misses the
paper's value is a deviation), ``context`` (a figure of the paper's hardware: shown, not counted),
``not reproducible here`` (the claim names its ``missing`` data source) and ``not yet produced``
(the file, row or key is absent in this configuration).  Every reason is written from the row's
own values, its band and rule, and the claim's words on the cause.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pandas as pd

from .bands import Band, band, number
from .claims import claim_class, claim_run

__all__ = [
    "STATUSES",
    "COUNTED",
    "SCORECARD_COLUMNS",
    "NOT_A_NUMBER",
    "lookup",
    "scorecard",
    "rescore",
    "status_counts",
    "change",
    "mutation_survivors",
]

STATUSES = (
    "match",
    "better than the paper",
    "deviation",
    "input",
    "context",
    "not reproducible here",
    "not yet produced",
)
COUNTED = ("match", "better than the paper", "deviation")
"""The statuses that are counted (``input`` and ``context`` are shown, never counted); the match
rate is the matches over them."""
SCORECARD_COLUMNS = [
    "id",
    "section",
    "claim",
    "paper",
    "here",
    "here_sd",
    "unit",
    "tolerance",
    "class",
    "low",
    "high",
    "rule",
    "status",
    "reason",
    "source",
    "run",
]
NOT_A_NUMBER = object()
"""What :func:`lookup` returns for a value that is there but is not a number (NaN, inf, empty)."""


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
        return NOT_A_NUMBER if _not_anumber(value) else value
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def _not_anumber(value) -> bool:
    """An empty, null, NaN or infinite value (text as a CSV cell or JSON writes it)."""
    if value is None:
        return True
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, str) and value.strip().lower() in ("", "none", "nan", "inf", "-inf", "null")


def _not_a_number(value) -> bool:
    """An empty, null, NaN or infinite value (text as a CSV cell or JSON writes it)."""
    if value is None:
        return True
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, str) and value.strip().lower() in ("", "none", "nan", "inf", "-inf", "null")


def _fmt(x) -> str:
    if x is None:
        return ""
    p = number(x)  # text and "<"/">" values print as given
    if p is None or isinstance(x, str) and not re.fullmatch(r"[-+0-9.eE]+", x.strip()):
        return str(x)
    v = p[1]
    return f"{v:.6g}" if v != int(v) or abs(v) >= 1e6 else str(int(v))


def _sd_source(source: dict) -> dict | None:
    """The source of the workflow's own seed standard deviation (``sd``: a column or key)."""
    if "sd" not in source:
        return None
    field = "column" if "column" in source else "key"
    return {**{k: v for k, v in source.items() if k != "sd"}, field: source["sd"]}


def _too_few_seeds(c: dict, root, cache) -> str | None:
    """Why a claim is not produced by this configuration's protocol: a spread over seeds
    (``needs_seeds: n``: the row of its table, column ``seeds``, or its JSON document, key
    ``seeds``, a list or a count, holds fewer than ``n``), or a value the paper makes from a larger
    sample (``needs: {field, at_least}``: the field beside the value, e.g. a table's
    ``trajectories``, is smaller); ``None`` where the run has enough."""
    need = c.get("needs_seeds")
    name, what = "seeds", "seed(s); a spread needs"
    if not need and "needs" in c:
        name, need, what = (
            c["needs"]["field"],
            c["needs"]["at_least"],
            f"{c['needs']['field']}; the paper's value needs",
        )
    if not need:
        return None
    src = c["source"]
    field = "column" if "column" in src else "key"
    key = src["key"].rsplit(".", 1)[0] + f".{name}" if field == "key" and "." in src["key"] else name
    n = lookup({**src, field: key}, root, cache)
    if isinstance(n, list):
        n = len(n)
    n = number(n)
    if n is None or n[1] >= need:
        return None
    return f"this configuration runs {n[1]:g} {what} {need} (config/paper.yaml runs more)"


def _config_value(config: dict, key: str):
    node = config
    for part in key.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _band_words(b: Band) -> str:
    if b.side == "upper":
        return f"{'below' if b.strict else 'at or below'} {_fmt(b.high)}"
    if b.side == "lower":
        return f"{'above' if b.strict else 'at or above'} {_fmt(b.low)}"
    if b.side == "label":
        return "the paper's value"
    return f"[{_fmt(b.low)}, {_fmt(b.high)}]"


def _cause(c: dict) -> str:
    text = c.get("deviation", "no documented cause")
    return text + (f" (evidence: {c['anchor']})" if c.get("anchor") else "")


def _provenance_check(c: dict, here, config) -> str | None:
    """Why an input's ``from: {config: key}`` does not hold for this run (``None`` where it holds or
    cannot be checked: no config given, or another kind of provenance)."""
    key = (c.get("from") or {}).get("config")
    if key is None or config is None:
        return None
    try:
        value = _config_value(config, str(key))
    except (KeyError, IndexError, ValueError, TypeError):
        return f"labelled an input of config '{key}', which this run's config does not have"
    v, h = number(value), number(here)
    if v is not None and h is not None:  # equal to round-off (a value computed from the config's)
        same = math.isclose(v[1], h[1], rel_tol=1e-9, abs_tol=1e-12)
    else:
        same = str(value).strip() == str(here).strip()
    if same:
        return None
    return f"labelled an input of config '{key}' = {_fmt(value)}, but the value here is {_fmt(here)}"


def _judged(c: dict, here, here_sd, config=None) -> tuple[str, Band | None, str]:
    """(status, band, reason) of a claim whose value ``here`` was produced."""
    unit = f" {c['unit']}" if c.get("unit") else ""
    if here is NOT_A_NUMBER:
        return "deviation", None, "produced, not a number (empty, NaN or infinite)"
    kind = c.get("kind", "result")
    if kind == "context":
        return "context", None, "hardware-specific (the paper's machine): shown, not counted"
    status, b = band(c).judge(here), band(c)
    values = f"{_fmt(here)}{unit} against the paper's {_fmt(c['paper'])}{unit}"
    if kind == "input":
        how = next(k for k in c["from"] if k != "key")
        what = c["from"][how] + (f" {c['from']['key']}" if "key" in c["from"] else "")
        wrong = _provenance_check(c, here, config)
        if wrong:
            return "deviation", b, f"{wrong}: {_cause(c)}"
        if status == "match":
            return "input", b, f"an input ({how}: {what}), the paper's value: shown, not counted"
        return (
            "deviation",
            b,
            (
                f"an input ({how}: {what}) that misses the paper's value: {values}, outside "
                f"{_band_words(b)} ({b.rule}): {_cause(c)}"
            ),
        )
    sd = f" (seed sd {_fmt(here_sd)})" if here_sd is not None else ""
    if status == "deviation":
        where = f"outside {_band_words(b)} ({b.rule})"
        return (
            status,
            b,
            f"{_fmt(here)}{unit}{sd} against the paper's {_fmt(c['paper'])}{unit}, {where}: {_cause(c)}",
        )
    if status == "better than the paper":
        side = "below" if b.better == "lower" else "above"
        return (
            status,
            b,
            (
                f"{values}: {side} the band {_band_words(b)} ({b.rule}), on the side the claim calls better: "
                "counted apart from the matches"
            ),
        )
    return status, b, ""


def _row(c: dict, here, here_sd, status, b: Band | None, reason: str, src: str) -> dict:
    return {
        "id": c["id"],
        "section": c["section"],
        "claim": c["quantity"],
        "paper": _fmt(c["paper"]),
        "here": "" if here is NOT_A_NUMBER else _fmt(here),
        "here_sd": _fmt(here_sd),
        "unit": c["unit"],
        "tolerance": c["tolerance"],
        "class": claim_class(c),
        "low": "" if b is None or b.low is None else _fmt(b.low),
        "high": "" if b is None or b.high is None else _fmt(b.high),
        "rule": "" if b is None else b.rule,
        "status": status,
        "reason": reason,
        "source": src,
        "run": claim_run(c),
    }


def scorecard(claims: list[dict], root=".", available=None, config: dict | None = None) -> pd.DataFrame:
    """One row per claim (:data:`SCORECARD_COLUMNS`).

    ``available`` (a set of results files, optional) restricts the sources read to the files this
    configuration produces; others count as not yet produced here, so a stale file of another run
    is never read.  ``config`` (the run's resolved config, optional) checks every input's
    ``from: {config: key}`` against the value.
    """
    rows, cache = [], {}
    for c in claims:
        here, here_sd, b, src = None, None, None, ""
        if "missing" in c:
            status, reason = "not reproducible here", f"needs {c['missing']}"
        else:
            src = c["source"]["file"]
            if available is not None and src not in available:
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
            sd = lookup(sd_src, root, cache) if sd_src and here is not None else None
            here_sd = None if sd is NOT_A_NUMBER or number(sd) is None else number(sd)[1]
            if here is None:
                status = "not yet produced"
            else:
                status, b, reason = _judged(c, here, here_sd, config)
        rows.append(_row(c, here, here_sd, status, b, reason, src))
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)


def rescore(
    previous: pd.DataFrame, claims: list[dict], config: dict | None = None, files=None
) -> pd.DataFrame:
    """The scorecard of ``claims`` re-judged when only the scoring changed (a published reference):
    each value is read from ``files``, the folder of the results the earlier scorecard ``previous``
    was made from (``results/`` stripped from the source's path, as a published reference holds
    them), at full precision and with its seed standard deviation; where that folder does not hold
    the source (a reference publishes tables, values and figures, not records), from the earlier
    scorecard's ``here`` (and ``here_sd``) column.  A claim the earlier scorecard held as not
    produced stays so (its configuration did not produce it)."""
    old = previous.set_index("id")
    rows, cache = [], {}
    for c in claims:
        src = c["source"]["file"] if "source" in c else ""
        if "missing" in c:
            rows.append(_row(c, None, None, "not reproducible here", None, f"needs {c['missing']}", src))
            continue
        here, here_sd = None, None
        known = c["id"] in old.index
        if known and old.at[c["id"], "status"] in ("not yet produced", "not reproducible here"):
            rows.append(_row(c, None, None, "not yet produced", None, old.at[c["id"], "reason"], src))
            continue
        if files is not None:
            source = {**c["source"], "file": src.removeprefix("results/")}
            here = lookup(source, files, cache)
            few = _too_few_seeds({**c, "source": source}, files, cache) if here is not None else None
            if few is not None:
                rows.append(_row(c, None, None, "not yet produced", None, few, src))
                continue
            sd_src = _sd_source(source)
            sd = lookup(sd_src, files, cache) if sd_src and here is not None else None
            here_sd = None if sd is NOT_A_NUMBER or number(sd) is None else number(sd)[1]
        if here is None and known:
            r = old.loc[c["id"]]
            here = NOT_A_NUMBER if _not_a_number(r["here"]) else r["here"]
            sd = number(r.get("here_sd", ""))
            here_sd = None if sd is None else sd[1]
        if here is None:
            rows.append(_row(c, None, None, "not yet produced", None, "not in the scorecard re-scored", src))
            continue
        status, b, reason = _judged(c, here, here_sd, config)
        rows.append(_row(c, here, here_sd, status, b, reason, src))
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)


def status_counts(df: pd.DataFrame) -> dict:
    """Claims per status, every status listed."""
    return {s: int((df["status"] == s).sum()) for s in STATUSES}


def change(new: pd.DataFrame, old: pd.DataFrame) -> pd.DataFrame:
    """The claims whose status differs between an earlier scorecard ``old`` and ``new``:
    ``id``, ``claim``, ``before``, ``after``, ``here_before``, ``here``, ``reason`` (a claim absent
    from one side shows there as empty)."""
    both = new.set_index("id")[["claim", "status", "here", "reason"]].join(
        old.set_index("id")[["status", "here"]].rename(columns={"status": "before", "here": "here_before"}),
        how="outer",
    )
    both = both.fillna("")
    moved = both[both["status"] != both["before"]].reset_index()
    moved = moved.rename(columns={"status": "after"})
    return moved[["id", "claim", "before", "after", "here_before", "here", "reason"]]


def mutation_survivors(df: pd.DataFrame) -> list[str]:
    """The counted claims a wrong value could not fail, judged from the scorecard's own bands: a
    two-sided claim whose band holds three times or a third of the paper's value, an ``order``
    claim whose band holds a hundred times or a hundredth of it, a one-sided claim whose bound a
    value moved up to three times (an upper bound) or down to a third (a lower bound) of the paper's
    still meets.  Claims with a paper value of
    zero, and labels, aside."""
    out = []
    for _, r in df[df["status"].isin(COUNTED)].iterrows():
        p, lo, hi = number(r["paper"]), number(r["low"]), number(r["high"])
        if p is None or p[1] == 0 or (lo is None and hi is None):
            continue
        pv = p[1]
        if lo is not None and hi is not None:
            factor = 100.0 if str(r["rule"]).startswith("order") else 3.0
            movers = [pv * factor, pv / factor]
            held = [lo[1] <= v <= hi[1] for v in movers]
        elif hi is not None:  # at or below: moved up to three times the paper's value
            held = [pv + 2 * abs(pv) <= hi[1]]
        else:  # at or above: moved down to a third of it
            held = [pv - 2 * abs(pv) / 3 >= lo[1]]
        if any(held):
            out.append(r["id"])
    return out
