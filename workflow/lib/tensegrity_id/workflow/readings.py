"""Two readings of the identification compared by a rule written down before their runs.

The registration file (``resources/preregistration/identification_default.yaml``) holds
the readings (a config overlay each), the selection rule of the claims the identification
method moves, the frozen list of those claims (:func:`select_claims` re-derives it from the
claims file, and a test keeps the two equal), the paper's *failure claims*, and the score.
:func:`compare` reads each reading's finished run (its ``results/tables/scorecard.csv``, and
``results/tables/table3.csv`` for the tie rule) and decides.

The score of a claim, ``s >= 0``, lower is closer to the paper (:func:`claim_score`):

* a two-sided number: ``|ln(here / paper)|``;
* an error (``better: lower``, on the claim or its family): ``max(0, ln(here / paper))``, 0
  at or below the paper's value (so below its band, *better than the paper*, scores 0);
* a one-sided claim (``upper``, ``lower``, a printed ``<`` or ``>``): 0 when it holds, else
  ``|ln(here / paper)|``;
* an outcome label, on the scale identified (3) > partial (2) > silent failure = fit
  failure (1): 0 when ours is the paper's or better, else the levels between them;
* any other label or boolean: 0 when it is the paper's, else 1;
* where the logarithm is undefined (a zero, or signs that differ): 0 for a match, else
  ``ln 10``; every score is capped at ``ln 10`` (a value ten times off counts as ten times
  off, so one diverged run cannot decide the comparison alone).

A claim counts for the comparison when both runs produced it (a status other than *not yet
produced* or *not reproducible here*, and a value); the reading with the lower mean over the
counted claims becomes the default.  The means tie when they agree to two decimals; a tie
goes to the reading whose successful Table 3 runs (identified or partial) have the larger
share of held-out ratios inside the paper's band (below 10).

The failure claims are reported apart, claim by claim: a reading that identifies where the
paper reports a partial result or a failure *contradicts* that finding, whatever its score.

Whether each reading's time basis spans each record's response is reported beside the decision
(:func:`basis_rows`, ``readings_basis.csv``): per run group of the physics-informed network, the
basis band's top against the record's ``f99``, and where the response lies above the band, the
share of the true power there the network reproduces at the re-simulated unmeasured coordinate
(:func:`tensegrity_id.identify.pinn.basis_coverage.band_capture`; *represented* at a median over
seeds of at least 0.9).

Run it::

    python -m tensegrity_id.workflow.readings RUN_DIR_A RUN_DIR_B [--out DIR] [--score]

(each run folder holding ``results/``; the readings' names from the registration, in its
order).  A run of the whole study has its scorecard; a run of the comparison's protocol alone
(``config/readings_protocol.yaml``: Table 3, the eight-seed study, Table 5 and the bridge) has none,
and ``--score`` scores each run's results files itself (:func:`score_run`, the scorecard's own
rules; a claim whose file the run lacks is *not yet produced*) and writes each reading's
scorecard beside the decision.  A run may also be a reading's published folder of evidence
(:mod:`tensegrity_id.workflow.readings_runs`).  Beside the tables, ``readings_report.md`` shows
them as a page (:mod:`tensegrity_id.workflow.readings_report`).  It exits 1 when it cannot
decide (no claim produced by both runs).  ``--check`` re-derives the frozen claim list from the
claims file and fails when it differs.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from .readings_runs import (
    basis_rows,
    fisher_evidence,
    held_out_share,
    results_file,
    results_root,
    run_settings,
    score_run,
    verify,
)

__all__ = [
    "REGISTRATION",
    "LABEL_LEVEL",
    "SCORE_CAP",
    "Registration",
    "load_registration",
    "select_claims",
    "failure_claims",
    "claim_score",
    "compare",
]

REGISTRATION = Path("resources/preregistration/identification_default.yaml")
COMMAND = "python -m tensegrity_id.workflow.readings"
TABLES = ("scorecard.csv", "table3.csv")
"""What :func:`compare` reads of each reading's run, under ``results/tables/``."""
LABEL_LEVEL = {"identified": 3, "partial": 2, "silent failure": 1, "fit failure": 1}
"""The outcome labels' order (a fit failure and a silent failure are equally far from identified)."""
SCORE_CAP = math.log(10.0)
"""No claim scores more than a factor of ten off."""
UNCOUNTED = {"not yet produced", "not reproducible here"}


