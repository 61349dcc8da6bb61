"""Each study's rows, by the names the study catalog uses (``workflow/catalog.yaml``).

:func:`study_rows` expands the config's ``analysis``, ``identify``, ``studies``,
``assessment``, ``validation`` and ``measured`` sections into rows of named
keys (or a flag for a study without rows), validating every reference
through the run sheet's checks.  The catalog's ``rows`` and ``scope`` name
these keys; the run sheet gathers the PINN and baseline rows of all of them
into its jobs.

==============================  ==============================================
key                             rows
==============================  ==============================================
``fisher`` ``fig3``             structure, record, protocol
``record_figures`` ``figS4``    structure, record
``table5`` ``fig4``             PINN rows (structure ... seed, variant, settings)
``table6_pinn`` ``table9_pinn``
``bench_<name>``                benchmark-table rows (``BENCH_TABLES``: Tables 3,
                                4, S1, S4-S6, the seed study, Figures 6-7, the
                                force scale, the specification study): labels,
                                case, steps, ``runs`` (its PINN rows, one a seed)
``table6_baselines`` ...        baseline rows (method, case, seed)
==============================  ==============================================
"""

from __future__ import annotations

from ..mechanics.model_form import OWN_MODEL

__all__ = [
    "BENCH_TABLES",
    "BENCH_TABLE_RULES",
    "BASELINE_METHODS",
    "PINN_STUDIES",
    "BASELINE_STUDIES",
    "study_rows",
]

BASELINE_METHODS = ("lm_shooting", "ukf", "pf_enkf")
BENCH_TABLES = (
    "table3",
    "table4",
    "tableS1",
    "tableS4",
    "tableS5",
    "tableS6",
    "seed_study",
    "fig6",
    "fig7",
    "force_scale",
    "pinn_spec_study",
)
"""Studies in the benchmark-table form (rows of PINN runs over seeds): rows under ``bench_<name>``."""
BENCH_TABLE_RULES = BENCH_TABLES[:6]
"""The benchmark tables made by the one generic rule (``make_<name>``, workflow/rules/tables.smk)."""
PINN_STUDIES = ("table5", "fig4", "table6_pinn", "table9_pinn", "pinn_lm")
"""Row lists of single PINN runs (beside the benchmark tables' runs)."""
BASELINE_STUDIES = ("table6_baselines", "table9_baselines", "tableS5_baselines")
"""Row lists of baseline runs."""


def _names(sheet, where: str, names: list) -> list[str]:
    return [s for i, s in enumerate(names) if sheet.in_scope(f"{where}[{i}]", s)]


def study_rows(sheet) -> dict:
    """Every study's rows (or flag) of ``sheet``'s config, by catalog name."""
    config = sheet.config
    analysis, studies = config.get("analysis", {}), config.get("studies", {})
    identify, ass = config.get("identify", {}), config.get("assessment", {})
    st = {k: (v or {}) for k, v in studies.items()}
    rows: dict = {"structures": [{"structure": s} for s in sheet.built]}
    rows["modal"] = [{"structure": s} for s in _names(sheet, "analysis.modal", analysis.get("modal", []))]
    rows["fisher"] = sheet.cases("analysis.fisher.cases", analysis.get("fisher", {}).get("cases", []))
    rows["fig3"] = sheet.cases("studies.fig3", st.get("fig3") or [])
    for i, case in enumerate(rows["fig3"]):
        sheet.not_in(f"studies.fig3[{i}]", case, rows["fisher"], "analysis.fisher.cases")
    series = analysis.get("prestress_series", {}).get("structures", [])
    rows["series"] = [{"structure": s} for s in _names(sheet, "analysis.prestress_series.structures", series)]
    rows["grouping"] = []
    for s, g in analysis.get("grouping", {}).items():
        if sheet.in_scope(f"analysis.grouping.{s}", s):
            case = sheet.case(f"analysis.grouping.{s}.case", {"structure": s, **g["case"]})
            sheet.not_in(f"analysis.grouping.{s}.case", case, rows["fisher"], "analysis.fisher.cases")
            rows["grouping"].append({**case, "cables": list(g["cables"])})
    rows["record_figures"] = sheet.record_refs("studies.record_figures", st.get("record_figures") or [])
    rows["figS4"] = sheet.record_refs("studies.figS4", st.get("figS4") or [])
    qc = st.get("crosscheck", {})
    rows["crosscheck"] = sheet.record_refs("studies.crosscheck.records", qc.get("records", []))
    rows["crosscheck_extra"] = {
        name: dict(e)
        for name, e in (qc.get("extra") or {}).items()
        if sheet.in_scope(f"studies.crosscheck.extra.{name}", e["structure"])
    }
    # the cross-check's structures: the suite records', then the extra ones'
    names = [r["structure"] for r in rows["crosscheck"]] + [
        e["structure"] for e in rows["crosscheck_extra"].values()
    ]
    rows["crosscheck_structures"] = [{"structure": s} for s in dict.fromkeys(names)]
    rows["table1"] = _names(sheet, "studies.table1.structures", st.get("table1", {}).get("structures", []))
    for key in ("tableS3", "fig1"):
        rows[key] = _names(sheet, f"studies.{key}.structures", st.get(key, {}).get("structures", []))
    rows["figS1"] = _names(sheet, "studies.figS1", st.get("figS1") or [])
    rows["fig2"] = st.get("fig2", {}).get("structure") in sheet.built
    rows["springrod"] = bool(st.get("springrod"))
    _identification(sheet, rows, st)
    _baselines(sheet, rows, st, identify.get("baselines", {}))
    rows["assess_scan"] = [
        {"structure": s} for s in ass.get("scan", {}).get("structures", []) if s in sheet.built
    ]
    rows["assess_records"] = sheet.record_refs("assessment.records", ass.get("records", []))
    rows["assess_steel"] = [
        {"structure": s} for s in ass.get("steel", {}).get("structures", []) if s in sheet.built
    ]
    lm = st.get("force_scale", {}).get("lm")
    rows["force_scale_lm"] = [lm] if lm and sheet.in_scope("studies.force_scale.lm", lm["structure"]) else []
    rows["force_scale"] = bool(rows["bench_force_scale"] or rows["force_scale_lm"])
    rob = st.get("robustness", {})
    rows["flexible_bars"] = bool(rob.get("flexible_bars"))
    rows["bar_stiffness"] = bool(rob.get("bar_stiffness"))
    member = _names(
        sheet, "studies.robustness.member_model.structures", rob.get("member_model", {}).get("structures", [])
    )
    rows["member_model"] = [{"structure": s} for s in member]
    # records of the residual's own model (no generator, or the matched one at a tighter tolerance)
    rows["member_model_records"] = [
        r
        for r in sheet.records
        if r["structure"] in member
        and (sheet.record_spec(r["structure"], r["record"]).get("generator") or {}).get("kind", "matched")
        in OWN_MODEL
    ]
    val = config.get("validation", {})
    rows["hexprism"], rows["simplex"], rows["leg"] = (
        bool(val.get(k)) for k in ("hexprism", "simplex", "leg")
    )
    rows["hexprism_and_simplex"] = rows["hexprism"] and rows["simplex"]
    rows["measured"] = sheet.measured
    peaks = (config.get("measured", {}) or {}).get("peaks") or {}
    rows["peaks"] = [
        {"name": n, "structure": e["structure"]} for n, e in peaks.items() if e["structure"] in sheet.built
    ]
    return rows


