"""The base of every typed result record: JSON with a schema version, read and written in one place.

A result kind (an identification, a Fisher analysis, an assessment, a screen)
is a frozen dataclass deriving from :class:`ResultRecord`, with a ``KIND``
and a ``VERSION``.  Its file on disk is the JSON object of its fields, in
their declared order, with one more key first::

    {"schema": {"kind": "identification", "version": 1}, "method": "pinn", ...}

The field names are the keys on disk, so the files keep the names they have
always had; the spelling of each key lives in its dataclass only.  Parts of a
record (a group of fields written as a nested object, such as the parameter
errors) are frozen dataclasses deriving from :class:`ResultPart`; a field
typed ``Part``, ``Part | None``, ``list[Part]`` or ``dict[str, Part]`` is read
back into that part.  Any other field is stored as JSON gives it (numbers,
strings, lists, objects); NumPy scalars and arrays are written as numbers and
lists.

A record or part may declare one field named ``extra`` (a ``dict``): on
writing, its entries are written at the top level after the declared fields
(the method-specific keys of an identification); on reading, every key that
is not a declared field goes there.  Without an ``extra`` field an unknown
key is an error naming the key.  A field made with :func:`optional` is a key
that some results lack: ``None`` by default and not written when ``None``.
A field made with :func:`transient` belongs to the object only (arrays that
the writer hands on to other files): it is neither written nor read.  A key
that is a Python keyword cannot be a field name: the field is the keyword
with a trailing underscore (``class_``), and its key on disk the keyword
(``"class"``, :func:`json_key`).

:class:`FieldNames` gives the keys of a kind and its parts by field name
(``KEY.sigma_max_pct == "sigma_max_pct"``, ``FieldNames(ClassPoint).class_
== "class"``), for code that must name a key as a string (a table column
taken from a result key): a misspelt name is an ``AttributeError`` at once,
not a missing column at the end.  :func:`field_values` gives a record's
fields, to build one that extends it.

Reading checks the schema first: a file of another kind, of another version,
or written before result files carried a schema is refused with
:class:`ResultSchemaError`, naming the file, what it holds and how to re-make
it.  Nothing is migrated silently.  A file may carry, after its schema, a
``provenance`` object (:data:`PROVENANCE_KEY`: what made it, built by
:mod:`tensegrity_id.results.provenance`); it is not a field of the record.
"""

from __future__ import annotations

import dataclasses
import keyword
import math
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np

from ..data.runio import PROVENANCE_KEY  # the key of the optional provenance object (what made the file)

__all__ = [
    "SCHEMA_KEY",
    "PROVENANCE_KEY",
    "EXTRA_FIELD",
    "ResultSchemaError",
    "ResultPart",
    "ResultRecord",
    "FieldNames",
    "json_key",
    "field_values",
    "part_types",
    "optional",
    "transient",
    "finite_or_none",
]

SCHEMA_KEY = "schema"
"""The key of the schema object ({"kind", "version"}) in every result file."""
EXTRA_FIELD = "extra"
"""The field that collects keys not declared (written at the top level, not nested)."""
_OMIT_NONE = "omit_none"
_TRANSIENT = "transient"

R = TypeVar("R", bound="ResultRecord")
P = TypeVar("P", bound="ResultPart")


