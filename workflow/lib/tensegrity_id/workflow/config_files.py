"""Config files read strictly: a syntax error or a repeated key named with its file and line.

Snakemake reads the config files itself (``configfile:`` in the Snakefile and
``--configfile`` on the command line) and, on a YAML error, says only
"Config file is not valid JSON or YAML"; a key given twice in one mapping it
resolves silently (the last wins).  The Snakefile reads every config file
once more through :func:`read_config_file` before the run sheet is built, so
a repeated key stops the run in one line.  A ``--configfile`` that is not
valid YAML fails inside Snakemake, before the workflow is read; for that
case ``python -m tensegrity_id.workflow.config_files FILE...`` names the
file, line and column (the message Snakemake prints is its own).
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

__all__ = ["ConfigFileError", "read_config_file", "main"]


class ConfigFileError(ValueError):
    """A config file that is not valid YAML, or repeats a key; the message names file and line."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping."""


def _construct_mapping(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        line = key_node.start_mark.line + 1
        if key in seen:
            raise ConfigFileError(
                f"key '{key}' is given twice in one mapping (lines {seen[key]} and {line}); "
                "YAML keeps only the last: remove one"
            )
        seen[key] = line
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_config_file(path) -> dict:
    """The mapping of a YAML config file, or :class:`ConfigFileError` naming the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigFileError(f"config file '{path}': no such file") from None
    except UnicodeDecodeError as exc:
        raise ConfigFileError(
            f"config file '{path}': not a UTF-8 text file (byte {exc.start}); save it as UTF-8"
        ) from None
    try:
        doc = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a SafeLoader subclass)
    except ConfigFileError as exc:
        raise ConfigFileError(f"config file '{path}': {exc}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        what = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise ConfigFileError(f"config file '{path}'{where}: not valid YAML ({what})") from None
    except yaml.YAMLError as exc:
        raise ConfigFileError(f"config file '{path}': not valid YAML ({exc})") from None
    if doc is None:
        return {}
    if not isinstance(doc, dict):
        raise ConfigFileError(
            f"config file '{path}': the top level must be a mapping of keys, found a {type(doc).__name__}"
        )
    return doc


def main(argv=None) -> int:
    """Check config files; print one line per file, exit 1 on the first bad one."""
    files = list(sys.argv[1:] if argv is None else argv)
    if not files:
        print("usage: python -m tensegrity_id.workflow.config_files CONFIG.yaml [...]", file=sys.stderr)
        return 2
    for f in files:
        try:
            read_config_file(f)
        except ConfigFileError as exc:
            print(f"Error: {exc}", file=sys.stderr)
            return 1
        print(f"{f}: valid YAML, no repeated key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
