"""The spring-rod example of Wang, Aanjaneya and Bekris: forward model checks and the first-principles
regression."""

import numpy as np
import pytest
from tensegrity_id.identify.base import get_method
from tensegrity_id.identify.springrod import (
    SpringRod,
    black_box_fit,
    example_table,
    make_trajectories,
    regress_ratios,
    run_example,
)


def _energy(m, y):
    xe, ve, _ = m.ends(y[:3], y[6:10], y[3:6], y[10:13])
    stretch, _, _ = m.spring_geometry(xe, ve)
    return 0.5 * m.M * y[3:6] @ y[3:6] + 0.5 * (m.I * y[10:13] ** 2).sum() + 0.5 * m.K * (stretch**2).sum()


def test_equilibrium_is_at_rest_and_springs_at_their_rest_lengths():
    m = SpringRod()
    y0 = np.r_[np.zeros(6), 1.0, 0.0, 0.0, 0.0, np.zeros(3)]
    xe, ve, _ = m.ends(y0[:3], y0[6:10], y0[3:6], y0[10:13])
    stretch, _, _ = m.spring_geometry(xe, ve)
    assert np.abs(stretch).max() < 1e-3  # 1.414 vs sqrt(2): 2e-4 m
    assert np.abs(m.rhs(0.0, y0)[3:6]).max() < 0.05  # |K * 2e-4 / M|


def test_undamped_motion_conserves_energy_and_the_quaternion_norm():
    m = SpringRod(c=0.0)
    y = make_trajectories(1, 1500, 1e-3, seed=4, model=m)[0]
    e = np.array([_energy(m, s) for s in y[::100]])
    assert np.ptp(e) / e[0] < 1e-7
    assert np.abs(np.linalg.norm(y[:, 6:10], axis=1) - 1).max() < 1e-6
    m2 = SpringRod()
    y2 = m2.simulate(y[0], 1500, 1e-3)
    assert _energy(m2, y2[-1]) < 0.5 * _energy(m2, y2[0])  # damping dissipates


def test_regression_recovers_the_ratios_within_the_seeds_5_percent():
    # one-step (semi-implicit Euler) targets on RK45 data: c/M carries a bias of about (K/M) dt / 2
    trajs = make_trajectories(3, 800, 1e-3, seed=0)
    r = regress_ratios(trajs, 1e-3)
    assert r["K_over_M"] == pytest.approx(10.0, rel=0.01) and r["c_over_M"] == pytest.approx(1.0, rel=0.01)
    wrong = regress_ratios(make_trajectories(2, 800, 1e-3, seed=0, model=SpringRod(K=50.0)), 1e-3)
    assert wrong["K_over_M"] == pytest.approx(5.0, rel=0.01)  # the regression follows the data


def test_black_box_least_squares_from_a_near_guess():
    traj = make_trajectories(1, 400, 1e-3, seed=1)[0]
    f = black_box_fit(traj, 1e-3, "lbfgsb", x0=(90.0, 9.0), max_evals=200)
    assert f["K"] == pytest.approx(100.0, rel=0.02) and f["n_evaluations"] > 3
    with pytest.raises(ValueError, match="unknown black-box method"):
        black_box_fit(traj, 1e-3, "nelder")


def test_unknown_method_option_is_refused_with_its_name():
    with pytest.raises(ValueError, match="alpa.*known: alpha"):
        get_method("ukf", alpa=1.0)


def test_example_summary_and_table_on_a_tiny_setting():
    s = run_example(
        {
            "n_trajectories": 2,
            "n_steps": 300,
            "black_box": {"n_trajectories": 1, "n_steps": 100, "max_evals": 12},
        }
    )
    assert s["regression"]["success"] and set(s["black_box"]) == {"lbfgsb", "cmaes"}
    df = example_table(s)
    assert df["method"].tolist()[0].startswith("First-principles") and len(df) == 3
    assert df["K_mean"].iloc[0] == pytest.approx(100.0, rel=0.01)  # 600 pairs, 30 Adam epochs: 0.12 %
