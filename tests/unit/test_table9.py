"""Table 9 (the paper's §4.14): the largest force-density error over all cables, as the paper counts
it, beside the same over the identifiable cables, and a note that says which set each column uses."""

import pandas as pd
import pytest
from result_records import make_result
from tensegrity_id.analysis import error_propagation, first_order_identifiability
from tensegrity_id.identify.scoring import parameter_errors
from tensegrity_id.report.study_tables import TABLE9_COLUMNS, TABLE9_NOTE, table9


def _x1_run(x1, *, base_value, scale_others=1.0):
    """An X1 identification result: the base cable (both ends pinned) at ``base_value``, every
    other cable at ``scale_others`` times its exact value."""
    base = first_order_identifiability(x1).invisible
    assert len(base) == 1  # the cable joining the two pinned nodes
    exact = x1.sigma.tolist()
    ident = [base_value if k in base else v * scale_others for k, v in enumerate(exact)]
    return _result(x1, ident, exact, method="pinn_smooth", record="slack_1pt"), base[0]


def _result(structure, ident, exact, **fields):
    """The identification result of ``ident`` against ``exact`` (force densities, N/m)."""
    scored = parameter_errors(structure, {"sigma": ident, "c": 1.0}, {"sigma": exact, "c": 1.0})
    return make_result(
        structure=structure.name,
        identified={"sigma": ident},
        exact={"sigma": exact},
        errors=scored.errors.to_json(),
        inert_members=scored.inert_members,
        identifiable=scored.identifiable,
        **fields,
    )


def test_x1_row_counts_the_base_cable_in_the_all_cables_column(x1):
    """The inert base cable left at a 10 N/m start against its exact value: the all-cables column is
    its error (as the paper's 87 % on X1 includes it), the identifiable column the others' 2 %."""
    res, k = _x1_run(x1, base_value=10.0, scale_others=1.02)
    df = table9([error_propagation(x1, res)], [res])
    assert list(df.columns) == TABLE9_COLUMNS and "sigma_max_pct" not in df.columns
    row = df.iloc[0]
    assert row["sigma_max_all_pct"] == pytest.approx(100 * abs(10.0 / x1.sigma[k] - 1), rel=1e-12)
    assert row["sigma_max_identifiable_pct"] == pytest.approx(2.0, rel=1e-9)
    assert row["sigma_max_all_pct"] > row["sigma_max_identifiable_pct"]
    # the base cable carries no free-coordinate stiffness: the margin barely moves (the paper's point)
    assert row["margin_err_pct"] < 1.0


def test_without_an_inert_cable_both_columns_agree(x2):
    exact = x2.sigma.tolist()
    ident = [v * (1.05 if k == 2 else 1.0) for k, v in enumerate(exact)]
    res = _result(x2, ident, exact, method="m", record="r")
    row = table9([error_propagation(x2, res)], [res]).iloc[0]
    assert row["sigma_max_all_pct"] == pytest.approx(row["sigma_max_identifiable_pct"]) == pytest.approx(5.0)


def test_an_undetermined_cable_has_no_error_and_rows_must_pair(x1):
    res, k = _x1_run(x1, base_value=10.0)
    sigma = list(res.identified.sigma)
    sigma[k] = None  # a method that leaves the base cable undetermined
    res = res.replace(
        identified=res.identified.replace(sigma=sigma), errors=res.errors.replace(sigma_max_pct=0.0)
    )
    row = table9([error_propagation(x1, res)], [res]).iloc[0]
    assert row["sigma_max_all_pct"] == pytest.approx(0.0, abs=1e-12) and row["n_undetermined"] == 1
    other = res.replace(record="taut_1pt")
    with pytest.raises(ValueError, match="does not belong"):
        table9([error_propagation(x1, res)], [other])


def test_the_note_and_the_claims_name_the_cable_sets(repo):
    assert "`sigma_max_all_pct`" in TABLE9_NOTE and "`sigma_max_identifiable_pct`" in TABLE9_NOTE
    assert "all cables" in TABLE9_NOTE and "identifiable cables only" in TABLE9_NOTE
    from tensegrity_id.report.scorecard import load_claims

    claims = [
        c for c in load_claims(repo / "resources/published/claims.yaml", repo) if c["id"].startswith("table9")
    ]
    sigma = [c for c in claims if c["id"].endswith(".sigma_max_pct")]
    assert len(sigma) == 3 and {c["source"]["column"] for c in sigma} == {"sigma_max_all_pct"}
    published = pd.read_csv(repo / "resources/published/table9.csv")
    assert set(published["sigma_max_pct"]) == {14, 87, 90}
