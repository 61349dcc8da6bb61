"""The octahedral cell of Table S3: its counts, and why the free coordinates determine 23 of its 24
cables here (the paper: 24 of 24).

The paper gives no geometry for the cell; the form-found one (mechanics.generators.octahedral_cell)
has the paper's rank A = 28, s = 2 and m = 2, but one of its two self-stresses is carried by the
cables alone.  That combination of all 24 cables loads no node, so it is undetermined whatever the
sensors, the grounding, the prestress or the rank tolerance.
"""

import numpy as np
import pytest
from tensegrity_id import build_structure
from tensegrity_id.analysis.identifiability import first_order_identifiability
from tensegrity_id.mechanics import generators as gen
from tensegrity_id.mechanics.statics import RANK_TOL, counts, equilibrium_matrix, self_stress_basis

SPEC = {"generator": "octahedral_cell", "prestress": {"method": "lp", "sigma_min": 10.0}}


@pytest.fixture(scope="module")
def cell():
    return gen.octahedral_cell()


def test_counts_are_the_papers(cell):
    c = counts(cell)
    assert (c.n_free, c.n_members, c.rank_A, c.s, c.m) == (30, 30, 28, 2, 2)
    assert (cell.n_bars, cell.n_cables) == (6, 24)


def test_23_of_24_cables_are_determined_one_combination_of_all_24_is_not(cell):
    r = first_order_identifiability(cell)
    assert r.resolvable == 23 and r.n_cables == 24  # the paper: 24/24
    assert r.invisible == [] and r.n_combinations == 1 and r.n_cable_self_stresses == 1
    v = np.asarray(r.combinations[0])
    # every cable takes part with the same weight: no single cable is the undetermined one
    np.testing.assert_allclose(np.abs(v), 1 / np.sqrt(24), atol=1e-9)
    # the sign alternates around each family of six cables (odd under the 60 deg turn)
    fam = v.reshape(4, 6) * np.sign(v[0])
    np.testing.assert_allclose(fam[:, ::2], -fam[:, 1::2], atol=1e-9)
    # a self-stress of the cables alone: no force at any coordinate, free or grounded
    A = equilibrium_matrix(cell)
    assert np.abs(A[:, cell.n_bars :] @ v).max() < 1e-12 * np.abs(A).max()


def test_the_cable_self_stress_is_one_of_the_two_self_stresses(cell):
    S = self_stress_basis(cell)
    bar_block = np.linalg.svd(S[: cell.n_bars], compute_uv=False)
    # the two self-stresses span one bar-force pattern only: one of them has no bar force
    assert bar_block[0] > 0.1 and bar_block[1] < 1e-12


def test_not_the_tolerance_and_not_the_prestress(cell):
    A = equilibrium_matrix(cell)[cell.free_mask][:, cell.n_bars :]
    sv = np.linalg.svd(A, compute_uv=False) / np.linalg.norm(A, 2)
    assert sv[-1] < 1e-14 and sv[-2] > 0.1  # 2.6e-16 against 0.19: any tolerance in between gives 23
    for tol in (1e-12, RANK_TOL, 1e-3, 1e-2):
        assert first_order_identifiability(cell, tol=tol).resolvable == 23
    prestressed = build_structure("octahedral_cell", SPEC)  # as the config builds it
    assert (prestressed.sigma > 0).all() and first_order_identifiability(prestressed).resolvable == 23


def test_the_other_free_standing_forms_carry_no_cable_self_stress():
    for make in (gen.expanded_octahedron, gen.class1_cell, gen.truncated_tetrahedron, gen.dome):
        r = first_order_identifiability(make())
        assert r.resolvable == r.n_cables and r.n_cable_self_stresses == 0, make.__name__
    x2 = first_order_identifiability(gen.xframe(2))  # a combination that only loads the supports
    assert x2.n_combinations == 1 and x2.n_cable_self_stresses == 0
