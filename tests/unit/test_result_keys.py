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

import pytest
from key_scan import SCANNED, spelled, spellings
from tensegrity_id.results.fisher import FISHER_KEY
from tensegrity_id.results.identification import KEY

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
    "batch": "the config's identify.pinn.batch block as well (how many seeds a job trains)",
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


def test_exemptions_are_keys():
    """Every exemption names a real key of its own (a renamed field leaves no stale exemption)."""
    assert sorted(set(EXEMPT) - (set(KEY) - set(FISHER_KEY))) == []


def test_every_exemption_is_still_needed():
    """An exempt word that no scanned file spells any more is policed again: remove it from EXEMPT."""
    words = {key for _, _, key in spellings(EXEMPT)}
    assert sorted(set(EXEMPT) - words) == []


def test_the_scan_finds_a_spelled_key(tmp_path):
    """The scan sees subscripts, ``.get``, dict keys and f-string fields; not export tables or docstrings."""
    f = tmp_path / "m.py"
    f.write_text(
        '"""outcome"""\n'
        '__all__ = ["held_out_ratio"]\n'
        'a = r["errors"]["sigma_max_pct"]\n'
        'b = r.get("c_pct")\n'
        'c = {"outcome": 1}\n'
        "d = f\"{e['per_record']}\"\n"
    )
    assert sorted(spelled(f, POLICED)) == [
        (3, "errors"),
        (3, "sigma_max_pct"),
        (4, "c_pct"),
        (5, "outcome"),
        (6, "per_record"),
    ]


def test_the_known_keys_are_policed():
    for key in ("sigma_max_pct", "c_pct", "held_out_ratio", "outcome", "reconstruction_pct", "per_record"):
        assert key in POLICED


@pytest.mark.parametrize("top", SCANNED, ids=lambda top: top.rpartition("/")[2])
def test_no_result_key_is_spelled_outside_the_records(top):
    hits = [f"{rel}:{line}: {key!r}" for rel, line, key in spellings(POLICED) if rel.startswith(top + "/")]
    assert not hits, (
        "identification result keys spelled as strings (take them from "
        "tensegrity_id.results.identification.KEY, or read the record's attributes):\n" + "\n".join(hits)
    )
