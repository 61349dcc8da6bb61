"""Config and structure files at their edges: each case refused at start-up in one line, or
made harmless.

- a structure whose prestress cannot exist: one line naming the field, the structure and its file
  (it was a ``PrestressError`` traceback, or a failed job);
- names that make two rules write one file: refused, listing the reserved names (it was Snakemake's
  ``AmbiguousRuleException``, naming no config key);
- params in canonical form: a config whose keys are reordered re-runs nothing, a changed value re-runs
  what uses it (reordering re-ran the whole chain);
- repeated seeds, a zero minimum force density and an implausible gravity: refused naming the field
  (they were accepted);
- ``cable_groups`` in a structure file: refused naming it (it was validated and never used).
"""

from __future__ import annotations

import copy
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config
from tensegrity_id import GENERATORS, build_structure
from tensegrity_id.mechanics.structure_io import (
    StructureFileError,
    load_structure,
    structure_from_dict,
    structure_schema,
)
from tensegrity_id.workflow.config_check import ConfigError, check_config
from tensegrity_id.workflow.reserved_names import RESERVED
from tensegrity_id.workflow.rule_params import canonical, canonical_params

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config/schema.yaml"
EXAMPLE_STRUCTURE = REPO / "resources/structures/example_x1.yaml"
EXAMPLE_RECORD = REPO / "resources/records/x1_shaker_simulated.csv"
EXAMPLE_PEAKS = REPO / "resources/records/x1_peaks_simulated.csv"


@pytest.fixture(scope="module")
def base() -> dict:
    """The default config with the example's structure file as 'my_frame', built with X1."""
    cfg = yaml.safe_load((REPO / "config/config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config/example_measured.yaml").read_text()))
    cfg["build"] = ["x1", "my_frame"]
    cfg["measured"] = {"records": {}, "peaks": {}}
    return cfg


@pytest.fixture
def cfg(base) -> dict:
    return copy.deepcopy(base)


def refused(cfg: dict, field: str, *texts: str) -> str:
    """check_config refuses ``cfg`` in one line that starts by naming ``field`` and contains ``texts``."""
    with pytest.raises(ConfigError) as err:
        check_config(cfg, SCHEMA)
    msg = str(err.value)
    assert "\n" not in msg, msg
    assert msg.startswith(f"config field '{field}'"), msg
    for text in texts:
        assert re.search(text, msg), (text, msg)
    return msg


def _structure_file(tmp_path: Path, name: str = "frame", **changes) -> Path:
    """The example structure file (X1 by hand) with ``changes``; a key set to None is removed."""
    doc = yaml.safe_load(EXAMPLE_STRUCTURE.read_text())
    doc["name"] = name
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


# --------------------------------------------------------------- 1. a prestress that cannot exist
@pytest.mark.parametrize("with_record", [False, True], ids=["structure", "structure_with_a_measured_record"])
def test_1_an_infeasible_prestress_is_one_line_naming_file_structure_and_fix(cfg, tmp_path, with_record):
    """X1 without its right vertical cable: gravity pulls the frame over, and no cable tension holds it.
    Before: accepted at start-up (the job failed), or with a measured record a PrestressError traceback."""
    path = _structure_file(tmp_path, cables=[[0, 2], [1, 3], [0, 1]])
    cfg["structures"]["my_frame"]["file"] = str(path)
    if with_record:
        cfg["measured"]["records"] = {
            "rec": {"file": str(EXAMPLE_RECORD), "structure": "my_frame", "methods": ["lm_shooting"]}
        }
    msg = refused(
        cfg,
        "structures.my_frame.prestress",
        r"structure 'my_frame'",
        re.escape(f"file '{path}'"),
        r"no prestress with every cable force density >= sigma_min = 25 N/m balances the load",
        r"lower sigma_min, or change the nodes, cables or supports",
    )
    assert "HiGHS" not in msg  # the solver's words add nothing to 'infeasible'


