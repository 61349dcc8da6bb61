"""Start-up check of the workflow config: one-line errors naming the field.

Runs before Snakemake builds the DAG, so a malformed config value or
structure file stops the run before any job starts.  The JSON schema
(``config/schema.yaml``) describes every value it can, PINN settings
included, and rejects unknown keys (named, with the known ones).  The checks
here are what a schema cannot express: generators and their parameters,
structure files (read and validated), a plausible gravity, the prestress of
every built structure (form-found here, so that one that cannot exist is a
line, not a job's traceback), names that would make two rules write one file
(:mod:`~tensegrity_id.workflow.reserved_names`), drive and sensor
coordinates that exist and are free, baseline options against each method,
and the cross-references between sections, decided once by the run sheet
(:class:`~tensegrity_id.workflow.runsheet.RunSheet`).
"""

from __future__ import annotations

import inspect
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match

from ..mechanics.catalog import GENERATORS, build_geometry, build_structure
from ..mechanics.statics import PrestressError
from ..mechanics.structure import Structure
from ..mechanics.structure_io import StructureFileError, load_structure
from .config_check_measured import check_measured, check_peaks, check_validation
from .config_errors import ConfigError, ConfigWarning, check_file_name
from .config_layout import old_layout_message
from .plausibility import gravity_error
from .reserved_names import reserved_name_error
from .runsheet import RunSheet, RunSheetError

__all__ = ["ConfigError", "ConfigWarning", "check_config"]


def _path(error) -> str:
    parts = []
    for p in error.absolute_path:
        parts.append(f"[{p}]" if isinstance(p, int) else f".{p}")
    return "".join(parts).lstrip(".") or "(top level)"


def _message(err) -> str:
    """One line naming the field; an unknown key is named itself, with the keys that are known; a
    repeated item is named; a value out of range is followed by the field's description (its units)."""
    where = _path(err)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = sorted(err.schema.get("properties", {}))
        extra = sorted(k for k in err.instance if k not in known)
        if extra and known:
            field = extra[0] if where == "(top level)" else f"{where}.{extra[0]}"
            return (
                f"config field '{field}': unknown key (a misspelling?); known keys here: {', '.join(known)}"
            )
    if err.validator == "uniqueItems" and isinstance(err.instance, list):
        seen, twice = [], []
        for item in err.instance:
            (twice if item in seen and item not in twice else seen).append(item)
        what = "seed" if where.endswith("seeds") else "value"
        why = " (a repeated seed repeats the same run)" if what == "seed" else ""
        items = f"{what}s {', '.join(map(repr, twice))} are" if len(twice) > 1 else f"{what} {twice[0]!r} is"
        return (
            f"config field '{where}': {items} given more than once in {err.instance}; "
            f"list each {what} once{why}"
        )
    desc = " ".join(str(err.schema.get("description", "")).split())
    if err.validator in _RANGE and desc and len(desc) <= 200:
        return f"config field '{where}': {err.message} ({desc.rstrip('.')})"
    return f"config field '{where}': {err.message}"


_RANGE = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
"""Schema checks whose message is followed by the field's description (what the value means, its units)."""


def _set_defaults(validator, properties, instance, schema):
    """The schema's ``properties`` keyword, filling in each absent property's ``default`` first
    (as Snakemake's ``validate(..., set_default=True)`` does, so the config reaches the rules the same)."""
    for name, sub in properties.items():
        if "default" in sub and isinstance(instance, dict):
            instance.setdefault(name, sub["default"])
    yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)


_DefaultValidator = validators.extend(Draft202012Validator, {"properties": _set_defaults})
"""The one validation of the config: the schema's checks, with its defaults filled in."""