@dataclass(frozen=True)
class Registration:
    """The registration file's content."""

    readings: dict[str, str]
    sections: tuple[str, ...]
    id_patterns: tuple[str, ...]
    exclude_patterns: tuple[str, ...]
    claims: tuple[str, ...]
    failure_claims: tuple[str, ...]
    held_out_band: float


def load_registration(path=REGISTRATION) -> Registration:
    raw = yaml.safe_load(Path(path).read_text())
    sel = raw["selection"]
    return Registration(
        readings=dict(raw["readings"]),
        sections=tuple(sel["sections"]),
        id_patterns=tuple(sel["ids"]),
        exclude_patterns=tuple(sel.get("exclude", [])),
        claims=tuple(raw["claims"]),
        failure_claims=tuple(raw["failure_claims"]),
        held_out_band=float(raw["tie"]["held_out_below"]),
    )


def _counted_kind(c: dict) -> bool:
    return c.get("kind", "result") == "result" and "missing" not in c


def select_claims(claims: list[dict], reg: Registration) -> list[str]:
    """The ids the registration's rule selects: counted kinds (results with a source), in one of
    its sections, an id matching one of its patterns and none of its exclusions; claims order."""
    out = []
    for c in claims:
        if not _counted_kind(c) or c["section"] not in reg.sections:
            continue
        if not any(re.fullmatch(p, c["id"]) for p in reg.id_patterns):
            continue
        if any(re.fullmatch(p, c["id"]) for p in reg.exclude_patterns):
            continue
        out.append(c["id"])
    return out


def failure_claims(claims: list[dict]) -> list[str]:
    """The outcome claims where the paper reports less than identified (partial or a failure)."""
    return [
        c["id"]
        for c in claims
        if _counted_kind(c)
        and str(c["paper"]).strip() in LABEL_LEVEL
        and LABEL_LEVEL[str(c["paper"]).strip()] < LABEL_LEVEL["identified"]
    ]


def _num(x):
    from ..report.scorecard.bands import number

    if x is None or (isinstance(x, float) and math.isnan(x)) or str(x).strip() in ("", "nan"):
        return None
    try:
        return number(float(x) if re.fullmatch(r"\s*[-+0-9.eE]+\s*", str(x)) else x)
    except ValueError:
        return None


def _log_ratio(here: float, paper: float) -> float | None:
    if here == 0 or paper == 0 or (here > 0) != (paper > 0):
        return None
    return math.log(here / paper)


def claim_score(claim: dict, paper, here, status: str) -> float | None:
    """The claim's score (module docstring), or ``None`` when the run did not produce it."""
    if status in UNCOUNTED or here is None or str(here).strip() in ("", "nan"):
        return None
    p_text, h_text = str(paper).strip(), str(here).strip()
    if p_text in LABEL_LEVEL and h_text in LABEL_LEVEL:
        return float(max(0, LABEL_LEVEL[p_text] - LABEL_LEVEL[h_text]))
    p, h = _num(paper), _num(here)
    if p is None or h is None:
        return 0.0 if status == "match" else 1.0
    (cmp, pv), (_, hv) = p, h
    one_sided = cmp in ("<", ">") or str(claim["tolerance"]) in ("upper", "lower")
    r = _log_ratio(hv, pv)
    if r is None:
        return 0.0 if status in ("match", "better than the paper") else SCORE_CAP
    if one_sided:
        s = 0.0 if status in ("match", "better than the paper") else abs(r)
    elif claim.get("better", (claim.get("family") or {}).get("better")) == "lower":
        s = max(0.0, r)
    else:
        s = abs(r)
    return min(s, SCORE_CAP)


