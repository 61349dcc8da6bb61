"""No Fisher-analysis, assessment or screening result key is spelled outside its typed record.

The keys are the JSON names of the fields of the records in
:mod:`tensegrity_id.results.fisher`, :mod:`~tensegrity_id.results.assessment`
and :mod:`~tensegrity_id.results.screening`, nested parts included
(:class:`tensegrity_id.results.record.FieldNames`).  Every module under
``workflow/lib`` (outside ``tensegrity_id/results/``) and every script under
``workflow/scripts`` is parsed with :mod:`ast`; a string constant equal to a
key is a failure naming ``file:line``.  Not counted: docstrings, and the
names in ``__all__`` and ``_EXPORTS`` (functions and modules, not keys).

Code that needs a key as a string (a table column named after a result key)
takes it from the record module: ``CLASS``, ``FISHER_KEY.crlb_max_pct``,
``FieldNames(Assessment).lambda_min``.
"""

from __future__ import annotations

from key_scan import ROOT, spellings
from tensegrity_id.results.assessment import (
    MeasuredAssessment,
    PrestressScan,
    RecordAssessment,
    SteelDesign,
    StructureAssessment,
)
from tensegrity_id.results.fisher import FisherAnalysis, IdentifiabilityTotals, IdentifiedBounds, LocalFisher
from tensegrity_id.results.record import FieldNames
from tensegrity_id.results.screening import MeasuredSummary, Screening

KINDS = (
    FisherAnalysis,
    LocalFisher,
    IdentifiedBounds,
    IdentifiabilityTotals,
    StructureAssessment,
    PrestressScan,
    RecordAssessment,
    SteelDesign,
    MeasuredAssessment,
    Screening,
    MeasuredSummary,
)
"""The record kinds whose keys are policed here (the identification's have their own test)."""

GENERIC = {
    # names every stage uses for its own rows, run sheets, config entries and files
    "structure": "a row's, a file's and a config entry's structure everywhere",
    "record": "a row's, a file's and a config entry's record everywhere",
    "method": "an identification method, an integrator, a form-finding method in the config",
    "methods": "the config's and the run sheet's methods",
    "source": "a file's source in record metadata, scorecard claims and published values",
    "kind": "the kind of a forcing, a claim, a record, a catalog entry",
    "value": "a published value, a measurement, a config value",
    "index": "the structure catalog's and the scorecard's indices",
    "column": "a scorecard column, a table column",
    "level": "a prestress level of the series and simplex studies, a table's level column",
    "model": "the validation results' model description",
    "scale": "a prestress scale in the config, the hexagonal prism and the peaks",
    "scan": "config blocks (assessment.scan, records.scan) and the hexagonal prism's scan",
    "family": "the scorecard's claim families",
    "tolerances": "the scorecard's tolerances",
    "estimated": "the cluster plan's estimated resources",
    "ratio": "the unit screen's ratio in record metadata, the hexagonal prism's ratio",
    "counts": "a structure report's Maxwell counts, the scorecard's counts",
    "class": "the scorecard's claim class, a row label (the assessment's is CLASS, a field class_)",
    "assessment": "the config's assessment block and the analysis module of that name",
    "members": "a structure's members (structure reports and the catalog)",
    # parameters and arrays of other files, with the same names as the records' copies
    "sigma": "the force densities of structure files, identifications and config entries",
    "c": "the damper coefficient of identifications and the parameter name",
    "theta": "the parameter vector of figure 2 and the identifiability options",
    "t": "the time array of records and sensor files",
    "channels": "the sensor files' channels and record metadata",
    "noise": "the config's noise level of a record",
    "noise_std": "the sensor files' noise levels and record metadata",
    "noise_method": "record metadata (copied into the measured summary)",
    "E_T": "the record file's energy arrays (copied into the record assessment)",
    "E_Vg": "the record file's energy arrays (copied into the record assessment)",
    "E_Vs": "the record file's energy arrays (copied into the record assessment)",
    "bars": "a structure file's bars, and the bar model option",
    "cables": "a structure file's cables",
    "rigid": "the bar model option stiffness(bars='rigid')",
    "flexible": "the bar model option stiffness(bars='flexible')",
    "bar_sigma": "a structure file's bar force densities",
    "bar_radius": "a structure file's and the config's bar radius",
    "bar_mass": "a structure file's bar masses",
    "cable_EA": "a structure file's cable stiffness",
    "n_cables": "figure 2's structure summary and the structure reports",
    "sections": "the readings' registration (workflow.readings): its sections of the paper",
    "force_scale": "identification results and config entries",
    "rel_step": "the Fisher options' finite-difference step (config entries and keyword arguments)",
    "samples": "a record's sample counts in its metadata (the kept span, the at-rest check)",
}
"""Keys too generic to police, with the reason: the same word names something else elsewhere."""

