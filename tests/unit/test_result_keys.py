"""No identification result key is spelled as a string outside the typed records (read with :mod:`ast`).

The keys are the stored field names of the identification kinds and all
their parts (:data:`tensegrity_id.results.identification.KEY`) but the Fisher
parts an identification holds (``bounds``, ``fisher_at_start``), whose keys
are the Fisher kinds' (:data:`~tensegrity_id.results.fisher.FISHER_KEY`),
policed with them in ``test_result_keys_analysis.py``.  Every module of
``workflow/lib`` (but ``tensegrity_id/results/``, where they are declared)
and every script of ``workflow/scripts`` is parsed, and every
string constant equal to a key fails the test, naming ``file:line``: a
subscript ``r["sigma_max_pct"]``, a ``.get("c_pct")``, a dict key, a column
name or a comparison alike.  Code that needs the name takes it from ``KEY``
(``KEY.sigma_max_pct``), and a misspelt name fails where it is used.

Some keys are words that other files use in their own sense; they are not
policed (:data:`EXEMPT`, each with its reason).  They still go through the
record where a result is read or written.  The names a module exports
(``__all__``, a package's ``_EXPORTS``) are Python names, not keys: the
fit-metric functions are named after their keys.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tensegrity_id.results.fisher import FISHER_KEY
from tensegrity_id.results.identification import KEY

ROOT = Path(__file__).resolve().parents[2]
SCANNED = (ROOT / "workflow" / "lib", ROOT / "workflow" / "scripts")
RECORDS = ROOT / "workflow" / "lib" / "tensegrity_id" / "results"

_RUN_WORDS = "a run-sheet word: a wildcard, a study row's or the config's key naming a run"
_PARAMETERS = "a parameter's name in the mechanics, the Fisher analysis and the problem's truth"
_OPTIONS = "also the name of a method option (LMShooting, PINNThenLM)"
_GENERIC = "a generic word of statistics, series and messages"
_STATS = "a key of other files' statistics as well (simulations, records' metadata, cross-checks)"
EXEMPT: dict[str, str] = {
    "method": _RUN_WORDS,
    "structure": _RUN_WORDS,
    "record": _RUN_WORDS,
    "records": _RUN_WORDS,
    "protocol": _RUN_WORDS,
    "seed": _RUN_WORDS,
    "seeds": _RUN_WORDS,
    "n_seeds": _RUN_WORDS,
    "steps": _RUN_WORDS,
    "variant": _RUN_WORDS,
    "variants": _RUN_WORDS + " (the baselines' variant studies)",
    "treatment": _RUN_WORDS,
    "options": _RUN_WORDS,
    "sigma": _PARAMETERS,
    "c": _PARAMETERS,
    "EA": _PARAMETERS,
    "force_scale": _PARAMETERS + "; " + _OPTIONS,
    "bounds": _OPTIONS,
    "starts": _OPTIONS,
    "start_source": _OPTIONS,
    "fisher_at_start": _OPTIONS,
    "n_particles": "also the name of the particle filter's option",
    "step_mode": "the physics-informed checkpoint's own key as well",
    "steps_per_s": "a timing pattern of the reference comparison as well (it matches any file's keys)",
    "wall_s": _STATS,
    "n_transitions": _STATS,
    "iterations": _STATS,
    "start": "a forcing specification's start time as well",
    "identified": "an outcome label as well (a value of `outcome`)",
    "diverged": "an outcome label as well (a value of `outcome`)",
    "exact": "the exact values of the seed study's and the shooting landscape's own files as well",
    "chi2": "the silent-failure flag's configured name and the shooting landscape's key as well",
    "n_simulations": "the count of the shooting Fisher information and the landscape as well",
    "parameters": _GENERIC,
    "fit": _GENERIC,
    "t": _GENERIC,
    "value": _GENERIC,
    "mean": _GENERIC,
    "median": _GENERIC,
    "std": _GENERIC,
    "min": _GENERIC,
    "max": _GENERIC,
    "n": _GENERIC,
    "size": _GENERIC,
    "file": _GENERIC,
    "status": _GENERIC,
}
"""Keys not policed, with the reason (the word has another use in files that are not results)."""

POLICED = sorted(set(KEY) - set(FISHER_KEY) - set(EXEMPT))

_NAME_TABLES = ("__all__", "_EXPORTS")


def _files():
    for root in SCANNED:
        for path in sorted(root.rglob("*.py")):
            if RECORDS not in path.parents and "__pycache__" not in path.parts:
                yield path


def _name_tables(tree: ast.Module):
    """The values of the module-level assignments to ``__all__`` and ``_EXPORTS``."""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(getattr(t, "id", None) in _NAME_TABLES for t in targets) and node.value is not None:
            yield node.value


def _spelled_keys(path: Path, keys=POLICED):
    """``(line, key)`` for every string constant of ``path`` that is one of ``keys`` (the policed ones)."""
    keys = set(keys)
    tree = ast.parse(path.read_text(), filename=str(path))
    skip = {id(n) for table in _name_tables(tree) for n in ast.walk(table)}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in keys
            and id(node) not in skip
        ):
            yield node.lineno, node.value


def test_exemptions_are_keys():
    """Every exemption names a real key of its own (a renamed field leaves no stale exemption)."""
    assert sorted(set(EXEMPT) - (set(KEY) - set(FISHER_KEY))) == []


def test_every_exemption_is_still_needed():
    """An exempt word that no scanned file spells any more is policed again: remove it from EXEMPT."""
    spelled = {key for path in _files() for _, key in _spelled_keys(path, EXEMPT)}
    assert sorted(set(EXEMPT) - spelled) == []


def test_the_scan_finds_a_spelled_key(tmp_path):
    """The scan sees subscripts, ``.get``, dict keys and f-string fields; not the export tables."""
    f = tmp_path / "m.py"
    f.write_text(
        '__all__ = ["held_out_ratio"]\n'
        'a = r["errors"]["sigma_max_pct"]\n'
        'b = r.get("c_pct")\n'
        'c = {"outcome": 1}\n'
        "d = f\"{e['per_record']}\"\n"
    )
    assert sorted(_spelled_keys(f)) == [
        (2, "errors"),
        (2, "sigma_max_pct"),
        (3, "c_pct"),
        (4, "outcome"),
        (5, "per_record"),
    ]


def test_the_known_keys_are_policed():
    for key in ("sigma_max_pct", "c_pct", "held_out_ratio", "outcome", "reconstruction_pct", "per_record"):
        assert key in POLICED


@pytest.mark.parametrize("root", SCANNED, ids=lambda p: p.name)
def test_no_result_key_is_spelled_outside_the_records(root):
    hits = [
        f"{path.relative_to(ROOT)}:{line}: {key!r}"
        for path in _files()
        if root in path.parents
        for line, key in _spelled_keys(path)
    ]
    assert not hits, (
        "identification result keys spelled as strings (take them from "
        "tensegrity_id.results.identification.KEY, or read the record's attributes):\n" + "\n".join(hits)
    )
