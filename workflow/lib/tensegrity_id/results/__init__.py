"""Typed result records: one frozen dataclass per kind of result file, with its schema version.

Every result file a rule writes and another reads (an identification, a
Fisher analysis, an assessment, a record's screen) is read and written
through its record here; the spelling of each key lives in its dataclass.
:mod:`.record` holds the base (schema check, JSON conversion).
"""

from .._lazy import attach

_EXPORTS = {
    "SCHEMA_KEY": "record",
    "ResultSchemaError": "record",
    "ResultPart": "record",
    "ResultRecord": "record",
    "finite_or_none": "record",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
