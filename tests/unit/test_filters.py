"""Recursive baselines: the unscented filter against a closed-form Kalman filter, particle tools, X1 runs."""

import numpy as np
import pytest
from tensegrity_id import IdentificationProblem, RecordData, get_method
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.filters import (
    UnscentedFilter,
    bound_eigenvalues,
    effective_sample_size,
    normalise_log_weights,
    rk4_step,
    scaled_sigma_weights,
    sym_sqrt,
    systematic_resample,
)
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate

# ------------------------------------------------------------------ linear toy
K_, C_, M_ = 40.0, 0.6, 2.0  # N/m, N s/m, kg
A_ = np.array([[0.0, 1.0], [-K_ / M_, -C_ / M_]])


def _force(t):
    return 3.0 * np.sin(2.0 * np.pi * 0.7 * t)


def _acc(q, v, t):
    return (-K_ * q - C_ * v + _force(t)) / M_


def test_ukf_on_a_linear_spring_mass_matches_the_closed_form_kalman_filter():
    """The unscented transform is exact for a linear model: every mean and covariance equals the KF's."""
    h, n_sub, nt = 0.02, 2, 150
    rng = np.random.default_rng(3)
    # measured accelerations of a noisy trajectory
    q, v = np.array([[0.05]]), np.array([[0.0]])
    ys = []
    for k in range(nt):
        if k:
            q, v = rk4_step(_acc, q, v, (k - 1) * h, h, n_sub)
        ys.append(_acc(q, v, k * h)[0] + 0.05 * rng.standard_normal(1))
    Q = np.diag([1e-8, 1e-5])
    R = np.array([[0.05**2]])

    def fx(X, k):
        a, b = rk4_step(_acc, X[:, :1], X[:, 1:], (k - 1) * h, h, n_sub)
        return np.hstack([a, b])

    def hx(X, k):
        return _acc(X[:, :1], X[:, 1:], k * h)

    ukf = UnscentedFilter(fx, hx, Q, R, alpha=1.0, beta=2.0, kappa=1.0)
    # closed form: RK4 of a linear ODE is affine, x+ = Phi x + g_k, with Phi the degree-4 Taylor polynomial
    dt = h / n_sub
    phi1 = sum(np.linalg.matrix_power(dt * A_, j) / np.prod(range(1, j + 1)) for j in range(5))
    Phi = np.linalg.matrix_power(phi1, n_sub)
    H = np.array([[-K_ / M_, -C_ / M_]])
    x_u, P_u = np.array([0.0, 0.0]), np.diag([0.1**2, 0.1**2])
    x_k, P_k = x_u.copy(), P_u.copy()
    for k in range(nt):
        if k:
            x_u, P_u = ukf.predict(x_u, P_u, k)
            g = np.concatenate(
                rk4_step(_acc, np.zeros((1, 1)), np.zeros((1, 1)), (k - 1) * h, h, n_sub), axis=1
            )[0]
            x_k, P_k = Phi @ x_k + g, Phi @ P_k @ Phi.T + Q
        x_u, P_u = ukf.update(x_u, P_u, ys[k], k)
        S = H @ P_k @ H.T + R
        G = P_k @ H.T @ np.linalg.inv(S)
        x_k = x_k + G @ (ys[k] - (H @ x_k + _force(k * h) / M_))
        P_k = P_k - G @ S @ G.T
        np.testing.assert_allclose(x_u, x_k, rtol=1e-8, atol=1e-11)
        np.testing.assert_allclose(P_u, P_k, rtol=1e-7, atol=1e-14)
    assert abs(x_k[0] - q[0, 0]) < 5e-3  # and the filter tracks the true state


def test_scaled_sigma_weights_and_matrix_helpers():
    lam, Wm, Wc = scaled_sigma_weights(4, 0.5, 2.0, 0.0)
    assert Wm.sum() == pytest.approx(1.0, abs=1e-12) and lam == pytest.approx(0.25 * 4 - 4)
    assert Wc[0] == pytest.approx(Wm[0] + 1 - 0.25 + 2.0)
    P = np.array([[4.0, 1.0], [1.0, 3.0]])
    S = sym_sqrt(P)
    np.testing.assert_allclose(S @ S, P, atol=1e-12)
    np.testing.assert_allclose(S, S.T)
    w = np.linalg.eigvalsh(bound_eigenvalues(np.diag([1e-20, 5.0, 1e4]), 1e-10, 1e2))
    np.testing.assert_allclose(w, [1e-10, 5.0, 1e2])


