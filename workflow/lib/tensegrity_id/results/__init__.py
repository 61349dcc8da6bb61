"""Typed result records: one frozen dataclass per kind of result file, with its schema version.

Every result file a rule writes and another reads (an identification, a
Fisher analysis, an assessment, a record's screen) is read and written
through its record here; the spelling of each key lives in its dataclass.
:mod:`.record` holds the base (schema check, JSON conversion, a keyword
field such as ``class_`` stored as ``class``, :class:`FieldNames`: the keys by
field name);
:mod:`.identification` the identification kinds (one run, a seed group's
summary, a method under option variants) and :data:`KEY`, their keys by name;
:mod:`.fisher`, :mod:`.assessment` and :mod:`.screening` the Fisher analysis,
the assessments and a measured record's screens (:data:`~.fisher.FISHER_KEY`
the Fisher kinds' keys by name); :mod:`.provenance` what made a result file
(the ``provenance`` object every JSON result carries: package version, commit,
rule, the config's hash, each input's hash).
"""

from .._lazy import attach

_EXPORTS = {
    "SCHEMA_KEY": "record",
    "PROVENANCE_KEY": "record",
    "ResultSchemaError": "record",
    "ResultPart": "record",
    "ResultRecord": "record",
    "FieldNames": "record",
    "json_key": "record",
    "field_values": "record",
    "part_types": "record",
    "optional": "record",
    "transient": "record",
    "finite_or_none": "record",
    "job_provenance": "provenance",
    "provenance_of": "provenance",
    "Parameters": "identification",
    "Errors": "identification",
    "RecordMetrics": "identification",
    "Batch": "identification",
    "ParticleEss": "identification",
    "Start": "identification",
    "StartedFrom": "identification",
    "IdentificationResult": "identification",
    "SeedStats": "identification",
    "SeedGroupSummary": "identification",
    "VariantRun": "identification",
    "VariantsResult": "identification",
    "KEY": "identification",
    "FIT_METRICS": "identification",
    "ERROR_SUMMARIES": "identification",
    # the Fisher analysis, the assessments and a measured record's screens
    "FisherAnalysis": "fisher",
    "FisherSummary": "fisher",
    "LocalFisher": "fisher",
    "IdentifiedBounds": "fisher",
    "FISHER_KEY": "fisher",
    "NearNull": "fisher",
    "StructuralIdentifiability": "fisher",
    "IdentifiabilityTotals": "fisher",
    "CLASS": "assessment",
    "CLASSES": "assessment",
    "ENERGY_ARRAYS": "assessment",
    "ClassPoint": "assessment",
    "Classification": "assessment",
    "Connelly": "assessment",
    "Assessment": "assessment",
    "StructureAssessment": "assessment",
    "ScanPoint": "assessment",
    "PrestressScan": "assessment",
    "RecordAssessment": "assessment",
    "DesignUtilisation": "assessment",
    "SteelSections": "assessment",
    "DesignPoint": "assessment",
    "TensionPoint": "assessment",
    "FamilyPoint": "assessment",
    "FamilyDirection": "assessment",
    "SelfStressFamily": "assessment",
    "SteelDesign": "assessment",
    "Verdict": "assessment",
    "DesignVerdict": "assessment",
    "PrestressVerdict": "assessment",
    "IdentifiedPrestress": "assessment",
    "MethodAssessment": "assessment",
    "MeasuredAssessment": "assessment",
    "RECORD_SCREENS": "screening",
    "DETERMINABLE": "screening",
    "WEAK": "screening",
    "UNDETERMINABLE": "screening",
    "ScreenTolerances": "screening",
    "NoiseCheck": "screening",
    "OutlierSample": "screening",
    "ExplainedSample": "screening",
    "OutlierReport": "screening",
    "RecordScreens": "screening",
    "ChannelScreen": "screening",
    "Screening": "screening",
    "ScreeningDigest": "screening",
    "MethodSummary": "screening",
    "MeasuredSummary": "screening",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