class ResultSchemaError(ValueError):
    """A result file that this version of the workflow does not read: other kind, version, or a bad field."""


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready Python: parts as objects, NumPy as numbers and lists, tuples as lists."""
    if isinstance(value, ResultPart):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def optional(**kwargs):
    """A field that some results lack: ``None`` by default, and not written when ``None``."""
    return dataclasses.field(default=None, metadata={_OMIT_NONE: True}, **kwargs)


def transient(**kwargs):
    """A field of the object only, neither written nor read (``None`` by default; not compared)."""
    return dataclasses.field(default=None, compare=False, repr=False, metadata={_TRANSIENT: True}, **kwargs)


def _stored(cls_or_obj) -> list[dataclasses.Field]:
    """The fields written to and read from the file (every field but the transient ones)."""
    return [f for f in dataclasses.fields(cls_or_obj) if not f.metadata.get(_TRANSIENT)]


def json_key(field_name: str) -> str:
    """The key on disk of a field: its name, but ``class_`` -> ``class`` (a keyword with a trailing ``_``)."""
    stem = field_name[:-1]
    return stem if field_name.endswith("_") and keyword.iskeyword(stem) else field_name


def field_values(obj) -> dict:
    """A dataclass's fields by name, one level deep (parts stay parts): to build a record that extends one."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def _part_type(hint: Any) -> tuple[str, type[ResultPart]] | None:
    """How a field's annotation holds parts: ``("one" | "list" | "dict", Part)``, or ``None``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if isinstance(hint, type) and issubclass(hint, ResultPart):
        return "one", hint
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _part_type(inner[0]) if len(inner) == 1 else None
    if origin is list and args and isinstance(args[0], type) and issubclass(args[0], ResultPart):
        return "list", args[0]
    if origin is dict and len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], ResultPart):
        return "dict", args[1]
    return None


class ResultPart:
    """A frozen dataclass written as one JSON object (a record's nested group of fields)."""

    @classmethod
    def _hints(cls) -> dict[str, Any]:
        cached = cls.__dict__.get("_hint_cache")
        if cached is None:
            cached = typing.get_type_hints(cls)
            cls._hint_cache = cached
        return cached

    def to_json(self) -> dict:
        """The fields as a JSON object (declared order; an ``extra`` field's entries after them;
        an :func:`optional` field only when not ``None``; no :func:`transient` field)."""
        out = {}
        for f in _stored(self):
            value = getattr(self, f.name)
            if f.name == EXTRA_FIELD:
                clash = set(value or {}) & {json_key(g.name) for g in dataclasses.fields(self)}
                if clash:
                    name = type(self).__name__
                    raise ResultSchemaError(f"{name}.extra repeats declared fields {sorted(clash)}")
                out.update(_plain(value or {}))
            elif value is not None or not f.metadata.get(_OMIT_NONE):
                out[json_key(f.name)] = _plain(value)
        return out

    def replace(self: P, **changes) -> P:
        """A copy with ``changes`` (records and parts are frozen)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_json(cls: type[P], data: Mapping, *, source: str | None = None) -> P:
        """The part (or record, without its schema check) from its JSON object."""
        where = source or cls.__name__
        if not isinstance(data, Mapping):
            got = type(data).__name__
            raise ResultSchemaError(f"{where}: expected a JSON object for {cls.__name__}, got {got}")
        hints = cls._hints()
        fields = {json_key(f.name): f for f in _stored(cls)}  # by key on disk
        has_extra = EXTRA_FIELD in fields
        kwargs, extra = {}, {}
        for key, value in data.items():
            if key in (SCHEMA_KEY, PROVENANCE_KEY) and issubclass(cls, ResultRecord):
                continue
            if key not in fields or key == EXTRA_FIELD:
                if not has_extra:
                    raise ResultSchemaError(
                        f"{where}: unknown field {key!r} in a {cls.__name__} "
                        f"(known: {', '.join(fields)}); the file was not written by this workflow's version"
                    )
                extra[key] = value
                continue
            name = fields[key].name
            kwargs[name] = _decode(hints[name], value, f"{where}: {key}")
        if has_extra:
            kwargs[EXTRA_FIELD] = extra
        missing = [
            key
            for key, f in fields.items()
            if f.name not in kwargs
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING  # type: ignore[misc]
        ]
        if missing:
            raise ResultSchemaError(f"{where}: a {cls.__name__} without the field(s) {', '.join(missing)}")
        return cls(**kwargs)


def _decode(hint: Any, value: Any, where: str) -> Any:
    kind = _part_type(hint)
    if kind is None or value is None:
        return value
    how, part = kind
    if how == "one":
        return part.from_json(value, source=where)
    if how == "list":
        return [part.from_json(v, source=f"{where}[{i}]") for i, v in enumerate(value)]
    return {k: part.from_json(v, source=f"{where}.{k}") for k, v in value.items()}


class ResultRecord(ResultPart):
    """A result file's record: a :class:`ResultPart` with a kind and a schema version.

    Subclasses set ``KIND`` (the kind's name in the file) and ``VERSION``
    (raised whenever a field is added, removed, renamed or changes meaning;
    files of another version are refused, not migrated), and ``REMAKE``, the
    advice for re-making a refused file.
    """

    KIND: ClassVar[str]
    VERSION: ClassVar[int]
    REMAKE: ClassVar[str] = (
        "re-make it with this version of the workflow "
        "(delete it, or run snakemake with --forcerun on the rule that writes it)"
    )

    def to_json(self, *, provenance: Mapping | None = None) -> dict:
        """``{"schema": {"kind", "version"}, ["provenance": {...},] **fields}``."""
        head = {SCHEMA_KEY: {"kind": self.KIND, "version": self.VERSION}}
        if provenance is not None:
            head[PROVENANCE_KEY] = _plain(provenance)
        return {**head, **super().to_json()}

    @classmethod
    def check_schema(cls, data: Mapping, *, source: str | None = None) -> None:
        """Refuse ``data`` unless this kind at this version (:class:`ResultSchemaError`, naming the fix)."""
        where = source or f"a {cls.KIND} result"
        if not isinstance(data, Mapping):
            raise ResultSchemaError(f"{where}: not a JSON object; {cls.REMAKE}")
        schema = data.get(SCHEMA_KEY)
        if not isinstance(schema, Mapping):
            raise ResultSchemaError(
                f"{where}: written before result files carried a schema version "
                f"(this workflow reads {cls.KIND} version {cls.VERSION}); {cls.REMAKE}"
            )
        kind, version = schema.get("kind"), schema.get("version")
        if kind != cls.KIND:
            raise ResultSchemaError(f"{where}: holds a {kind!r} result, not a {cls.KIND!r} result")
        if version != cls.VERSION:
            raise ResultSchemaError(
                f"{where}: a {cls.KIND} result of schema version {version}; this workflow reads version "
                f"{cls.VERSION}; {cls.REMAKE}"
            )

    @classmethod
    def from_json(cls: type[R], data: Mapping, *, source: str | None = None) -> R:
        """The record from its JSON object, after :meth:`check_schema`."""
        cls.check_schema(data, source=source)
        return super().from_json(data, source=source)

    @classmethod
    def coerce(cls: type[R], obj, *, source: str | None = None) -> R:
        """``obj`` itself if it is a record of this kind, else the record of its JSON object (checked)."""
        return obj if isinstance(obj, cls) else cls.from_json(obj, source=source)

    @classmethod
    def load(cls: type[R], path) -> R:
        """Read the record from its file (a :class:`ResultSchemaError` names the file)."""
        from ..data.runio import read_json

        return cls.from_json(read_json(path), source=str(path))

    def write(self, path, *, provenance: Mapping | None = None) -> None:
        """Write the record to ``path`` atomically (JSON, as :func:`~tensegrity_id.data.runio.write_json`),
        with ``provenance`` (what made it: versions, commit, inputs' hashes) when given."""
        from ..data.runio import write_json

        Path(path).parent.mkdir(parents=True, exist_ok=True)
        write_json(path, self.to_json(provenance=provenance))


def part_types(cls: type[ResultPart]) -> list[type[ResultPart]]:
    """``cls`` and every part type reachable from its fields, each once, in the order met."""
    seen: list[type[ResultPart]] = []

    def visit(c):
        if c in seen:
            return
        seen.append(c)
        for f in _stored(c):
            kind = _part_type(c._hints()[f.name])
            if kind is not None:
                visit(kind[1])

    visit(cls)
    return seen


class FieldNames:
    """The keys of result kinds and all their parts, as attributes named after the fields.

    ``KEY = FieldNames(IdentificationResult)``; ``KEY.sigma_max_pct == "sigma_max_pct"``;
    a keyword field's attribute gives its key on disk (``FieldNames(ClassPoint).class_ ==
    "class"``, :func:`json_key`).  An unknown name raises ``AttributeError`` naming the
    kinds.  Iterating gives every key once (in the order met); ``in`` tests a key.
    Neither ``extra`` nor a :func:`transient` field is a key.
    """

    def __init__(self, *kinds: type[ResultPart]):
        names: dict[str, str] = {}
        for kind in kinds:
            for part in part_types(kind):
                names.update((f.name, json_key(f.name)) for f in _stored(part) if f.name != EXTRA_FIELD)
        self.__dict__.update(names)
        self.__dict__["_kinds"] = tuple(k.__name__ for k in kinds)
        self.__dict__["_keys"] = tuple(dict.fromkeys(names.values()))

    def __getattr__(self, name: str) -> str:  # only for names that are not fields
        kinds = ", ".join(self.__dict__.get("_kinds", ()))
        raise AttributeError(f"{name!r} is not a field of {kinds} (or of their parts)")

    def __setattr__(self, name, value):
        raise AttributeError("field names are read-only")

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __repr__(self) -> str:
        return f"FieldNames({', '.join(self._kinds)}: {len(self._keys)} keys)"


def finite_or_none(value) -> float | None:
    """``float(value)``, or ``None`` for ``None`` and non-finite values (JSON has no NaN)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None
