"""Statics against closed-form and published values (the paper's §2.2-2.3, Table S3)."""

import numpy as np
import pytest
from tensegrity_id import (
    PrestressError,
    apply_prestress,
    counts,
    equilibrium_matrix,
    mechanism_basis,
    prestress_lp,
    prestress_selfstress,
    self_stress_basis,
    static_residual,
)
from tensegrity_id.mechanics import generators as gen
from tensegrity_id.mechanics.feasibility import prism_feasible, prism_twist_range

# Table S3 of the paper: structure -> (Free, Mem., rank A, s, m)
TABLE_S3 = {
    "x1": (gen.xframe, {"n_modules": 1}, (4, 6, 4, 2, 0)),
    "x2": (gen.xframe, {"n_modules": 2}, (8, 11, 8, 3, 0)),
    "x3": (gen.xframe, {"n_modules": 3}, (12, 16, 12, 4, 0)),
    "t3_prism": (gen.prism, {"n_bars": 3}, (9, 12, 8, 4, 1)),
    "t4_prism": (gen.prism, {"n_bars": 4}, (12, 16, 11, 5, 1)),
    "t6_prism": (gen.prism, {"n_bars": 6}, (18, 24, 17, 7, 1)),
    "expanded_octahedron": (gen.expanded_octahedron, {}, (30, 30, 29, 1, 1)),
    "octahedral_cell": (gen.octahedral_cell, {}, (30, 30, 28, 2, 2)),
    "dome": (gen.dome, {}, (21, 18, 17, 1, 4)),
    "truncated_tetrahedron": (gen.truncated_tetrahedron, {}, (30, 24, 23, 1, 7)),
    "class1_cell": (gen.class1_cell, {}, (30, 30, 29, 1, 1)),
    "two_stage_tower": (gen.two_stage_tower, {}, (18, 27, 18, 9, 0)),
}


@pytest.mark.parametrize("name", list(TABLE_S3))
def test_table_s3_counts_exact(name):
    make, kw, expected = TABLE_S3[name]
    c = counts(make(**kw))
    assert (c.n_free, c.n_members, c.rank_A, c.s, c.m) == expected


def test_table_s3_cable_total_is_183():
    """The paper's identifiability count is over 183 cables in these 12 forms."""
    assert sum(make(**kw).n_cables for make, kw, _ in TABLE_S3.values()) == 183


@pytest.mark.parametrize("name", ["x2", "t4_prism", "dome", "octahedral_cell", "two_stage_tower"])
def test_maxwell_rule_and_bases(name):
    make, kw, _ = TABLE_S3[name]
    s = make(**kw)
    c = counts(s)
    # supported or minimally grounded: no rigid-body motion is left
    assert c.m - c.s == s.n_free - s.n_members
    S = self_stress_basis(s)
    A = equilibrium_matrix(s)
    A = A if s.free_standing else A[s.free_mask]
    assert S.shape[1] == c.s
    assert np.abs(A @ S).max() < 1e-12 * np.abs(A).max()
    U = mechanism_basis(s)
    assert U.shape[1] == c.m
    if c.m:
        assert np.abs(equilibrium_matrix(s)[s.free_mask].T @ U).max() < 1e-9


def test_x1_lp_prestress_matches_seed():
    """sigma = (25, 52.2, 25, 25) N/m for base, top and verticals (the paper's §4.2)."""
    s = gen.xframe(1)
    sigma, bar_sigma = prestress_lp(s, sigma_min=25.0)
    # closed form: top = vertical + half bar weight (node balance at a top node)
    w_half = 0.5 * s.bar_masses[0] * 9.81
    np.testing.assert_allclose(sigma, [25.0, 25.0 + w_half, 25.0, 25.0], rtol=1e-9)
    assert round(sigma[1], 1) == 52.2
    np.testing.assert_allclose(bar_sigma, -(25.0 + w_half), rtol=1e-9)
    assert np.abs(static_residual(s, sigma, bar_sigma)).max() < 1e-9


