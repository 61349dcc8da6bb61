"""The study catalog (workflow/catalog.yaml): every output described once, the workflow derived from it."""

import re

import pytest
from tensegrity_id.report.scorecard import claim_files, load_claims
from tensegrity_id.workflow.study_catalog import CatalogError, load_catalog, outputs_markdown
from tensegrity_id.workflow.study_rows import BENCH_TABLE_RULES


@pytest.fixture(scope="module")
def catalog(repo):
    return load_catalog(repo / "workflow/catalog.yaml")


def _rule_names(repo) -> set[str]:
    text = "".join(p.read_text() for p in (repo / "workflow/rules").glob("*.smk"))
    names = set(re.findall(r"^rule (\w+):", text, re.M))
    # the benchmark tables' rules are made in a loop over BENCH_TABLE_RULES, and an entry with a
    # script gets its rule from the loop of catalog_rules.smk
    generated = {a.rule for a in load_catalog(repo / "workflow/catalog.yaml") if a.script}
    return names | {f"make_{t}" for t in BENCH_TABLE_RULES} | generated


def test_every_catalog_rule_exists_and_every_table_and_figure_rule_is_catalogued(repo, catalog):
    rules = _rule_names(repo)
    named = {a.rule for a in catalog}
    assert {r for r in named if "*" not in r} <= rules
    makers = {r for r in rules if r.startswith(("make_table", "plot_fig"))}
    assert makers <= named, makers - named


def test_rule_all_and_localrules_come_from_the_catalog(repo, catalog):
    snakefile = (repo / "workflow/Snakefile").read_text()
    assert "**TARGETS" in snakefile and "localrules:" not in snakefile
    assert 'for name in ("all", "own_records", *CATALOG.local_rules)' in snakefile
    assert {"make_tableS3", "plot_figS3", "make_table9", "make_tableS4"} <= set(catalog.local_rules)
    expensive = {a.rule for a in catalog if a.rows in ("records", "pinn", "fisher", "baselines")}
    assert expensive and not expensive & set(catalog.local_rules)


def test_each_entry_names_a_config_section_the_schema_defines(repo, catalog):
    import yaml

    schema = yaml.safe_load((repo / "config/schema.yaml").read_text())
    for a in catalog:
        node = schema
        for part in a.config.split("."):
            assert part in node.get("properties", {}), (a.id, a.config)
            node = node["properties"][part]


def test_targets_follow_rows_and_scope(catalog):
    sheet = {name: [] for a in catalog for name in (a.rows, *a.scope) if name}
    sheet |= {"structures": [{"structure": "x1"}], "table5": [{"row": 1}]}
    targets = catalog.targets(sheet)
    assert targets["structures"] == ["results/structures/x1.json"]
    assert targets["table5"] == ["results/tables/table5.csv", "results/tables/table5.md"]
    assert targets["table3"] == [] and targets["records"] == []
    assert targets["figS2"] == ["results/figures/figS2_spectra.pdf", "results/figures/figS2_spectra.png"]
    with pytest.raises(CatalogError, match="no rows or scope named 'records'"):
        catalog.targets({k: v for k, v in sheet.items() if k != "records"})


def test_every_claim_reads_a_file_the_workflow_writes(repo, catalog):
    files = claim_files(load_claims(repo / "resources/published/claims.yaml"))
    assert files
    orphans = [f for f in files if catalog.owner_of(f) is None]
    assert orphans == []
    assert catalog.owner_of("results/tables/table3.csv") == "table3"
    assert catalog.owner_of("results/records/x1/taut_1pt.json") == "records"
    assert catalog.owner_of("results/tables/not_a_table_of_the_study.csv") is None


def test_bad_entries_are_named(tmp_path):
    (tmp_path / "report").mkdir()
    bad = tmp_path / "catalog.yaml"
    bad.write_text("t:\n  title: T\n  section: '1'\n  rule: r\n  outputs: {csv: [tabel, .csv, {}]}\n")
    with pytest.raises(CatalogError, match="catalog entry 't': output 'csv' names path kind 'tabel'"):
        load_catalog(bad)
    bad.write_text(
        "t:\n  title: T\n  section: '1'\n  rule: r\n  outputs: {csv: [table, .csv, {}]}\n"
        "  report: {output: csv, category: c, subcategory: s, caption: nope.rst}\n"
    )
    with pytest.raises(CatalogError, match=r"'t'.report.caption: no file"):
        load_catalog(bad)


def test_the_outputs_doc_is_current(repo, catalog):
    assert (repo / "docs/outputs.md").read_text() == outputs_markdown(catalog)