def test_rk4_step_is_fourth_order():
    def err(n_sub):
        q, v = rk4_step(lambda q, v, t: -q, np.array([[1.0]]), np.array([[0.0]]), 0.0, 1.0, n_sub)
        return abs(q[0, 0] - np.cos(1.0))

    assert err(8) / err(16) == pytest.approx(16.0, rel=0.05)


# --------------------------------------------------------------- particle tools
def test_log_weights_normalise_even_for_huge_log_likelihoods():
    w = normalise_log_weights([-1e5, -1e5 + 2.0, -2e5])
    assert w.sum() == pytest.approx(1.0, abs=1e-15) and np.all(w >= 0)
    assert w[1] / w[0] == pytest.approx(np.exp(2.0))


def test_effective_sample_size():
    assert effective_sample_size(np.full(400, 1 / 400)) == pytest.approx(400.0)
    one_hot = np.zeros(400)
    one_hot[7] = 1.0
    assert effective_sample_size(one_hot) == pytest.approx(1.0)
    assert effective_sample_size([0.5, 0.25, 0.25]) == pytest.approx(1 / 0.375)


def test_systematic_resampling_keeps_the_expected_counts():
    w = np.array([0.5, 0.25, 0.125, 0.125])
    for seed in range(5):
        c = np.bincount(systematic_resample(w, np.random.default_rng(seed)), minlength=4)
        assert c[0] == 2 and c[1] == 1 and c[2] + c[3] == 1  # floor(N w) copies, the rest by one draw
    counts = np.bincount(systematic_resample(np.full(8, 1 / 8), np.random.default_rng(1)), minlength=8)
    assert counts.tolist() == [1] * 8


# --------------------------------------------------------------- X1 problems
def _x1(s, amplitude, t_end):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": amplitude, "frequency": 1.0}
    f = forcing_from_spec(s, spec, t_end=t_end)
    rec = simulate(Dynamics(s), f, t_end=t_end)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    sens = noise_realization(
        sensor_data(s, arrays, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}), 0
    )
    rd = RecordData("rec", f, sens, arrays, rec.n_transitions)
    return IdentificationProblem(s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": 220.0})


def test_batched_accelerations_equal_the_single_state_solve(x1):
    p = _x1(x1, 40.0, 2.0)
    d = Dynamics(p.structure)
    S = p.states
    idx = np.arange(0, len(S["t"]), 9)
    Q, V = S["q"][idx][:, d.free], S["qd"][idx][:, d.free]
    F = p.forcing.at(S["t"][idx], d.q0.size)
    batch = d.accelerations_batch(Q, V, d.K[None], d.L0[None], d.c[None], F)
    single = np.array([d.accelerations(q, v, f)[0] for q, v, f in zip(Q, V, F, strict=True)])
    assert np.abs(batch - single).max() <= 1e-12 * np.abs(single).max()


def test_ukf_identifies_the_taut_x1_record(x1):
    out = get_method("ukf").run(_x1(x1, 10.0, 5.0))
    assert out.errors.sigma_max_pct < 5.0 and out.errors.c_pct < 15.0
    assert len(out.passes) == 3 and out.n_hyperparameters == 11
    assert out.inert_members == [0]


def test_pf_enkf_reports_its_effective_sample_size(x1):
    out = get_method("pf_enkf", n_particles=64).run(_x1(x1, 10.0, 1.0))
    ess = out.ess
    assert len(ess.value) == len(ess.t) > 10 and ess.n_particles == 64
    assert all(1.0 - 1e-9 <= e <= 64 + 1e-9 for e in ess.value)
    assert out.n_hyperparameters == 6 and np.isfinite(out.identified.c)
