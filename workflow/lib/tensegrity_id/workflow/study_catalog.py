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
* the rules of the entries that name a ``script`` (:attr:`Catalog.generated`,
  :meth:`Artefact.input_paths`): ``workflow/rules/catalog_rules.smk`` defines
  each in a loop, with the entry's ``inputs``, outputs, report entry, log and
  library inputs, so a new table needs no rule written by hand;
* the generated files (``python -m tensegrity_id.workflow.study_catalog``,
  :func:`generated_files`; ``--check`` lists the stale ones): ``docs/outputs.md``,
  the outputs table of ``README.md`` (the entries with a ``readme`` label,
  between ``<!-- catalog:outputs -->`` and ``<!-- /catalog:outputs -->``) and
  the report captions given inline (``report.caption_text``), written to
  ``workflow/report/generated/<id>.rst``; a unit test fails when one is stale;
* the owner of a results file (:meth:`Catalog.owner_of`), which the
  scorecard's test uses to check that every claim reads a file the workflow
  writes.

The run sheet's rows and scope flags reach :meth:`Catalog.targets` as one
mapping ``name -> rows`` (a list of row dicts, or a truth value for a flag),
built once in ``workflow/rules/common.smk``.

A caption is either a hand-written file of ``workflow/report/`` (``caption``)
or the entry's own text (``caption_text``, reStructuredText), which the
generator writes to ``workflow/report/generated/<id>.rst``; the entry's
``report["caption"]`` then names that file, so ``catalog_outputs`` treats both
alike.  A generated rule's ``inputs`` map a name to an explicit path (a
string; ``{wildcards}`` allowed), to a path-provider template ``[kind, suffix,
{keys}]`` (keys not given stay wildcards, filled from the outputs), or to
``{path: <either>, rows: <row list>}``: one path per run-sheet row.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

from .paths import PATHS, result_path

__all__ = [
    "CatalogError",
    "Input",
    "Artefact",
    "Catalog",
    "load_catalog",
    "outputs_markdown",
    "readme_markdown",
    "caption_rst",
    "update_block",
    "generated_files",
    "stale_files",
    "write_generated",
    "main",
]

CATALOG_FILE = "workflow/catalog.yaml"
"""The catalog, relative to the repository root."""


GENERATED_CAPTIONS = "generated"
"""Where the captions given inline go, under ``workflow/report/`` (one ``<id>.rst`` per entry)."""

README_BLOCK = "catalog:outputs"
"""The README's generated outputs table lies between ``<!-- catalog:outputs -->`` and its closing marker."""

GENERATOR = "python -m tensegrity_id.workflow.study_catalog"

_KEYS = {
    "title",
    "section",
    "rule",
    "local",
    "outputs",
    "rows",
    "scope",
    "config",
    "report",
    "readme",
    "inputs",
    "script",
}
_REPORT_KEYS = {"output", "category", "subcategory", "caption", "caption_text", "labels"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class CatalogError(ValueError):
    """A catalog entry that cannot work; the message names the entry and the field."""


class _KeepWildcards(dict):
    def __missing__(self, key):
        return f"{{{key}}}"


def _fill(kind: str, suffix: str, keys: dict, row: dict) -> str:
    if "{" in suffix and row:
        suffix = suffix.format_map(_KeepWildcards(row))
    return result_path(kind, suffix, **{**row, **keys})


@dataclass(frozen=True)
class Input:
    """A generated rule's input: an explicit path or a ``(kind, suffix, keys)`` template, once or per row."""

    path: str | tuple
    rows: str | None = None

    def paths(self, rows_of: Callable[[str], list] | None = None) -> str | list[str]:
        """The path (``rows`` unset), or one path per row of ``rows_of(rows)``."""
        if self.rows is None:
            return self._one({})
        return [self._one(row) for row in rows_of(self.rows)]

    def _one(self, row) -> str:
        if not isinstance(row, dict):
            raise CatalogError(f"rows '{self.rows}' are not run-sheet rows with named keys (a row: {row!r})")
        if isinstance(self.path, str):
            return self.path.format_map(_KeepWildcards(row)) if row else self.path
        return _fill(*self.path, row)


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
    readme: str | None = None
    inputs: dict = field(default_factory=dict)
    script: str | None = None

    def paths(self, row: dict | None = None) -> dict[str, str]:
        """Output name -> path; keys not fixed by the entry or ``row`` stay ``{wildcards}``."""
        return {name: _fill(*out, row or {}) for name, out in self.outputs.items()}

    def input_paths(self, rows_of: Callable[[str], list]) -> dict[str, str | list[str]]:
        """A generated rule's inputs by name; ``rows_of(name)`` gives a run-sheet row list."""
        out = {}
        for name, inp in self.inputs.items():
            try:
                out[name] = inp.paths(rows_of)
            except (KeyError, CatalogError) as exc:
                msg = exc.args[0] if exc.args else exc
                raise CatalogError(f"catalog entry '{self.id}': input '{name}': {msg}") from None
        return out

    def input_rows(self, rows_of: Callable[[str], list]) -> dict[str, list]:
        """The rows of each input made per row (the script's ``params.rows``), by input name."""
        return {name: rows_of(inp.rows) for name, inp in self.inputs.items() if inp.rows is not None}


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
    def generated(self) -> list[Artefact]:
        """The entries whose rule ``workflow/rules/catalog_rules.smk`` defines (those naming a ``script``)."""
        return [a for a in self if a.script]

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
        missing = sorted({"output", "category", "subcategory"} - set(report))
        if missing or set(report) - _REPORT_KEYS or ("caption" in report) == ("caption_text" in report):
            raise CatalogError(
                f"{where}.report: give output, category, subcategory, caption or caption_text (and labels)"
            )
        if report["output"] not in outputs:
            raise CatalogError(f"{where}.report.output: '{report['output']}' is not one of its outputs")
        if "caption_text" in report:
            report = {**report, "caption": f"{GENERATED_CAPTIONS}/{key}.rst"}
    script = spec.get("script")
    if script is not None and not (isinstance(script, str) and _NAME.fullmatch(script)):
        raise CatalogError(f"{where}.script: give the script's name in workflow/scripts/, without '.py'")
    if spec.get("inputs") and script is None:
        raise CatalogError(f"{where}: 'inputs' make a generated rule: give its 'script' too")
    if script is not None and not _NAME.fullmatch(str(spec["rule"])):
        raise CatalogError(f"{where}.rule: a generated rule needs a plain name, not '{spec['rule']}'")
    inputs = {n: _input(f"{where}.inputs.{n}", n, i) for n, i in (spec.get("inputs") or {}).items()}
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
        readme=None if spec.get("readme") is None else str(spec["readme"]),
        inputs=inputs,
        script=script,
    )


