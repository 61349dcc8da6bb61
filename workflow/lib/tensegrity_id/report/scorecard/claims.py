"""The scorecard's claims file: loading, checking and expanding the claims.

``resources/published/claims.yaml`` holds the tolerance families and the claims::

    tolerances:                            # named widths: |here - paper| <= max(abs, rel * |paper|)
      ident_error_pct: {rel: 0.3, identification: true, better: lower, why: the paper's scatter, cited}
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
own seed standard deviation, reported beside the value and never added to
the band.  ``run`` names the run behind the value where the source is a
summary (default: the source file and row).  ``missing: <the data source>``
names the data a claim needs that this repository cannot hold (then no
``source``).  ``needs_seeds: n`` (a spread over seeds) or ``needs: {field,
at_least}`` (a value the paper makes from a larger sample, e.g. a table's
``trajectories``) marks a claim that a run with fewer does not produce.

``kind: input`` marks a value the workflow takes in or echoes, and must say
where it comes from in ``from:`` (one of :data:`PROVENANCE`): a key of the
run's ``config``, a shipped ``resource`` file, the ``construction`` of a
generator, the ``paper``'s own printed numbers, or a ``search`` that aimed at
the paper's value.  Such a claim is shown, not counted, while its value is
the paper's; where it is not (a search that missed, a config key whose value
differs), it is a deviation.  ``kind: context`` marks a hardware-specific
figure of the paper's machine (shown, never counted).  ``better: lower`` (or
``higher``, on the claim or its family) marks a quantity whose values beyond
the band on that side are better than the paper's.  No key sets a status.

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
within ``SEED_K`` of the paper's standard deviations ``paper_sd``, or within
``paper_range``), a family (a result of one run: a relative width justified
from the paper's scatter of the same kind of quantity; an absolute floor
``abs`` only with ``cite``, the paper's line that states a scatter or
precision that large), and ``qualitative`` (a statement checked by a boolean
of the workflow).  :mod:`.bands` turns each into the band a value is judged
by.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import yaml

__all__ = [
    "TOLERANCES",
    "KINDS",
    "PROVENANCE",
    "ClaimError",
    "read_claims_file",
    "published_tables",
    "load_claims",
    "claim_files",
    "claim_class",
    "claim_run",
]

KINDS = ("result", "input", "context")
"""A claim's ``kind``: a result of the workflow (default), an input or echo (with ``from:``), or a
hardware-specific figure of the paper's machine."""
PROVENANCE = ("config", "resource", "construction", "paper", "search")
"""Where an input's value comes from (``from:``, exactly one): a key of the run's config, a shipped
resource file, a generator's construction, the paper's own printed numbers, or a search aimed at
the paper's value."""
BETTER = ("lower", "higher")
TOLERANCES = ("exact", "precision", "rel", "abs", "order", "upper", "lower", "seeds", "qualitative")
RETIRED = {
    "band": "the same side of 5 % and 30 % was 5-70 times wider than the paper's own seed scatter; "
    "use 'seeds' (with paper_sd or paper_range) or a family of the file's 'tolerances'"
}
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
    """The claims file's tolerance families ``{name: {abs?, rel?, why, cite?, better?, identification?}}``,
    checked."""
    if not isinstance(families, dict):
        raise ClaimError(f"{path}: 'tolerances' must map a family name to {{abs, rel, why}}")
    for name, fam in families.items():
        where = f"{path}: tolerance family '{name}'"
        if name.split(":")[0] in TOLERANCES or name in RETIRED:
            raise ClaimError(f"{where}: the name is a tolerance class; choose another")
        if not isinstance(fam, dict) or not ({"abs", "rel"} & set(fam)):
            raise ClaimError(f"{where}: give 'abs' and/or 'rel' (match within max(abs, rel * |paper|))")
        unknown = set(fam) - {"abs", "rel", "why", "identification", "better", "cite"}
        if unknown:
            raise ClaimError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for k in ("abs", "rel"):
            if k in fam and not (isinstance(fam[k], int | float) and fam[k] >= 0):
                raise ClaimError(f"{where}: '{k}' must be a number >= 0, got {fam[k]!r}")
        if not str(fam.get("why", "")).strip():
            raise ClaimError(f"{where}: 'why' must justify the width from the paper's own scatter")
        if fam.get("abs") and not str(fam.get("cite", "")).strip():
            raise ClaimError(
                f"{where}: an absolute floor 'abs' needs 'cite', the paper's line that states a scatter or "
                "precision that large (or give 'rel' alone)"
            )
        if "better" in fam and fam["better"] not in BETTER:
            raise ClaimError(f"{where}: 'better' must be one of {', '.join(BETTER)}, got {fam['better']!r}")
    return families