def test_1_a_self_stress_under_gravity_and_a_given_prestress_without_sigma_say_what_to_change(cfg):
    cfg["structures"]["x1"]["prestress"] = {"method": "selfstress", "scale": 10.0}
    refused(
        cfg,
        "structures.x1.prestress",
        r"generator 'xframe'",
        r"out-of-balance force",
        r"a self-stress mode carries no load: under gravity \(9\.81 m/s\^2\) use 'lp'",
    )
    cfg["structures"]["x1"]["prestress"] = {"method": "given"}
    refused(cfg, "structures.x1.prestress", r"needs 'sigma' in the structure file")


def test_1_the_shipped_configs_prestress_at_start_up():
    for extra in (None, "paper", "test", "example_measured"):
        cfg = yaml.safe_load((REPO / "config/config.yaml").read_text())
        if extra:
            update_config(cfg, yaml.safe_load((REPO / f"config/{extra}.yaml").read_text()))
            if extra == "example_measured":  # the structure, not the records (test_bad_inputs reads those)
                cfg["measured"] = {"records": {}, "peaks": {}}
        check_config(cfg, SCHEMA)


# --------------------------------------------------------------- 2. names two rules would share
def test_2_a_measured_record_named_peaks_beside_a_peak_list_named_screening_is_refused(cfg):
    """The reported case: results/measured/my_frame/peaks/screening.json was the record's screening and
    the peak list's result (Snakemake: AmbiguousRuleException)."""
    cfg["measured"] = {
        "records": {
            "peaks": {"file": str(EXAMPLE_RECORD), "structure": "my_frame", "methods": ["lm_shooting"]}
        },
        "peaks": {"screening": {"file": str(EXAMPLE_PEAKS), "structure": "my_frame"}},
    }
    msg = refused(
        cfg, "measured.records.peaks", r"the name 'peaks' is reserved", r"results/measured/my_frame/peaks/"
    )
    assert msg.endswith(f"(reserved: {'; '.join(RESERVED)})")


def test_2_a_protocol_name_with_a_seed_in_it_is_refused(cfg):
    """Protocol 'a_seed0_variants_b' at seed 3 and protocol 'a's study 'b_seed3' both wrote
    results/identify/lm_shooting/x1/taut_1pt/a_seed0_variants_b_seed3.json."""
    cfg["records"]["protocols"]["x1"]["a_seed0_variants_b"] = {"channels": [[1, 0]], "noise": 0.02}
    refused(
        cfg,
        "records.protocols.x1.a_seed0_variants_b",
        r"reserved",
        re.escape("'{protocol}_seed{seed}...'"),
    )


@pytest.mark.parametrize("name", ["seed_study_p", "grouping_p"])
def test_2_a_series_structure_named_like_another_values_file_is_refused(cfg, name):
    """Series structure 'seed_study_p' and seed-study row 'p_series_modal' both wrote
    results/values/seed_study_p_series_modal.json."""
    cfg["structures"][name] = copy.deepcopy(cfg["structures"]["prism30_zg"])
    cfg["build"].append(name)
    cfg["analysis"]["prestress_series"]["structures"] = [name]
    refused(
        cfg,
        "analysis.prestress_series.structures[0]",
        rf"the name '{name}' is reserved",
        rf"results/values/{name}_series_modal\.json",
    )


def test_2_free_names_stay_free(cfg):
    """A peak list may be named 'screening' (no record is named 'peaks'), a protocol 'seedling'."""
    cfg["measured"]["peaks"] = {"screening": {"file": str(EXAMPLE_PEAKS), "structure": "my_frame"}}
    cfg["records"]["protocols"]["x1"]["seedling"] = {"channels": [[1, 0]], "noise": 0.02}
    check_config(cfg, SCHEMA)


