"""The typed records of the Fisher analysis, the assessment and a measured record's screen.

Each kind reads a file the workflow wrote (``tests/data/analysis_results.json``:
files of a test-study and a default-study run, written before the files
carried a schema; a record assessment cut to its first 20 samples) once the
schema is added, and writes it back key for key; the file as it was is
refused, naming the file and how to re-make it.  Records built by the
library round-trip through their files.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tensegrity_id.analysis import assess, prestress_scan
from tensegrity_id.analysis.identifiability import first_order_identifiability, summarise_fisher
from tensegrity_id.results import assessment as ra
from tensegrity_id.results import fisher as rf
from tensegrity_id.results import screening as rs
from tensegrity_id.results.record import FieldNames, ResultSchemaError

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "analysis_results.json").read_text())
"""name -> {kind, file (under results/), data (the file's JSON, without a schema)}."""

KINDS = {
    cls.__name__: cls
    for cls in (
        rf.FisherAnalysis,
        ra.StructureAssessment,
        ra.PrestressScan,
        ra.RecordAssessment,
        ra.SteelDesign,
        ra.MeasuredAssessment,
        rs.Screening,
        rs.MeasuredSummary,
    )
}


def _with_schema(cls, data: dict) -> dict:
    return {"schema": {"kind": cls.KIND, "version": cls.VERSION}, **data}


@pytest.mark.parametrize("name", sorted(DATA))
def test_a_real_file_reads_and_writes_back_key_for_key(name, tmp_path):
    entry = DATA[name]
    cls = KINDS[entry["kind"]]
    path = tmp_path / Path(entry["file"]).name
    path.write_text(json.dumps(_with_schema(cls, entry["data"])))
    record = cls.load(path)
    assert record.to_json() == _with_schema(cls, entry["data"])  # the same keys and values
    record.write(tmp_path / "again.json")
    assert cls.load(tmp_path / "again.json") == record


@pytest.mark.parametrize("name", sorted(DATA))
def test_a_file_written_before_the_schema_is_refused_naming_it(name, tmp_path):
    entry = DATA[name]
    path = tmp_path / Path(entry["file"]).name
    path.write_text(json.dumps(entry["data"]))
    with pytest.raises(
        ResultSchemaError, match=rf"{path.name}: written before result files carried a schema"
    ):
        KINDS[entry["kind"]].load(path)


def test_another_kind_is_refused():
    data = _with_schema(ra.PrestressScan, DATA["prestress_scan"]["data"])
    with pytest.raises(ResultSchemaError, match="holds a 'prestress_scan' result, not a 'assessment' result"):
        ra.StructureAssessment.from_json(data, source="scan.json")


def test_class_is_a_field_class_written_class():
    a = ra.StructureAssessment.from_json(_with_schema(ra.StructureAssessment, DATA["assessment"]["data"]))
    assert a.rigid.class_ == "stable" and a.rigid.connelly.nullity_Omega == 1
    assert ra.CLASS == "class" and FieldNames(ra.Assessment).class_ == "class"
    assert "class" in FieldNames(ra.Assessment) and "class_" not in FieldNames(ra.Assessment)
    assert "class" in a.to_json()["rigid"] and "class_" not in a.to_json()["rigid"]
    with pytest.raises(AttributeError, match="'lambda_mn' is not a field of Assessment"):
        _ = FieldNames(ra.Assessment).lambda_mn


def test_optional_keys_are_left_out_when_absent():
    r = ra.RecordAssessment.from_json(_with_schema(ra.RecordAssessment, DATA["record_assessment"]["data"]))
    assert "E_T" not in r.replace(E_T=None, E_Vg=None, E_Vs=None).to_json()
    screens = rs.RecordScreens(model="m", tolerances=rs.ScreenTolerances(3.0, 2.0, 0.5, 2.0))
    assert list(screens.to_json()) == [
        "model",
        "tolerances",
        "warnings",
        "noise",
    ]  # no prestress, no outliers


def test_library_records_round_trip_through_their_files(x1, tmp_path):
    rng = np.random.default_rng(0)
    S = rng.normal(size=(40, 5))
    summary = summarise_fisher(S.T @ S, np.arange(1.0, 6.0), [f"p{k}" for k in range(5)])
    fisher = rf.FisherAnalysis.of(
        summary, structural=first_order_identifiability(x1), channels=[2, 3], active_channels=[2]
    )
    fisher.write(tmp_path / "fisher.json")
    assert rf.FisherAnalysis.load(tmp_path / "fisher.json") == fisher
    # the bounds an identification reports: the summary without J and its eigenvectors
    bounds = rf.IdentifiedBounds.of(summary, rel_step=1e-4, samples="all", n_simulations=20)
    assert bounds.crlb_max_pct == pytest.approx(100 * max(summary.crlb_relative.values()))
    assert list(bounds.to_json()) == [k for k in summary.to_json() if k not in ("J", "eigenvectors")] + [
        "crlb_max_pct",
        "crlb_max_parameter",
        "rel_step",
        "samples",
    ]
    assert rf.IdentifiedBounds.from_json(bounds.to_json()) == bounds  # n_simulations: counted, not written
    rigid, flexible = assess(x1), assess(x1, bars="flexible")
    rec = ra.StructureAssessment(
        "x1", 1e-8, rigid, flexible, flexible.lambda_min / rigid.lambda_min, 1.0, 1.0
    )
    rec.write(tmp_path / "x1.json", provenance={"commit": "abc"})
    assert ra.StructureAssessment.load(tmp_path / "x1.json") == rec
    scan = prestress_scan(x1, [1.0, -1.0])
    scan.write(tmp_path / "scan.json")
    assert ra.PrestressScan.load(tmp_path / "scan.json") == scan
    assert (scan.scan[0].scale, scan.scan[0].class_) == (1.0, rigid.class_)


def test_the_identifiability_totals_keep_the_values_file_keys():
    each = [
        rf.StructuralIdentifiability(3, 4, [0], 0, [], 0),
        rf.StructuralIdentifiability(6, 7, [], 1, [[0.0] * 7], 0),
    ]
    assert rf.IdentifiabilityTotals.of(each).to_json() == {
        "determined": 9,
        "cables": 11,
        "invisible": 1,
        "combinations": 1,
    }
