"""The study catalog: every output of the study described once (``workflow/catalog.yaml``).

An entry names what an output is (title, the paper's section), the rule that
writes it (and whether it is cheap enough to run on the submitting host), its
files through the path provider (:mod:`tensegrity_id.workflow.paths`), the
run-sheet rows it is made per (``rows``) or that put it in the study
(``scope``), the config study it reads and how ``snakemake --report`` shows
it.  From the catalog are derived:

* ``rule all`` (:meth:`Catalog.targets`) and ``localrules``
  (:attr:`Catalog.local_rules`) in the Snakefile;
* each artefact rule's outputs and its ``report()`` entry
  (:meth:`Artefact.paths`, through ``catalog_outputs`` in the rule files);
* ``docs/outputs.md`` (``python -m tensegrity_id.workflow.study_catalog``);
* the owner of a results file (:meth:`Catalog.owner_of`), which the
  scorecard's test uses to check that every claim reads a file the workflow
  writes.

The run sheet's rows and scope flags reach :meth:`Catalog.targets` as one
mapping ``name -> rows`` (a list of row dicts, or a truth value for a flag),
built once in ``workflow/rules/common.smk``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .paths import PATHS, result_path

__all__ = ["CatalogError", "Artefact", "Catalog", "load_catalog", "outputs_markdown", "main"]

CATALOG_FILE = "workflow/catalog.yaml"
"""The catalog, relative to the repository root."""


_KEYS = {"title", "section", "rule", "local", "outputs", "rows", "scope", "config", "report"}
_REPORT_KEYS = {"output", "category", "subcategory", "caption", "labels"}


class CatalogError(ValueError):
    """A catalog entry that cannot work; the message names the entry and the field."""


@dataclass(frozen=True)
class Artefact:
    """One output of the study (module docstring); ``outputs`` maps a name to ``(kind, suffix, keys)``."""

    id: str
    title: str
    section: str
    rule: str
    outputs: dict
    local: bool = False
    rows: str | None = None
    scope: tuple = ()
    config: str | None = None
    report: dict | None = None

    def paths(self, row: dict | None = None) -> dict[str, str]:
        """Output name -> path; keys not fixed by the entry or ``row`` stay ``{wildcards}``."""
        row = row or {}
        out = {}
        for name, (kind, suffix, keys) in self.outputs.items():
            if "{" in suffix and row:
                suffix = suffix.format(**row)
            out[name] = result_path(kind, suffix, **{**row, **keys})
        return out


@dataclass(frozen=True)
class Catalog:
    """The study's artefacts by id, in the catalog's order."""

    artefacts: dict = field(default_factory=dict)

    def __getitem__(self, key: str) -> Artefact:
        if key not in self.artefacts:
            raise KeyError(f"no artefact '{key}' in the study catalog (known: {', '.join(self.artefacts)})")
        return self.artefacts[key]

    def __iter__(self):
        return iter(self.artefacts.values())

    @property
    def local_rules(self) -> list[str]:
        """Rules cheap enough for the submitting host (``localrules``), in catalog order."""
        return list(dict.fromkeys(a.rule for a in self if a.local))

    def targets(self, sheet: dict) -> dict[str, list[str]]:
        """What ``rule all`` asks for: per artefact in the study, its files (per row where it has rows).

        ``sheet`` maps a row-list or scope name to its rows (a list of row
        dicts) or to a truth value; an artefact with ``rows`` is made once
        per row, one with ``scope`` when any of its scope entries is
        non-empty, one with neither always.
        """
        out = {}
        for a in self:
            if a.rows is not None:
                files = [p for row in _lookup(sheet, a, a.rows) for p in a.paths(row).values()]
            elif a.scope and not any(_lookup(sheet, a, s) for s in a.scope):
                files = []
            else:
                files = list(a.paths().values())
            out[a.id] = files
        return out

    def owner_of(self, path: str) -> str | None:
        """The artefact whose outputs include the results file ``path`` (templates matched), or None."""
        for a in self:
            for template in a.paths().values():
                if _template_regex(template).fullmatch(str(path)):
                    return a.id
        return None


def _lookup(sheet: dict, a: Artefact, name: str):
    if name not in sheet:
        raise CatalogError(f"catalog entry '{a.id}': the run sheet has no rows or scope named '{name}'")
    return sheet[name]


def _template_regex(template: str) -> re.Pattern:
    parts = re.split(r"(\{[a-z_]+\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts))


def _artefact(key: str, spec) -> Artefact:
    where = f"catalog entry '{key}'"
    if not isinstance(spec, dict):
        raise CatalogError(f"{where}: must be a mapping of {', '.join(sorted(_KEYS))}")
    unknown = sorted(set(spec) - _KEYS)
    if unknown:
        raise CatalogError(f"{where}: unknown key '{unknown[0]}' (known: {', '.join(sorted(_KEYS))})")
    for req in ("title", "section", "rule", "outputs"):
        if req not in spec:
            raise CatalogError(f"{where}: give '{req}'")
    outputs = {}
    for name, out in (spec["outputs"] or {}).items():
        if not (isinstance(out, list) and len(out) == 3 and isinstance(out[2], dict)):
            raise CatalogError(f"{where}: output '{name}' must be [path kind, suffix, {{keys}}]")
        if out[0] not in PATHS:
            raise CatalogError(
                f"{where}: output '{name}' names path kind '{out[0]}', unknown to the path provider"
            )
        outputs[name] = (out[0], str(out[1]), dict(out[2]))
    if not outputs:
        raise CatalogError(f"{where}: give at least one output")
    if spec.get("rows") and spec.get("scope"):
        raise CatalogError(f"{where}: give 'rows' or 'scope', not both")
    report = spec.get("report")
    if report is not None:
        missing = sorted(_REPORT_KEYS - {"labels"} - set(report))
        if missing or set(report) - _REPORT_KEYS:
            raise CatalogError(f"{where}.report: give output, category, subcategory, caption (and labels)")
        if report["output"] not in outputs:
            raise CatalogError(f"{where}.report.output: '{report['output']}' is not one of its outputs")
    return Artefact(
        id=key,
        title=str(spec["title"]),
        section=str(spec["section"]),
        rule=str(spec["rule"]),
        outputs=outputs,
        local=bool(spec.get("local", False)),
        rows=spec.get("rows"),
        scope=tuple(spec.get("scope") or ()),
        config=spec.get("config"),
        report=report,
    )


def load_catalog(path=CATALOG_FILE, *, check_captions: bool = True) -> Catalog:
    """Read and check the catalog; each report caption must exist in ``report/`` beside it."""
    doc = yaml.safe_load(Path(path).read_text())
    if not isinstance(doc, dict):
        raise CatalogError(f"{path}: the catalog must be a mapping of artefact ids")
    cat = Catalog({key: _artefact(key, spec) for key, spec in doc.items()})
    captions = Path(path).parent / "report"
    for a in cat:
        if check_captions and a.report and not (captions / a.report["caption"]).is_file():
            raise CatalogError(
                f"catalog entry '{a.id}'.report.caption: no file '{captions / a.report['caption']}'"
            )
    return cat


def outputs_markdown(catalog: Catalog) -> str:
    """The outputs table of the docs: artefact, the paper's section, files, report category."""
    lines = [
        "# What the workflow produces",
        "",
        f"Generated by `python -m tensegrity_id.workflow.study_catalog` from `{CATALOG_FILE}`;",
        "do not edit by hand. Paths are under the working directory; `{braces}` are filled per row",
        "(structure, record, protocol, ...). A row's files are made only where the config asks for it.",
        "",
        "| output | section of the paper | files | config | report category |",
        "| --- | --- | --- | --- | --- |",
    ]
    for a in catalog:
        files = "<br>".join(f"`{p}`" for p in a.paths().values())
        cat = f"{a.report['category']} / {a.report['subcategory']}" if a.report else ""
        config = f"`{a.config}`" if a.config else ""
        lines.append(f"| {a.title} | {a.section} | {files} | {config} | {cat} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    """Write ``docs/outputs.md`` from the catalog (run from the repository root)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    out = Path(argv[0] if argv else "docs/outputs.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(outputs_markdown(load_catalog()))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