# --------------------------------------------------------------- 3. canonical params
def test_3_reordered_mappings_give_identical_params_and_a_changed_value_does_not():
    a = {"sim": {"t_end": 5.0, "method": "RK45", "nested": {"b": 1, "a": [3, {"y": 1, "x": 2}]}}}
    b = {"sim": {"nested": {"a": [3, {"x": 2, "y": 1}], "b": 1}, "method": "RK45", "t_end": 5.0}}
    assert repr(a) != repr(b)  # what Snakemake compared before
    assert repr(canonical_params(**a)) == repr(canonical_params(**b))
    changed = copy.deepcopy(b)
    changed["sim"]["t_end"] = 5.5
    assert repr(canonical_params(**changed)) != repr(canonical_params(**a))
    # the order of a list is a value (table rows, channels); tuples are lists; numbers stay as given
    assert canonical([[2, 1], (1, 2)]) == [[2, 1], [1, 2]]
    assert repr(canonical({"x": 25})) != repr(canonical({"x": 25.0}))
    assert list(canonical({2: "a", "b": 1})) == [2, "b"]  # mixed key types: by type, then text


def test_3_a_param_function_keeps_its_signature_and_returns_canonical_values():
    """Snakemake reads a param function's signature to pass it wildcards, input, output, ...; the
    canonical wrapper shows the original one."""

    def spec(wildcards, input):
        return {"z": 1, "a": {"d": 2, "c": 3}}

    wrapped = canonical_params(spec=spec, n=3)
    assert list(inspect.signature(wrapped["spec"]).parameters) == ["wildcards", "input"]
    assert repr(wrapped["spec"](None, input=[])) == repr({"a": {"c": 3, "d": 2}, "z": 1})
    assert wrapped["n"] == 3


def test_3_every_rule_passes_its_params_through_canonical_params():
    """Each ``params:`` block of workflow/rules/*.smk is ``**canonical_params(...)`` and nothing else."""
    blocks = 0
    for smk in sorted((REPO / "workflow/rules").glob("*.smk")):
        lines = smk.read_text().splitlines()
        for k, line in enumerate(lines):
            if line.strip() != "params:":
                continue
            blocks += 1
            indent = len(line) - len(line.lstrip())
            body = [ln for ln in lines[k + 1 :] if ln.strip()]
            body = body[: next((i for i, ln in enumerate(body) if len(ln) - len(ln.lstrip()) <= indent))]
            assert body[0].strip() == "**canonical_params(", f"{smk.name}:{k + 1}"
            assert body[-1].strip() == "),", f"{smk.name}:{k + 1}"
            deeper = [ln for ln in body[1:-1] if len(ln) - len(ln.lstrip()) <= indent + 4]
            assert not deeper, f"{smk.name}:{k + 1}: params outside canonical_params: {deeper}"
    assert blocks >= 40


def _reversed(value):
    if isinstance(value, dict):
        return {k: _reversed(v) for k, v in reversed(list(value.items()))}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


@pytest.mark.slow
def test_3_snakemake_reruns_nothing_after_a_reorder_and_a_job_after_a_changed_value(tmp_path, copy_workflow):
    """Snakemake's own params check (``--rerun-triggers params``) on X1's structure: made once, then
    the config with every mapping's keys reversed (nothing to do), then one value changed (one job).
    About 20 s (one job and three start-ups)."""
    work = copy_workflow(tmp_path / "wf")
    target = "results/structures/x1.json"

    def snakemake(*args):
        out = subprocess.run(
            [sys.executable, "-m", "snakemake", *args, target, "--rerun-triggers", "params"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr[-3000:]
        return out.stdout + out.stderr

    snakemake("--cores", "1")
    config = work / "config/config.yaml"
    cfg = yaml.safe_load(config.read_text())
    config.write_text(yaml.safe_dump(_reversed(cfg), sort_keys=False))
    assert "Nothing to be done" in snakemake("-n")
    cfg["structures"]["x1"]["prestress"]["sigma_min"] = 26.0
    config.write_text(yaml.safe_dump(_reversed(cfg), sort_keys=False))
    log = snakemake("-n")
    assert "Params have changed since last execution" in log and "generate_structure" in log


# --------------------------------------------------------------- 4. seeds, sigma_min, gravity
@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda c: c["identify"]["baselines"].update(seeds=[0, 0]), "identify.baselines.seeds"),
        (
            lambda c: c["identify"]["pinn"].update(
                runs=[
                    {
                        "structure": "x1",
                        "records": ["taut_1pt"],
                        "protocol": "top_node",
                        "treatments": ["smooth"],
                        "steps": [300],
                        "seeds": [0, 1, 0],
                    }
                ]
            ),
            "identify.pinn.runs[0].seeds",
        ),
        (lambda c: c["studies"]["seed_study"].update(seeds=[0, 1, 1]), "studies.seed_study.seeds"),
        (
            lambda c: c["measured"]["records"].update(
                rec={"file": str(EXAMPLE_RECORD), "structure": "my_frame", "seeds": [0, 0]}
            ),
            "measured.records.rec.seeds",
        ),
    ],
)
def test_4_a_repeated_seed_is_refused_naming_it(cfg, mutate, field):
    mutate(cfg)
    refused(cfg, field, r"seed [01] is given more than once", r"list each seed once")


