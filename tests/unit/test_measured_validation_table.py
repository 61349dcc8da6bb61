"""The measured-data validation summary (tensegrity_id.report.tables_measured) built from its rows file.

The rows live in ``resources/published/measured_validation_rows.yaml``; these
tests check that the table has exactly the file's rows, in its order, that
known rows read the right values through their paths and transforms, and
that a malformed rows file is refused with the row and field named.
"""

import copy
from pathlib import Path

import pytest
import yaml
from tensegrity_id.report.tables_measured import (
    TRANSFORMS,
    VALIDATION_COLUMNS,
    RowsError,
    measured_validation_table,
    read_validation_rows,
)

REPO = Path(__file__).resolve().parents[2]
ROWS = REPO / "resources/published/measured_validation_rows.yaml"
PAPER = yaml.safe_load((REPO / "resources/published/measured_validation.yaml").read_text())


def _inputs() -> dict:
    """The five rule results, reduced to the keys the rows read, with distinct values."""
    hexprism = {
        "ring_tension_N": 10.89,
        "above_design_pct": 8.93,
        "rms_residual_hz": 0.336,
        "alternative": {"ring_tension_N": 8.79, "rms_residual_hz": 0.872},
        "with_EA": {
            "EA_factor": 9999.99,
            "EA_at_grid_bound": True,
            "residual_reduction_pct": 10.004,
            "at_EA_factor_18": {"residual_reduction_pct": 9.54},
        },
        "ratio_measured_to_model_at_design": [1.0256, 1.0976, 1.0577, 1.0062],
        "bar_geometric_stiffness": [{"ratio": 1.732}, {"ratio": 1.04}, {"ratio": 1.3}],
    }
    law = {"mean_abs_error_N": 18.2, "worst_abs_error_N": 34.2, "rms_error_pct": 3.99}
    model = {
        "base_to_cross_ratio": 0.2095,
        "conventions": {
            "distributed": {"distributed_share_kg": 0.3419},
            "weighed": {"intercept_relative": 4.2e-7},
        },
        "f2_per_newton": 0.01727,
        "force_factor_weighed": 1.3839,
        "force_factor_distributed": 1.3723,
        "measured_log_slope": {"level_1": 0.2447, "level_last": 0.4644},
        "separation_at_static_force_hz2": {"zero_force": 6.56, "highest_level": 4.944},
    }
    prestress = {
        "frequency_source": "stand-in",
        "model_loo": {**law, "lowest_level_error_pct": 13.0},
        "free_loo": {"mean_abs_error_N": 7.6e-13, "rms_error_pct": 9.6e-14},
        "no_constant": {"mean_abs_error_N": 233.0, "rms_error_pct": 33.5},
        "exponent": {"exponent": 0.38829, "half_width": 0.022187, "level": 0.95},
        "seed_table8_consistency": {
            "scatter_pct_of_mean": 1.228,
            "lowest_hz": 3.443,
            "exponent": {"exponent": 0.39710, "half_width": 0.014723, "level": 0.95},
        },
    }
    damping = {
        "cable_EA_N": 1.6e6,
        "extension_ratio": {"median": 1317.4},
        "implied_damping_ratio": {"median": 424777.0},
    }
    return {
        "hexprism": hexprism,
        "model": model,
        "extraction": {"rms_error_pct": 0.0231},
        "prestress": prestress,
        "damping": damping,
    }


def _table(inputs=None, rows=ROWS):
    return measured_validation_table(**(inputs or _inputs()), paper=PAPER, rows=rows)


def _row(df, quantity):
    hit = df[df["quantity"] == quantity]
    assert len(hit) == 1, quantity
    return hit.iloc[0]


def test_every_row_of_the_rows_file_appears_once_in_its_order():
    listed = [r["quantity"] for r in yaml.safe_load(ROWS.read_text())]
    df = _table()
    assert list(df.columns) == VALIDATION_COLUMNS
    assert list(df["quantity"]) == listed and len(set(listed)) == len(listed) == 35


