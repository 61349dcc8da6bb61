"""The provenance object of a result file (tensegrity_id.results.provenance): its fields, its
determinism, the commit of the workflow's own clone or "not a git checkout", and every JSON writer of
the rule scripts passing it (read with :mod:`ast`; the library's JSON writers that take none, each
with its reason).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest
import tensegrity_id
from repo_scripts import ROOT, load
from tensegrity_id.data.runio import PROVENANCE_KEY, read_json, write_json
from tensegrity_id.results import provenance as prov_mod
from tensegrity_id.results.provenance import (
    NOT_A_CHECKOUT,
    WORKFLOW_PREFIX,
    config_sha256,
    folder_sha256,
    git_commit,
    job_provenance,
    provenance_of,
)
from tensegrity_id.workflow.reference import compare

FIELDS = ["package", "version", "commit", "rule", "config_sha256", "inputs"]
COMMIT = re.compile(r"[0-9a-f]{40}(-dirty)?")
CONFIG = {"structures": {"x1": {"prestress": {"sigma_min": 25.0}}}, "build": ["x1"], 3: (1, 2)}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def job_dir(tmp_path, monkeypatch):
    """A working directory with a job's inputs: two files and a folder."""
    (tmp_path / "results/structures").mkdir(parents=True)
    (tmp_path / "results/structures/x1.json").write_text('{"a": 1}\n')
    (tmp_path / "resources/raw/sub").mkdir(parents=True)
    (tmp_path / "resources/raw/b.csv").write_text("t,a\n0,1\n")
    (tmp_path / "resources/raw/sub/c.csv").write_text("t,a\n0,2\n")
    (tmp_path / "config.yaml").write_bytes(b"build: [x1]\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


INPUTS = ["results/structures/x1.json", "config.yaml", "resources/raw"]


# ------------------------------------------------------------------------------ the object
def test_the_object_holds_package_commit_rule_config_and_inputs(job_dir):
    p = provenance_of("generate_structure", config=CONFIG, inputs=INPUTS)
    assert list(p) == FIELDS
    assert p["package"] == "tensegrity_id" and p["version"] == tensegrity_id.__version__
    assert p["commit"] == NOT_A_CHECKOUT or COMMIT.fullmatch(p["commit"])
    assert p["rule"] == "generate_structure"
    canonical = json.dumps(
        {"3": [1, 2], "build": ["x1"], "structures": {"x1": {"prestress": {"sigma_min": 25.0}}}},
        separators=(",", ":"),
    )
    assert p["config_sha256"] == _sha(canonical.encode())
    assert list(p["inputs"]) == INPUTS  # as the job names them, in its order
    assert p["inputs"]["config.yaml"] == _sha(b"build: [x1]\n")
    assert p["inputs"]["results/structures/x1.json"] == _sha(b'{"a": 1}\n')
    b, c = _sha(b"t,a\n0,1\n"), _sha(b"t,a\n0,2\n")
    lines = f"{b}  b.csv\n{c}  sub/c.csv\n"
    assert p["inputs"]["resources/raw"] == _sha(lines.encode())  # a folder: its sha256sum lines


def test_the_object_is_deterministic_and_names_no_host_time_or_absolute_path(job_dir):
    a = provenance_of("r", config=CONFIG, inputs=INPUTS)
    b = provenance_of("r", config=dict(reversed(list(CONFIG.items()))), inputs=INPUTS)  # key order
    assert a == b and json.dumps(a) == json.dumps(b)
    assert str(job_dir) not in json.dumps(a) and not any(os.path.isabs(k) for k in a["inputs"])
    # an absolute path under the working directory is named relative to it
    c = provenance_of("r", config=CONFIG, inputs=[str(job_dir / "config.yaml")])
    assert c["inputs"] == {"config.yaml": a["inputs"]["config.yaml"]}


def test_a_changed_input_byte_changes_its_hash_and_only_its(job_dir):
    before = provenance_of("r", config=CONFIG, inputs=INPUTS)
    (job_dir / "resources/raw/sub/c.csv").write_text("t,a\n0,3\n")
    (job_dir / "config.yaml").write_bytes(b"build: [x2]\n")
    after = provenance_of("r", config=CONFIG, inputs=INPUTS)
    changed = {k for k in INPUTS if before["inputs"][k] != after["inputs"][k]}
    assert changed == {"config.yaml", "resources/raw"}
    assert after["config_sha256"] == before["config_sha256"]
    other = provenance_of("r", config={**CONFIG, "build": ["x2"]}, inputs=INPUTS)
    assert other["config_sha256"] != before["config_sha256"]


def test_a_folder_hash_is_sha256sum_of_its_files(job_dir):
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum")
    listing = subprocess.run(
        ["sha256sum", "b.csv", "sub/c.csv"], cwd=job_dir / "resources/raw", capture_output=True, check=True
    ).stdout
    assert folder_sha256("resources/raw") == _sha(listing)


def test_a_missing_input_is_none_and_a_file_of_the_workflow_is_named_from_its_clone(job_dir):
    p = provenance_of("r", config={}, inputs=["results/nope.json", os.path.abspath(tensegrity_id.__file__)])
    assert p["inputs"]["results/nope.json"] is None
    if prov_mod.workflow_root() is not None:  # the library inside a workflow's clone (not installed)
        name = WORKFLOW_PREFIX + "workflow/lib/tensegrity_id/__init__.py"
        assert p["inputs"][name] == _sha(Path(tensegrity_id.__file__).read_bytes())


def test_job_provenance_reads_the_snakemake_object(job_dir):
    job = SimpleNamespace(rule="make_table1", config=CONFIG, input=list(INPUTS))
    assert job_provenance(job) == provenance_of("make_table1", config=CONFIG, inputs=INPUTS)


def test_config_hash_takes_non_string_keys_and_values_json_lacks():
    import datetime

    assert config_sha256({1: "a"}) == config_sha256({"1": "a"})
    assert config_sha256({"d": datetime.date(2024, 1, 2)}) == config_sha256({"d": "2024-01-02"})


# ------------------------------------------------------------------------------ the commit
def _fake_git(monkeypatch, stdout="", returncode=0, raises=None):
    calls = []

    def run(cmd, **kwargs):
        calls.append(cmd)
        assert kwargs["timeout"] > 0 and kwargs["env"]["GIT_OPTIONAL_LOCKS"] == "0"
        if raises is not None:
            raise raises
        return SimpleNamespace(returncode=returncode, stdout=stdout)

    monkeypatch.setattr(prov_mod.subprocess, "run", run)
    return calls


HEAD = "0123456789abcdef0123456789abcdef01234567"


def test_git_runs_once_per_process_and_marks_uncommitted_changes(tmp_path, monkeypatch):
    clean, dirty = tmp_path / "clean", tmp_path / "dirty"
    for root in (clean, dirty):
        (root / ".git").mkdir(parents=True)
    calls = _fake_git(monkeypatch, f"# branch.oid {HEAD}\n# branch.head main\n")
    assert git_commit(clean) == git_commit(clean) == HEAD and len(calls) == 1
    _fake_git(monkeypatch, f"# branch.oid {HEAD}\n1 .M N... 100644 100644 100644 a b workflow/x.py\n")
    assert git_commit(dirty) == f"{HEAD}-dirty"


@pytest.mark.parametrize(
    "fake",
    [
        {"raises": FileNotFoundError("git")},  # no git binary
        {"raises": subprocess.TimeoutExpired("git", 10)},
        {"returncode": 128, "stdout": ""},  # not a repository, dubious ownership, ...
        {"stdout": "# branch.oid (initial)\n"},  # no commit yet
    ],
)
def test_any_git_failure_gives_not_a_checkout(tmp_path, monkeypatch, fake):
    (tmp_path / ".git").mkdir()
    _fake_git(monkeypatch, **fake)
    assert git_commit(tmp_path) == NOT_A_CHECKOUT


def test_a_folder_that_is_not_the_top_of_its_own_clone_is_not_a_checkout(tmp_path, monkeypatch):
    calls = _fake_git(monkeypatch, f"# branch.oid {HEAD}\n")  # a repository above it is not asked
    assert git_commit(tmp_path / "vendor" / "wf") == NOT_A_CHECKOUT and calls == []


PROBE = textwrap.dedent(
    """
    import json
    from tensegrity_id.results.provenance import provenance_of
    print(json.dumps(provenance_of("probe", config={}, inputs=[])))
    """
)


def _probe(root: Path, **env) -> dict:
    """The provenance a fresh process computes with the library copied under ``root``."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root / "workflow/lib"), **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


@pytest.fixture
def lib_copy(tmp_path):
    """A copy of the workflow's library at ``tmp_path/wf/workflow/lib`` (no git clone)."""
    root = tmp_path / "wf"
    shutil.copytree(
        ROOT / "workflow/lib/tensegrity_id",
        root / "workflow/lib/tensegrity_id",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return root


def test_a_copy_outside_a_repository_is_not_a_git_checkout(lib_copy):
    assert _probe(lib_copy)["commit"] == NOT_A_CHECKOUT


def test_a_clone_gives_its_commit_dirty_with_uncommitted_changes(lib_copy):
    if shutil.which("git") is None:
        pytest.skip("no git")

    def git(*args):
        ident = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
        return subprocess.run(
            ["git", *ident, *args], cwd=lib_copy, capture_output=True, text=True, check=True
        )

    git("init", "-q")
    git("add", "workflow")
    git("commit", "-q", "-m", "copy")
    head = git("rev-parse", "HEAD").stdout.strip()
    (lib_copy / "results.txt").write_text("untracked: not a change of the clone\n")
    assert _probe(lib_copy)["commit"] == head
    module = lib_copy / "workflow/lib/tensegrity_id/results/provenance.py"
    module.write_text(module.read_text() + "\n# edited\n")
    assert _probe(lib_copy)["commit"] == f"{head}-dirty"
    assert _probe(lib_copy, PATH=str(lib_copy))["commit"] == NOT_A_CHECKOUT  # no git on the path


# ------------------------------------------------------------------------------ files and readers
def test_write_json_puts_it_first_and_read_json_leaves_it_out(tmp_path):
    path = tmp_path / "v.json"
    write_json(path, {"value": 1.5}, provenance={"commit": "c"})
    assert list(json.loads(path.read_text())) == [PROVENANCE_KEY, "value"]
    assert read_json(path) == {"value": 1.5}
    assert read_json(path, provenance=True)[PROVENANCE_KEY] == {"commit": "c"}
    with pytest.raises(TypeError, match="JSON object"):
        write_json(path, [1, 2], provenance={"commit": "c"})
    with pytest.raises(ValueError, match="already has"):
        write_json(path, {PROVENANCE_KEY: 1}, provenance={"commit": "c"})


def test_a_new_run_compares_equal_to_a_reference_made_before_provenance(tmp_path):
    """A value file of the published reference (no provenance) against the same numbers written with a
    provenance object: equal, for the reference comparison and for tests/compare_results.py."""
    reference = ROOT / "resources/reference/paper"
    manifest = json.loads((reference / "MANIFEST.json").read_text())
    entry = next(f for f in manifest["files"] if f["path"] == "results/values/prism_twist_range.json")
    ref_copy = tmp_path / "reference"
    (ref_copy / "values").mkdir(parents=True)
    shutil.copy(reference / "values/prism_twist_range.json", ref_copy / "values")
    (ref_copy / "MANIFEST.json").write_text(json.dumps({"files": [entry]}))
    published = json.loads((reference / "values/prism_twist_range.json").read_text())
    assert PROVENANCE_KEY not in published
    run = tmp_path / "run/results"
    prov = {"commit": "a" * 40, "inputs": {"x": "0" * 64}}
    write_json(run / "values/prism_twist_range.json", published, provenance=prov)
    [file] = compare(run, ref_copy).files
    assert file.status == "equal", file.detail
    cr = load("compare_results", "tests/compare_results.py")
    report = cr.compare_trees(ref_copy / "values", run / "values")
    assert report.ok and report.files[0].ignored_only
    changed = {**published, "twist_min_deg": published["twist_min_deg"] + 1.0}
    write_json(run / "values/prism_twist_range.json", changed, provenance=prov)
    assert compare(run, ref_copy).files[0].status == "different"
    assert not cr.compare_trees(ref_copy / "values", run / "values").ok


# ------------------------------------------------------------------------------ every writer passes it
LIB = ROOT / "workflow/lib"
SCRIPTS = ROOT / "workflow/scripts"
JOB_PROVENANCE = "job_provenance(snakemake)"

LIB_EXEMPT: dict[str, str] = {
    "tensegrity_id/mechanics/structure.py::digest": "json.dumps of the geometry, hashed: no file",
    "tensegrity_id/mechanics/structure_io.py::save_structure": (
        "writes a structure file, an input a user edits and the workflow reads; the structure's "
        "result file (results/structures/, the report holding this document) carries the provenance"
    ),
    "tensegrity_id/results/provenance.py::config_sha256": "canonical JSON of the config, hashed: no file",
    "tensegrity_id/workflow/config_doc.py::summarize": "a config value as text for the config's README",
    "tensegrity_id/report/scorecard/overview.py::rescore_reference": (
        "re-writes a published reference's MANIFEST.json, which records its own provenance (commit, "
        "date, versions, command) and a note of the re-scoring; the values it re-writes pass one"
    ),
    "tensegrity_id/workflow/reference/publication.py::publish": (
        "writes a reference's MANIFEST.json, which is the reference's provenance (commit, date, "
        "versions, command, every file's sha256)"
    ),
    "tensegrity_id/workflow/readings_runs.py::publish": (
        "writes a readings folder's MANIFEST.json, which is that folder's provenance (each part's "
        "commit, command, date and wall time, every file's sha256); the files it copies keep theirs"
    ),
    "tensegrity_id/workflow/reference/cli.py::main": (
        "the comparison's report (--json): which files of two folders agree, not a result of a run"
    ),
    "tensegrity_id/workflow/cluster_plan.py::main": (
        "the cluster plan (--json): a cost estimate of a run to come, made before any result"
    ),
}
"""Library functions that write or format JSON without a provenance object, each with its reason."""

SCRIPT_EXEMPT: dict[str, str] = {}
"""``script.py::writer`` calls that write no result JSON (none at present), each with its reason."""


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)


def _own_calls(fn: ast.AST):
    """The calls in a function's body, not in the functions or classes nested in it."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _takes_provenance(fn) -> bool:
    return any(a.arg == "provenance" for a in [*fn.args.args, *fn.args.kwonlyargs])


def library_writers(root: Path = LIB) -> dict[str, bool]:
    """``module::function`` -> whether it takes a provenance, for every library function whose own
    body writes or formats JSON (``write_json``, ``json.dump(s)``, a ``.write`` call)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        for fn in _functions(_tree(path)):
            calls = list(_own_calls(fn))
            json_call = any(
                _name(c) in ("write_json", "write")
                or (_name(c) in ("dump", "dumps") and getattr(c.func.value, "id", None) == "json")
                for c in calls
            )
            if json_call:
                out[f"{path.relative_to(root).as_posix()}::{fn.name}"] = _takes_provenance(fn)
    return out


def writer_names(root: Path = LIB) -> set[str]:
    """The names of the writers a script must pass a provenance to: ``write`` (a typed record's),
    ``write_json`` and every JSON writer of the library taking a ``provenance``."""
    takers = {key.split("::")[1] for key, takes in library_writers(root).items() if takes}
    return {"write", "write_json"} | takers


def script_violations(source: str, name: str, writers: set[str]) -> list[str]:
    """``script::writer:line`` for every writer call of a script not passing ``provenance=`` the
    job's (``job_provenance(snakemake)``, or a module-level name bound to it)."""
    tree = ast.parse(source)
    bound = {
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.value) == JOB_PROVENANCE
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    bad = []
    for call in sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: n.lineno):
        if _name(call) in writers:
            given = next((k.value for k in call.keywords if k.arg == "provenance"), None)
            ok = given is not None and (
                ast.unparse(given) == JOB_PROVENANCE or (isinstance(given, ast.Name) and given.id in bound)
            )
            if not ok:
                bad.append(f"{name}::{_name(call)}:{call.lineno}")
    return bad


