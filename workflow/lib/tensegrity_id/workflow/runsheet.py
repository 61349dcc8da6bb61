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
``pinn_groups``    the PINN rows that differ only in their seed (a seed
                   group, one summary): the row keys without ``seed``, plus
                   ``seeds`` (sorted), ``label`` (``0-7``) and ``name``
``pinn_jobs``      the groups' training jobs, at most
                   ``identify.pinn.batch.seeds_per_job`` seeds each: a
                   group's row with its own ``seeds`` and ``label`` and
                   ``rule`` (its rule name)
``baselines``      method, structure, record, protocol, seed
``measured``       structure, record, methods, seeds
``rows``           every study's rows by the catalog's names
                   (:func:`~tensegrity_id.workflow.study_rows.study_rows`)
=================  =========================================================

Validity is decided here, once: a case that names a record or protocol the
config does not define, for a structure that is built, is a
:class:`~tensegrity_id.workflow.config_check.ConfigError` naming the field.
Rows of structures that are not built (``build`` selects a subset, as
``config/test.yaml`` does) are out of scope and left out silently.

PINN variants, seed groups and their training jobs are named in
:mod:`~tensegrity_id.workflow.job_names`.
"""

from __future__ import annotations

import dataclasses

from .job_names import PINN_KEYS, seed_groups, seed_jobs, seeds_label, variant_name
from .study_rows import BASELINE_METHODS, BASELINE_STUDIES, BENCH_TABLES, PINN_STUDIES, study_rows

__all__ = [
    "BASELINE_METHODS",
    "BENCH_TABLES",
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
BASELINE_KEYS = ("method", "structure", "record", "protocol", "seed")
RESERVED_VARIANTS = frozenset({"history", "series", "restarts", "variants"})
"""Names a PINN variant may not take: they end other files of the same run."""


class RunSheetError(ValueError):
    """A case that names something the config does not define; the message names the field."""


class RunSheet:
    """Rows of every job the config asks for, in scope of ``build``.

    Parameters
    ----------
    config : dict
        The workflow config after schema validation (defaults filled in).
    """

    Error = RunSheetError
    PINN_KEYS = PINN_KEYS

    def __init__(self, config: dict):
        self.config = config
        self.built = list(config.get("build", []))
        self.structures = self.built
        rec = config.get("records", {})
        omit = rec.get("omit", {})
        for s, names in omit.items():
            for i, r in enumerate(names):
                if r not in (rec.get("suite", {}).get(s) or {}):
                    raise RunSheetError(
                        f"config field 'records.omit.{s}[{i}]': '{r}' is not a record of "
                        f"'records.suite.{s}'; nothing to omit"
                    )
        self._records = {
            s: {r: spec for r, spec in v.items() if r not in omit.get(s, [])}
            for s, v in rec.get("suite", {}).items()
        }
        self._protocols = {s: dict(v) for s, v in rec.get("protocols", {}).items()}
        # measured records (config measured.records): named records of their structure, protocol 'measured'
        measured = (config.get("measured") or {}).get("records") or {}
        self._measured = {n: dict(e) for n, e in measured.items() if e["structure"] in self.built}
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
        self._pinn_defaults = _pinn_defaults(pinn.get("settings") or {})
        self.records = [
            {"structure": s, "record": r}
            for s, recs in self._records.items()
            if s in self.built
            for r in recs
        ]
        self.thresholds = [
            {"structure": s, "threshold": t}
            for s, ths in rec.get("thresholds", {}).items()
            if s in self.built
            for t in ths
        ]
        self.sensors = [
            {**r, "protocol": p} for r in self.records for p in self._protocols.get(r["structure"], {})
        ]
        self.variants: dict[str, dict] = {"": {}}
        for s, grp in self.groups.items():
            if s in self.built:
                for g, members in grp.items():
                    for k, r in enumerate(members):
                        self._check_record(f"identify.pinn.groups.{s}.{g}[{k}]", s, r)
        self.rows = study_rows(self)
        # prestress scales of each structure's records (Table 1's prestress series)
        self.rows["table1_levels"] = {
            s: sorted({float((spec or {}).get("prestress_scale", 1.0)) for spec in recs.values()})
            for s, recs in self._records.items()
            if s in self.rows["table1"]
        }
        runs = []
        for i, run in enumerate(pinn.get("runs", [])):
            for k, r in enumerate(run["records"]):
                grid = [
                    {**run, "record": r, "treatment": t, "steps": n, "seed": seed}
                    for t in run.get("treatments", ["smooth"])
                    for n in run.get("steps", [25000])
                    for seed in run.get("seeds", [0])
                ]
                runs += self.pinn_rows(f"identify.pinn.runs[{i}].records[{k}]", grid)
        runs += [r for name in PINN_STUDIES for r in self.rows[name]]
        runs += [run for name in BENCH_TABLES for row in self.rows[f"bench_{name}"] for run in row["runs"]]
        self.pinn = _unique(runs, PINN_KEYS)
        self.pinn_groups = seed_groups(self.pinn)
        self.pinn_jobs = seed_jobs(self.pinn_groups, int(pinn.get("batch", {}).get("seeds_per_job", 1)))
        base = config.get("identify", {}).get("baselines", {})
        cases = self.cases("identify.baselines.cases", base.get("cases", []))
        rows = [
            {"method": m, **c, "seed": int(seed)}
            for m in base.get("methods", {})
            for c in cases
            for seed in base.get("seeds", [0])
        ]
        rows += [{k: r[k] for k in BASELINE_KEYS} for name in BASELINE_STUDIES for r in self.rows[name]]
        self.baselines = _unique(rows, BASELINE_KEYS)

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
                f"'records.suite.{structure}'{extra} (known: {', '.join(sorted(known)) or 'none'})"
            )

    def record_spec(self, structure: str, record: str) -> dict:
        """The suite entry of a simulated record."""
        return self._records[structure][record] or {}

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
                f"config field '{where}': protocol '{protocol}' is not defined under "
                f"'records.protocols.{structure}' (known: {', '.join(sorted(known)) or 'none'})"
            )

    def in_scope(self, where: str, structure: str) -> bool:
        """Whether ``structure`` is built; an error naming ``where`` if it is not defined at all."""
        if structure not in self.config.get("structures", {}):
            raise RunSheetError(
                f"config field '{where}': structure '{structure}' is not defined under 'structures'"
            )
        return structure in self.built

    def record_refs(self, where: str, refs: list) -> list[dict]:
        """``{structure, record}`` rows of built structures, each record checked, without repeats."""
        out = []
        for i, ref in enumerate(refs):
            if self.in_scope(f"{where}[{i}]", ref["structure"]):
                self._check_record(f"{where}[{i}]", ref["structure"], ref["record"])
                out.append({"structure": ref["structure"], "record": ref["record"]})
        return list({tuple(r.values()): r for r in out}.values())

    def case(self, where: str, case: dict, *, groups: bool = False) -> dict:
        """A ``{structure, record, protocol}`` row, its record and protocol checked."""
        self._check_record(where, case["structure"], case["record"], groups=groups)
        self._check_protocol(where, case["structure"], case["protocol"])
        return {k: case[k] for k in CASE_KEYS}

    def cases(self, where: str, cases: list, *, groups: bool = False) -> list[dict]:
        """The cases of built structures, checked, without repeats."""
        out = [
            self.case(f"{where}[{i}]", c, groups=groups)
            for i, c in enumerate(cases)
            if self.in_scope(f"{where}[{i}]", c["structure"])
        ]
        return list({tuple(c.values()): c for c in out}.values())

    @staticmethod
    def not_in(where: str, row: dict, pool: list, pool_name: str) -> None:
        """An error naming ``where`` unless ``row`` is among ``pool``."""
        if row not in pool:
            raise RunSheetError(
                f"config field '{where}': {row} is not among '{pool_name}'; add it there as well"
            )

    # ---------------------------------------------------------------- PINN
    @staticmethod
    def pinn_key(row: dict) -> tuple:
        return tuple(row[k] for k in PINN_KEYS)

    def pinn_row(self, where: str, row: dict) -> dict:
        """A PINN row (a case, treatment, steps, seed and variant), its variant's settings checked."""
        case = self.case(where, row, groups=True)
        # an override equal to the default setting is none: the run is the default's, under its name
        settings = {
            k: v for k, v in (row.get("settings") or {}).items() if self._pinn_defaults.get(k, _UNSET) != v
        }
        variant = row.get("variant") or (variant_name(settings) if settings else "")
        if variant in RESERVED_VARIANTS:
            raise RunSheetError(
                f"config field '{where}.variant': '{variant}' is reserved; choose another name"
            )
        if variant and not settings:
            raise RunSheetError(
                f"config field '{where}': variant '{variant}' has no 'settings' that differ from "
                "identify.pinn.settings; give the overrides, or drop the variant name to run the default"
            )
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

    def pinn_rows(self, where: str, rows: list) -> list[dict]:
        """The PINN rows of built structures."""
        return [
            self.pinn_row(f"{where}[{i}]", r)
            for i, r in enumerate(rows)
            if self.in_scope(f"{where}[{i}]", r["structure"])
        ]

    def record_structures(self) -> list[dict]:
        """``{structure}`` rows of the structures that have records, in order."""
        return [{"structure": s} for s in dict.fromkeys(r["structure"] for r in self.records)]

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


_UNSET = object()


def _pinn_defaults(configured: dict) -> dict:
    """Every PINN setting's default: ``identify.pinn.settings`` over the library's
    (:class:`~tensegrity_id.identify.pinn.settings.PINNSettings`, torch-free)."""
    from ..identify.pinn.settings import PINNSettings

    return dataclasses.asdict(PINNSettings()) | dict(configured)


def _unique(rows: list[dict], keys) -> list[dict]:
    """Rows without repeats (by ``keys``), first occurrence kept."""
    seen: dict = {}
    for r in rows:
        seen.setdefault(tuple(r[k] for k in keys), r)
    return list(seen.values())