def check_config(config: dict, schema) -> RunSheet:
    """Validate ``config`` once, fill in the schema's defaults, and return its run sheet.

    Raises :class:`ConfigError` on the first problem found.

    Parameters
    ----------
    config : dict
        The loaded config (before or after defaults are filled in), in the
        layout by stage (:mod:`~tensegrity_id.workflow.config_layout`; a flat
        one is refused naming each moved key).  The records of
        ``records.omit`` (an overlay's way to leave out records of the
        default) are removed from ``records.suite`` here, once checked, and
        ``records.omit`` emptied.
    schema : dict or path
        The JSON schema, or the path of its YAML file.

    Returns
    -------
    RunSheet
        The run sheet of the checked config.  The config is validated once
        here (the Snakefile calls nothing else): the schema, with its
        defaults filled into ``config`` in place, then the cross-references
        no schema can express.
    """
    old = old_layout_message(config)
    if old is not None:
        raise ConfigError(old)
    if not isinstance(schema, dict):
        schema = yaml.safe_load(Path(schema).read_text())
    err = best_match(_DefaultValidator(schema).iter_errors(config))
    if err is not None:
        raise ConfigError(_message(err))
    structures = config.get("structures", {})
    for name, spec in structures.items():
        where = f"structures.{name}"
        if "file" in spec:
            check_file_name(f"{where}.file", spec["file"])
            path = Path(spec["file"])
            if not path.exists():
                raise ConfigError(f"config field '{where}.file': no such file '{path}'")
            try:
                s = load_structure(path)
            except StructureFileError as exc:
                raise ConfigError(f"config field '{where}.file': {exc}") from None
            _raise(
                gravity_error(
                    f"{where}.file",
                    s.gravity,
                    f" in the structure file '{path}'",
                    "change 'gravity' in the file",
                )
            )
        else:
            gen = GENERATORS.get(spec.get("generator"))
            if gen is None:
                raise ConfigError(
                    f"config field '{where}.generator': unknown generator {spec.get('generator')!r} "
                    f"(choose one of {', '.join(sorted(GENERATORS))})"
                )
            accepted = inspect.signature(gen).parameters
            for key in spec.get("params", {}):
                if key not in accepted or key == "name":
                    options = ", ".join(p for p in accepted if p != "name")
                    raise ConfigError(
                        f"config field '{where}.params.{key}': generator "
                        f"'{spec['generator']}' takes no parameter '{key}' (it takes: {options})"
                    )
            if "gravity" in spec.get("params", {}):
                _raise(gravity_error(f"{where}.params.gravity", spec["params"]["gravity"], "", ""))
    for k, name in enumerate(config.get("build", [])):
        if name not in structures:
            raise ConfigError(f"config field 'build[{k}]': '{name}' is not defined under 'structures'")
    _raise(reserved_name_error(config))
    designs = _prestressed(config)
    _check_coordinates(config)
    _check_baselines(config)
    _check_assessment(config)
    check_validation(config)
    check_measured(config, designs)
    check_peaks(config)
    try:
        sheet = RunSheet(config)
    except RunSheetError as exc:
        raise ConfigError(str(exc)) from None
    # applied once checked: the rules and the tables see the suite this config simulates
    suite = config["records"].get("suite", {})
    for s, names in config["records"].pop("omit", {}).items():
        for name in names:
            del suite[s][name]
    config["records"]["omit"] = {}
    return sheet


def _raise(message: str | None) -> None:
    """A check's one-line message as a :class:`ConfigError` (``None``: the check passed)."""
    if message is not None:
        raise ConfigError(message)


def _prestressed(config: dict) -> dict[str, Structure]:
    """Every built structure with its prestress (as its ``generate_structure`` job will make it).

    Found here, at start-up, so that a prestress that cannot exist (the LP infeasible at the
    configured ``sigma_min``, a self-stress mode that is not sign-consistent, a given ``sigma``
    out of balance) is one line naming the structure, its file or generator and what to change,
    not a traceback in a job.  All 18 structures of the default config take about 0.1 s.
    """
    designs = {}
    structures = config.get("structures", {})
    for name in dict.fromkeys(config.get("build", [])):
        spec = structures[name]
        source = f"file '{spec['file']}'" if "file" in spec else f"generator '{spec.get('generator')}'"
        try:
            designs[name] = build_structure(name, spec)
        except PrestressError as exc:
            text = str(exc).removeprefix(f"structure '{name}': ")
            raise ConfigError(
                f"config field 'structures.{name}.prestress': structure '{name}' ({source}) cannot be "
                f"prestressed: {text}"
            ) from None
        except ValueError as exc:  # a generator's parameter value, a structure file's mechanics
            raise ConfigError(f"config field 'structures.{name}' ({source}): {exc}") from None
    return designs


def _check_assessment(config: dict) -> None:
    """Assessment entries name defined structures; a steel design has sections or a sizing rule."""
    structures = config.get("structures", {})
    ass = config.get("assessment", {})
    named = [
        (f"assessment.scan.structures[{k}]", s)
        for k, s in enumerate(ass.get("scan", {}).get("structures", []))
    ]
    steel = ass.get("steel")
    if steel:
        named += [(f"assessment.steel.structures[{k}]", s) for k, s in enumerate(steel.get("structures", []))]
        if "sizing" not in steel and not ("cable_area" in steel and "bar_radius" in steel):
            raise ConfigError(
                "config field 'assessment.steel': give the sections (cable_area, m^2, and bar_radius, m) "
                "or the design utilisations they are sized to (sizing: {U_c: ..., U_b: ...})"
            )
    for where, name in named:
        if name not in structures:
            raise ConfigError(f"config field '{where}': '{name}' is not defined under 'structures'")


