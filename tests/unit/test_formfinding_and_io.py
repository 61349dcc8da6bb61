"""Form finding, structure files and the config check."""

import json

import numpy as np
import pytest
import yaml
from tensegrity_id import (
    StructureFileError,
    build_structure,
    counts,
    force_density_matrix,
    load_structure,
    save_structure,
    structure_from_report,
    structure_report,
)
from tensegrity_id.mechanics import generators as gen
from tensegrity_id.mechanics.catalog import GENERATORS
from tensegrity_id.workflow.config_check import ConfigError, check_config


@pytest.mark.parametrize(
    "make",
    [gen.expanded_octahedron, gen.truncated_tetrahedron, gen.class1_cell, gen.dome, gen.octahedral_cell],
)
def test_free_standing_forms_are_superstable(make):
    """Stress matrix PSD with nullity d + 1 = 4 at the form's self-stress."""
    s = build_structure(
        make.__name__, {"generator": make.__name__, "prestress": {"method": "lp", "sigma_min": 1.0}}
    )
    q = np.concatenate([s.bar_sigma, s.sigma])
    w = np.linalg.eigvalsh(force_density_matrix(s.n_nodes, s.members, q))
    scale = np.abs(w).max()
    assert (np.abs(w[:4]) < 1e-9 * scale).all() and w[4] > 1e-6 * scale
    assert (s.bar_sigma < 0).all() and (s.sigma > 0).all()


@pytest.mark.parametrize("make", [gen.truncated_tetrahedron, gen.class1_cell, gen.dome, gen.octahedral_cell])
@pytest.mark.parametrize("flip", [1.0, -1.0], ids=["rotated", "reflected"])
def test_form_found_coordinates_do_not_depend_on_the_eigenvector_basis(make, flip, monkeypatch):
    """A form is found up to an orthogonal map: any orthonormal eigenvectors of the null space, which
    LAPACK chooses differently on different machines.  Eigenvectors rotated (or reflected) within the
    null space give the same nodes, as the node frame (formfinding.node_frame) is unchanged by both."""
    from tensegrity_id.mechanics import formfinding

    expect = make().nodes
    Q = np.linalg.qr(np.random.default_rng(7).standard_normal((3, 3)))[0]
    Q = Q * np.sign(np.linalg.det(Q)) * np.array([1.0, 1.0, flip])
    eigh = np.linalg.eigh

    def other_basis(a):
        w, V = eigh(a)
        V = V.copy()
        V[:, :3] = V[:, :3] @ Q
        return w, V

    monkeypatch.setattr(formfinding.np.linalg, "eigh", other_basis)
    np.testing.assert_allclose(make().nodes, expect, atol=1e-12)
    if make is not gen.dome:  # (the dome is turned apex up afterwards)
        assert expect[0, 1:] == pytest.approx([0.0, 0.0], abs=1e-15) and expect[0, 0] > 0  # node 0 on +x


def test_expanded_octahedron_classical_geometry():
    """Strut length 2a, parallel struts 2b = a apart; cables all of length sqrt(3/2) a."""
    s = gen.expanded_octahedron(bar_length=2.0)
    np.testing.assert_allclose(s.bar_lengths, 2.0, rtol=1e-14)
    np.testing.assert_allclose(s.cable_lengths, np.sqrt(1.5), rtol=1e-14)


def test_hexprism_rebuilt_from_published_values():
    s = build_structure(
        "hexprism",
        {"generator": "hexprism", "prestress": {"method": "selfstress", "tension": 10.0, "cable": 0}},
    )
    T = s.cable_tension
    np.testing.assert_allclose(T[:12], 10.0, rtol=1e-9)  # two ring groups at the design 10 N
    np.testing.assert_allclose(T[12:], 11.88, rtol=1e-9)  # published vertical-cable tension
    prestretch = s.cable_lengths - s.cable_L0
    np.testing.assert_allclose(prestretch.min(), 14.4e-3, rtol=1e-9)
    np.testing.assert_allclose(s.bar_masses, 0.0423)
    assert counts(s).s == 1


@pytest.mark.parametrize("name", ["x1", "prism45", "dome", "hexprism"])
def test_structure_file_round_trip(tmp_path, name, x1_spec):
    specs = {
        "x1": x1_spec,
        "prism45": {
            "generator": "prism",
            "params": {"twist_deg": 45.0, "gravity": 9.81},
            "prestress": {"method": "lp", "sigma_min": 1.0},
        },
        "dome": {"generator": "dome", "prestress": {"method": "selfstress", "scale": 10.0}},
        "hexprism": {"generator": "hexprism", "prestress": {"method": "selfstress", "scale": 10.0}},
    }
    s = build_structure(name, specs[name])
    for suffix in (".yaml", ".json"):
        path = tmp_path / f"{name}{suffix}"
        save_structure(s, path)
        back = load_structure(path)
        assert back == s and back.digest() == s.digest()
    rep = json.loads(json.dumps(structure_report(s)))
    assert structure_from_report(rep) == s
    assert rep["counts"] == counts(s).as_dict()


