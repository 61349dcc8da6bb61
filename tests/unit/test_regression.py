"""Full-state regression baseline (Wang, Aanjaneya and Bekris) and the identification interface."""

import numpy as np
import pytest
from tensegrity_id import METHODS, IdentificationProblem, get_method
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.identify.base import RecordData
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate


def _problem(s, amplitude):
    f = forcing_from_spec(
        s, {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": amplitude, "frequency": 1.0}
    )
    rec = simulate(Dynamics(s), f)
    states = {"t": rec.t, "q": rec.q, "qd": rec.qd, "qdd": rec.qdd}
    return IdentificationProblem(
        structure=s, records=[RecordData("r", f, {}, states)], truth={"sigma": s.sigma, "c": 1.0}
    ), rec


@pytest.mark.parametrize("amplitude", [10.0, 40.0])
def test_full_state_regression_recovers_exact_parameters(x1, amplitude):
    """Exact states, taut or through 20 transitions: sigma and c to round-off; base cable undetermined."""
    problem, rec = _problem(x1, amplitude)
    out = get_method("regression").run(problem)
    assert out.identified.sigma[0] is None and out.identifiable == [1, 2, 3]
    assert out.errors.sigma_max_pct < 1e-9 and out.errors.c_pct < 1e-9
    assert out.inert_members == [0] and out.errors.sigma_pct[0] is None
    assert out.n_forward_simulations == 0 and out.n_hyperparameters == 1
    assert (amplitude > 15) == (rec.n_transitions > 0)


def test_regression_degrades_gracefully_with_noisy_accelerations(x1, rng):
    problem, _ = _problem(x1, 10.0)
    qdd = problem.states["qdd"]
    noisy = qdd + 0.02 * np.sqrt((qdd**2).mean(axis=0)) * rng.standard_normal(qdd.shape)
    problem.records[0].states = {**problem.states, "qdd": noisy}
    out = get_method("regression").run(problem)
    assert out.errors.sigma_max_pct < 5.0  # full-state upper bound stays accurate at 2 % noise


def test_registry_rejects_unknown_method():
    assert "regression" in METHODS
    with pytest.raises(KeyError, match="unknown identification method 'nope'"):
        get_method("nope")