def _check_coordinates(config: dict) -> None:
    """Drive and sensor coordinates exist and are free, for every built structure."""
    built = set(config.get("build", []))
    rec = config.get("records", {})
    sections = ("suite", "thresholds", "protocols")
    need = {s for sec in sections for s in rec.get(sec, {}) if s in built}
    for name in sorted(need):
        if name not in config["structures"]:
            raise ConfigError(
                f"config field 'records.suite.{name}': '{name}' is not defined under 'structures'"
            )
        geom = build_geometry(name, config["structures"][name])
        for sec in sections:
            entries = rec.get(sec, {}).get(name, {})
            for entry, spec in entries.items():
                key = "channels" if sec == "protocols" else "drive"
                for k, (node, axis) in enumerate(spec.get(key, [])):
                    a = {"x": 0, "y": 1, "z": 2}.get(axis, axis)
                    where = f"records.{sec}.{name}.{entry}.{key}[{k}]"
                    if node >= geom.n_nodes or a >= geom.dim:
                        raise ConfigError(
                            f"config field '{where}': [{node}, {axis}] is not a coordinate of "
                            f"'{name}' ({geom.n_nodes} nodes, {geom.dim} axes)"
                        )
                    if geom.fixed[node, a]:
                        raise ConfigError(
                            f"config field '{where}': coordinate [{node}, {axis}] of '{name}' is fixed "
                            "by a support; choose a free coordinate"
                        )
                th = spec.get("threshold")
                here = f"records.{sec}.{name}.{entry}"
                if th is not None and th not in rec.get("thresholds", {}).get(name, {}):
                    raise ConfigError(
                        f"config field '{here}.threshold': '{th}' is not defined under "
                        f"'records.thresholds.{name}'"
                    )
                for key in ("amplitude_factor", "transitions"):
                    if key in spec and th is None:
                        raise ConfigError(f"config field '{here}': {key} needs 'threshold'")
                if "transitions" in spec and ("amplitude" in spec or "amplitude_factor" in spec):
                    raise ConfigError(
                        f"config field '{here}': give 'transitions' (the amplitude is "
                        "searched) or an amplitude, not both"
                    )
                ref = spec.get("amplitude_of")
                if ref is not None:
                    given = [k for k in ("amplitude", "amplitude_factor", "transitions") if k in spec]
                    if given:
                        raise ConfigError(
                            f"config field '{here}': 'amplitude_of' takes the amplitude of "
                            f"record '{ref}'; remove {', '.join(repr(k) for k in given)}"
                        )
                    other = entries.get(ref)
                    if other is None or ref == entry:
                        raise ConfigError(
                            f"config field '{here}.amplitude_of': '{ref}' is not another "
                            f"record of '{name}' (known: {', '.join(sorted(entries))})"
                        )
                    if "amplitude_of" in other or other.get("forcing") != spec.get("forcing"):
                        raise ConfigError(
                            f"config field '{here}.amplitude_of': record '{ref}' must have "
                            f"its own amplitude and the same forcing ('{spec.get('forcing')}')"
                        )
                lo_hi = spec.get("search", [1.0, 4.0])
                if lo_hi[0] >= lo_hi[1]:
                    raise ConfigError(
                        f"config field '{here}.search': {lo_hi} must be [low, high] with low < high"
                    )
                if (
                    sec == "suite"
                    and "amplitude" not in spec
                    and "amplitude_factor" not in spec
                    and "transitions" not in spec
                    and "amplitude_of" not in spec
                    and (spec["forcing"] != "multi_harmonic")
                ):
                    raise ConfigError(f"config field '{here}': give 'amplitude' or 'amplitude_factor'")


def _check_baselines(config: dict) -> None:
    """Baseline options are known to their method."""
    from ..identify.base import get_method

    base = config.get("identify", {}).get("baselines", {})
    for name, options in (base.get("methods") or {}).items():
        try:
            get_method(name, **(options or {}))
        except ValueError as exc:
            raise ConfigError(f"config field 'identify.baselines.methods.{name}': {exc}") from None
    for study, v in (base.get("variants") or {}).items():
        for k, opts in enumerate(v["options"]):
            try:
                get_method(v["method"], **{**(base.get("methods", {}).get(v["method"]) or {}), **opts})
            except ValueError as exc:
                raise ConfigError(
                    f"config field 'identify.baselines.variants.{study}.options[{k}]': {exc}"
                ) from None
