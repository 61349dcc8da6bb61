"""The start-up check of the measured-data sections: measured records of built structures (read
and screened here, at start-up), the peak-picking settings, and the validation studies' shipped
files (the hexagonal prism, the simplex, the leg records)."""

from __future__ import annotations

import warnings
from pathlib import Path

import yaml

from ..mechanics.structure import Structure
from .config_errors import ConfigError, ConfigWarning, check_file_name

__all__ = ["MEASURED_FIT_METHODS", "check_measured", "check_peaks", "check_validation"]

MEASURED_FIT_METHODS = ("lm_shooting",)
"""Methods that identify a force scale with the parameters (``measured.records.{name}.force_scale: fit``)."""


def check_measured(config: dict, designs: dict[str, Structure]) -> None:
    """Measured records of built structures: the name is free, the file reads against the structure
    (``designs``: the built structures, prestressed), and the record passes the import's screens
    (units, dead channels, start at rest) here, at start-up."""
    from ..data.measured import MEASURED_PROTOCOL, MeasuredEntryError, measured_record
    from ..data.record_csv import RecordFileError, read_record

    structures = config.get("structures", {})
    for name, e in ((config.get("measured") or {}).get("records") or {}).items():
        where = f"measured.records.{name}"
        st = e["structure"]
        if st not in structures:
            raise ConfigError(
                f"config field '{where}.structure': '{st}' is not defined under 'structures' (configure the "
                "structure there, by a generator or a structure file, and add it to 'build')"
            )
        if st not in config.get("build", []):
            # out of scope, as every section's cases of unbuilt structures; said, not silent
            warnings.warn(
                f"config field '{where}': structure '{st}' is not in 'build'; the record is skipped "
                f"(add '{st}' to 'build' to identify it)",
                ConfigWarning,
                stacklevel=2,
            )
            continue
        if name in (config.get("records", {}).get("suite", {}).get(st) or {}):
            raise ConfigError(
                f"config field '{where}': '{name}' is also a simulated record of '{st}' under "
                f"'records.suite.{st}'; give the measured record another name"
            )
        if MEASURED_PROTOCOL in (config.get("records", {}).get("protocols", {}).get(st) or {}):
            raise ConfigError(
                f"config field 'records.protocols.{st}.{MEASURED_PROTOCOL}': the protocol name "
                f"'{MEASURED_PROTOCOL}' is reserved for measured records"
            )
        if e.get("force_scale") == "fit":
            other = [m for m in e.get("methods", ["lm_shooting"]) if m not in MEASURED_FIT_METHODS]
            if other:
                raise ConfigError(
                    f"config field '{where}.force_scale': 'fit' is offered by "
                    f"{', '.join(MEASURED_FIT_METHODS)} only; remove {', '.join(other)} from "
                    f"'{where}.methods' or set force_scale: known"
                )
        if "t_start" in e and "t_end" in e and e["t_end"] <= e["t_start"]:
            raise ConfigError(
                f"config field '{where}.t_end': {e['t_end']} is not after t_start {e['t_start']}"
            )
        check_file_name(f"{where}.file", e["file"])
        if not e.get("require_force", True):
            raise ConfigError(
                f"config field '{where}.require_force': every identification method here needs the "
                "applied force; a record without it can be read (tensegrity_id.data.record_csv) but not "
                "identified (the modal path takes its peaks instead: docs/own-records.md, 'Only peaks')"
            )
        design = designs[st]
        try:
            rec = read_record(e["file"], design, require_force=True)
            measured_record(design, rec, e, name=name)  # the import's screens, nothing written
        except MeasuredEntryError as exc:
            raise ConfigError(f"config field '{where}.{exc.field}': {exc}") from None
        except RecordFileError as exc:
            raise ConfigError(f"config field '{where}.file': {exc}") from None


def check_peaks(config: dict) -> None:
    """Peak lists: the structure is built and the file reads."""
    from ..validation.peaks import PeakFileError, read_peaks_csv

    for name, e in ((config.get("measured") or {}).get("peaks") or {}).items():
        where = f"measured.peaks.{name}"
        if e["structure"] not in config.get("structures", {}):
            raise ConfigError(
                f"config field '{where}.structure': '{e['structure']}' is not defined under 'structures'"
            )
        if e["structure"] not in config.get("build", []):
            continue  # out of scope
        check_file_name(f"{where}.file", e["file"])
        try:
            read_peaks_csv(e["file"])
        except PeakFileError as exc:
            raise ConfigError(f"config field '{where}.file': {exc}") from None


def _load_yaml(where: str, path) -> dict:
    check_file_name(where, path)
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config field '{where}': no such file '{path}'")
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ConfigError(f"config field '{where}': '{path}' is not valid YAML ({exc})") from None
    if not isinstance(doc, dict):
        raise ConfigError(f"config field '{where}': '{path}' does not hold a mapping")
    return doc


def check_validation(config: dict) -> None:
    """Measured-data validation: files exist and agree with the assignments and levels they are used with."""
    section = config.get("validation", {})
    hexp = section.get("hexprism")
    if hexp:
        if hexp["structure"] not in config.get("structures", {}):
            raise ConfigError(
                f"config field 'validation.hexprism.structure': '{hexp['structure']}' is not defined "
                "under 'structures'"
            )
        doc = _load_yaml("validation.hexprism.measured", hexp["measured"])
        peaks = doc.get("peaks_hz")
        if not isinstance(peaks, list) or not peaks:
            raise ConfigError(
                f"config field 'validation.hexprism.measured': '{hexp['measured']}' has no list 'peaks_hz'"
            )
        for key in ("assignment", "alternative"):
            if len(hexp[key]) != len(peaks):
                raise ConfigError(
                    f"config field 'validation.hexprism.{key}': {len(hexp[key])} modes for {len(peaks)} "
                    "measured peaks; give one mode number per peak"
                )
    simplex = section.get("simplex")
    if simplex:
        doc = _load_yaml("validation.simplex.measured", simplex["measured"])
        forces = doc.get("levels", {}).get("force_N", [])
        n = len(forces)
        if not n:
            raise ConfigError(
                f"config field 'validation.simplex.measured': '{simplex['measured']}' has no levels.force_N"
            )
        for k, lv in enumerate(simplex.get("strike", {}).get("levels", [])):
            if not 1 <= lv <= n:
                raise ConfigError(
                    f"config field 'validation.simplex.strike.levels[{k}]': level {lv} is not one of 1..{n}"
                )
        for lv, path in simplex.get("records", {}).items():
            where = f"validation.simplex.records.{lv}"
            if not str(lv).isdigit() or not 1 <= int(lv) <= n:
                raise ConfigError(f"config field '{where}': '{lv}' is not a level 1..{n}")
            check_file_name(where, path)
            if not Path(path).is_file():
                raise ConfigError(f"config field '{where}': no such record file '{path}'")
    leg = section.get("leg", {})
    if leg.get("published"):
        check_file_name("validation.leg.published", leg["published"])
    if leg.get("published") and not Path(leg["published"]).is_file():
        raise ConfigError(f"config field 'validation.leg.published': no such file '{leg['published']}'")
