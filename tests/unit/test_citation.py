"""One version everywhere: pyproject.toml, the package, CITATION.cff, the changelog, the image.

CITATION.cff (GitHub's "Cite this repository") carries the version, its release date and, once
the project names one, the repository's address; the changelog's newest release carries the same.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path

import tensegrity_id
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def _newest_release() -> tuple[str, str]:
    """(version, date) of the changelog's newest release section, ``## [X.Y.Z] - YYYY-MM-DD``."""
    m = re.search(r"(?m)^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", (ROOT / "CHANGELOG.md").read_text())
    assert m, "CHANGELOG.md has no '## [X.Y.Z] - YYYY-MM-DD' section"
    return m[1], m[2]


def test_citation_parses_with_version_and_date():
    """The repository's address (``repository-code``) is checked for its form when given; the
    project names none yet, and a made-up one would be cited."""
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    for key in ("title", "message", "authors", "license", "version", "date-released"):
        assert cff.get(key), f"CITATION.cff: '{key}' missing"
    dt.date.fromisoformat(str(cff["date-released"]))
    if "repository-code" in cff:
        assert re.fullmatch(r"https://[\w.-]+/\S+", cff["repository-code"]), cff["repository-code"]
        assert "example" not in cff["repository-code"], "a placeholder address"


def test_versions_agree():
    """pyproject.toml, the package, CITATION.cff and the changelog's newest release name one
    version, and CITATION.cff's release date is that release's."""
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    version, date = _newest_release()
    assert _version() == tensegrity_id.__version__ == str(cff["version"]) == version
    assert str(cff["date-released"]) == date
    assert re.search(r"(?m)^## \[Unreleased\]$", (ROOT / "CHANGELOG.md").read_text())


def test_the_container_image_and_its_directive_carry_the_version():
    text = (ROOT / "Containerfile").read_text()
    assert f'org.opencontainers.image.version="{_version()}"' in text
    assert f"tensegrity-id-{_version()}.sif" in text
    # the workflow's global container (for --sdm apptainer): the image file the Containerfile builds
    directive = re.search(r'(?m)^container:\s*"([^"]+)"', (ROOT / "workflow" / "Snakefile").read_text())
    assert directive, "workflow/Snakefile has no global container: directive"
    assert directive[1] == f"tensegrity-id-{_version()}.sif"