@pytest.mark.parametrize(
    "doc, message",
    [
        (
            {
                "name": "a",
                "nodes": [[0, 0], [1, 0]],
                "bars": [],
                "cables": [[0, 1]],
                "pinned": [0],
                "colour": 1,
            },
            r"field '\(top level\)': Additional properties are not allowed \('colour'",
        ),
        (
            {"name": "a", "nodes": [[0, 0], [1, 0]], "bars": [], "cables": [[0, "x"]], "pinned": [0]},
            r"field 'cables\[0\]\[1\]': 'x' is not of type 'integer'",
        ),
        (
            {"name": "a", "nodes": [[0, 0], [1, 0]], "bars": [], "cables": [[0, 1]]},
            r"no coordinate is supported",
        ),
        (
            {"name": "a", "nodes": [[0, 0], [1, 0]], "bars": [], "cables": [[0, 1]], "pinned": [4]},
            r"field 'pinned\[0\]': node 4 does not exist",
        ),
        (
            {"name": "a", "nodes": [[0, 0], [1, 0, 2]], "bars": [], "cables": [[0, 1]], "pinned": [0]},
            r"field 'nodes': every node needs the same number",
        ),
        ({"nodes": [[0, 0], [1, 0]], "bars": [], "cables": [[0, 1]]}, r"'name' is a required property"),
    ],
)
def test_malformed_structure_files(tmp_path, doc, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(StructureFileError, match=message) as info:
        load_structure(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_structure_file_not_yaml(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("nodes: [[0, 0]\n")
    with pytest.raises(StructureFileError, match="not valid YAML"):
        load_structure(path)


def test_shipped_example_structure_loads(repo):
    s = load_structure(repo / "resources/structures/example_x1.yaml")
    assert counts(s).as_dict() == {"n_free": 4, "n_members": 6, "rank_A": 4, "s": 2, "m": 0}


def _config(repo):
    return yaml.safe_load((repo / "config/config.yaml").read_text())


def test_default_config_passes(repo):
    check_config(_config(repo), repo / "config/schema.yaml")


@pytest.mark.parametrize(
    "mutate, message",
    [
        (
            lambda c: c["structures"]["x1"]["prestress"].update(sigma_min=-1),
            r"'structures.x1.prestress.sigma_min': -1 is less than or equal to the minimum of 0",
        ),
        (
            lambda c: c["structures"]["x1"]["prestress"].update(method="magic"),
            r"'structures.x1.prestress.method': 'magic' is not one of",
        ),
        (
            lambda c: c["structures"]["x1"].update(generator="blob"),
            r"'structures.x1.generator': unknown generator",
        ),
        (
            lambda c: c["structures"]["x1"]["params"].update(n_module=2),
            r"'structures.x1.params.n_module': generator 'xframe' takes no parameter",
        ),
        (lambda c: c["build"].append("nope"), r"'build\[\d+\]': 'nope' is not defined"),
        (
            lambda c: c["structures"].update(mine={"file": "no/such.yaml"}),
            r"'structures.mine.file': no such file",
        ),
        (
            lambda c: c["assessment"]["steel"].pop("sizing"),
            r"'assessment.steel': give the sections \(cable_area",
        ),
        (
            lambda c: c["assessment"]["steel"]["sizing"].update(U_c=1.5),
            r"'assessment.steel.sizing.U_c': 1.5 is greater than the maximum of 1",
        ),
        (
            lambda c: c["assessment"]["steel"]["structures"].append("x9"),
            r"'assessment.steel.structures\[1\]': 'x9' is not defined",
        ),
    ],
)
def test_bad_config_values_named(repo, mutate, message):
    cfg = _config(repo)
    mutate(cfg)
    with pytest.raises(ConfigError, match=message) as info:
        check_config(cfg, repo / "config/schema.yaml")
    assert "\n" not in str(info.value)


def test_every_generator_builds_in_default_config(repo):
    cfg = _config(repo)
    used = {spec.get("generator") for spec in cfg["structures"].values()}
    assert used <= set(GENERATORS) and len(used) == len(GENERATORS)
