"""Start-up check of the workflow config: one-line errors naming the field.

Runs before Snakemake builds the DAG, so a malformed config value or
structure file stops the run before any job starts.  Schema violations
come from the JSON schema (``config/schema.yaml``); the semantic checks
below catch what a schema cannot: unknown generators or generator
parameters, unreadable or invalid structure files, and names in the table
and figure lists that no structure defines.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from .catalog import GENERATORS
from .structure_io import StructureFileError, load_structure

__all__ = ["ConfigError", "check_config"]


class ConfigError(ValueError):
    """A config value that cannot work; the message names the field and the fix."""


def _path(error) -> str:
    parts = []
    for p in error.absolute_path:
        parts.append(f"[{p}]" if isinstance(p, int) else f".{p}")
    return "".join(parts).lstrip(".") or "(top level)"


def check_config(config: dict, schema) -> None:
    """Raise :class:`ConfigError` on the first problem found in ``config``.

    Parameters
    ----------
    config : dict
        The loaded config (before or after defaults are filled in).
    schema : dict or path
        The JSON schema, or the path of its YAML file.
    """
    if not isinstance(schema, dict):
        schema = yaml.safe_load(Path(schema).read_text())
    err = best_match(Draft202012Validator(schema).iter_errors(config))
    if err is not None:
        raise ConfigError(f"config field '{_path(err)}': {err.message}")
    structures = config.get("structures", {})
    for name, spec in structures.items():
        where = f"structures.{name}"
        if "file" in spec:
            path = Path(spec["file"])
            if not path.exists():
                raise ConfigError(f"config field '{where}.file': no such file '{path}'")
            try:
                load_structure(path)
            except StructureFileError as exc:
                raise ConfigError(f"config field '{where}.file': {exc}") from None
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
    for k, name in enumerate(config.get("build", [])):
        if name not in structures:
            raise ConfigError(f"config field 'build[{k}]': '{name}' is not defined under 'structures'")
    for list_key in ("table_s3", "fig1"):
        section = config.get(list_key, {})
        for k, name in enumerate(section.get("structures", [])):
            if name not in structures:
                raise ConfigError(
                    f"config field '{list_key}.structures[{k}]': '{name}' is not defined under 'structures'"
                )