def test_4_a_zero_minimum_force_density_is_refused(cfg):
    cfg["structures"]["x1"]["prestress"]["sigma_min"] = 0
    refused(cfg, "structures.x1.prestress.sigma_min", r"less than or equal to the minimum of 0", r"slack")


@pytest.mark.parametrize(
    "g, unit", [(9810, "mm/s\\^2"), (981, "cm/s\\^2"), (1.0, "g"), (32.2, "ft/s\\^2"), (1.62, None)]
)
def test_4_an_implausible_gravity_is_refused_naming_the_field(cfg, g, unit):
    cfg["structures"]["prism45"]["params"]["gravity"] = g
    refused(
        cfg,
        "structures.prism45.params.gravity",
        rf"gravity {g:g} m/s\^2 is not plausible",
        *([rf"standard gravity in {unit}"] if unit else []),
        r"give 0 \(a zero-gravity structure\) or a value within 9\.7-9\.9 m/s\^2",
    )


def test_4_an_implausible_gravity_in_a_structure_file_is_refused(cfg, tmp_path):
    path = _structure_file(tmp_path, gravity=9810)
    cfg["structures"]["my_frame"]["file"] = str(path)
    refused(cfg, "structures.my_frame.file", re.escape(f"in the structure file '{path}'"), "change 'gravity'")


@pytest.mark.parametrize("g", [0, 0.0, 9.7, 9.80665, 9.81, 9.9])
def test_4_zero_and_earth_gravity_pass(cfg, g):
    cfg["structures"]["prism45"]["params"]["gravity"] = g
    check_config(cfg, SCHEMA)


# --------------------------------------------------------------- 5. cable_groups
def test_5_cable_groups_in_a_structure_file_is_refused_naming_it(cfg, tmp_path):
    path = _structure_file(tmp_path, cable_groups=[0, 0, 1, 1])
    with pytest.raises(
        StructureFileError, match=r"field 'cable_groups' is not supported: each cable's force"
    ):
        load_structure(path)
    cfg["structures"]["my_frame"]["file"] = str(path)
    refused(cfg, "structures.my_frame.file", r"'cable_groups' is not supported", r"analysis\.grouping")


def test_5_no_structure_carries_cable_groups():
    assert "cable_groups" not in structure_schema()["properties"]
    for path in sorted((REPO / "resources").rglob("*.yaml")):
        assert "cable_groups" not in path.read_text(), path
    spec = yaml.safe_load((REPO / "config/config.yaml").read_text())["structures"]["hexprism"]
    hexprism = build_structure("hexprism", spec)
    doc = hexprism.geometry_dict()
    assert "cable_groups" not in doc
    assert structure_from_dict(doc).digest() == hexprism.digest()  # generated -> file -> loaded
    assert "hexprism" in GENERATORS