IDENTIFICATION = {
    "seeds",
    "force_scale_channels",
    "resimulation_chi2",
    "spurious_minimum",
    "held_out_excess_pct",
}
"""The measured summary's keys copied from identification results: policed with the identification's."""

ALLOWED = {
    # the silent-failure table's flag names ("chi2", "scatter", "fit", "crlb") in its flagged_by text
    ("workflow/lib/tensegrity_id/report/tables_robustness.py", "crlb"),
    # the config's assessment block, whose keys are named like the records' fields
    ("workflow/scripts/assess_structure.py", "tol_rel"),
    ("workflow/scripts/assess_structure.py", "cable_area"),
    ("workflow/scripts/assess_steel_design.py", "max_tension"),
    ("workflow/scripts/assess_steel_design.py", "U_c"),
    ("workflow/scripts/assess_steel_design.py", "U_b"),
    ("workflow/scripts/assess_steel_design.py", "cable_area"),
    ("workflow/lib/tensegrity_id/workflow/config_check.py", "cable_area"),
    # a record entry's outliers option (refuse or drop) in the config
    ("workflow/lib/tensegrity_id/data/measured.py", "outliers"),
    # size_sections' arguments, named in its error message
    ("workflow/lib/tensegrity_id/analysis/stability.py", "U_c"),
    ("workflow/lib/tensegrity_id/analysis/stability.py", "U_b"),
}
"""(file, key) pairs where the word is not this kind's key: said why, one by one."""


def json_keys(*kinds) -> set[str]:
    """Every key the records of ``kinds`` write, their nested parts' included."""
    return set(FieldNames(*kinds))


def policed_keys() -> set[str]:
    return json_keys(*KINDS) - set(GENERIC) - IDENTIFICATION


def spelled_keys(keys: set[str], root=ROOT) -> list[str]:
    """``file:line: key`` for every string constant equal to a key, outside the records and the allowances."""
    return [f"{rel}:{line}: {key!r}" for rel, line, key in spellings(keys, root) if (rel, key) not in ALLOWED]


def test_no_fisher_assessment_or_screening_key_is_spelled_outside_its_record():
    found = spelled_keys(policed_keys())
    assert not found, (
        "result keys spelled outside tensegrity_id/results (use the record's attributes):\n"
        + "\n".join(found)
    )


def test_the_policed_keys_are_the_records_fields():
    keys = policed_keys()
    # a sample of each kind, nested parts included, the keyword field under its JSON name
    assert {"condition_identifiable", "crlb_relative", "near_null", "resolvable", "crlb_max_pct"} <= keys
    assert {
        "lambda_min",
        "lambda_min_KG",
        "nullity_Omega",
        "margin_ratio_flexible",
        "sign_consistent",
    } <= keys
    assert {"record_screens", "level_ratio", "threshold_robust_std", "design_value_kept"} <= keys
    assert "class_" not in json_keys(*KINDS) and "class" in json_keys(*KINDS)
    assert not set(GENERIC) - json_keys(*KINDS), "an exemption that is no key of these kinds"
    assert all(reason for reason in GENERIC.values())


def test_the_scan_finds_a_spelled_key_and_skips_docstrings_and_exports(tmp_path):
    lib = tmp_path / "workflow" / "lib"
    lib.mkdir(parents=True)
    (lib / "m.py").write_text('"""Docstring: lambda_min."""\n__all__ = ["lambda_min"]\nx = a["lambda_min"]\n')
    assert spelled_keys({"lambda_min"}, tmp_path) == ["workflow/lib/m.py:3: 'lambda_min'"]


def test_every_allowance_and_generic_word_is_still_needed():
    """An allowance or a generic word that no scanned file spells any more goes (the lists stay short)."""
    spelled = {(rel, key) for rel, _, key in spellings(policed_keys())}
    assert sorted(ALLOWED - spelled) == []
    words = {key for _, _, key in spellings(set(GENERIC))}
    assert sorted(set(GENERIC) - words) == []