def test_prism_selfstress_ratios_at_30_degrees():
    """Free-floating triplex prism: bar : cross : triangle = -t : t : t/sqrt(3)."""
    s = gen.prism(3, twist_deg=30.0, pinned_base=False)
    assert counts(s).s == 1
    sigma, bar_sigma = prestress_selfstress(s, scale=7.0)
    t = 7.0
    np.testing.assert_allclose(sigma[6:], t, rtol=1e-12)  # cross cables
    np.testing.assert_allclose(sigma[:6], t / np.sqrt(3), rtol=1e-12)  # triangles
    np.testing.assert_allclose(bar_sigma, -t, rtol=1e-12)


@pytest.mark.parametrize("twist", [20.0, 25.0, 29.0, 31.0, 40.0, 45.0, 60.0])
def test_prism_selfstress_only_at_30_degrees(twist):
    s = gen.prism(3, twist_deg=twist, pinned_base=False)
    assert counts(s).s == 0


@pytest.mark.parametrize("n", [3, 4, 6])
def test_prism_selfstress_twist_is_90_minus_180_over_n(n):
    assert counts(gen.prism(n, pinned_base=False)).s == 1
    assert counts(gen.prism(n, twist_deg=90 - 180 / n + 2.0, pinned_base=False)).s == 0


def test_gravity_prism_feasible_range():
    """LP-feasible with bars compressed from just above 30 deg to about 58 deg."""
    for twist in (30.5, 45.0, 58.0):
        assert prism_feasible(twist)
    for twist in (20.0, 29.5, 30.0, 60.0, 70.0):
        assert not prism_feasible(twist)
    r = prism_twist_range(step=2.0, tol=1e-2)
    assert 30.0 <= r["twist_min_deg"] < 30.1
    assert 57.5 < r["twist_max_deg"] < 59.5


def test_gravity_prism_prestress_is_unique_up_to_base_cables():
    s = gen.prism(3, twist_deg=45.0, gravity=9.81)
    sig1, _ = prestress_lp(s, sigma_min=1.0)
    sig2, _ = prestress_lp(s, sigma_min=2.0)
    np.testing.assert_allclose(sig1[3:], sig2[3:], rtol=1e-9)  # top + cross fixed by gravity
    np.testing.assert_allclose(sig1[:3], 1.0)
    np.testing.assert_allclose(sig2[:3], 2.0)


def test_infeasible_lp_names_structure_and_sigma_min():
    s = gen.prism(3, twist_deg=20.0, gravity=9.81, name="p20")
    with pytest.raises(PrestressError, match=r"'p20'.*sigma_min = 1 N/m"):
        prestress_lp(s, sigma_min=1.0)


def test_apply_prestress_given_recovers_bars():
    s = apply_prestress(gen.xframe(2), {"method": "lp", "sigma_min": 25.0})
    again = apply_prestress(s, {"method": "given"})
    np.testing.assert_allclose(again.bar_sigma, s.bar_sigma, rtol=1e-9)


def test_x2_locked_node_and_bridge_dofs():
    x2 = gen.xframe(2)
    # node 3: both bars end on pinned base nodes 0 and 4
    ends = {int(j) for b in x2.bars for j in b if 3 in b} - {3}
    assert ends == {0, 4} and x2.fixed[[0, 4]].all()
    br = gen.x5_bridge()
    assert (br.n_free, br.n_free - br.n_bars) == (18, 8)


def test_zero_gravity_prism_series_scales_linearly():
    """On the 30 deg zero-gravity prism every force density is proportional to the level."""
    base = gen.prism(3, twist_deg=30.0)
    unit = apply_prestress(base, {"method": "selfstress", "scale": 1.0})
    for level in (1.0, 5.0, 15.0):
        s = apply_prestress(base, {"method": "selfstress", "scale": level})
        np.testing.assert_allclose(s.sigma, level * unit.sigma, rtol=1e-12)
        np.testing.assert_allclose(s.bar_sigma, level * unit.bar_sigma, rtol=1e-12)
        assert s.sigma.max() == pytest.approx(level, rel=1e-12)


@pytest.mark.parametrize("make", [gen.expanded_octahedron, gen.dome, gen.truncated_tetrahedron])
def test_minimal_grounding_removes_exactly_the_rigid_motions(make):
    from tensegrity_id import rigid_body_modes

    s = make()
    assert s.fixed.sum() == 6
    R = rigid_body_modes(s.nodes)
    assert np.linalg.matrix_rank(R[~s.free_mask]) == 6
