"""The quaternion model of Cefalo and Mirats-Tur alone, and against the Cartesian simulator (Table 2)."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from tensegrity_id import Structure, build_structure
from tensegrity_id.mechanics.crosscheck import crosscheck, run_crosschecks, transition_agreement
from tensegrity_id.mechanics.dynamics import consistent_mass_matrix
from tensegrity_id.mechanics.excitation import make_forcing
from tensegrity_id.mechanics.quaternion import ClassOneError, QuaternionModel, simulate_quaternion


def free_bar(L=1.3):
    """One free bar in space, no cables, no gravity."""
    nodes = [[0.1, -0.2, 0.3], [0.1 + L * 0.6, -0.2 + L * 0.8, 0.3]]
    return Structure(
        "free_bar", nodes, [(0, 1)], [], np.zeros((2, 3), bool), free_standing=True, sigma=[], bar_sigma=[0.0]
    )


def pinned_bar(theta0, L=1.4):
    """A uniform bar pinned at node 0 in the x-z plane, at angle theta0 from the downward vertical."""
    nodes = [[0.0, 0.0, 0.0], [L * np.sin(theta0), 0.0, -L * np.cos(theta0)]]
    fixed = np.zeros((2, 3), bool)
    fixed[0] = True
    return Structure("pinned_bar", nodes, [(0, 1)], [], fixed, gravity=9.81, sigma=[], bar_sigma=[0.0])


def test_free_bar_keeps_its_momenta_and_unit_norm():
    """Torque-free rigid bar: centre at constant velocity, constant angular momentum, |e| = 1."""
    s = free_bar()
    model = QuaternionModel(s)
    b0 = s.nodes[1] - s.nodes[0]
    w = 2.0 * np.cross(b0, [0.0, 0.0, 1.0]) / np.linalg.norm(b0)  # spin normal to the bar, rad/s
    V = np.array([0.3, -0.1, 0.2])
    v0 = np.array([V - np.cross(w, b0) / 2, V + np.cross(w, b0) / 2])
    rec = simulate_quaternion(model, None, t_end=4.0, dt_out=0.05, v0=v0, rtol=1e-11, atol=1e-13)
    centre = rec.x.mean(axis=1)
    np.testing.assert_allclose(centre, s.nodes.mean(axis=0) + rec.t[:, None] * V, atol=1e-9)
    # angular momentum about the centre, J_t (b x b') / l^2 for a slender bar
    b = rec.x[:, 1] - rec.x[:, 0]
    bd = rec.v[:, 1] - rec.v[:, 0]
    H = np.cross(b, bd)
    np.testing.assert_allclose(H, H[0] + 0 * H, atol=1e-9 * np.abs(H[0]).max())
    # exact solution: uniform rotation about w
    ang = np.linalg.norm(w) * rec.t
    k = w / np.linalg.norm(w)
    rot = (
        b0 * np.cos(ang)[:, None]
        + np.cross(k, b0) * np.sin(ang)[:, None]
        + np.outer(1 - np.cos(ang), k * (k @ b0))
    )
    assert np.abs(b - rot).max() < 1e-8
    assert rec.norm_drift.max() < 1e-9
    assert rec.energy_error() < 1e-9


def test_pinned_bar_pendulum_matches_minimal_coordinate_ode():
    """theta'' = -(3 g / 2 L) sin(theta) for a uniform rod rotating about its pinned end."""
    L, th0 = 1.4, 0.6
    model = QuaternionModel(pinned_bar(th0, L))
    rec = simulate_quaternion(model, None, t_end=3.0, dt_out=0.05, rtol=1e-11, atol=1e-13)
    ref = solve_ivp(
        lambda t, y: [y[1], -1.5 * 9.81 / L * np.sin(y[0])],
        (0, 3.0),
        [th0, 0.0],
        t_eval=rec.t,
        rtol=1e-13,
        atol=1e-13,
    )
    theta = np.arctan2(rec.x[:, 1, 0], -rec.x[:, 1, 2])
    assert np.abs(theta - ref.y[0]).max() < 1e-8
    assert np.abs(rec.x[:, 1, 1]).max() == 0.0  # in-plane torques keep the motion planar exactly
    assert rec.energy_error() < 1e-9


@pytest.mark.parametrize("name", ["hexprism", "prism45"])
def test_kinetic_energy_equals_the_cartesian_consistent_mass(name, rng):
    """m/6 (|x_i'|^2 + x_i'.x_j' + |x_j'|^2) = m |c'|^2/2 + w.J w/2, free and pinned bars alike."""
    spec = {
        "hexprism": {
            "generator": "hexprism",
            "prestress": {"method": "selfstress", "tension": 10.0, "cable": 0},
        },
        "prism45": {
            "generator": "prism",
            "params": {"n_bars": 3, "twist_deg": 45.0, "gravity": 9.81},
            "prestress": {"method": "lp", "sigma_min": 1.0},
        },
    }[name]
    s = build_structure(name, spec)
    model = QuaternionModel(s)
    M = consistent_mass_matrix(s)
    for _ in range(3):
        v = rng.normal(size=s.nodes.shape)
        v[s.fixed] = 0.0
        y = model.state_from_nodes(s.nodes, v)
        X, V, _ = model.kinematics(y)  # the rigid part of v (bar stretch removed)
        T_cart = 0.5 * V.ravel() @ M @ V.ravel()
        T_quat = model.energies(y, np.ones(s.n_cables, bool))[0]
        assert abs(T_quat - T_cart) < 1e-13 * T_cart


