"""The study catalog as the one place of an output: what is generated from it is current, and a toy
table registered in a copy of the workflow (a catalog entry, a script and a library function, and
nothing else) reaches the DAG, its report entry and the generated docs (docs/adding-a-table.md)."""

import json
import shutil
import subprocess
import sys

import pytest
import yaml
from tensegrity_id.workflow.study_catalog import (
    README_BLOCK,
    CatalogError,
    Input,
    load_catalog,
    main,
    outputs_markdown,
    readme_markdown,
    stale_files,
)


@pytest.fixture(scope="module")
def catalog(repo):
    return load_catalog(repo / "workflow/catalog.yaml")


# ------------------------------------------------------------- generated files
def test_the_generated_files_are_current(repo, catalog):
    """docs/outputs.md, README.md's outputs table and the inline captions: regenerate with
    ``python -m tensegrity_id.workflow.study_catalog`` when this fails."""
    assert stale_files(catalog, repo) == []
    readme = (repo / "README.md").read_text()
    block = readme.split(f"<!-- {README_BLOCK} -->\n")[1].split(f"<!-- /{README_BLOCK} -->")[0]
    assert block == readme_markdown(catalog)
    assert (repo / "docs/outputs.md").read_text() == outputs_markdown(catalog)


def test_the_readme_table_keeps_its_rows(catalog):
    table = readme_markdown(catalog)
    assert (
        "| Table 5, treatments of the taut–slack transition | `results/tables/table5` | 4 Identification |"
        in table
    )
    # entries sharing a label share a row; a one-file output keeps its extension
    assert "`results/figures/fig4_identification`, `fig5_resimulation` | 4 Identification |" in table
    assert "`results/values/seed_study_{row}.json`" in table
    assert len([ln for ln in table.splitlines() if ln.startswith("| ")]) == 27


# ------------------------------------------------------------- entry checks
def _entry(tmp_path, text: str, scripts=()):
    (tmp_path / "report").mkdir(exist_ok=True)
    (tmp_path / "scripts").mkdir(exist_ok=True)
    for s in scripts:
        (tmp_path / "scripts" / f"{s}.py").write_text("")
    path = tmp_path / "catalog.yaml"
    path.write_text(
        "t:\n  title: T\n  section: '1'\n  rule: make_t\n  outputs: {csv: [table, .csv, {table: t}]}\n" + text
    )
    return path


def test_inputs_give_paths_once_or_per_row(tmp_path):
    cat = load_catalog(
        _entry(
            tmp_path,
            "  script: make_t\n  inputs:\n    published: resources/published/t.csv\n"
            "    modal: [modal, '', {}]\n"
            "    runs: {path: [pinn, .json, {steps: 300}], rows: runs}\n"
            "    files: {path: 'resources/{structure}.csv', rows: runs}\n",
            scripts=["make_t"],
        )
    )
    a = cat["t"]
    assert cat.generated == [a]
    run = {"structure": "x1", "record": "r", "protocol": "p", "treatment": "smooth", "seed": 0, "variant": ""}
    rows = {"runs": [run]}
    paths = a.input_paths(rows.__getitem__)
    assert paths == {
        "published": "resources/published/t.csv",
        "modal": "results/modal/{structure}.json",
        "runs": ["results/identify/pinn_smooth/x1/r/p_seed0_steps300.json"],
        "files": ["resources/x1.csv"],
    }
    assert a.input_rows(rows.__getitem__) == {"runs": rows["runs"], "files": rows["runs"]}
    with pytest.raises(CatalogError, match="entry 't': input 'runs'"):
        a.input_paths({}.__getitem__)
    with pytest.raises(CatalogError, match="not run-sheet rows with named keys"):
        Input(("structure", "", {}), rows="names").paths(lambda name: ["x1"])


