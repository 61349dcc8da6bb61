"""Workflow support: rule library inputs from imports, the run sheet, the path provider, the config schema."""

import ast
import copy
import re
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config
from tensegrity_id.workflow.config_check import ConfigError, check_config
from tensegrity_id.workflow.paths import PATHS, result_path
from tensegrity_id.workflow.rule_inputs import imported_modules, library_inputs, stage_files
from tensegrity_id.workflow.runsheet import RunSheet, RunSheetError, seeds_label, variant_name

LIB = "workflow/lib"
PKG = "workflow/lib/tensegrity_id"


@pytest.fixture(autouse=True)
def _in_repo(repo, monkeypatch):
    monkeypatch.chdir(repo)


@pytest.fixture(scope="module")
def default_config(repo):
    return yaml.safe_load((repo / "config/config.yaml").read_text())


def merged(repo, name):
    cfg = yaml.safe_load((repo / "config/config.yaml").read_text())
    update_config(cfg, yaml.safe_load((repo / f"config/{name}.yaml").read_text()))
    return cfg


def short(files):
    return {f.removeprefix(f"{PKG}/") for f in files}


# ------------------------------------------------------------- rule inputs
def test_figure_rules_depend_on_their_own_plot_module_only(repo):
    fig4 = short(library_inputs("workflow/scripts/plot_fig4.py"))
    assert "report/plot_pinn.py" in fig4
    assert not {f for f in fig4 if f.startswith("report/plot_") and f != "report/plot_pinn.py"}
    assert not {f for f in fig4 if f.startswith(("mechanics/", "identify/"))}
    fig1 = short(library_inputs("workflow/scripts/plot_fig1.py"))
    assert {"report/plot_structures.py", "mechanics/structure.py"} <= fig1
    assert "report/plot_pinn.py" not in fig1


def test_baselines_do_not_depend_on_the_pinn_and_the_pinn_not_on_the_filters():
    base = short(library_inputs("workflow/scripts/identify_baseline.py"))
    assert {"identify/filters.py", "identify/shooting.py", "identify/problems.py", "data/sensors.py"} <= base
    assert {"mechanics/dynamics.py", "mechanics/schemas/structure.schema.json", "__init__.py"} <= base
    assert not {f for f in base if f.startswith("identify/pinn/")}
    pinn = short(library_inputs("workflow/scripts/identify_pinn.py"))
    assert {"identify/pinn/trainer.py", "identify/pinn/methods.py", "identify/residual.py"} <= pinn
    assert "identify/filters.py" not in pinn and "identify/shooting.py" not in pinn