def test_every_json_writer_of_the_library_takes_a_provenance_or_is_exempt():
    writers = library_writers()
    missing = [w for w, takes in writers.items() if not takes and w not in LIB_EXEMPT]
    assert missing == [], f"JSON writers without a provenance parameter (pass one, or exempt): {missing}"
    stale = [w for w in LIB_EXEMPT if w not in writers or writers[w]]
    assert stale == [], f"exemptions no longer needed: {stale}"
    for path in sorted(LIB.rglob("*.py")):  # a provenance taken is passed on, not dropped
        for fn in _functions(_tree(path)):
            if _takes_provenance(fn):
                used = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == "provenance"]
                assert used, f"{path.relative_to(LIB)}::{fn.name} takes a provenance and drops it"


def test_every_rule_script_passes_the_jobs_provenance_to_every_json_writer():
    writers = writer_names()
    assert {"save_record", "save_measured", "write_run"} <= writers
    bad, seen = [], set()
    for path in sorted(SCRIPTS.glob("*.py")):
        found = script_violations(path.read_text(), path.name, writers)
        seen |= {v.rsplit(":", 1)[0] for v in found}
        bad += [v for v in found if v.rsplit(":", 1)[0] not in SCRIPT_EXEMPT]
    assert bad == [], (
        f"result JSON written without the job's provenance (pass job_provenance(snakemake)): {bad}"
    )
    stale = [k for k in SCRIPT_EXEMPT if k not in seen]
    assert stale == [], f"exemptions no longer needed: {stale}"