def _identification(sheet, rows: dict, st: dict) -> None:
    """The PINN rows of the identification studies (Tables 3-6, 9, S1, S4-S6, Figures 4-7, ...)."""
    t5 = st.get("table5", {})
    cases = sheet.cases("studies.table5.cases", t5.get("cases", []), groups=True)
    rows["table5"] = [
        sheet.pinn_row("studies.table5", {**c, "treatment": t, "steps": n, "seed": seed})
        for c in cases
        for t in t5.get("treatments", [])
        for n in t5.get("steps", [])
        for seed in t5.get("seeds", [])
    ]
    rows["fig4"] = sheet.pinn_rows("studies.fig4", st.get("fig4") or [])
    t6 = st.get("table6") or {}
    rows["table6"] = bool(t6) and t6["structure"] in sheet.built
    rows["table6_pinn"] = []
    if rows["table6"]:
        refs = {
            kind: {"structure": t6["structure"], "record": r, "protocol": t6["protocol"]}
            for kind, r in t6["records"].items()
        }
        for kind, ref in refs.items():
            sheet.case(f"studies.table6.records.{kind}", ref)
        if "pinn" in t6:
            rows["table6_pinn"] = [
                sheet.pinn_row(f"studies.table6.records.{kind}", {**refs[kind], **t6["pinn"]})
                for kind in ("taut", "slack")
            ]
    rows["table9_pinn"] = sheet.pinn_rows("studies.table9.pinn", st.get("table9", {}).get("pinn", []))
    st = {**st, "pinn_spec_study": spec_study_table(st.get("pinn_spec_study") or {})}
    for name in BENCH_TABLES:
        rows[f"bench_{name}"] = bench_table(sheet, f"studies.{name}", st.get(name) or {})
    sf = st.get("silent_failures") or {}
    rows["pinn_lm"], rows["silent_rows"] = [], []
    if sf:
        sf_rows = list(rows[f"bench_{sf.get('table', 'table3')}"])
        sf_rows += bench_table(sheet, "studies.silent_failures.extra", {"rows": sf.get("extra", [])})
        runs: dict = {}
        for r in (r for row in sf_rows for r in row["runs"]):
            runs.setdefault(sheet.pinn_key(r), r)
        rows["pinn_lm"] = list(runs.values())
        index = {key: i for i, key in enumerate(runs)}
        rows["silent_rows"] = [
            {
                **{k: v for k, v in row.items() if k != "runs"},
                "runs": [index[sheet.pinn_key(r)] for r in row["runs"]],
            }
            for row in sf_rows
        ]