def test_known_rows_read_their_paths_and_transforms():
    df = _table()
    ring = _row(df, "ring tension, one prestress scale")
    assert (ring["section"], ring["here"], ring["paper"], ring["unit"]) == ("4.10", 10.89, 10.6, "N")
    assert ring["basis"] == "measured peaks"
    ea = _row(df, "EA as a second parameter: largest residual reduction (EA factor)")
    assert (ea["here"], ea["paper"]) == ("10.0 (1e+04, grid bound)", "9 (18)")
    ratios = _row(df, "measured-to-model ratios at design prestress")
    assert (ratios["here"], ratios["paper"]) == ("1.006-1.098", "0.99-1.08")
    assert _row(df, "cables-only stiffness over the full one, lowest nine modes")["here"] == "+4 to +73"
    assert _row(df, "local log-slope of the measured law, level 13")["paper"] == 0.464
    exponent = _row(df, "fitted mechanism exponent")
    assert (exponent["here"], exponent["paper"]) == ("0.388 +- 0.022", "0.405 +- 0.012")
    assert exponent["basis"] == "stand-in frequencies (published law at the measured forces)"
    assert _row(df, "model slope f^2 per newton (weighed)")["paper"] == ""
    assert _row(df, "frequencies implied by the paper's Table 8: lowest")["paper"] == 3.4
    free = _row(df, "both constants free: RMS error")
    assert free["basis"].endswith("; the free fit is the law itself: zero by construction")
    damp = _row(df, "implied damping ratio of the modes above (median over levels)")
    assert (damp["here"], damp["basis"]) == (424777.0, "assumed cable EA 1.6e+06 N")


def test_inputs_fill_the_basis_and_optional_rows():
    inputs = _inputs()
    inputs["prestress"]["frequency_source"] = "measured"
    del inputs["prestress"]["seed_table8_consistency"]
    inputs["hexprism"]["with_EA"]["EA_at_grid_bound"] = False
    df = _table(inputs)
    assert len(df) == 32 and not df["quantity"].str.contains("implied by the paper's Table 8").any()
    assert _row(df, "both constants free: RMS error")["basis"] == "measured frequencies"
    assert (
        _row(df, "EA as a second parameter: largest residual reduction (EA factor)")["here"] == "10.0 (1e+04)"
    )


def test_the_table_follows_the_rows_file(tmp_path):
    """Another file, other rows: the table is what the file says, in its order."""
    rows = [
        {
            "section": "x",
            "quantity": "lowest ratio, percent over one",
            "here": {"path": "hexprism.bar_geometric_stiffness[*].ratio", "as": "pct_over_one_span"},
            "paper": {"value": 12.5},
            "unit": "%",
            "basis": "EA {cable_EA_N:.2g}",
        },
        {
            "section": "y",
            "quantity": "second ratio",
            "here": "hexprism.bar_geometric_stiffness[1].ratio",
            "paper": None,
            "unit": "",
            "basis": "b",
        },
    ]
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump(rows))
    df = _table(rows=path)
    assert df.to_dict("records") == [
        {
            "section": "x",
            "quantity": "lowest ratio, percent over one",
            "here": "+4 to +73",
            "paper": 12.5,
            "unit": "%",
            "basis": "EA 1.6e+06",
        },
        {"section": "y", "quantity": "second ratio", "here": 1.04, "paper": "", "unit": "", "basis": "b"},
    ]


GOOD = {
    "section": "4.10",
    "quantity": "q",
    "here": "hexprism.ring_tension_N",
    "paper": None,
    "unit": "",
    "basis": "",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"section": 4.1}, "'section' must be text"),
        ({"here": {"path": "hexprism.with_EA", "as": "percent"}}, "transform 'percent' is not one of"),
        ({"here": {"path": "hexprism.with_EA", "as": "pm", "format": ".2f"}}, "takes no 'format'"),
        ({"here": "paper.ring_tension_N"}, "must start with one of hexprism"),
        ({"here": "hexprism..ring_tension_N"}, "malformed path"),
        ({"here": None}, "'here' is null"),
        ({"basis": "{source}"}, "placeholder"),
        ({"note": "x"}, "unknown field 'note'"),
        ({"unit": None}, "'unit' must be text"),
    ],
)
def test_a_malformed_row_is_refused_naming_row_and_field(tmp_path, change, message):
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump([GOOD, {**GOOD, "quantity": "r", **change}]))
    with pytest.raises(RowsError, match="row 2 \\('r'\\)") as err:
        read_validation_rows(path)
    assert message in str(err.value)


def test_a_missing_field_or_a_repeated_quantity_is_refused(tmp_path):
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump([{k: v for k, v in GOOD.items() if k != "basis"}]))
    with pytest.raises(RowsError, match="missing field 'basis'"):
        read_validation_rows(path)
    path.write_text(yaml.safe_dump([GOOD, GOOD]))
    with pytest.raises(RowsError, match="quantity given twice"):
        read_validation_rows(path)


def test_a_path_missing_from_its_input_names_the_row():
    inputs = copy.deepcopy(_inputs())
    del inputs["model"]["force_factor_weighed"]
    with pytest.raises(KeyError, match="force factor, weighed masses.*model.force_factor_weighed"):
        _table(inputs)


def test_the_repository_rows_use_only_documented_transforms():
    used = {
        spec["as"]
        for row in read_validation_rows(ROWS)
        for spec in (row["here"], row["paper"])
        if isinstance(spec, dict) and "as" in spec
    }
    assert used == set(TRANSFORMS)