def _read_csv(path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def compare(runs: dict[str, Path], reg: Registration, claims: list[dict], *, score: bool = False) -> dict:
    """Per-claim scores of each reading, their means over the claims both produced, the decision,
    and the failure claims each reading contradicts.

    ``score``: score each run's results files (:func:`score_run`) rather than read its scorecard;
    the scorecards are returned under ``"scorecards"``.
    """
    by_id = {c["id"]: c for c in claims}
    missing = [i for i in (*reg.claims, *reg.failure_claims) if i not in by_id]
    if missing:
        raise ValueError(f"the registration names claims the claims file lacks: {', '.join(missing)}")
    cards, scored = {}, {}
    for name, run in runs.items():
        if score:
            try:
                scored[name] = score_run(run, claims, (*reg.claims, *reg.failure_claims))
            except FileNotFoundError as exc:  # no results folder
                raise FileNotFoundError(f"reading {name!r}: {exc}; run the protocol first") from None
            cards[name] = {r["id"]: r for r in scored[name]}
            continue
        path = Path(run) / "results" / "tables" / "scorecard.csv"
        if not path.exists():
            raise FileNotFoundError(
                f"reading {name!r}: no scorecard at {path}; run the study first, or give --score "
                "for a run of the protocol's targets alone"
            )
        cards[name] = {r["id"]: r for r in _read_csv(path)}
    rows = []
    for cid in reg.claims:
        row = {"id": cid, "paper": by_id[cid]["paper"]}
        for name, card in cards.items():
            r = card.get(cid, {})
            row[f"{name}_here"] = r.get("here")
            row[f"{name}_status"] = r.get("status", "not yet produced")
            row[f"{name}_score"] = claim_score(
                by_id[cid], by_id[cid]["paper"], r.get("here"), r.get("status", "not yet produced")
            )
        rows.append(row)
    names = list(runs)
    both = [r for r in rows if all(r[f"{n}_score"] is not None for n in names)]
    means = {n: (sum(r[f"{n}_score"] for r in both) / len(both)) if both else None for n in names}
    held = {n: held_out_share(runs[n], reg.held_out_band) for n in names}
    if any(m is None for m in means.values()):
        decision, why = None, "no claim was produced by every reading"
    else:
        ranked = sorted(names, key=lambda n: means[n])
        if round(means[ranked[0]], 2) != round(means[ranked[1]], 2):
            decision, why = ranked[0], "the lower mean score"
        else:
            share = {n: (held[n][0] / held[n][1]) if held[n][1] else 0.0 for n in names}
            decision = max(names, key=lambda n: share[n])
            why = "a tie of the means; the larger share of held-out ratios in the paper's band"
    from ..results.identification import KEY

    failures = []
    for cid in reg.failure_claims:
        paper = str(by_id[cid]["paper"]).strip()
        row = {"id": cid, "paper": paper}
        for name, card in cards.items():
            here = str(card.get(cid, {}).get("here", "")).strip()
            row[f"{name}_here"] = here or None
            row[f"{name}_contradicts"] = here in LABEL_LEVEL and LABEL_LEVEL[here] > LABEL_LEVEL[paper]
            if score:  # the record's Fisher analysis beside the error each reading identified
                for k, v in fisher_evidence(runs[name], cid).items():
                    row[k if k != KEY.sigma_max_pct else f"{name}_{k}"] = v
        failures.append(row)
    return {
        "readings": names,
        "rows": rows,
        "n_counted": len(both),
        "means": means,
        "held_out": {n: {"inside": held[n][0], "successful": held[n][1]} for n in names},
        "decision": decision,
        "why": why,
        "failures": failures,
        "scorecards": scored,
    }


def _write(result: dict, out: Path, *, provenance=None) -> None:
    import pandas as pd

    from ..data.runio import write_csv, write_json, write_text
    from .readings_report import render

    out.mkdir(parents=True, exist_ok=True)
    write_text(out / "readings_report.md", render(result))
    write_csv(pd.DataFrame(result["rows"]), out / "readings_claims.csv", index=False)
    write_csv(pd.DataFrame(result["failures"]), out / "readings_failure_claims.csv", index=False)
    if result.get("basis"):
        write_csv(pd.DataFrame(result["basis"]), out / "readings_basis.csv", index=False)
    for name, rows in result.get("scorecards", {}).items():
        write_csv(pd.DataFrame(rows), out / f"readings_scorecard_{name}.csv", index=False)
    write_json(
        out / "readings_decision.json",
        {k: v for k, v in result.items() if k not in ("rows", "failures", "scorecards", "basis")},
        provenance=provenance,
    )


def _provenance(args, runs: dict[str, Path], result: dict) -> dict:
    """What made the decision: this command, its arguments (as its config), the registration, the
    claims and each run's files read (:mod:`tensegrity_id.results.provenance`): its scorecard and
    Table 3, or with ``--score`` the results files its scored claims came from."""
    from ..results.provenance import provenance_of

    names = ("table3.csv",) if args.score else TABLES
    files = [results_file(run, f"results/tables/{name}") for run in runs.values() for name in names]
    for name, rows in result.get("scorecards", {}).items():
        files += sorted({results_file(runs[name], r["source"]) for r in rows if r.get("source")})
        files += sorted((results_root(runs[name]) / "fisher").glob("*/*/*.json"))  # the failures' evidence
    return provenance_of(
        COMMAND,
        config={
            "registration": str(args.registration),
            "claims": str(args.claims),
            "runs": {name: str(run) for name, run in runs.items()},
            "score": bool(args.score),
        },
        inputs=[args.registration, args.claims, *dict.fromkeys(p for p in files if p.exists())],
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n")[0])
    ap.add_argument(
        "runs", nargs="*", type=Path, help="each reading's run folder, in the registration's order"
    )
    ap.add_argument("--registration", type=Path, default=REGISTRATION)
    ap.add_argument("--claims", type=Path, default=Path("resources/published/claims.yaml"))
    ap.add_argument("--out", type=Path, default=Path("results/readings"))
    ap.add_argument("--check", action="store_true", help="the frozen claim lists against the claims file")
    ap.add_argument(
        "--score",
        action="store_true",
        help="score each run's results files (a run of the protocol's targets, without its own scorecard)",
    )
    args = ap.parse_args(argv)
    from ..report.scorecard.claims import load_claims

    reg = load_registration(args.registration)
    claims = load_claims(args.claims)
    if args.check:
        sel, fail = select_claims(claims, reg), failure_claims(claims)
        bad = []
        if list(reg.claims) != sel:
            bad.append(f"claims: the rule gives {len(sel)}, the file freezes {len(reg.claims)}")
        if list(reg.failure_claims) != fail:
            bad.append(f"failure_claims: the rule gives {fail}, the file freezes {list(reg.failure_claims)}")
        for line in bad:
            print(f"{args.registration}: {line}", file=sys.stderr)
        return 1 if bad else 0
    if len(args.runs) != len(reg.readings):
        ap.error(f"give one run folder per reading ({', '.join(reg.readings)})")
    runs = dict(zip(reg.readings, args.runs, strict=True))
    broken = [line for run in runs.values() for line in verify(run)]
    for line in broken:
        print(f"error: {line}", file=sys.stderr)
    if broken:
        return 1
    result = compare(runs, reg, claims, score=args.score)
    result["basis"] = basis_rows(runs, {n: run_settings(runs[n], f) for n, f in reg.readings.items()})
    _write(result, args.out, provenance=_provenance(args, runs, result))
    for n in result["readings"]:
        mean = result["means"][n]
        shown = "none" if mean is None else f"{mean:.3f}"
        print(f"{n}: mean score {shown} over {result['n_counted']} claims")
    for n in result["readings"]:
        mine = [r for r in result["basis"] if r["reading"] == n]
        above = [r for r in mine if r["status"] != "inside the band"]
        held = sum(r["status"] == "represented" for r in above)
        print(
            f"{n}: response above the basis band in {len(above)} of {len(mine)} run groups, "
            f"represented by the network in {held}"
        )
    print(f"decision: {result['decision'] or 'none'} ({result['why']})")
    return 0 if result["decision"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