@pytest.mark.parametrize(
    "text, message",
    [
        ("  inputs: {a: x.csv}\n", "'inputs' make a generated rule: give its 'script'"),
        ("  script: make_t.py\n", r"\.script: give the script's name"),
        ("  script: make_t\n  inputs: {lib: x.csv}\n", "other than 'lib' and 'script'"),
        ("  script: make_t\n  inputs: {a: [tabel, .csv, {}]}\n", "inputs.a: names path kind 'tabel'"),
        ("  script: make_t\n  inputs: {a: {rows: r}}\n", r"inputs.a: give \{path"),
        ("  script: nope\n", r"'t'.script: no file .*nope.py"),
        (
            "  report: {output: csv, category: c, subcategory: s, caption: c.rst, caption_text: x}\n",
            "caption or caption_text",
        ),
        (
            "  report: {output: csv, category: c, subcategory: s, caption_text: x}\n",
            r"no file .*generated/t.rst' \(run python -m tensegrity_id.workflow.study_catalog\)",
        ),
    ],
)
def test_bad_generated_entries_are_named(tmp_path, text, message):
    with pytest.raises(CatalogError, match=message):
        load_catalog(_entry(tmp_path, text, scripts=["make_t"]))


# ------------------------------------------------------------- a toy table, end to end
TOY_ENTRY = """
toy_table:
  title: "Table T: a toy table"
  section: test
  rule: make_toy_table
  local: true
  readme: Table T, a toy table
  outputs:
    csv: [table, .csv, {table: toy_table}]
    md: [table, .md, {table: toy_table}]
  inputs:
    published: resources/published/table1.csv
    structures: {path: [structure, "", {}], rows: structures}
  script: make_toy_table
  config: studies.table1
  report:
    output: csv
    category: 9 Toys
    subcategory: Tables
    caption_text: "**Table T** (a test's toy): the published Table 1, one row per structure."
    labels: {table: Table T}
"""

TOY_SCRIPT = '''"""Table T (a test's toy): published Table 1, structures built (rule make_toy_table)."""

import pandas as pd

from tensegrity_id.report.tables import write_table
from tensegrity_id.report.toy_table import toy_table

df = toy_table(pd.read_csv(snakemake.input.published), list(snakemake.input.structures))
write_table(df, snakemake.output.csv, snakemake.output.md, title="Table T")
'''

TOY_LIBRARY = '''"""A test's toy table."""


def toy_table(published, structures):
    """The published rows with the number of structures built."""
    return published.assign(n_structures=len(structures))
'''

PROBE = """include: "Snakefile"


_toy = rules.make_toy_table
_report = _toy.rule.output[0].flags["report"]
print("TOY-RULE " + json.dumps({
    "input": {k: list(v) if not isinstance(v, str) else v for k, v in _toy.input.items()},
    "output": dict(_toy.output.items()),
    "log": list(_toy.log),
    "script": str(_toy.rule.script),
    "params": {"script": _toy.params.script, "rows": _toy.params.rows},
    "report": {"caption": str(_report.caption), "category": _report.category,
               "subcategory": _report.subcategory, "labels": _report.labels},
}))
"""


