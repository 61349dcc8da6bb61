"""Model-form generators (the paper's §S6): each verified on its own, not against the matched model."""

import numpy as np
import pytest
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.mechanics.dynamics import Dynamics, consistent_mass_matrix
from tensegrity_id.mechanics.elastic_bars import ElasticBarModel, elastic_frequencies, simulate_elastic
from tensegrity_id.mechanics.modal import constrained_modes, truss_frequencies
from tensegrity_id.mechanics.model_form import (
    cable_mass_matrix,
    perturbed_mass_matrix,
    record_change,
    simulate_generator,
)
from tensegrity_id.mechanics.simulate import simulate

SIM = {"t_end": 1.0, "dt_out": 0.01, "rtol": 1e-8, "atol": 1e-8, "method": "RK45"}
BAR_AREA = np.pi * 0.05**2


def _forcing(structure, amplitude=10.0):
    return forcing_from_spec(
        structure, {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": amplitude, "frequency": 1.0}
    )


def test_perturbed_mass_is_spd_and_changes_each_free_mass_by_at_most_five_percent(x1):
    M0 = consistent_mass_matrix(x1)
    M, u = perturbed_mass_matrix(x1, max_rel=0.05, seed=3)
    free = x1.free_mask
    assert np.allclose(M, M.T, rtol=0, atol=1e-14)
    assert np.linalg.eigvalsh(M[np.ix_(free, free)]).min() > 0
    assert np.abs(u).max() <= 0.05 and np.abs(u[free]).max() > 0.02  # drawn, not degenerate
    np.testing.assert_allclose(np.diag(M)[free] / np.diag(M0)[free] - 1.0, u[free], rtol=1e-12, atol=1e-15)
    assert np.all(u[~free] == 0)
    M2, _ = perturbed_mass_matrix(x1, max_rel=0.05, seed=3)
    assert np.array_equal(M, M2)  # seeded


@pytest.mark.parametrize("distribution", ["lumped", "consistent"])
def test_cable_mass_totals_and_the_consistent_chords_coupling_third(x1, distribution):
    M, info = cable_mass_matrix(x1, mass_fraction=0.012, distribution=distribution)
    dM = (M - consistent_mass_matrix(x1))[:: x1.dim, :: x1.dim]  # one axis, node by node
    assert info["cable_mass_kg"] == pytest.approx(0.012 * x1.bar_masses.sum(), rel=1e-12)
    assert dM.sum() == pytest.approx(info["cable_mass_kg"], rel=1e-12)  # total translational mass
    off = dM.sum() - np.trace(dM)
    assert off == pytest.approx(info["cable_mass_kg"] / 3 if distribution == "consistent" else 0.0, abs=1e-12)
    # X1: 4 m of 1 mm cable carrying 1.2 % of 11.1 kg of bars -> 10.6 t/m^3 (reported, not assumed)
    assert info["density_kg_m3"] == pytest.approx(
        0.012 * x1.bar_masses.sum() / 4.0 / (np.pi * 1e-6), rel=1e-9
    )


def test_dynamics_rejects_a_nonsymmetric_mass_matrix(x1):
    M = consistent_mass_matrix(x1)
    M[0, 1] += 1.0
    with pytest.raises(ValueError, match="symmetric"):
        Dynamics(x1, mass=M)


def test_elastic_bar_frequencies_converge_to_the_rigid_ones_as_one_over_EA(x1):
    rigid = constrained_modes(Dynamics(x1))[0]
    errs = []
    for E in (1e8, 1e9, 1e10):
        f = elastic_frequencies(ElasticBarModel(x1, EA_bar=E * BAR_AREA))
        # the model's own (finite-difference) stiffness equals the element-assembled truss to 1e-7
        np.testing.assert_allclose(f, truss_frequencies(x1, EA_bar=E * BAR_AREA, n_lowest=4), rtol=1e-7)
        assert f[2] > 30 * rigid[-1]  # the bar axial modes stand far above the mechanism modes
        errs.append(np.abs(f[:2] / rigid - 1.0).max())
    assert errs[2] < 1e-5
    ratios = np.array(errs[:-1]) / np.array(errs[1:])
    np.testing.assert_allclose(ratios, 10.0, rtol=0.1)  # error ~ 1/EA


def test_elastic_bar_jacobian_matches_finite_differences(x1, rng):
    m = ElasticBarModel(x1, EA_bar=1e10 * BAR_AREA)
    q = m.q0[m.free] + 1e-3 * rng.standard_normal(m.n_free)
    v = 0.1 * rng.standard_normal(m.n_free)
    taut = np.ones(x1.n_cables, bool)
    Jq, Jv = m.jacobian(q, v, taut)
    h, eye = 1e-6, np.eye(m.n_free)
    Fq = np.stack(
        [(m.forces(q + h * e, v, taut)[0] - m.forces(q - h * e, v, taut)[0]) / (2 * h) for e in eye], 1
    )
    Fv = np.stack(
        [(m.forces(q, v + 1e-3 * e, taut)[0] - m.forces(q, v - 1e-3 * e, taut)[0]) / 2e-3 for e in eye], 1
    )
    assert np.abs(Jq - Fq).max() < 1e-6 * np.abs(Fq).max()
    assert np.abs(Jv - Fv).max() < 1e-6 * np.abs(Fv).max()


def test_elastic_bar_record_balances_energy_and_tracks_the_rigid_motion(x1):
    model = ElasticBarModel(x1, EA_bar=1e10 * BAR_AREA)
    f = _forcing(x1)
    rec = simulate_elastic(model, f, t_end=1.0, rtol=1e-8, atol=1e-10, method="LSODA")
    assert rec.checks(model)["max_energy_error_rel"] < 1e-6
    assert rec.q.shape == (101, x1.n_coords) and rec.lam.shape == (101, x1.n_bars)
    np.testing.assert_allclose(rec.lam[0], x1.bar_sigma, rtol=1e-9)  # starts in the prestressed equilibrium
    rigid = simulate(Dynamics(x1), f, **SIM)
    assert record_change(rec, rigid, model.free) < 5e-3  # stiff timber bars: nearly rigid motion


def test_simulate_generator_kinds_and_their_record_changes(x1):
    f = _forcing(x1)
    ref = simulate(Dynamics(x1), f, **SIM)
    tight, dyn, info = simulate_generator(x1, f, {"kind": "tolerance"}, SIM)
    assert info["rtol"] == 1e-13 and record_change(tight, ref, dyn.free) < 1e-5
    lumped, dyn, _ = simulate_generator(x1, f, {"kind": "cable_mass"}, SIM)
    consistent, _, _ = simulate_generator(x1, f, {"kind": "cable_mass", "distribution": "consistent"}, SIM)
    # both change the record; the consistent chord less (the paper: 5.7 against 8.6 %)
    assert record_change(consistent, ref, dyn.free) < record_change(lumped, ref, dyn.free)
    assert record_change(consistent, ref, dyn.free) > 1e-3
    with pytest.raises(ValueError, match="unknown generator kind"):
        simulate_generator(x1, f, {"kind": "flexible"}, SIM)


def test_flexible_bar_residual_vanishes_on_the_elastic_generator_and_trains_in_EA_bar(x1):
    """Table 2 row 6: the residual with elastic bars, written apart from the generator, closes on
    the generator's own state derivatives (slack states included), and its gradient in EA_bar
    is the finite difference of the residual."""
    import torch
    from tensegrity_id.identify.flexible_residual import FlexibleResidual, verify_elastic_against_simulator

    EA = 1e9 * BAR_AREA
    model = ElasticBarModel(x1, EA_bar=EA)
    forcing = _forcing(x1, amplitude=40.0)
    rec = simulate_elastic(model, forcing, t_end=1.0, dt_out=0.01, rtol=1e-9, atol=1e-11, method="LSODA")
    record = {"t": rec.t, "q": rec.q, "qd": rec.qd}
    out = verify_elastic_against_simulator(Dynamics(x1), model, record, forcing)
    assert out["relative"] < 1e-9 and out["n_slack_samples"] > 0 and out["grad_EA_bar_finite"]
    # the floor is round-off in l - L_rest: EA_bar * eps relative to the force scale
    assert out["max_abs_residual_N"] < 100 * EA * np.finfo(float).eps
    # the wrong stiffness leaves a residual: the record carries EA_bar (weakly)
    dyn = Dynamics(x1)
    res = FlexibleResidual(dyn)
    free = dyn.free
    q = torch.as_tensor(rec.q[:, free])
    qd = torch.as_tensor(rec.qd[:, free])
    qdd = torch.as_tensor(rec.qdd[:, free])
    fe = torch.as_tensor(forcing.at(rec.t, dyn.q0.size))
    sig, c = torch.as_tensor(dyn.params.sigma), torch.as_tensor(dyn.params.c)

    def loss(ea):
        r = res.eom_elastic(q, qd, qdd, fe, sig, c, ea, law="exact", taut=torch.as_tensor(rec.taut))
        return (r * r).sum()

    f64 = lambda v: torch.tensor(v, dtype=torch.float64)  # noqa: E731
    ea = torch.tensor(EA * 1.1, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(loss(ea), ea)
    h = 1e-6 * EA
    fd = (loss(f64(EA * 1.1 + h)) - loss(f64(EA * 1.1 - h))) / (2 * h)
    assert float(loss(f64(EA * 1.1))) > 1e3 * float(loss(f64(EA)))
    assert float(g) == pytest.approx(float(fd), rel=1e-5)


def test_band_limiting_removes_most_of_the_bar_stiffness_sensitivity(x1):
    from tensegrity_id.analysis.bar_stiffness import bar_stiffness_sensitivity

    out = bar_stiffness_sensitivity(x1, _forcing(x1), [1e8], t_end=0.5)
    (lv,) = out["levels"]
    assert len(lv["bar_axial_hz"]) == x1.n_bars and lv["cutoff_hz"] == pytest.approx(
        0.5 * min(lv["bar_axial_hz"])
    )
    assert max(lv["mechanism_hz"]) < 0.1 * lv["cutoff_hz"]  # the mechanism band passes the filter
    assert 0.5 < lv["removed_by_band_limit"] < 1.0 and lv["sensitivity_low_rel"] > 0
