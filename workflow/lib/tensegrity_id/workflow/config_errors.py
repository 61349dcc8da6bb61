"""The start-up check's error and warning types, and the one file-name rule every section shares."""

from __future__ import annotations

__all__ = ["ConfigError", "ConfigWarning", "check_file_name"]


class ConfigError(ValueError):
    """A config value that cannot work; the message names the field and the fix."""


class ConfigWarning(UserWarning):
    """A config value that works but is likely not what was meant; the message names the field."""


def check_file_name(where: str, path) -> None:
    """A file the workflow reads as a rule input: Snakemake takes braces in a path as wildcards."""
    if any(c in str(path) for c in "{}"):
        raise ConfigError(
            f"config field '{where}': the path '{path}' contains a brace, which Snakemake reads as a "
            "wildcard; rename the file (or a folder on its path) without '{' and '}'"
        )