@pytest.fixture
def toy_workflow(repo, tmp_path):
    """The workflow copied (workflow/) or linked (config/, resources/, envs/) into ``tmp_path``,
    with the toy table registered: a catalog entry, a script and a library function."""
    work = tmp_path / "wf"
    work.mkdir()
    shutil.copy(repo / "Snakefile", work)
    shutil.copy(repo / "README.md", work)
    (work / "docs").mkdir()
    shutil.copy(repo / "docs/outputs.md", work / "docs")
    shutil.copytree(
        repo / "workflow", work / "workflow", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for item in ("config", "resources", "envs"):
        (work / item).symlink_to(repo / item)
    with (work / "workflow/catalog.yaml").open("a") as f:
        f.write(TOY_ENTRY)
    (work / "workflow/scripts/make_toy_table.py").write_text(TOY_SCRIPT)
    (work / "workflow/lib/tensegrity_id/report/toy_table.py").write_text(TOY_LIBRARY)
    (work / "probe.smk").write_text("import json\n\n" + PROBE)
    return work


def test_a_toy_table_reaches_the_dag_the_report_and_the_docs(toy_workflow, capsys):
    work = toy_workflow
    # the generated files: stale until the generator runs, then with the toy table in them
    catalog = load_catalog(work / "workflow/catalog.yaml", check_captions=False)
    assert set(stale_files(catalog, work)) == {
        str(work / "README.md"),
        str(work / "docs/outputs.md"),
        str(work / "workflow/report/generated/toy_table.rst"),
    }
    with pytest.raises(CatalogError, match="run python -m tensegrity_id.workflow.study_catalog"):
        load_catalog(work / "workflow/catalog.yaml")
    assert main(["--root", str(work)]) == 0
    assert main(["--root", str(work), "--check"]) == 0
    capsys.readouterr()
    readme = (work / "README.md").read_text()
    assert (
        "| Table T, a toy table | `results/tables/toy_table` | 9 Toys |\n<!-- /catalog:outputs -->" in readme
    )
    outputs = (work / "docs/outputs.md").read_text()
    row = "| Table T: a toy table | test | `results/tables/toy_table.csv`<br>`results/tables/toy_table.md`"
    assert f"{row} | `studies.table1` | 9 Toys / Tables |" in outputs
    caption = (work / "workflow/report/generated/toy_table.rst").read_text()
    assert caption.endswith("**Table T** (a test's toy): the published Table 1, one row per structure.\n")
    toy_catalog = load_catalog(work / "workflow/catalog.yaml")
    assert toy_catalog["toy_table"].report["caption"] == "generated/toy_table.rst"

    # the DAG for the toy target (a dry run), and the rule as Snakemake made it from the entry
    target = "results/tables/toy_table.csv"
    run = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "-s", "probe.smk", target],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    built = yaml.safe_load((work / "config/config.yaml").read_text())["build"]
    stats = dict(
        line.split()
        for line in run.stdout.split("Job stats:")[1].split("total")[0].splitlines()[3:]
        if line.strip()
    )
    assert stats == {"make_toy_table": "1", "generate_structure": str(len(built))}
    assert (
        "rule make_toy_table:\n    input: resources/published/table1.csv, results/structures/" in run.stdout
    )
    rule = json.loads(next(ln for ln in run.stdout.splitlines() if ln.startswith("TOY-RULE "))[9:])
    assert rule["input"]["published"] == "resources/published/table1.csv"
    assert rule["input"]["structures"] == [f"results/structures/{s}.json" for s in built]
    assert "workflow/lib/tensegrity_id/report/toy_table.py" in rule["input"]["lib"]
    assert rule["input"]["script"] == "workflow/scripts/make_toy_table.py"
    assert rule["output"] == {"csv": "results/tables/toy_table.csv", "md": "results/tables/toy_table.md"}
    assert rule["log"] == ["logs/make_toy_table.log"]
    assert rule["script"] == "../scripts/{params.script}.py" and rule["params"]["script"] == "make_toy_table"
    assert rule["params"]["rows"] == {"structures": [{"structure": s} for s in built]}
    report = rule.pop("report")
    assert report.pop("caption").endswith("/workflow/rules/../report/generated/toy_table.rst")
    assert report == {"category": "9 Toys", "subcategory": "Tables", "labels": {"table": "Table T"}}
    assert "make_toy_table" in toy_catalog.local_rules

    # the entry removed: its caption is left over, and the generator takes it away
    catalog_file = work / "workflow/catalog.yaml"
    catalog_file.write_text(catalog_file.read_text().replace(TOY_ENTRY, ""))
    assert main(["--root", str(work), "--check"]) == 1
    assert "toy_table.rst (left over)" in capsys.readouterr().out
    assert main(["--root", str(work)]) == 0
    assert not (work / "workflow/report/generated/toy_table.rst").exists()
    assert "toy_table" not in (work / "README.md").read_text()