def spec_study_table(study: dict) -> dict:
    """The specification study as a benchmark table: one row per setting and record, over the seeds.

    ``study`` is ``{steps, seeds, treatment?, base?, records: [case], settings: {name: overrides},
    extra?}``; a row is ``{row: <name>__<structure>_<record>, label: <name>, case, settings}``.
    Every setting's overrides, and every ``extra`` row's, apply over ``base`` (overrides of
    ``identify.pinn.settings``: the reading the study varies its details from, whatever the
    workflow's default; ``{}`` or absent: the default).  Overrides that come to nothing are the
    default settings, shared with the other studies' runs.  ``extra`` rows ``{label, structure,
    record, protocol, settings?}`` vary what is not a network setting (a sensor protocol's
    held-out split).
    """
    base = dict(study.get("base") or {})
    pairs = [
        (name, {**base, **over}, case)
        for name, over in (study.get("settings") or {}).items()
        for case in study.get("records", [])
    ]
    pairs += [(e["label"], {**base, **(e.get("settings") or {})}, e) for e in study.get("extra", [])]
    rows = [
        {
            "row": f"{name}__{case['structure']}_{case['record']}",
            "label": name,
            **{k: case[k] for k in ("structure", "record", "protocol")},
            **({"settings": dict(over)} if over else {}),
        }
        for name, over, case in pairs
    ]
    return {k: study[k] for k in ("steps", "seeds", "treatment") if k in study} | {"rows": rows}


def bench_table(sheet, name: str, table: dict) -> list[dict]:
    """Rows of a benchmark identification table (Tables 3 and 4): each row's PINN runs over its seeds.

    A row is ``{row, structure, record, protocol, steps?, seeds?, ...}``;
    ``steps``, ``seeds`` and ``treatment`` default to the table's.  The
    row's other keys (``forcing``, ``intervention``) are kept as labels.
    """
    out = []
    for i, r in enumerate(table.get("rows", [])):
        where = f"{name}.rows[{i}]"
        if not sheet.in_scope(where, r["structure"]):
            continue
        steps = r.get("steps", table.get("steps"))
        if steps is None:
            raise sheet.Error(f"config field '{where}': give 'steps' (or the table's 'steps')")
        treatment = r.get("treatment", table.get("treatment", "smooth"))
        runs = [
            sheet.pinn_row(where, {**r, "treatment": treatment, "steps": steps, "seed": seed})
            for seed in r.get("seeds", table.get("seeds", [0]))
        ]
        labels = {k: v for k, v in r.items() if k not in (*sheet.PINN_KEYS, "seeds", "settings")}
        case = {k: runs[0][k] for k in ("structure", "record", "protocol")}
        out.append({**labels, **case, "steps": int(steps), "runs": runs})
    return out


def _baselines(sheet, rows: dict, st: dict, base: dict) -> None:
    """The baseline rows of the studies, and the cases of the baseline side studies."""
    t6 = st.get("table6") or {}
    rows["table6_baselines"] = [
        {
            "method": m,
            "structure": t6["structure"],
            "record": t6["records"][kind],
            "protocol": t6["protocol"],
            "seed": int(t6.get("seed", 0)),
        }
        for m in (t6.get("methods", BASELINE_METHODS) if rows["table6"] else [])
        for kind in ("taut", "slack")
    ]
    rows["table9_baselines"] = []
    for i, row in enumerate(st.get("table9", {}).get("baselines", [])):
        where = f"studies.table9.baselines[{i}]"
        if sheet.in_scope(where, row["structure"]):
            case = sheet.case(where, row)
            rows["table9_baselines"].append(
                {"method": row["method"], **case, "seed": int(row.get("seed", 0))}
            )
    # Table S5's companion: the classical baselines on the rows of Table S5 (beyond the paper)
    s5b = (st.get("tableS5") or {}).get("baselines") or {}
    rows["tableS5_baselines"] = [
        {
            "row": row["row"],
            "method": m,
            **{k: row[k] for k in ("structure", "record", "protocol")},
            "seed": int(s5b.get("seed", 0)),
        }
        for row in rows["bench_tableS5"]
        for m in s5b.get("methods", [])
    ]
    reg = sheet.config.get("identify", {}).get("regression", {})
    rows["regression"] = sheet.record_refs("identify.regression.cases", reg.get("cases", []))
    rows["restarts"] = sheet.cases(
        "identify.baselines.restarts.cases", base.get("restarts", {}).get("cases", [])
    )
    rows["landscape"] = sheet.cases(
        "identify.baselines.landscape.cases", base.get("landscape", {}).get("cases", [])
    )
    rows["baseline_studies"] = [
        {"method": v["method"], **c, "study": study}
        for study, v in base.get("variants", {}).items()
        for c in sheet.cases(f"identify.baselines.variants.{study}.cases", v.get("cases", []))
    ]
    rows["table6_regression"] = [
        {"structure": t6["structure"], "record": t6["records"][kind]}
        for kind in ("taut", "slack")
        if rows["table6"]
        and {"structure": t6["structure"], "record": t6["records"][kind]} in rows["regression"]
    ]
