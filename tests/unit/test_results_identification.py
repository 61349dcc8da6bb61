"""The identification result kinds (tensegrity_id.results.identification) on real-shaped files.

``tests/data/identification_results.json`` holds result files of the test
study (one per method and kind, as written before the files carried a
schema; long series shortened): each is read with its schema added and must
be written back as it was, parts and the method's own fields included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tensegrity_id.results.fisher import IdentifiedBounds, LocalFisher
from tensegrity_id.results.identification import (
    KEY,
    IdentificationResult,
    Parameters,
    ParticleEss,
    SeedGroupSummary,
    Start,
    StartedFrom,
    VariantsResult,
)
from tensegrity_id.results.record import ResultSchemaError

DATA = Path(__file__).resolve().parents[1] / "data" / "identification_results.json"
FILES = json.loads(DATA.read_text())
KINDS = {"seed_group": SeedGroupSummary, "variants": VariantsResult}
"""The fixture's entries of other kinds than a single run."""

DROPPED_NONE = {("pinn_smooth_variant", "diverged"), ("pinn_event", "diverged")}
"""Keys written as ``null`` before, now left out (an optional field is not written when ``None``)."""


def _kind(name):
    return KINDS.get(name, IdentificationResult)


def _with_schema(cls, data: dict) -> dict:
    return {"schema": {"kind": cls.KIND, "version": cls.VERSION}, **data}


def _without_dropped(name: str, data: dict) -> dict:
    out = {k: v for k, v in data.items() if (name, k) not in DROPPED_NONE}
    if name == "lm_shooting_measured":  # no exact values: the force-scale error was null
        out["errors"] = {k: v for k, v in out["errors"].items() if k != "force_scale_pct"}
    return out


@pytest.mark.parametrize("name", sorted(FILES))
def test_real_files_round_trip(name, tmp_path):
    cls, data = _kind(name), FILES[name]["data"]
    rec = cls.from_json(_with_schema(cls, data), source=FILES[name]["file"])
    assert rec.to_json() == _with_schema(cls, _without_dropped(name, data))
    assert list(rec.to_json())[1:] == list(_without_dropped(name, data))  # the keys keep their order
    path = tmp_path / "r.json"
    rec.write(path)
    assert cls.load(path) == rec


def test_parts_are_typed():
    lm = IdentificationResult.from_json(
        _with_schema(IdentificationResult, FILES["lm_shooting_restarts"]["data"])
    )
    assert isinstance(lm.identified, Parameters) and all(isinstance(s, Start) for s in lm.starts)
    assert lm.starts[1].sigma_max_pct == pytest.approx(lm.errors.sigma_max_pct)  # the best start
    assert lm.per_record["slack_1pt"].n_transitions == lm.n_transitions and lm.extra == {}
    pf = IdentificationResult.from_json(_with_schema(IdentificationResult, FILES["pf_enkf"]["data"]))
    assert isinstance(pf.ess, ParticleEss) and pf.ess.n_particles == 40 and pf.chi2 is None
    hybrid = IdentificationResult.from_json(_with_schema(IdentificationResult, FILES["pinn_lm"]["data"]))
    assert isinstance(hybrid.start, StartedFrom) and hybrid.start.identified.c > 0
    assert isinstance(hybrid.fisher_at_start, LocalFisher) and hybrid.fisher_at_start.crlb_max_pct > 0
    measured = IdentificationResult.from_json(
        _with_schema(IdentificationResult, FILES["lm_shooting_measured"]["data"])
    )
    assert measured.exact is None and measured.errors.force_scale_pct is None
    assert measured.identified.force_scale_channels and isinstance(measured.bounds, IdentifiedBounds)
    assert measured.bounds.crlb_relative and measured.bounds.n_simulations is None  # counted, not written
    group = SeedGroupSummary.from_json(_with_schema(SeedGroupSummary, FILES["seed_group"]["data"]))
    assert group.errors[KEY.sigma_max_pct].n == group.n_seeds - len(group.diverged)
    variants = VariantsResult.from_json(_with_schema(VariantsResult, FILES["variants"]["data"]))
    assert [v.options for v in variants.variants] and variants.protocol == "top_node_miscal"
    assert isinstance(variants.variants[1].bounds, IdentifiedBounds)


def test_an_old_file_is_refused_naming_it(tmp_path):
    old = tmp_path / "top_node_seed0.json"
    old.write_text(json.dumps(FILES["ukf"]["data"]))
    with pytest.raises(ResultSchemaError, match=r"top_node_seed0\.json: written before result files carried"):
        IdentificationResult.load(old)
    with pytest.raises(ResultSchemaError, match="re-make it"):
        IdentificationResult.load(old)


def test_a_file_of_another_kind_or_version_is_refused(tmp_path):
    group = tmp_path / "seeds.json"
    group.write_text(json.dumps(_with_schema(SeedGroupSummary, FILES["seed_group"]["data"])))
    with pytest.raises(ResultSchemaError, match="holds a 'identification_seed_group' result"):
        IdentificationResult.load(group)
    newer = _with_schema(IdentificationResult, FILES["ukf"]["data"])
    newer["schema"]["version"] = IdentificationResult.VERSION + 1
    with pytest.raises(ResultSchemaError, match="this workflow reads version"):
        IdentificationResult.from_json(newer)


def test_an_undeclared_key_is_kept_and_the_transient_fields_are_not_written():
    data = {**FILES["regression"]["data"], "new_diagnostic": [1, 2]}
    rec = IdentificationResult.from_json(_with_schema(IdentificationResult, data))
    assert rec.extra == {"new_diagnostic": [1, 2]} and rec.to_json()["new_diagnostic"] == [1, 2]
    with_series = rec.replace(series={"t": [0.0]}, history=[{"step": 1}])
    assert with_series.to_json() == rec.to_json() and with_series == rec


def test_key_names_every_field_of_every_part():
    assert KEY.sigma_max_pct == "sigma_max_pct" and KEY.n_simulations == "n_simulations"
    assert KEY.fraction_below_2 in KEY and "series" not in KEY and "extra" not in KEY
    with pytest.raises(AttributeError, match="'sigma_max' is not a field"):
        _ = KEY.sigma_max
    for name, entry in FILES.items():  # every key of the test study's files is a declared field
        cls = _kind(name)
        assert getattr(cls.from_json(_with_schema(cls, entry["data"])), "extra", {}) == {}, name