def test_names_imported_from_a_package_resolve_to_their_module(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("from tensegrity_id import simulate\nfrom tensegrity_id.analysis import assess\n")
    mods = imported_modules(script, lib_root=LIB)
    assert mods == ["tensegrity_id.mechanics.simulate", "tensegrity_id.analysis.assessment"]
    files = short(library_inputs(script, lib_root=LIB))
    assert {"mechanics/simulate.py", "analysis/assessment.py", "analysis/stability.py"} <= files
    assert "analysis/identifiability.py" not in files  # not imported by the assessment


def test_every_script_import_is_an_input_and_the_closure_is_import_complete(repo):
    """Each module a script imports (transitively, through the real import system) is listed."""
    for script in sorted((repo / "workflow/scripts").glob("*.py")):
        listed = short(library_inputs(f"workflow/scripts/{script.name}"))
        for mod in imported_modules(script, lib_root=LIB):
            rel = mod.removeprefix("tensegrity_id").lstrip(".").replace(".", "/")
            assert f"{rel}.py" in listed or f"{rel}/__init__.py" in listed, (script.name, mod)
    # against Python itself: what importing the PINN script's modules loads is what is listed
    code = (
        "import sys; import tensegrity_id.identify.problems, tensegrity_id.identify.base; "
        "import tensegrity_id.identify.pinn.methods, tensegrity_id.identify.pinn.settings; "
        "import tensegrity_id.data.runio; "
        "print('\\n'.join(sorted(m.__file__ for n, m in sys.modules.items() "
        "if n.startswith('tensegrity_id') and getattr(m, '__file__', None))))"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = {str(Path(f).relative_to(repo / PKG)) for f in out.split()}
    listed = short(library_inputs("workflow/scripts/identify_pinn.py"))
    assert loaded <= listed, loaded - listed


def test_every_library_module_feeds_some_rule(repo):
    """No module is invisible to the rules (workflow support aside: the Snakefile runs it; and a
    package's ``__main__``, its command line, which no rule runs)."""
    used = set()
    for script in (repo / "workflow/scripts").glob("*.py"):
        used |= short(library_inputs(f"workflow/scripts/{script.name}"))
    for stage in ("mechanics", "data", "analysis", "identify", "report"):
        for f in stage_files(f"tensegrity_id.{stage}", lib_root=LIB):
            rel = str(f.relative_to(PKG))
            if f.suffix == ".py" and "__pycache__" not in rel and f.name != "__main__.py":
                assert rel in used, rel


def test_rules_take_their_library_inputs_from_their_script(repo):
    """Every rule with a script lists lib=lib("<that script>")."""
    for smk in (repo / "workflow/rules").glob("*.smk"):
        for block in re.split(r"(?m)^rule ", smk.read_text())[1:]:
            m = re.search(r'script:\s*"\.\./scripts/(\w+)\.py"', block)
            if m:
                assert f'lib=lib("{m.group(1)}")' in block, (smk.name, block.split(":")[0])


def test_package_inits_import_nothing_eagerly(repo):
    for init in (repo / PKG).rglob("__init__.py"):
        tree = ast.parse(init.read_text())
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                assert getattr(node, "module", None) in {"__future__", "_lazy"}, (init, ast.dump(node))


def test_no_lazy_export_is_shadowed_by_a_submodule(repo):
    """A package's lazy export never shares its name with a submodule of the package: importing the
    submodule would set the package attribute to the module, and the export would then return it."""
    for init in (repo / PKG).rglob("__init__.py"):
        exports = {}
        for node in ast.parse(init.read_text()).body:
            target = node.targets[0] if isinstance(node, ast.Assign) else None
            if getattr(target, "id", None) == "_EXPORTS":
                exports = ast.literal_eval(node.value)
        subs = {p.stem for p in init.parent.glob("*.py")} | {
            p.name for p in init.parent.iterdir() if (p / "__init__.py").is_file()
        }
        shadowed = {n for n, m in exports.items() if n in subs and m != n}
        assert not shadowed, (init, shadowed)


# --------------------------------------------------------------- run sheet
def test_default_run_sheet_counts(default_config):
    sheet = RunSheet(default_config)
    rows = sheet.rows
    assert len(sheet.records) == 51 and len(rows["fisher"]) == 12 and len(sheet.structures) == 18
    # + the prism series (6 runs), the seed study's seeds 1-3 and the bridge's slack record (Figs 6-7),
    # Tables S5 and S6's own runs (9 model-form records, 5 sensing conditions; the rest shared),
    # Table S1's 6 weight variants (the paper config's 12) and Table S4's 4 (two noise levels, EA
    # jointly on two records); the 25 000-step rows (X1 demonstration, Table 5's second length,
    # Figure 6's repeat: 6 runs), the pooled X1 records and the uncalibrated-force table (2 runs)
    # are the paper config's
    assert len(sheet.pinn) == 50 and len(rows["table5"]) == 3
    # Tables 3-4 and S1, S4-S6, one seed a row; the hybrid on Table 3 and the bridge
    tables = ("table3", "table4", "tableS1", "tableS4", "tableS5", "tableS6")
    assert [len(rows[f"bench_{t}"]) for t in tables] == [12, 6, 9, 6, 12, 6]
    # LM and UKF on Table S5's 12 rows, four of them Table 6's (X1 taut and slack, matched)
    assert len(rows["tableS5_baselines"]) == 24 and len(sheet.baselines) == 6 + 24 - 4
    assert {r["method"] for r in rows["tableS5_baselines"]} == {"lm_shooting", "ukf"}
    assert len(rows["pinn_lm"]) == 13 and len(rows["silent_rows"]) == 13
    assert {tuple(r) for r in sheet.pinn} == {
        ("structure", "record", "protocol", "treatment", "steps", "seed", "variant", "settings")
    }
    assert sheet.pinn_records("x1", "taut_pool") == ["taut_p6", "taut_1pt", "taut_p14"]
    assert rows["table6"] and len(rows["table6_baselines"]) == 6 and len(rows["table6_regression"]) == 2
    # the quaternion cross-check: six class-1 suite records and the free-floating impulse
    assert len(rows["crosscheck"]) == 6 and list(rows["crosscheck_extra"]) == ["hexprism_impulse"]
    assert [r["structure"] for r in rows["crosscheck_structures"]] == [
        "x1",
        "prism45",
        "prism30_zg",
        "hexprism",
    ]


def test_test_config_scope_drops_unbuilt_structures(repo):
    cfg = merged(repo, "test")
    sheet = RunSheet(cfg)  # records.omit leaves out the slow model-form records
    check_config(cfg, repo / "config/schema.yaml")  # and removes them from the suite, once checked
    assert "taut_1pt_elastic" not in cfg["records"]["suite"]["x1"] and RunSheet(cfg).records == sheet.records
    rows = sheet.rows
    assert sheet.built == ["x1", "prism45", "t3_prism"]
    assert {r["structure"] for r in sheet.records} == {"x1", "prism45"}
    kept = {r["record"] for r in sheet.records if r["structure"] == "x1"}  # model-form and impulse dropped
    assert kept == {"taut_1pt", "slack_1pt", "taut_p6", "taut_p14", "taut_1pt_mass"}
    assert rows["grouping"] == [] and [r["structure"] for r in rows["assess_records"]] == ["prism45"]
    assert {r["structure"] for r in rows["crosscheck"]} == {"x1", "prism45"} and rows[
        "crosscheck_extra"
    ] == {}
    # one run of two seeds, Table 5 (3 treatments x 2 lengths), Table 6's slack run, Table 3's X1 row,
    # Figure 6's two prism seeds (the seed study and Figure 7 reuse X1 runs)
    # Tables S5 and S6's two rows of their own (the mass-perturbed record, the single sensor),
    # Table S1's w_b = 10, Table S4's joint EA run and the specification study's Glorot trunk
    assert len(sheet.pinn) == 19 and len(rows["pinn_lm"]) == 1
    # Table S5's companion: LM and UKF on its two rows (the matched one shared with the baselines)
    assert [(r["row"], r["method"]) for r in rows["tableS5_baselines"]] == [
        ("taut_matched", "lm_shooting"),
        ("taut_matched", "ukf"),
        ("taut_mass", "lm_shooting"),
        ("taut_mass", "ukf"),
    ]


def test_pinn_rows_that_differ_only_in_their_seed_are_one_group(repo):
    """The test config's two-seed run is one group, trained as one job of two seeds (its
    seeds_per_job: 2); the groups and the jobs each cover every PINN row exactly once."""
    sheet = RunSheet(merged(repo, "test"))
    assert len(sheet.pinn_groups) == 17 and len(sheet.pinn_jobs) == 17
    g = sheet.pinn_groups[0]
    assert (g["record"], g["seeds"], g["label"]) == ("taut_1pt", [0, 1], "0-1")
    assert g["name"] == "identify_pinn_smooth_x1_taut_1pt_top_node_steps300" and "seed" not in g
    job = sheet.pinn_jobs[0]
    assert (job["seeds"], job["label"]) == ([0, 1], "0-1")
    assert job["rule"] == "identify_pinn_smooth_x1_taut_1pt_top_node_steps300_seeds0to1"
    rows = sorted((r["structure"], r["record"], r["treatment"], r["steps"], r["seed"]) for r in sheet.pinn)
    for units in (sheet.pinn_groups, sheet.pinn_jobs):
        covered = sorted(
            (u["structure"], u["record"], u["treatment"], u["steps"], k) for u in units for k in u["seeds"]
        )
        assert covered == rows
    assert (
        len({g["name"] for g in sheet.pinn_groups}) == 17 and len({j["rule"] for j in sheet.pinn_jobs}) == 17
    )
    assert [seeds_label(x) for x in ([3], [0, 1, 2, 7], [5, 1, 2])] == ["3", "0-2.7", "1-2.5"]
    assert result_path("pinn_checkpoint", **job).endswith("top_node_seeds0-1_steps300.pt")
    assert (
        result_path("pinn_group", **g)
        == "results/identify/pinn_smooth/x1/taut_1pt/top_node_seeds_steps300.json"
    )


def test_the_default_trains_each_seed_as_its_own_job(default_config):
    """seeds_per_job 1 (config.yaml): one job per seed, each with its own checkpoint; a group keeps
    one summary path."""
    sheet = RunSheet(default_config)
    assert len(sheet.pinn_groups) == 46 and len(sheet.pinn_jobs) == len(sheet.pinn) == 50
    four = [j for j in sheet.pinn_jobs if j["name"] == "identify_pinn_smooth_x1_taut_1pt_top_node_steps12000"]
    assert [j["seeds"] for j in four] == [[0], [1], [2], [3]]
    assert [j["rule"].removeprefix(four[0]["name"]) for j in four] == ["_seed0", "_seed1", "_seed2", "_seed3"]
    assert len({result_path("pinn_checkpoint", **j) for j in four}) == 4
    assert len({result_path("pinn_group", **j) for j in four}) == 1


@pytest.mark.parametrize(
    "patch, field, text",
    [
        (
            {
                "studies": {
                    "table5": {"cases": [{"structure": "x1", "record": "slak_1pt", "protocol": "top_node"}]}
                }
            },
            "studies.table5.cases[0]",
            "record 'slak_1pt'",
        ),
        (
            {
                "analysis": {
                    "fisher": {"cases": [{"structure": "x1", "record": "taut_1pt", "protocol": "nosuch"}]}
                }
            },
            "analysis.fisher.cases[0]",
            "protocol 'nosuch'",
        ),
        (
            {"studies": {"fig3": [{"structure": "x1", "record": "slack_1pt", "protocol": "single"}]}},
            "studies.fig3[0]",
            "not among 'analysis.fisher.cases'",
        ),
        (
            {
                "studies": {
                    "table9": {
                        "baselines": [{"method": "ukf", "structure": "nope", "record": "a", "protocol": "b"}]
                    }
                }
            },
            "studies.table9.baselines[0]",
            "structure 'nope'",
        ),
        (
            {"studies": {"crosscheck": {"records": [{"structure": "x1", "record": "slak_1pt"}]}}},
            "studies.crosscheck.records[0]",
            "record 'slak_1pt'",
        ),
    ],
)
def test_bad_cross_references_name_the_field(default_config, patch, field, text):
    cfg = copy.deepcopy(default_config)
    update_config(cfg, patch)
    with pytest.raises(RunSheetError, match=re.escape(f"config field '{field}'")) as err:
        RunSheet(cfg)
    assert text in str(err.value)


def test_pinn_settings_variants_get_readable_distinct_paths(default_config):
    assert variant_name({"w_bar": 10}) == "wbar10"
    assert variant_name({"identify_EA": True, "width": 128}) == "identifyeatrue_width128"
    assert variant_name({"lr_net": 1e-3}) == "lrnet0.001"
    cfg = copy.deepcopy(default_config)
    row = {
        "structure": "x1",
        "record": "taut_1pt",
        "protocol": "top_node",
        "treatment": "smooth",
        "steps": 12000,
    }
    cfg["studies"]["fig4"] += [
        {**row, "settings": {"w_bar": 10}},
        {**row, "settings": {"width": 128}, "variant": "wide"},
    ]
    sheet = RunSheet(cfg)
    variants = {r["variant"]: r for r in sheet.pinn if r["variant"]}
    # the default config's own variants: Table S1's loss weights, Table S4's joint EA, the added
    # ones (the fitted force scale of table force_scale is the paper and test configs')
    assert set(variants) == {"wide", "identifyeatrue"} | {f"wbar{w}" for w in (1, 10, 10000)} | {
        f"weom{w}" for w in (0.1, 0.3, 3, 10)
    }
    assert sheet.pinn_settings("wide") == {"width": 128}
    assert result_path("pinn", ".json", **variants["wbar10"]).endswith(
        "top_node_seed0_steps12000_wbar10.json"
    )
    assert result_path("pinn", ".json", **sheet.rows["fig4"][0]).endswith("_steps12000.json")
    cfg["studies"]["fig4"].append({**row, "settings": {"width": 32}, "variant": "wide"})
    with pytest.raises(RunSheetError, match="variant 'wide' is already defined"):
        RunSheet(cfg)


def test_paths_fill_given_keys_and_keep_the_rest_as_wildcards():
    assert result_path("record", ".npz", structure="x1") == "results/records/x1/{record}.npz"
    assert result_path("baseline", "_restarts.json", method="lm_shooting") == (
        "results/identify/lm_shooting/{structure}/{record}/{protocol}_seed{seed}_restarts.json"
    )
    assert all(p.count("{") == p.count("}") for p in PATHS.values())
    with pytest.raises(KeyError, match="unknown result kind"):
        result_path("nosuch")


# ------------------------------------------------------- config description
@pytest.mark.parametrize(
    "patch, message",
    [
        ({"unknown_top_key": 3}, "config field 'unknown_top_key': unknown key"),
        (
            {"identify": {"pinn": {"settings": {"widht": 64}}}},
            "config field 'identify.pinn.settings.widht': unknown key",
        ),
        ({"identify": {"pinn": {"settings": {"width": 0}}}}, "config field 'identify.pinn.settings.width'"),
        (
            {"identify": {"pinn": {"settings": {"dtype": "float16"}}}},
            "config field 'identify.pinn.settings.dtype'",
        ),
        (
            {"identify": {"pinn": {"settings": {"steps": 10}}}},
            "config field 'identify.pinn.settings.steps': unknown key",
        ),
        (
            {"studies": {"fig4": [["x1", "taut_1pt", "top_node", "smooth", 10, 0]]}},
            "config field 'studies.fig4[0]'",
        ),
        (
            {"identify": {"pinn": {"batch": {"seeds_per_job": 0}}}},
            "config field 'identify.pinn.batch.seeds_per_job': 0 is less than the minimum of 1",
        ),
        (
            {"identify": {"pinn": {"batch": {"seeds_per_job": 2.5}}}},
            "config field 'identify.pinn.batch.seeds_per_job': 2.5 is not of type 'integer'",
        ),
    ],
)
def test_schema_rejects_unknown_keys_and_bad_settings(repo, default_config, patch, message):
    cfg = copy.deepcopy(default_config)
    update_config(cfg, patch)
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_config(cfg, repo / "config/schema.yaml")


def test_schema_settings_agree_with_the_pinn_settings(repo):
    """The schema describes exactly the PINN settings a config may set (steps, treatment per run)."""
    import dataclasses

    from tensegrity_id.identify.pinn.settings import PINNSettings

    schema = yaml.safe_load((repo / "config/schema.yaml").read_text())
    described = set(schema["$defs"]["pinn_settings"]["properties"])
    fields = {f.name for f in dataclasses.fields(PINNSettings)}
    assert described == fields - {"steps", "treatment"}
    props = schema["$defs"]["pinn_settings"]["properties"].values()
    assert not [p for p in props if "default" in p]  # the defaults live in PINNSettings


def test_shipped_configs_pass(repo):
    for name in (
        "test",
        "paper",
        "example_measured",
        "pinn_linear_pi_glorot",
        "pinn_geometric_torch",
        "readings_protocol",
    ):
        check_config(merged(repo, name), repo / "config/schema.yaml")


def test_config_readme_is_current(repo):
    """config/README.md is generated from the schema and the two configs: regenerate it when they change."""
    from tensegrity_id.workflow.config_doc import config_readme

    text = (repo / "config/README.md").read_text()
    assert text == config_readme(repo), "run: python -m tensegrity_id.workflow.config_doc"
    assert "### `studies.crosscheck`" in text and "- paper:" in text
