"""Identifiability: structural counts, Fisher information, CRLB, grouping."""

import numpy as np
import pytest
from tensegrity_id import build_structure, equilibrium_matrix
from tensegrity_id.analysis.identifiability import (
    acceleration_sensitivities,
    first_order_identifiability,
    fisher_information,
    group_information,
    summarise_fisher,
)
from tensegrity_id.data.records import drive_coords, forcing_from_spec
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate


@pytest.fixture(scope="module")
def x1_fisher(x1):
    s = x1
    ch = drive_coords(s, [[1, 0], [1, 1]])
    f = forcing_from_spec(s, {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 10.0, "frequency": 1.0})
    S, th, names = acceleration_sensitivities(s, f, ch)
    a = simulate(Dynamics(s), f).qdd[:, ch]
    std = 0.02 * np.sqrt((a**2).mean(axis=0))
    return s, S, th, names, std


def test_fisher_is_symmetric_psd(x1_fisher):
    _, S, _, _, std = x1_fisher
    J = fisher_information(S, std)
    assert np.array_equal(J, J.T)
    assert np.linalg.eigvalsh(J).min() > -1e-9 * np.abs(J).max()


def test_doubly_restrained_member_has_exactly_zero_column(x1_fisher):
    _, S, _, names, _ = x1_fisher
    assert names[0] == "sigma_0" and np.all(S[..., 0] == 0.0)
    assert np.abs(S[..., 1:]).max() > 0


def test_x1_taut_bounds_match_seed(x1_fisher):
    """The paper's §3.3: CRLB 0.013-0.030 N/m (sigma) and 0.0026 N s/m (c); condition ~1.9e2."""
    _, S, th, names, std = x1_fisher
    r = summarise_fisher(fisher_information(S, std), th, names)
    assert r.null_members == ["sigma_0"] and len(r.near_null) == 1 and r.near_null[0].members == ["sigma_0"]
    b = [r.crlb[f"sigma_{k}"] for k in (1, 2, 3)]
    assert 0.012 < min(b) < 0.014 and 0.029 < max(b) < 0.031
    assert r.crlb["c"] == pytest.approx(0.0026, abs=1e-4)
    assert 170 < r.condition_identifiable < 210


def test_linear_gaussian_crlb_equals_closed_form(rng):
    """y_t = A_t theta + e_t, e ~ N(0, diag(s^2)): J = sum A^T S^-2 A, CRLB = sqrt(diag J^-1)."""
    S = rng.standard_normal((50, 3, 4))
    std = np.array([0.5, 1.0, 2.0])
    J = fisher_information(S, std)
    ref = sum(A.T @ np.diag(std**-2) @ A for A in S)
    np.testing.assert_allclose(J, ref, rtol=1e-12)
    theta = np.array([1.0, 2.0, 3.0, 4.0])
    r = summarise_fisher(J, theta, ["a", "b", "c", "d"])
    np.testing.assert_allclose(list(r.crlb.values()), np.sqrt(np.diag(np.linalg.inv(ref))), rtol=1e-10)


def test_silent_channels_are_left_out(rng):
    S = rng.standard_normal((20, 3, 2))
    S[:, 2] = 0.0
    J = fisher_information(S, np.array([1.0, 1.0, 0.0]))
    np.testing.assert_allclose(J, fisher_information(S[:, :2], np.array([1.0, 1.0])))


def test_grouping_removes_a_null_direction_only_across_its_support():
    """Null direction (1, -1, 0): grouping members 0 and 1 removes it; grouping 1 and 2 does not."""
    v1, v2 = np.array([1.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    J = np.outer(v1, v1) + np.outer(v2, v2)  # null vector (1, -1, 0)
    assert np.linalg.eigvalsh(J).min() == pytest.approx(0.0, abs=1e-14)
    tie01 = group_information(J, [[1, 1, 0], [0, 0, 1]])
    assert np.linalg.eigvalsh(tie01).min() > 0.5
    tie12 = group_information(J, [[1, 0, 0], [0, 1, 1]])
    assert np.linalg.eigvalsh(tie12).min() > 0.1  # (1,-1,0) not in the row space
    keep = group_information(J, np.eye(3))
    assert np.linalg.eigvalsh(keep).min() == pytest.approx(0.0, abs=1e-14)


def test_initial_acceleration_sensitivity_matches_analytic(x1_fisher):
    """At t = 0 (rest at q0) the acceleration is linear in sigma: dq''/dsigma = P M^-1 A_c."""
    s, S, _, _, _ = x1_fisher
    dyn = Dynamics(s)
    x = dyn.full(dyn.q0[dyn.free])
    J = dyn.constraint_jacobian(x)[:, dyn.free]
    Minv = dyn.Minv
    P = np.eye(dyn.n_free) - Minv @ J.T @ np.linalg.solve(J @ Minv @ J.T, J)
    Ac = equilibrium_matrix(s)[dyn.free][:, s.n_bars :]
    analytic = (P @ Minv @ Ac)[[0, 1]]  # free coords 0, 1 = node 1 (x, y)
    np.testing.assert_allclose(S[0, :, :4], analytic, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("x1", (3, [0], 0)),
        ("x2", (6, [], 1)),
        ("x3", (9, [], 1)),
        ("t4_prism", (8, [0, 1, 2, 3], 0)),
        ("two_stage_tower", (18, [0, 1, 2], 0)),
        ("expanded_octahedron", (24, [], 0)),
        ("dome", (12, [], 0)),
    ],
)
def test_structural_identifiability_table_s3(name, expected, x1_spec, x2_spec):
    specs = {
        "x1": x1_spec,
        "x2": x2_spec,
        "x3": {"generator": "xframe", "params": {"n_modules": 3}},
        "t4_prism": {
            "generator": "prism",
            "params": {"n_bars": 4},
            "prestress": {"method": "selfstress", "scale": 1},
        },
        "two_stage_tower": {"generator": "two_stage_tower", "prestress": {"method": "lp", "sigma_min": 1.0}},
        "expanded_octahedron": {
            "generator": "expanded_octahedron",
            "prestress": {"method": "selfstress", "scale": 1},
        },
        "dome": {"generator": "dome", "prestress": {"method": "selfstress", "scale": 1}},
    }
    spec = {"prestress": {"method": "lp", "sigma_min": 25.0}, **specs[name]}
    r = first_order_identifiability(build_structure(name, spec))
    assert (r.resolvable, r.invisible, r.n_combinations) == expected


def test_x2_static_gram_spectrum_and_routed_group():
    """The paper's §3.3: Gram eigenvalues {0,1,1,1,2,2,3}; a routed group of three cables lifts the 0 to 1."""
    from tensegrity_id.mechanics.generators import xframe

    s = xframe(2)
    A = equilibrium_matrix(s)[s.free_mask][:, s.n_bars :]
    gram = A.T @ A
    np.testing.assert_allclose(np.linalg.eigvalsh(gram), [0, 1, 1, 1, 2, 2, 3], atol=1e-12)
    routed = (0, 1, 5)  # the cables meeting at base node 2: both base-chord cables and its vertical
    others = [k for k in range(7) if k not in routed]
    G = np.zeros((5, 7))
    G[0, list(routed)] = 1.0
    for i, k in enumerate(others):
        G[i + 1, k] = 1.0
    assert np.linalg.eigvalsh(group_information(gram, G)).min() == pytest.approx(1.0, abs=1e-12)