def _template(where: str, out) -> tuple:
    if not (isinstance(out, list) and len(out) == 3 and isinstance(out[2], dict)):
        raise CatalogError(f"{where}: must be [path kind, suffix, {{keys}}]")
    if out[0] not in PATHS:
        raise CatalogError(f"{where}: names path kind '{out[0]}', unknown to the path provider")
    return (out[0], str(out[1]), dict(out[2]))


def _input(where: str, name: str, spec) -> Input:
    if not _NAME.fullmatch(str(name)) or name in ("lib", "script"):
        raise CatalogError(f"{where}: an input's name must be a plain name other than 'lib' and 'script'")
    rows = None
    if isinstance(spec, dict):
        if set(spec) - {"path", "rows"} or "path" not in spec:
            raise CatalogError(
                f"{where}: give {{path: <path or [kind, suffix, {{keys}}]>, rows: <row list>}}"
            )
        spec, rows = spec["path"], spec.get("rows")
    if isinstance(spec, str):
        return Input(spec, rows)
    return Input(_template(where, spec), rows)


def load_catalog(path=CATALOG_FILE, *, check_captions: bool = True) -> Catalog:
    """Read and check the catalog.

    With ``check_captions``, each report caption must exist in ``report/``
    beside it (a caption given inline: once the generator has written it) and
    each generated rule's script in ``scripts/``.
    """
    doc = yaml.safe_load(Path(path).read_text())
    if not isinstance(doc, dict):
        raise CatalogError(f"{path}: the catalog must be a mapping of artefact ids")
    cat = Catalog({key: _artefact(key, spec) for key, spec in doc.items()})
    rules = [a.rule for a in cat.generated]
    for rule in rules:
        if rules.count(rule) > 1:
            raise CatalogError(f"generated rule '{rule}' is named by more than one catalog entry")
    if not check_captions:
        return cat
    captions = Path(path).parent / "report"
    scripts = Path(path).parent / "scripts"
    for a in cat:
        if a.report and not (captions / a.report["caption"]).is_file():
            hint = f" (run {GENERATOR})" if "caption_text" in a.report else ""
            raise CatalogError(
                f"catalog entry '{a.id}'.report.caption: no file '{captions / a.report['caption']}'{hint}"
            )
        if a.script and not (scripts / f"{a.script}.py").is_file():
            raise CatalogError(f"catalog entry '{a.id}'.script: no file '{scripts / a.script}.py'")
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


def _readme_file(a: Artefact) -> str:
    """The entry's file for the README: its report output (else its first), without the extension
    where another of its outputs shares the stem (a table's ``.csv`` and ``.md``)."""
    out = a.paths()
    path = PurePosixPath(out[a.report["output"]] if a.report else next(iter(out.values())))
    stem = path.with_suffix("") if path.suffix else path
    others = [PurePosixPath(p) for p in out.values() if PurePosixPath(p) != path]
    shared = any(p.suffix and p.with_suffix("") == stem for p in others)
    return str(stem if shared else path)


