"""Levenberg-Marquardt shooting over (log sigma, log c) with the forward solver."""

import numpy as np
import pytest
from tensegrity_id import IdentificationProblem, RecordData, get_method
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate


def _slack(s, t_end):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": 40.0, "frequency": 1.0}
    f = forcing_from_spec(s, spec, t_end=t_end)
    rec = simulate(Dynamics(s), f, t_end=t_end)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    sens = noise_realization(
        sensor_data(s, arrays, {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}), 0
    )
    rd = RecordData("slack", f, sens, arrays, rec.n_transitions)
    assert rec.n_transitions > 5
    return IdentificationProblem(s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": 220.0})


@pytest.fixture(scope="module")
def slack_problem(x1):
    return _slack(x1, 3.0)


@pytest.mark.slow
def test_lm_shooting_recovers_a_slack_record_from_a_moderate_start(slack_problem):
    out = get_method("lm_shooting", starts=[[30.0, 1.0]], xtol=1e-6, ftol=1e-6).run(slack_problem)
    assert out.errors.sigma_max_pct < 2.0 and out.errors.c_pct < 2.0
    assert out.spurious_minimum is False and 0.5 < out.chi2 < 2.0  # at the noise floor
    assert out.n_forward_simulations > 6 and out.n_hyperparameters == 2
    assert out.inert_members == [0] and out.held_out_ratio == pytest.approx(1.0, abs=0.5)


@pytest.mark.slow
def test_lm_shooting_flags_a_minimum_far_above_the_noise_floor(x1):
    """On the 5 s slack record the paper's distant guess (10 N/m, 0.3 N s/m) with a 1e-3 difference step
    heads for a local minimum far above the noise floor; the flag needs no exact parameters."""
    out = get_method("lm_shooting", max_nfev=10, diff_step=1e-3).run(_slack(x1, 5.0))
    assert out.spurious_minimum is True and out.chi2 > 100
    assert len(out.starts) == 1 and out.starts[0].start == [10.0, 0.3]
    assert np.isfinite(out.identified.c)
