"""The structure object rejects invalid definitions with messages naming the field."""

import numpy as np
import pytest
from tensegrity_id import Structure, StructureError
from tensegrity_id.mechanics.generators import xframe


def square(**kw):
    nodes = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    fixed = np.zeros((4, 2), bool)
    fixed[[0, 2]] = True
    args = dict(
        name="sq", nodes=nodes, bars=[(0, 3), (1, 2)], cables=[(0, 2), (1, 3), (0, 1), (2, 3)], fixed=fixed
    )
    args.update(kw)
    return Structure(**args)


def test_valid_structure_properties():
    s = square()
    assert (s.dim, s.n_nodes, s.n_bars, s.n_cables, s.n_free) == (2, 4, 2, 4, 4)
    np.testing.assert_allclose(s.bar_lengths, np.sqrt(2), rtol=1e-15)
    # bar mass = rho * pi r^2 L with the benchmark bar (r = 5 cm, 500 kg/m^3)
    np.testing.assert_allclose(s.bar_masses, 500 * np.pi * 0.05**2 * np.sqrt(2), rtol=1e-15)


def test_arrays_are_immutable():
    s = square()
    with pytest.raises(ValueError):
        s.nodes[0, 0] = 3.0


@pytest.mark.parametrize(
    "change, message",
    [
        ({"bars": [(0, 7), (1, 2)]}, r"bars\[0\] = \(0, 7\) refers to node 7"),
        ({"cables": [(0, 2), (1, 3), (0, 1), (2, 2)]}, r"cables\[3\] joins node 2 to itself"),
        ({"cables": [(0, 2), (1, 3), (0, 1), (3, 0)]}, r"cables\[3\] duplicates bars\[0\]"),
        ({"nodes": np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 0.0], [1.0, 1.0]])}, r"zero-length member"),
        ({"nodes": np.array([[0.0, np.nan], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])}, r"non-finite value"),
        ({"fixed": np.zeros((4, 2), bool)}, r"no coordinate is supported.*free_standing"),
        ({"cable_EA": [1.0, 1.0, -1.0, 1.0]}, r"cable_EA\[2\] must be > 0"),
        ({"cable_damping": [1.0, 1.0]}, r"cable_damping' has shape \(2,\), expected \(4,\)"),
        ({"sigma": [1.0, -2.0, 1.0, 1.0]}, r"sigma\[1\] = -2 N/m is negative"),
        ({"name": "Bad Name"}, r"lower-case"),
    ],
)
def test_invalid_structures_are_rejected(change, message):
    with pytest.raises(StructureError, match=message):
        square(**change)


def test_orphan_node_named():
    nodes = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    fixed = np.zeros((5, 2), bool)
    fixed[0] = True
    with pytest.raises(StructureError, match="node 4 has no members"):
        Structure("o", nodes, [(0, 3)], [(0, 1), (1, 2), (2, 3)], fixed)


def test_free_standing_may_have_no_supports():
    s = square(fixed=np.zeros((4, 2), bool), free_standing=True)
    assert s.n_free == 8


def test_member_convention_makes_reference_an_equilibrium_of_the_cable_law():
    """K = EA/L + sigma and L0 = L(1 - sigma/K) give sigma = K(1 - L0/L) exactly."""
    s = xframe(1).with_prestress([25.0, 52.2, 25.0, 25.0], [-52.2, -52.2])
    L = s.cable_lengths
    np.testing.assert_allclose(s.cable_K * (1 - s.cable_L0 / L), s.sigma, rtol=1e-14)
    assert (s.cable_L0 < L).all()


def test_gravity_force_is_half_bar_weight_per_end():
    s = xframe(1)
    G = s.gravity_force.reshape(4, 2)
    w = s.bar_masses[0] * 9.81
    np.testing.assert_allclose(G[:, 1], -w / 2 * np.ones(4), rtol=1e-15)  # each node ends one bar
    assert np.all(G[:, 0] == 0)
    np.testing.assert_allclose(G.sum(), -s.bar_masses.sum() * 9.81, rtol=1e-15)


def test_digest_changes_with_geometry():
    a, b = xframe(1), xframe(1, module_height=1.1)
    assert a.digest() != b.digest() and a == xframe(1)