def _check_provenance(c: dict) -> None:
    """An input says where its value comes from (``from:``: one of :data:`PROVENANCE`, and for a
    ``resource`` optionally its ``key``); only an input has ``from``."""
    src = c.get("from")
    if c.get("kind", "result") != "input":
        if src is not None:
            raise ClaimError(
                f"claim '{c['id']}': 'from' is for kind: input only (a result's value is its own)"
            )
        return
    kinds = [k for k in (src or {}) if k in PROVENANCE] if isinstance(src, dict) else []
    extra = set(src) - set(PROVENANCE) - ({"key"} if kinds == ["resource"] else set()) if kinds else set()
    if len(kinds) != 1 or extra:
        raise ClaimError(
            f"claim '{c['id']}': kind: input needs 'from' with exactly one of {', '.join(PROVENANCE)} "
            f"(where the value comes from; a resource may add its 'key'), got {src!r}"
        )
    if not str(src[kinds[0]]).strip():
        raise ClaimError(f"claim '{c['id']}': 'from: {kinds[0]}' must name its source")


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
                    scatter = {
                        "tolerance": "seeds",
                        "paper_sd": float(sd),
                        "column_tolerance": spec["tolerance"],
                    }
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
                        for k in (
                            "deviation",
                            "anchor",
                            "missing",
                            "kind",
                            "private",
                            "todo",
                            "run",
                            "better",
                            "from",
                        )
                        if k in entry
                    },
                    **{
                        k: spec[k]
                        for k in ("deviation", "anchor", "kind", "needs_seeds", "needs", "better", "from")
                        if k in spec
                    },
                    **scatter,
                }
            )
    return out


def load_claims(path, root=".") -> list[dict]:
    """The claims of ``path``, table claims expanded, each checked for its fields.

    A claim of a tolerance family carries the family as ``family`` (``{name, abs?, rel?, why,
    cite?, better?, identification?}``).
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
            need = c.get("needs")
            if need is not None and not (
                isinstance(need, dict)
                and set(need) == {"field", "at_least"}
                and isinstance(need["at_least"], int)
            ):
                raise ClaimError(
                    f"claim '{c['id']}': needs must be {{field: <column or key>, at_least: <n>}}"
                )
            if c.get("kind", "result") not in KINDS:
                raise ClaimError(f"claim '{c['id']}': kind {c['kind']!r} is not one of {', '.join(KINDS)}")
            _check_provenance(c)
            if "better" in c and c["better"] not in BETTER:
                raise ClaimError(
                    f"claim '{c['id']}': better must be one of {', '.join(BETTER)}, got {c['better']!r}"
                )
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
            column_family = families.get(c.pop("column_tolerance", None), {})
            if c["tolerance"] in families:
                c = {**c, "family": {**families[c["tolerance"]], "name": c["tolerance"]}}
            elif "better" not in c and "better" in column_family:  # a seed-scatter row of an error column
                c["better"] = column_family["better"]
            claims.append(c)
    return claims


def claim_files(claims: list[dict]) -> list[str]:
    """Every results file the claims read, in order, once."""
    return list(dict.fromkeys(c["source"]["file"] for c in claims if "source" in c))


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
