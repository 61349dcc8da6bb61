"""Structure files: load, validate and write (YAML or JSON).

A structure file describes one tensegrity in the format documented by
``schemas/structure.schema.json`` (docs/own-records.md, 'The structure file').  :func:`load_structure`
validates the file against that schema and then builds the
:class:`~tensegrity_id.mechanics.structure.Structure`, whose constructor checks the
mechanics (indices, zero-length and duplicate members, orphan nodes,
supports).  Every failure is a :class:`StructureFileError` whose one-line
message names the file and the field.

The results file ``results/structures/{structure}.json`` written by the
workflow embeds the same document under its ``structure`` key, so a
generated structure is itself a valid input: generated -> file -> loaded
round-trips identically.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import yaml
from jsonschema import Draft202012Validator

from .structure import Structure, StructureError

__all__ = [
    "StructureFileError",
    "structure_schema",
    "structure_from_dict",
    "load_structure",
    "save_structure",
    "read_document",
]

_KNOWN = {
    "bar_radius",
    "bar_density",
    "bar_mass",
    "cable_EA",
    "cable_damping",
    "gravity",
    "free_standing",
    "sigma",
    "bar_sigma",
    "description",
}


class StructureFileError(ValueError):
    """A malformed structure file; the message names the file and field."""


def structure_schema() -> dict:
    """The JSON schema of structure files."""
    text = resources.files(__package__).joinpath("schemas/structure.schema.json").read_text()
    return json.loads(text)


def _where(error) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path.lstrip(".") or "(top level)"


def structure_from_dict(doc: dict, *, source: str = "<structure>") -> Structure:
    """Validate a structure document and build the :class:`Structure`."""
    if not isinstance(doc, dict):
        raise StructureFileError(f"{source}: a structure file must hold a mapping")
    if "structure" in doc and "nodes" not in doc:  # a results file
        doc = doc["structure"]
    if "cable_groups" in doc:  # accepted by earlier versions, and never used
        raise StructureFileError(
            f"{source}: field 'cable_groups' is not supported: each cable's force density is identified "
            "on its own; remove the field (what tying cables into one group does to identifiability is "
            "the config's 'analysis.grouping')"
        )
    errors = sorted(Draft202012Validator(structure_schema()).iter_errors(doc), key=lambda e: e.path)
    if errors:
        e = errors[0]
        raise StructureFileError(f"{source}: field '{_where(e)}': {e.message}")
    nodes = np.array(doc["nodes"], dtype=float) if _rectangular(doc["nodes"]) else None
    if nodes is None:
        raise StructureFileError(f"{source}: field 'nodes': every node needs the same number of coordinates")
    dim = doc.get("dim", nodes.shape[1])
    if nodes.shape[1] != dim:
        raise StructureFileError(
            f"{source}: field 'nodes': nodes have {nodes.shape[1]} coordinates but dim = {dim}"
        )
    fixed = np.zeros(nodes.shape, bool)
    for k, node in enumerate(doc.get("pinned", [])):
        if node >= len(nodes):
            raise StructureFileError(f"{source}: field 'pinned[{k}]': node {node} does not exist")
        fixed[node] = True
    for k, (node, axis) in enumerate(doc.get("fixed", [])):
        if node >= len(nodes) or axis >= dim:
            raise StructureFileError(
                f"{source}: field 'fixed[{k}]': ({node}, {axis}) is outside {len(nodes)} nodes x {dim} axes"
            )
        fixed[node, axis] = True
    kwargs = {k: doc[k] for k in _KNOWN if k in doc}
    nb, nc = len(doc["bars"]), len(doc["cables"])
    for key, n in (
        ("bar_radius", nb),
        ("bar_density", nb),
        ("bar_mass", nb),
        ("cable_EA", nc),
        ("cable_damping", nc),
    ):
        if key in kwargs and not isinstance(kwargs[key], list):
            kwargs[key] = [float(kwargs[key])] * n
    try:
        return Structure(doc["name"], nodes, doc["bars"], doc["cables"], fixed, **kwargs)
    except StructureError as exc:
        raise StructureFileError(f"{source}: {exc}") from None


def _rectangular(rows) -> bool:
    return len({len(r) for r in rows}) == 1


def read_document(path) -> dict:
    """Parse a YAML or JSON file into plain data."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise StructureFileError(f"{path}: cannot read structure file ({exc.strerror})") from None
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        msg = str(exc).splitlines()[0]
        raise StructureFileError(
            f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {msg}"
        ) from None


def load_structure(path) -> Structure:
    """Load and validate a structure file (``.yaml``, ``.yml`` or ``.json``)."""
    return structure_from_dict(read_document(path), source=str(path))


def save_structure(structure: Structure, path) -> None:
    """Write ``structure`` as a structure file (format by suffix)."""
    path = Path(path)
    doc = structure.geometry_dict()
    if path.suffix == ".json":
        path.write_text(json.dumps(doc, indent=1) + "\n")
    else:
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
