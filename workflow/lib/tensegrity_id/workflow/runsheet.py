"""The run sheet: every job of the study as a row with named keys, read once from the config.

The workflow's config names structures, records, protocols and cases; the
run sheet expands it into rows (the Snakemake workflow template's
``samples.tsv``, here built in memory) that the rule files turn into paths:

=================  =========================================================
sheet              row keys
=================  =========================================================
``structures``     structure
``records``        structure, record
``thresholds``     structure, threshold
``sensors``        structure, record, protocol
``fisher``         structure, record, protocol
``pinn``           structure, record, protocol, treatment, steps, seed,
                   variant (``""`` or a name) and settings (the overrides)
``pinn_groups``    the PINN rows that differ only in their seed, as one
                   batch job: the row keys without ``seed``, plus ``seeds``
                   (sorted), ``label`` (``0-7``) and ``rule`` (its rule name)
``baselines``      method, structure, record, protocol, seed
``table_s5_baselines``  row (Table S5's), method, structure, record, protocol, seed
``cases``          structure, record, protocol (restarts, landscapes, ...)
=================  =========================================================

Validity is decided here, once: a case that names a record or protocol the
config does not define, for a structure that is built, is a
:class:`~tensegrity_id.workflow.config_check.ConfigError` naming the field.
Cases of structures that are not built (``build`` selects a subset, as
``config/test.yaml`` does) are out of scope and left out silently.

PINN variants
    A PINN row may carry ``settings`` (overrides of ``identify.pinn.settings``:
    width, depth, w_eom, w_bar, identify_EA, ...) and a ``variant`` name; its
    results go to ``..._steps{steps}_{variant}.json``.  Without a name the
    variant is named after its settings (``{w_bar: 10}`` -> ``wbar10``), so the
    path reads as what changed.  One name means one set of settings.
"""

from __future__ import annotations

import re

from ..mechanics.model_form import OWN_MODEL

__all__ = [
    "BASELINE_METHODS",
    "PINN_KEYS",
    "BASELINE_KEYS",
    "CASE_KEYS",
    "RESERVED_VARIANTS",
    "RunSheetError",
    "RunSheet",
    "variant_name",
    "seeds_label",
]

CASE_KEYS = ("structure", "record", "protocol")
PINN_KEYS = ("structure", "record", "protocol", "treatment", "steps", "seed", "variant")
BASELINE_KEYS = ("method", "structure", "record", "protocol", "seed")
BASELINE_METHODS = ("lm_shooting", "ukf", "pf_enkf")
BENCH_TABLES = {
    "table3": "table3",
    "table4": "table4",
    "table_s1": "tableS1",
    "table_s4": "tableS4",
    "table_s5": "tableS5",
    "table_s6": "tableS6",
}
"""Benchmark identification tables built from PINN rows (RunSheet.bench_tables)."""
STUDIES = {
    "seed_study": ("seed_study",),
    "fig6": ("figures", "fig6"),
    "fig7": ("figures", "fig7"),
    "force_scale": ("force_scale",),
}
"""Identification studies in the benchmark-table form (RunSheet.studies): name -> config keys."""
RESERVED_VARIANTS = frozenset({"history", "series", "restarts", "variants"})
"""Names a PINN variant may not take: they end other files of the same run."""


def seeds_label(seeds) -> str:
    """A path tag for a set of seeds: runs of consecutive seeds as ``a-b``, joined by dots.

    >>> seeds_label([0, 1, 2, 3]), seeds_label([0, 2, 5, 6]), seeds_label([4])
    ('0-3', '0.2.5-6', '4')
    """
    vals = sorted({int(s) for s in seeds})
    parts, start = [], None
    for k, v in enumerate(vals):
        start = v if start is None else start
        if k + 1 == len(vals) or vals[k + 1] != v + 1:
            parts.append(str(v) if start == v else f"{start}-{v}")
            start = None
    return ".".join(parts)


class RunSheetError(ValueError):
    """A case that names something the config does not define; the message names the field."""


