"""The comparison of the identification's two readings as a page: the decision, the mean score by
part of the paper, the claims where the readings differ most, the paper's failure claims with the
Fisher analysis beside them, and each reading's basis against the records' response.

Written by ``python -m tensegrity_id.workflow.readings`` as ``readings_report.md`` beside its
tables, from the same result (:func:`tensegrity_id.workflow.readings.compare`); every number on
the page is one of those tables'.
"""

from __future__ import annotations

import math
import re

from ..results.fisher import FISHER_KEY

__all__ = ["part_of", "render"]

SHOWN = 10
"""The claims listed each way in "Where the readings differ most"."""


def part_of(claim_id: str) -> str:
    """The part of the paper a claim belongs to, from its id: ``table3.x1_taut_1pt.outcome`` ->
    ``table3``; ``seed_study_sigma_sd`` -> ``seed_study``; ``fig7_taut_outcome`` -> ``fig7``."""
    head = claim_id.split(".", 1)[0]
    if head != claim_id:
        return head
    m = re.match(r"(seed_study|s\d+|fig\d+|table\d+|tableS\d+)", claim_id)
    return m.group(1) if m else claim_id


def _fmt(v, digits: int = 3) -> str:
    if v is None or v == "":
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        return f"{v:.{digits}g}"
    return str(v)


def _table(header: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(_fmt(c) for c in r) + " |" for r in rows]
    return out


def render(result: dict) -> str:
    """The page (Markdown) of a comparison's result."""
    names = result["readings"]
    a, b = names
    lines = ["# The identification's two readings compared", ""]
    means = result["means"]
    shown = ", ".join(f"{n} {_fmt(means[n])}" for n in names)
    lines += [
        f"Claims produced under both readings: {result['n_counted']}. Mean score (lower is closer "
        f"to the paper): {shown}. Decision: **{result['decision'] or 'none'}** ({result['why']}).",
        "",
        "Successful Table 3 runs (identified or partial) with a held-out ratio in the paper's band: "
        + ", ".join(
            f"{n} {result['held_out'][n]['inside']} of {result['held_out'][n]['successful']}" for n in names
        )
        + ".",
        "",
        "## Mean score by part of the paper",
        "",
    ]
    both = [r for r in result["rows"] if all(r[f"{n}_score"] is not None for n in names)]
    parts: dict[str, list[dict]] = {}
    for r in both:
        parts.setdefault(part_of(r["id"]), []).append(r)
    lines += _table(
        ["part", "claims", *names],
        [
            [p, len(rs), *(sum(r[f"{n}_score"] for r in rs) / len(rs) for n in names)]
            for p, rs in sorted(parts.items())
        ],
    )
    lines += ["", "## Where the readings differ most", ""]
    diff = sorted(both, key=lambda r: r[f"{a}_score"] - r[f"{b}_score"])
    for title, rows in (
        (f"closer to the paper under {a}", [r for r in diff if r[f"{a}_score"] < r[f"{b}_score"]][:SHOWN]),
        (
            f"closer to the paper under {b}",
            [r for r in diff[::-1] if r[f"{b}_score"] < r[f"{a}_score"]][:SHOWN],
        ),
    ):
        lines += [f"{title.capitalize()} ({len(rows)} shown):", ""]
        lines += _table(
            ["claim", "paper", *(f"{n}: value (score)" for n in names)],
            [
                [
                    r["id"],
                    r["paper"],
                    *(f"{_fmt(r[f'{n}_here'])} ({_fmt(r[f'{n}_score'], 2)})" for n in names),
                ]
                for r in rows
            ],
        )
        lines.append("")
    lines += ["## The paper's failure claims", ""]
    lines += [
        "A reading that identifies where the paper reports a partial result or a failure contradicts "
        "that finding. Beside each Table 3 row: the record's largest relative Cramér–Rao bound over "
        "its identifiable parameters (the Fisher analysis at the exact parameters) and the worst "
        "cable error each reading identified.",
        "",
    ]
    lines += _table(
        [
            "claim",
            "paper",
            *(f"{n}" for n in names),
            *(f"{n} contradicts" for n in names),
            "bound (%)",
            *(f"{n} error (%)" for n in names),
        ],
        [
            [
                f["id"],
                f["paper"],
                *(f.get(f"{n}_here") for n in names),
                *(f.get(f"{n}_contradicts") for n in names),
                f.get(FISHER_KEY.crlb_max_pct),
                *(f.get(f"{n}_sigma_max_pct") for n in names),
            ]
            for f in result["failures"]
        ],
    )
    basis = result.get("basis") or []
    if basis:
        lines += ["", "## Each reading's basis against the records' response", ""]
        lines += _table(
            [
                "reading",
                "run group",
                "seeds",
                "basis top (Hz)",
                "f99 (Hz)",
                "power above",
                "reproduced above",
                "status",
            ],
            [
                [
                    r["reading"],
                    f"{r['treatment']} {r['structure']}/{r['record']}/{r['protocol']}, {r['steps']} steps",
                    r["seeds"],
                    r["basis_top_hz"],
                    r["f99_hz"],
                    r["share_above"],
                    r["captured_above"],
                    r["status"],
                ]
                for r in basis
            ],
        )
    return "\n".join(lines) + "\n"