def test_the_scan_finds_a_writer_without_provenance():
    source = textwrap.dedent(
        """
        from tensegrity_id.results.provenance import job_provenance
        prov = job_provenance(snakemake)
        write_json(out.a, {"x": 1})
        result.write(out.b, provenance=None)
        save_record(r, d, out.c, out.d, spec={}, forcing=f, provenance=prov)
        write_json(out.e, {}, provenance=job_provenance(snakemake))
        write_json(out.f, {}, provenance={"made": "by hand"})
        """
    )
    assert script_violations(source, "s.py", writer_names()) == [
        "s.py::write_json:4",
        "s.py::write:5",
        "s.py::write_json:8",
    ]
    assert library_writers()["tensegrity_id/data/records.py::save_record"] is True


def test_the_readings_command_writes_its_decision_with_its_provenance(tmp_path, monkeypatch):
    import pandas as pd
    from tensegrity_id.report.scorecard import load_claims
    from tensegrity_id.workflow.readings import COMMAND, REGISTRATION, load_registration, main

    monkeypatch.chdir(ROOT)
    reg = load_registration(REGISTRATION)
    paper = {c["id"]: c["paper"] for c in load_claims("resources/published/claims.yaml")}
    card = pd.DataFrame({"id": list(reg.claims), "here": [paper[c] for c in reg.claims], "status": "match"})
    runs = []
    for name in reg.readings:  # two runs equal to the paper
        (tmp_path / name / "results/tables").mkdir(parents=True)
        card.to_csv(tmp_path / name / "results/tables/scorecard.csv", index=False)
        runs.append(str(tmp_path / name))
    assert main([*runs, "--out", str(tmp_path / "out")]) == 0
    p = read_json(tmp_path / "out/readings_decision.json", provenance=True)[PROVENANCE_KEY]
    assert list(p) == FIELDS and p["rule"] == COMMAND
    assert {REGISTRATION.as_posix(), "resources/published/claims.yaml"} <= set(p["inputs"])
    assert f"{runs[0]}/results/tables/scorecard.csv" in p["inputs"]  # a run outside: as given