def _token(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return re.sub(r"[^a-z0-9.]", "", str(value).lower().replace("-", "m"))


def variant_name(settings: dict) -> str:
    """A readable path tag for a set of PINN setting overrides: ``{w_bar: 10}`` -> ``wbar10``."""
    return "_".join(f"{k.replace('_', '').lower()}{_token(v)}" for k, v in sorted(settings.items()))


class RunSheet:
    """Rows of every job the config asks for, in scope of ``build``.

    Parameters
    ----------
    config : dict
        The workflow config after schema validation (defaults filled in).
    """

    def __init__(self, config: dict):
        self.config = config
        self.built = list(config.get("build", []))
        built = set(self.built)
        self.structures = list(
            dict.fromkeys(
                self.built
                + config.get("table_s3", {}).get("structures", [])
                + config.get("fig1", {}).get("structures", [])
            )
        )
        # a null entry drops a record inherited from the default config (check_config removes them too)
        self._records = {
            s: {r: spec for r, spec in v.items() if spec is not None}
            for s, v in config.get("records", {}).items()
        }
        self._protocols = {s: dict(v) for s, v in config.get("protocols", {}).items()}
        # measured records (config 'measured'): named records of their structure, protocol 'measured'
        self._measured = {
            name: dict(e) for name, e in (config.get("measured") or {}).items() if e["structure"] in built
        }
        self.measured = [
            {
                "structure": e["structure"],
                "record": name,
                "methods": list(e.get("methods", ["lm_shooting"])),
                "seeds": list(e.get("seeds", [0])),
            }
            for name, e in self._measured.items()
        ]
        pinn = config.get("identify", {}).get("pinn", {})
        self.groups = {s: dict(v) for s, v in pinn.get("groups", {}).items()}
        self.records = [
            {"structure": s, "record": r} for s, recs in self._records.items() if s in built for r in recs
        ]
        self.thresholds = [
            {"structure": s, "threshold": t}
            for s, ths in config.get("thresholds", {}).items()
            if s in built
            for t in ths
        ]
        self.sensors = [
            {**rec, "protocol": p} for rec in self.records for p in self._protocols.get(rec["structure"], {})
        ]
        self.modal = [s for s in config.get("modal", []) if s in built]
        figures = config.get("figures", {})
        self.figure_records = self._record_refs("figures.records", figures.get("records", []))
        self.energy_records = self._record_refs("figures.energy_balance", figures.get("energy_balance", []))
        fisher = config.get("fisher", {})
        self.fisher = self._cases("fisher.cases", fisher.get("cases", []))
        self.fig3 = []
        for i, c in enumerate(figures.get("fig3", [])):
            if self._in_scope(f"figures.fig3[{i}]", c["structure"]):
                case = self._case(f"figures.fig3[{i}]", c)
                self._not_in(f"figures.fig3[{i}]", case, self.fisher, "fisher.cases")
                self.fig3.append(case)
        self.series = [s for s in config.get("prestress_series", {}).get("structures", []) if s in built]
        self.grouping = []
        for s, g in config.get("grouping", {}).items():
            if s not in built:
                continue
            case = self._case(f"grouping.{s}.case", {"structure": s, **g["case"]})
            self._not_in(f"grouping.{s}.case", case, self.fisher, "fisher.cases")
            self.grouping.append({**case, "cables": list(g["cables"])})
        reg = config.get("identify", {}).get("regression", {})
        self.regression = self._record_refs("identify.regression.cases", reg.get("cases", []))
        qc = config.get("quaternion_crosscheck", {})
        self.crosscheck = self._record_refs("quaternion_crosscheck.records", qc.get("records", []))
        self.crosscheck_extra = {
            name: dict(e)
            for name, e in (qc.get("extra") or {}).items()
            if self._in_scope(f"quaternion_crosscheck.extra.{name}", e["structure"])
        }
        t1 = config.get("table1", {})
        self.table1 = [
            s for i, s in enumerate(t1.get("structures", [])) if self._in_scope(f"table1.structures[{i}]", s)
        ]
        # prestress scales of each structure's records (Table 1's prestress series)
        self.prestress_levels = {
            s: sorted({float((spec or {}).get("prestress_scale", 1.0)) for spec in recs.values()})
            for s, recs in self._records.items()
            if s in self.table1
        }
        self._pinn_sheet(config, pinn)
        self._baseline_sheet(config)
        self._assessment_sheet(config)
        self._robustness_sheet(config)

    # ------------------------------------------------------------ checks
    def _check_record(self, where: str, structure: str, record: str, *, groups: bool = False) -> None:
        known = set(self._records.get(structure, {}))
        known |= {n for n, e in self._measured.items() if e["structure"] == structure}
        if groups:
            known |= set(self.groups.get(structure, {}))
        if record not in known:
            extra = f" or 'identify.pinn.groups.{structure}'" if groups else ""
            raise RunSheetError(
                f"config field '{where}': record '{record}' of '{structure}' is not defined under "
                f"'records.{structure}'{extra} (known: {', '.join(sorted(known)) or 'none'})"
            )

    def measured_entry(self, structure: str, record: str) -> dict | None:
        """The config entry of a measured record, or ``None`` for a simulated one."""
        e = self._measured.get(record)
        return e if e is not None and e["structure"] == structure else None

    def _check_protocol(self, where: str, structure: str, protocol: str) -> None:
        known = dict(self._protocols.get(structure, {}))
        if any(e["structure"] == structure for e in self._measured.values()):
            known["measured"] = {}
        if protocol not in known:
            raise RunSheetError(
                f"config field '{where}': protocol '{protocol}' is not defined under 'protocols.{structure}' "
                f"(known: {', '.join(sorted(known)) or 'none'})"
            )

    def _in_scope(self, where: str, structure: str) -> bool:
        if structure not in self.config.get("structures", {}):
            raise RunSheetError(
                f"config field '{where}': structure '{structure}' is not defined under 'structures'"
            )
        return structure in self.built

    def _record_refs(self, where: str, refs: list) -> list[dict]:
        out = []
        for i, ref in enumerate(refs):
            if self._in_scope(f"{where}[{i}]", ref["structure"]):
                self._check_record(f"{where}[{i}]", ref["structure"], ref["record"])
                out.append({"structure": ref["structure"], "record": ref["record"]})
        return list({tuple(r.values()): r for r in out}.values())

    def _case(self, where: str, case: dict, *, groups: bool = False) -> dict:
        self._check_record(where, case["structure"], case["record"], groups=groups)
        self._check_protocol(where, case["structure"], case["protocol"])
        return {k: case[k] for k in CASE_KEYS}

    def _cases(self, where: str, cases: list, *, groups: bool = False) -> list[dict]:
        out = [
            self._case(f"{where}[{i}]", c, groups=groups)
            for i, c in enumerate(cases)
            if self._in_scope(f"{where}[{i}]", c["structure"])
        ]
        return list({tuple(c.values()): c for c in out}.values())

    @staticmethod
    def _not_in(where: str, row: dict, pool: list, pool_name: str) -> None:
        if row not in pool:
            raise RunSheetError(
                f"config field '{where}': {row} is not among '{pool_name}'; add it there as well"
            )

    # ---------------------------------------------------------------- PINN
    def _pinn_row(self, where: str, row: dict) -> dict:
        case = self._case(where, row, groups=True)
        settings = dict(row.get("settings") or {})
        variant = row.get("variant") or (variant_name(settings) if settings else "")
        if variant in RESERVED_VARIANTS:
            raise RunSheetError(
                f"config field '{where}.variant': '{variant}' is reserved; choose another name"
            )
        if variant and not settings:
            raise RunSheetError(f"config field '{where}': variant '{variant}' has no 'settings' to override")
        known = self.variants.setdefault(variant, settings)
        if known != settings:
            raise RunSheetError(
                f"config field '{where}': variant '{variant}' is already defined with other settings "
                f"({known}); give this one another name"
            )
        return {
            **case,
            "treatment": row["treatment"],
            "steps": int(row["steps"]),
            "seed": int(row.get("seed", 0)),
            "variant": variant,
            "settings": settings,
        }

    def _pinn_rows(self, where: str, rows: list) -> list[dict]:
        return [
            self._pinn_row(f"{where}[{i}]", r)
            for i, r in enumerate(rows)
            if self._in_scope(f"{where}[{i}]", r["structure"])
        ]

    def _pinn_sheet(self, config: dict, pinn: dict) -> None:
        self.variants: dict[str, dict] = {"": {}}
        for s, grp in self.groups.items():
            if s in self.built:
                for g, members in grp.items():
                    for k, r in enumerate(members):
                        self._check_record(f"identify.pinn.groups.{s}.{g}[{k}]", s, r)
        rows = []
        for i, run in enumerate(pinn.get("runs", [])):
            for k, r in enumerate(run["records"]):
                grid = [
                    {**run, "record": r, "treatment": t, "steps": n, "seed": seed}
                    for t in run.get("treatments", ["smooth"])
                    for n in run.get("steps", [25000])
                    for seed in run.get("seeds", [0])
                ]
                rows += self._pinn_rows(f"identify.pinn.runs[{i}].records[{k}]", grid)
        t5 = config.get("table5", {})
        t5_cases = self._cases("table5.cases", t5.get("cases", []), groups=True)
        self.table5 = [
            self._pinn_row("table5", {**c, "treatment": t, "steps": n, "seed": seed})
            for c in t5_cases
            for t in t5.get("treatments", [])
            for n in t5.get("steps", [])
            for seed in t5.get("seeds", [])
        ]
        self.fig4 = self._pinn_rows("figures.fig4", config.get("figures", {}).get("fig4", []))
        t6 = config.get("table6") or {}
        self.table6_on = bool(t6) and t6["structure"] in self.built
        self.table6_pinn = []
        if self.table6_on:
            for kind, r in t6["records"].items():
                ref = {"structure": t6["structure"], "record": r, "protocol": t6["protocol"]}
                self._case(f"table6.records.{kind}", ref)
            if "pinn" in t6:
                pn = t6["pinn"]
                self.table6_pinn = [
                    self._pinn_row(
                        f"table6.records.{kind}",
                        {
                            "structure": t6["structure"],
                            "record": t6["records"][kind],
                            "protocol": t6["protocol"],
                            **pn,
                        },
                    )
                    for kind in ("taut", "slack")
                ]
        self.table9_pinn = self._pinn_rows("table9.pinn", config.get("table9", {}).get("pinn", []))
        self.bench_tables = {t: self._bench_table(t, config.get(t) or {}) for t in BENCH_TABLES}
        self.studies = {}
        for name, keys in STUDIES.items():
            section = config
            for k in keys:
                section = section.get(k) or {}
            self.studies[name] = self._bench_table(".".join(keys), section)
        bench = [
            run
            for tables in (self.bench_tables, self.studies)
            for rows in tables.values()
            for row in rows
            for run in row["runs"]
        ]
        sf = config.get("silent_failures") or {}
        self.pinn_lm, self.silent_rows = [], []
        if sf:
            sf_rows = list(self.bench_tables.get(sf.get("table", "table3"), []))
            sf_rows += self._bench_table("silent_failures.extra", {"rows": sf.get("extra", [])})
            self.pinn_lm = _unique([run for row in sf_rows for run in row["runs"]], PINN_KEYS)
            index = {tuple(r[k] for k in PINN_KEYS): i for i, r in enumerate(self.pinn_lm)}
            self.silent_rows = [
                {
                    **{k: v for k, v in row.items() if k != "runs"},
                    "runs": [index[tuple(r[k] for k in PINN_KEYS)] for r in row["runs"]],
                }
                for row in sf_rows
            ]
        self.pinn = _unique(
            rows + self.table5 + self.fig4 + self.table6_pinn + self.table9_pinn + bench + self.pinn_lm,
            PINN_KEYS,
        )
        self.pinn_groups = _seed_groups(self.pinn)

    def _bench_table(self, name: str, table: dict) -> list[dict]:
        """Rows of a benchmark identification table (Tables 3 and 4): each row's PINN runs over its seeds.

        A row is ``{row, structure, record, protocol, steps?, seeds?, ...}``;
        ``steps``, ``seeds`` and ``treatment`` default to the table's.  The
        row's other keys (``forcing``, ``intervention``) are kept as labels.
        """
        out = []
        for i, r in enumerate(table.get("rows", [])):
            where = f"{name}.rows[{i}]"
            if not self._in_scope(where, r["structure"]):
                continue
            steps = r.get("steps", table.get("steps"))
            if steps is None:
                raise RunSheetError(f"config field '{where}': give 'steps' (or the table's 'steps')")
            seeds = r.get("seeds", table.get("seeds", [0]))
            runs = [
                self._pinn_row(
                    where,
                    {
                        **r,
                        "treatment": r.get("treatment", table.get("treatment", "smooth")),
                        "steps": steps,
                        "seed": seed,
                    },
                )
                for seed in seeds
            ]
            labels = {k: v for k, v in r.items() if k not in (*PINN_KEYS, "seeds", "settings")}
            out.append({**labels, **{k: runs[0][k] for k in CASE_KEYS}, "steps": int(steps), "runs": runs})
        return out

    def record_structures(self) -> list[dict]:
        """``{structure}`` rows of the structures that have records, in order."""
        return [{"structure": s} for s in dict.fromkeys(r["structure"] for r in self.records)]

    def crosscheck_structures(self) -> list[dict]:
        """``{structure}`` rows of the quaternion cross-check (suite records, then the extra ones)."""
        names = [r["structure"] for r in self.crosscheck] + [
            e["structure"] for e in self.crosscheck_extra.values()
        ]
        return [{"structure": s} for s in dict.fromkeys(names)]

    def pinn_records(self, structure: str, record: str) -> list[str]:
        """The records of a PINN case: a group of pooled records, or the record itself."""
        return list(self.groups.get(structure, {}).get(record, [record]))

    def pinn_settings(self, variant: str) -> dict:
        """The setting overrides of a PINN variant (``""``: none)."""
        if variant not in self.variants:
            raise KeyError(
                f"no PINN variant '{variant}' in the config (known: {', '.join(sorted(self.variants))})"
            )
        return dict(self.variants[variant])

    # ----------------------------------------------------------- baselines
    def _baseline_sheet(self, config: dict) -> None:
        base = config.get("identify", {}).get("baselines", {})
        cases = self._cases("identify.baselines.cases", base.get("cases", []))
        rows = [
            {"method": m, **c, "seed": int(seed)}
            for m in base.get("methods", {})
            for c in cases
            for seed in base.get("seeds", [0])
        ]
        t6 = config.get("table6") or {}
        self.table6_baselines = []
        if self.table6_on:
            self.table6_baselines = [
                {
                    "method": m,
                    "structure": t6["structure"],
                    "record": t6["records"][kind],
                    "protocol": t6["protocol"],
                    "seed": int(t6.get("seed", 0)),
                }
                for m in t6.get("methods", BASELINE_METHODS)
                for kind in ("taut", "slack")
            ]
        self.table9_baselines = []
        for i, row in enumerate(config.get("table9", {}).get("baselines", [])):
            where = f"table9.baselines[{i}]"
            if self._in_scope(where, row["structure"]):
                case = self._case(where, row)
                self.table9_baselines.append(
                    {"method": row["method"], **case, "seed": int(row.get("seed", 0))}
                )
        # Table S5's companion: the classical baselines on the rows of Table S5 (beyond the seed)
        s5b = config.get("table_s5_baselines") or {}
        self.table_s5_baselines = [
            {
                "row": row["row"],
                "method": m,
                **{k: row[k] for k in CASE_KEYS},
                "seed": int(s5b.get("seed", 0)),
            }
            for row in self.bench_tables["table_s5"]
            for m in s5b.get("methods", [])
        ]
        self.baselines = _unique(
            rows
            + self.table6_baselines
            + self.table9_baselines
            + [{k: r[k] for k in BASELINE_KEYS} for r in self.table_s5_baselines],
            BASELINE_KEYS,
        )
        self.restarts = self._cases(
            "identify.baselines.restarts.cases", base.get("restarts", {}).get("cases", [])
        )
        self.landscape = self._cases(
            "identify.baselines.landscape.cases", base.get("landscape", {}).get("cases", [])
        )
        self.baseline_studies = [
            {"method": v["method"], **c, "study": study}
            for study, v in base.get("variants", {}).items()
            for c in self._cases(f"identify.baselines.variants.{study}.cases", v.get("cases", []))
        ]
        self.table6_regression = [
            {"structure": t6["structure"], "record": t6["records"][kind]}
            for kind in ("taut", "slack")
            if self.table6_on
            and {"structure": t6["structure"], "record": t6["records"][kind]} in self.regression
        ]

    # ---------------------------------------------------------- robustness
    def _robustness_sheet(self, config: dict) -> None:
        mm = config.get("robustness", {}).get("member_model", {})
        where = "robustness.member_model.structures"
        self.member_model = [
            s for i, s in enumerate(mm.get("structures", [])) if self._in_scope(f"{where}[{i}]", s)
        ]
        # records of the residual's own model (no generator, or the matched one at a tighter tolerance)
        self.member_model_records = [
            r
            for r in self.records
            if r["structure"] in self.member_model
            and (self._records[r["structure"]][r["record"]].get("generator") or {}).get("kind", "matched")
            in OWN_MODEL
        ]

    # ---------------------------------------------------------- assessment
    def _assessment_sheet(self, config: dict) -> None:
        ass = config.get("assessment", {})
        built = set(self.built)
        self.assess_scan = [s for s in ass.get("scan", {}).get("structures", []) if s in built]
        self.assess_records = self._record_refs("assessment.records", ass.get("records", []))
        self.assess_steel = [s for s in ass.get("steel", {}).get("structures", []) if s in built]
        self.figS1 = [s for s in config.get("figures", {}).get("figS1", []) if s in built]


GROUP_KEYS = tuple(k for k in PINN_KEYS if k != "seed")
"""What the runs of one batch share (they differ only in their seed)."""


def _seed_groups(rows: list[dict]) -> list[dict]:
    """PINN rows grouped by everything but the seed: one batch job each, in first-seen order."""
    groups: dict = {}
    for r in rows:
        g = groups.setdefault(tuple(r[k] for k in GROUP_KEYS), {**{k: r[k] for k in GROUP_KEYS}, "seeds": []})
        g["settings"] = r["settings"]
        g["seeds"].append(int(r["seed"]))
    out, names = [], set()
    for g in groups.values():
        g["seeds"] = sorted(set(g["seeds"]))
        g["label"] = seeds_label(g["seeds"])
        parts = [
            g["treatment"],
            g["structure"],
            g["record"],
            g["protocol"],
            f"steps{g['steps']}",
            g["variant"],
        ]
        name = re.sub(r"\W", "_", "_".join(["identify_pinn", *filter(None, map(str, parts))]))
        base, k = name, 2
        while name in names:
            name, k = f"{base}_{k}", k + 1
        names.add(name)
        out.append({**g, "rule": name})
    return out


def _unique(rows: list[dict], keys) -> list[dict]:
    """Rows without repeats (by ``keys``), first occurrence kept."""
    seen: dict = {}
    for r in rows:
        seen.setdefault(tuple(r[k] for k in keys), r)
    return list(seen.values())