def readme_markdown(catalog: Catalog) -> str:
    """The README's outputs table: one row per ``readme`` label (entries sharing a label share a row)."""
    rows: dict[str, list[Artefact]] = {}
    for a in catalog:
        if a.readme:
            rows.setdefault(a.readme, []).append(a)
    lines = [
        f"<!-- generated by {GENERATOR} from {CATALOG_FILE} (each entry's readme label); do not edit -->",
        "| the paper | results file | report category |",
        "| --- | --- | --- |",
    ]
    for label, group in rows.items():
        first = PurePosixPath(_readme_file(group[0]))
        files = [f"`{first}`"]
        for a in group[1:]:
            p = PurePosixPath(_readme_file(a))
            files.append(f"`{p.name if p.parent == first.parent else p}`")
        category = next((a.report["category"] for a in group if a.report), "")
        lines.append(f"| {label} | {', '.join(files)} | {category} |")
    return "\n".join(lines) + "\n"


def caption_rst(a: Artefact) -> str:
    """The caption file of an entry that gives its caption inline (``report.caption_text``)."""
    return (
        f".. Generated by {GENERATOR} from {CATALOG_FILE}\n"
        f"   (entry '{a.id}', report.caption_text); do not edit by hand.\n\n"
        f"{str(a.report['caption_text']).strip()}\n"
    )


def update_block(page: str, block: str, body: str, *, name: str = "the page") -> str:
    """``page`` with the text between ``<!-- block -->`` and ``<!-- /block -->`` replaced by ``body``."""
    pattern = re.compile(rf"(<!-- {re.escape(block)} -->\n).*?(<!-- /{re.escape(block)} -->)", re.S)
    if not pattern.search(page):
        raise CatalogError(f"{name} has no '<!-- {block} -->' ... '<!-- /{block} -->' block")
    return pattern.sub(lambda m: m.group(1) + body + m.group(2), page, count=1)


def _captions_dir(root: Path) -> Path:
    return root / Path(CATALOG_FILE).parent / "report" / GENERATED_CAPTIONS


def generated_files(catalog: Catalog, root=".") -> dict[Path, str]:
    """Every file generated from the catalog (under the repository ``root``) -> its current text."""
    root = Path(root)
    readme = root / "README.md"
    files = {
        root / "docs/outputs.md": outputs_markdown(catalog),
        readme: update_block(readme.read_text(), README_BLOCK, readme_markdown(catalog), name=str(readme)),
    }
    for a in catalog:
        if a.report and "caption_text" in a.report:
            files[_captions_dir(root) / f"{a.id}.rst"] = caption_rst(a)
    return files


def _orphans(files: dict, root: Path) -> list[Path]:
    """Generated captions whose entry is gone (or no longer gives its caption inline)."""
    folder = _captions_dir(root)
    return sorted(p for p in folder.glob("*.rst") if p not in files) if folder.is_dir() else []


def stale_files(catalog: Catalog, root=".") -> list[str]:
    """The generated files that are missing, differ from what the catalog gives, or are left over."""
    files = generated_files(catalog, root)
    stale = [str(p) for p, text in files.items() if not p.is_file() or p.read_text() != text]
    return stale + [f"{p} (left over)" for p in _orphans(files, Path(root))]


def write_generated(catalog: Catalog, root=".") -> list[Path]:
    """Write the generated files that changed, remove left-over captions; the paths touched."""
    files = generated_files(catalog, root)
    touched = []
    for p, text in files.items():
        if not p.is_file() or p.read_text() != text:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
            touched.append(p)
    for p in _orphans(files, Path(root)):
        p.unlink()
        touched.append(p)
    return touched


def main(argv=None) -> int:
    """Write the files generated from the catalog (``--check``: list the stale ones, exit 1 if any)."""
    parser = argparse.ArgumentParser(
        prog=GENERATOR,
        description="Regenerate docs/outputs.md, the README's outputs table and the inline report "
        "captions from workflow/catalog.yaml.",
    )
    parser.add_argument("--root", default=".", help="the repository root (default: the working directory)")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a generated file is stale"
    )
    args = parser.parse_args(argv)
    root = Path(args.root)
    catalog = load_catalog(root / CATALOG_FILE, check_captions=False)
    if args.check:
        stale = stale_files(catalog, root)
        for p in stale:
            print(f"stale: {p}")
        print(f"run {GENERATOR}" if stale else "all generated files are current")
        return 1 if stale else 0
    touched = write_generated(catalog, root)
    for p in touched:
        print(f"wrote {p}" if p.exists() else f"removed {p}")
    if not touched:
        print("all generated files are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
