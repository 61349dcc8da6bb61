"""Names a config may not choose, because two rules would then write one file.

The result paths (:data:`~tensegrity_id.workflow.paths.PATHS`) put the names a
user chooses (structures, records, protocols, measured records, peak lists,
study rows) beside fixed words and beside each other.  Snakemake matches a
requested file against every rule's output pattern; when two rules match it
with names the config defines, it stops with an ``AmbiguousRuleException``
that names no config key.  Setting each user-chosen name against every result
template of the same folder finds three such cases, and only three:

- a measured record named ``peaks``: ``results/measured/{structure}/peaks/``
  holds that structure's peak lists, so the record's screening, assessment
  and summary (``.../peaks/screening.json``) are also the results of peak
  lists named ``screening``, ``assessment`` or ``summary``;
- a protocol name containing ``_seed``: baseline and physics-informed result
  files are named ``{protocol}_seed{seed}...`` (and a seed group's
  ``{protocol}_seeds...``), so protocol ``a_seed0_variants_b`` at seed 3 writes
  the file of protocol ``a``'s sensitivity study ``b_seed3``;
- a structure of the prestress series (``analysis.prestress_series``) named
  ``grouping_...`` or ``seed_study_...``: its
  ``results/values/{structure}_series_modal.json`` is then also the name of a
  grouping result (``grouping_{structure}.json``) or a seed-study row's
  (``seed_study_{row}.json``).

Every other name is free: it is a whole folder of its paths, or its rule's
wildcard is constrained to the names the config defines (the measured
records, the peak lists; ``workflow/rules/common.smk``), and the protocol
``measured`` and a measured record sharing a simulated record's name are
refused where those sections are checked (:mod:`~tensegrity_id.workflow.config_check`).
"""

from __future__ import annotations

__all__ = ["RESERVED", "reserved_name_error"]

MEASURED_PEAKS_FOLDER = "peaks"
"""The folder of a structure's peak lists under ``results/measured/{structure}/``."""

SERIES_PREFIXES = ("grouping_", "seed_study_")
"""Prefixes of other results in ``results/values/`` beside ``{structure}_series_modal.json``."""

RESERVED = (
    f"a measured record named '{MEASURED_PEAKS_FOLDER}'",
    "a protocol name containing '_seed'",
    f"a prestress-series structure named {' or '.join(p + '...' for p in SERIES_PREFIXES)}",
)
"""The reserved names, as the error lists them (docs/configuration.md quotes them)."""


def _error(field: str, name: str, why: str) -> str:
    return (
        f"config field '{field}': the name '{name}' is reserved ({why}); choose another name "
        f"(reserved: {'; '.join(RESERVED)})"
    )


def reserved_name_error(config: dict) -> str | None:
    """The one-line error for the first reserved name ``config`` uses, or None.

    Parameters
    ----------
    config : dict
        The workflow config (after the schema's check): ``measured.records``,
        ``records.protocols`` and ``analysis.prestress_series.structures``
        are read.
    """
    for name, e in ((config.get("measured") or {}).get("records") or {}).items():
        if name == MEASURED_PEAKS_FOLDER:
            return _error(
                f"measured.records.{name}",
                name,
                f"results/measured/{e.get('structure', '{structure}')}/{name}/ holds the structure's "
                "peak lists, measured.peaks, and a record of this name would write its results there",
            )
    for st, protocols in ((config.get("records") or {}).get("protocols") or {}).items():
        for name in protocols or {}:
            if "_seed" in name:
                return _error(
                    f"records.protocols.{st}.{name}",
                    name,
                    "result files are named '{protocol}_seed{seed}...', so part of this name would "
                    "read as a seed",
                )
    series = ((config.get("analysis") or {}).get("prestress_series") or {}).get("structures") or []
    for k, name in enumerate(series):
        prefix = next((p for p in SERIES_PREFIXES if name.startswith(p)), None)
        if prefix is not None:
            return _error(
                f"analysis.prestress_series.structures[{k}]",
                name,
                f"results/values/{name}_series_modal.json would also name a result "
                f"'{prefix}{{...}}.json' of results/values/",
            )
    return None