def test_axial_inertia_does_not_enter(x1):
    """The bar radius (axial moment m r^2/2) leaves the motion unchanged: no axial torque, no spin."""
    f = make_forcing("harmonic", [3], amplitude=40.0, frequency=1.0)
    thin = x1.with_changes(bar_mass=x1.bar_masses, bar_radius=x1.bar_radius / 10)
    a = simulate_quaternion(QuaternionModel(x1), f, t_end=1.0)
    b = simulate_quaternion(QuaternionModel(thin), f, t_end=1.0)
    assert np.abs(a.x - b.x).max() < 1e-12


def test_energy_balance_through_transitions(x1):
    f = make_forcing("harmonic", [3], amplitude=40.0, frequency=1.0)
    rec = simulate_quaternion(QuaternionModel(x1), f, t_end=2.0)
    assert rec.n_transitions >= 6
    assert rec.energy_error() < 1e-8
    assert rec.norm_drift.max() < 1e-9
    assert rec.taut.all(axis=1).sum() < len(rec.t)  # slack samples exist


def test_cartesian_simulator_agrees_with_the_quaternion_model_on_x1(x1):
    """The Table 2 cross-check on a short slack X1 record (the paper's 1e-14 is state derivatives)."""
    f = make_forcing("harmonic", [3], amplitude=40.0, frequency=1.0)
    out = crosscheck(x1, f, t_end=1.2, rtol=1e-10, atol=1e-12)
    assert out["derivatives"]["max_rel"] < 1e-13
    assert out["positions"]["max_diff_rel"] < 1e-7
    tr = out["transitions"]
    assert tr["same_sequence"] and tr["cartesian"] >= 4
    assert tr["max_time_diff_s"] < 1e-8
    assert max(out["energy_error_rel"].values()) < 1e-8
    summary = run_crosschecks(
        [{"structure": x1, "record": "r", "source": "suite", "forcing": f, "t_end": 0.3, "dt_out": 0.01}],
        solver={"method": "DOP853", "rtol": 1e-10, "atol": 1e-12, "max_step": 0.05},
        stride=5,
        tolerance={"position_rel": 1e-7, "derivative_rel": 1e-12, "transition_time_s": 1e-6},
    )["summary"]
    assert summary["passed"] and summary["n_records"] == 1


def test_a_loose_tolerance_fails_the_crosscheck(x1):
    """The verdict can fail: the same comparison at a tolerance below its floor is flagged."""
    f = make_forcing("harmonic", [3], amplitude=10.0, frequency=1.0)
    summary = run_crosschecks(
        [{"structure": x1, "record": "r", "source": "suite", "forcing": f, "t_end": 0.3, "dt_out": 0.01}],
        solver={"method": "RK45", "rtol": 1e-5, "atol": 1e-7, "max_step": 0.05},
        stride=5,
        tolerance={"position_rel": 1e-9, "derivative_rel": 1e-12, "transition_time_s": 1e-6},
    )["summary"]
    assert not summary["passed"] and summary["max_position_diff_rel"] > 1e-9


def test_transition_sequences_that_differ_are_reported():
    out = transition_agreement([0.1, 0.2], [3, 1], [0.1, 0.2, 0.3], [3, 2, 1])
    assert out == {"cartesian": 2, "quaternion": 3, "same_sequence": False, "max_time_diff_s": 0.0}


def test_structures_outside_the_class_one_scope_are_named(x2):
    with pytest.raises(ClassOneError, match="node 2 joins bars 1 and 2"):
        QuaternionModel(x2)
    cell = build_structure("class1_cell", {"generator": "class1_cell", "prestress": {"method": "selfstress"}})
    with pytest.raises(ClassOneError, match="some but not all coordinates supported"):
        QuaternionModel(cell)
