"""The typed result records' base (tensegrity_id.results.record): schema key, parts, extras, refusals."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pytest
from tensegrity_id.results.record import (
    FieldNames,
    ResultPart,
    ResultRecord,
    ResultSchemaError,
    field_values,
    json_key,
    optional,
    part_types,
    transient,
)


@dataclass(frozen=True)
class _Errors(ResultPart):
    worst_pct: float | None
    each_pct: list = field(default_factory=list)


@dataclass(frozen=True)
class _Toy(ResultRecord):
    KIND = "toy"
    VERSION = 2
    name: str
    errors: _Errors
    per_record: dict[str, _Errors] = field(default_factory=dict)
    starts: list[_Errors] = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def _toy():
    e = _Errors(np.float64(1.5), [np.float32(1.0), None])
    return _Toy("x1", e, {"taut": _Errors(2.0)}, [_Errors(None)], {"trainer": {"steps": np.int64(3)}})


def test_round_trip_keeps_layout_and_types(tmp_path):
    rec = _toy()
    data = rec.to_json()
    assert list(data) == ["schema", "name", "errors", "per_record", "starts", "trainer"]
    assert data["schema"] == {"kind": "toy", "version": 2}
    assert data["errors"] == {"worst_pct": 1.5, "each_pct": [1.0, None]}
    path = tmp_path / "toy.json"
    rec.write(path)
    back = _Toy.load(path)
    assert back.errors.worst_pct == 1.5 and isinstance(back.per_record["taut"], _Errors)
    assert back.starts[0].worst_pct is None and back.extra == {"trainer": {"steps": 3}}
    assert back.to_json() == json.loads(path.read_text())


def test_refuses_old_other_kind_and_version(tmp_path):
    data = _toy().to_json()
    old = {k: v for k, v in data.items() if k != "schema"}
    with pytest.raises(ResultSchemaError, match=r"old\.json: written before result files carried a schema"):
        _Toy.from_json(old, source="old.json")
    with pytest.raises(ResultSchemaError, match="version 1; this workflow reads version 2; re-make it"):
        _Toy.from_json({**data, "schema": {"kind": "toy", "version": 1}})
    with pytest.raises(ResultSchemaError, match="holds a 'fisher' result, not a 'toy' result"):
        _Toy.from_json({**data, "schema": {"kind": "fisher", "version": 2}})


def test_missing_and_unknown_fields_are_named():
    data = _toy().to_json()
    del data["errors"]
    with pytest.raises(ResultSchemaError, match="without the field.s. errors"):
        _Toy.from_json(data)
    with pytest.raises(ResultSchemaError, match=r"unknown field 'worst' in a _Errors"):
        _Errors.from_json({"worst_pct": 1.0, "worst": 2.0})


def test_extra_may_not_repeat_a_declared_field():
    with pytest.raises(ResultSchemaError, match=r"repeats declared fields \['name'\]"):
        _Toy("x", _Errors(1.0), extra={"name": "y"}).to_json()


def test_provenance_is_written_after_the_schema_and_not_a_field(tmp_path):
    path = tmp_path / "toy.json"
    _toy().write(path, provenance={"commit": "abc", "inputs": {"a.csv": "00"}})
    data = json.loads(path.read_text())
    assert list(data)[:3] == ["schema", "provenance", "name"]
    assert data["provenance"]["commit"] == "abc"
    assert _Toy.load(path) == _toy().__class__.from_json(_toy().to_json())


@dataclass(frozen=True, kw_only=True)
class _Sparse(ResultRecord):
    KIND = "sparse"
    VERSION = 1
    name: str
    note: str | None = optional()
    errors: _Errors | None = optional()
    arrays: dict | None = transient()


def test_optional_fields_are_written_only_when_set_and_transient_never(tmp_path):
    bare = _Sparse(name="a", arrays={"t": np.zeros(3)})
    assert bare.to_json() == {"schema": {"kind": "sparse", "version": 1}, "name": "a"}
    full = _Sparse(name="a", note="n", errors=_Errors(1.0))
    assert list(full.to_json()) == ["schema", "name", "note", "errors"]
    path = tmp_path / "s.json"
    bare.write(path)
    back = _Sparse.load(path)
    assert back == bare and back.note is None and back.arrays is None  # a transient field is not compared
    with pytest.raises(ResultSchemaError, match="unknown field 'arrays'"):
        _Sparse.from_json({**bare.to_json(), "arrays": {}})


def test_coerce_takes_a_record_or_its_json():
    rec = _Sparse(name="a")
    assert _Sparse.coerce(rec) is rec and _Sparse.coerce(rec.to_json()) == rec
    with pytest.raises(ResultSchemaError, match="written before result files carried a schema"):
        _Sparse.coerce({"name": "a"}, source="x.json")


def test_field_names_of_a_kind_and_its_parts():
    names = FieldNames(_Toy, _Sparse)
    assert list(names) == ["name", "errors", "per_record", "starts", "worst_pct", "each_pct", "note"]
    assert names.worst_pct == "worst_pct" and "arrays" not in names and "extra" not in names
    assert part_types(_Toy) == [_Toy, _Errors]
    with pytest.raises(AttributeError, match="'worst' is not a field of _Toy, _Sparse"):
        _ = names.worst


@dataclass(frozen=True)
class _Graded(ResultRecord):
    KIND = "graded"
    VERSION = 1
    class_: str
    margin: float


def test_a_keyword_field_is_stored_under_the_keyword():
    """``class`` cannot be a field name: the field ``class_`` is the key ``class`` on disk, both ways."""
    rec = _Graded("stable", 1.0)
    assert rec.to_json() == {"schema": {"kind": "graded", "version": 1}, "class": "stable", "margin": 1.0}
    assert _Graded.from_json(rec.to_json()) == rec
    with pytest.raises(ResultSchemaError, match="unknown field 'class_'"):
        _Graded.from_json({**rec.to_json(), "class_": "stable"})
    with pytest.raises(ResultSchemaError, match="without the field"):
        _Graded.from_json({"schema": {"kind": "graded", "version": 1}, "margin": 1.0})
    names = FieldNames(_Graded)
    assert names.class_ == "class" and list(names) == ["class", "margin"] and "class" in names
    assert json_key("class_") == "class" and json_key("sigma_") == "sigma_" and json_key("c") == "c"
    assert field_values(rec) == {"class_": "stable", "margin": 1.0}
