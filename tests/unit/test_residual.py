"""The EOM residual (the paper's Eq. 6): verification rows of Table 2 and closed-form properties."""

import numpy as np
import pytest
import torch
from tensegrity_id import build_structure
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.identify.residual import (
    Residual,
    smoothing_bias,
    verify_against_simulator,
    verify_on_record,
)
from tensegrity_id.mechanics.cables import fischer_burmeister, smoothed_force_density, smoothing_peak_bias
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate
from tensegrity_id.mechanics.statics import support_reactions

PRISM = {
    "generator": "prism",
    "params": {"n_bars": 3, "twist_deg": 45.0, "radius": 1.0, "height": 1.0, "gravity": 9.81},
    "prestress": {"method": "lp", "sigma_min": 1.0},
}


@pytest.fixture(scope="module")
def prism45():
    return build_structure("prism45", PRISM)


@pytest.fixture
def structure(request):
    """The structure fixture named by the parameter (``x1`` from conftest, ``prism45`` above)."""
    return request.getfixturevalue(request.param)


def _record(s, drive, amplitude, t_end=3.0):
    f = forcing_from_spec(
        s, {"forcing": "harmonic", "drive": drive, "amplitude": amplitude, "frequency": 1.0}
    )
    rec = simulate(Dynamics(s), f, t_end=t_end)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd", "lam", "taut")}
    return Dynamics(s), arrays, f, rec


@pytest.mark.parametrize(
    ("structure", "drive", "amp"),
    [("x1", [[1, 1]], 40.0), ("prism45", [[3, 0]], 55.0)],
    indirect=["structure"],
)
def test_residual_matches_simulator_through_slack_states(structure, drive, amp):
    """Table 2 rows 1-2: relative residual <= 1e-12 on simulator states, slack samples included."""
    dyn, rec, f, raw = _record(structure, drive, amp)
    assert raw.n_transitions > 0
    a = verify_against_simulator(dyn, rec, f)
    b = verify_on_record(dyn, rec, f)
    assert a["n_slack_samples"] > 10 and b["n_slack_samples"] > 10
    assert a["relative"] < 1e-12 and b["relative"] < 1e-12


def test_residual_detects_a_wrong_parameter(x1):
    """The check can fail: a 1 % error in one force density leaves a residual far above round-off."""
    dyn, rec, f, _ = _record(x1, [[1, 1]], 10.0)
    res = Residual(dyn)
    q, qd = (torch.as_tensor(rec[k][:, dyn.free]) for k in ("q", "qd"))
    qdd, lam = torch.as_tensor(rec["qdd"][:, dyn.free]), torch.as_tensor(rec["lam"])
    fe = torch.as_tensor(np.array([f(t, dyn.q0.size) for t in rec["t"]]))
    sigma = torch.as_tensor(dyn.params.sigma).clone()
    sigma[1] *= 1.01
    r = res.eom(q, qd, qdd, lam, fe, sigma, torch.tensor(1.0))
    assert float(r.abs().max()) > 0.1  # N


def test_force_densities_enter_the_residual_linearly(x1):
    """dr/dsigma_k is closed-form: with EA fixed, r is affine in sigma on a taut state."""
    dyn, rec, f, _ = _record(x1, [[1, 1]], 10.0, t_end=1.0)
    res = Residual(dyn)
    i = 60
    q = torch.as_tensor(rec["q"][i : i + 1, dyn.free])
    qd = torch.as_tensor(rec["qd"][i : i + 1, dyn.free])
    qdd = torch.as_tensor(rec["qdd"][i : i + 1, dyn.free])
    lam = torch.as_tensor(rec["lam"][i : i + 1])
    s0 = torch.as_tensor(dyn.params.sigma)

    def r(sig):
        return res.eom(q, qd, qdd, lam, None, sig, torch.tensor(1.0))[0]

    e = torch.zeros(4, dtype=torch.float64)
    e[2] = 1.0
    d1, d2 = r(s0 + e) - r(s0), r(s0 + 3 * e) - r(s0)
    np.testing.assert_allclose(d2.numpy(), 3 * d1.numpy(), rtol=1e-9, atol=1e-12)
    assert float(d1.abs().max()) > 1e-3


def test_smoothed_law_bias_closed_form_and_below_one_percent_on_x1(x1):
    """Table 2 row 3: peak bias K ln2/beta, < 1 % of sigma on X1 at beta = 800."""
    s = x1
    dyn = Dynamics(s)
    out = smoothing_bias(dyn, 800.0)
    np.testing.assert_allclose(out["peak_bias_N_per_m"], smoothing_peak_bias(dyn.K, 800.0), rtol=1e-6)
    assert 0.008 < out["max_relative"] < 0.01
    assert out["strain_overshoot"] == pytest.approx(8.66e-4, rel=1e-3)
    # far inside the taut range the smoothed law equals the exact one to round-off
    length = dyn.L0 * 1.1
    exact = dyn.K * (1 - dyn.L0 / length)
    np.testing.assert_allclose(smoothed_force_density(length, dyn.K, dyn.L0, 800.0), exact, rtol=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "zero"),
    [(0.0, 0.5, True), (0.7, 0.0, True), (0.3, 0.2, False), (-0.1, 0.0, False), (0.0, -1e-3, False)],
)
def test_fischer_burmeister_zero_set_is_the_complementarity_law(a, b, zero):
    assert (abs(fischer_burmeister(a, b)) < 1e-15) == zero


def test_tension_law_reproduces_the_exact_law_with_elastic_tensions(x1):
    """The complementarity treatment's cable term equals the exact law when T = sigma(l) l."""
    dyn, rec, f, _ = _record(x1, [[1, 1]], 40.0)
    res = Residual(dyn)
    q, qd = (torch.as_tensor(rec[k][:, dyn.free]) for k in ("q", "qd"))
    sigma, c = torch.as_tensor(dyn.params.sigma), torch.tensor(1.0)
    K, L0 = res.members(sigma)
    length = ((res.Cc @ res.nodes(q)) ** 2).sum(-1) ** 0.5
    T = torch.clamp(K * (length - L0), min=0.0)
    a = res.cable_forces(q, qd, sigma, c, law="exact")
    b = res.cable_forces(q, qd, sigma, c, law="tension", tension=T)
    assert float((a - b).abs().max()) < 1e-12
    ncp = res.ncp(q, T, sigma, tension_scale=10.0, slack_scale=torch.full((4,), 0.05, dtype=torch.float64))
    assert float(ncp.abs().max()) < 1e-9  # the elastic tensions satisfy complementarity


@pytest.mark.parametrize("structure", ["x1", "prism45"], indirect=True)
def test_member_maps_are_the_incidence_products(structure):
    """Member vectors from the free coordinates equal C x to the bit (each entry x_b - x_a, rounded
    once); the nodal forces on the free coordinates equal the free part of -C^T (w s) to rounding."""
    from tensegrity_id.mechanics.cables import nodal_cable_forces

    dyn = Dynamics(structure)
    res = Residual(dyn, dtype=torch.float32)
    g = torch.Generator().manual_seed(0)
    q_f = res.q0_free + 0.05 * torch.randn(3, 7, dyn.n_free, generator=g)
    for members, C in (("cables", res.Cc), ("bars", res.Cb)):
        s_ref = C @ res.nodes(q_f)
        assert torch.equal(res.member_vectors(q_f, members), s_ref)
        w = torch.randn(s_ref.shape[:-1], generator=g)
        f_ref = nodal_cable_forces(C, s_ref, w)
        f_ref = f_ref.reshape(f_ref.shape[:-2] + (-1,))[..., dyn.free]
        got = res.member_forces(s_ref, w, members)
        tol = 4 * torch.finfo(torch.float32).eps * float(f_ref.abs().max())
        assert float((got - f_ref).abs().max()) <= tol
        rate = res.member_rates(q_f - res.q0_free, members)
        assert torch.equal(rate, C @ res.velocities(q_f - res.q0_free))


@pytest.mark.parametrize("structure", ["x1", "prism45"], indirect=True)
def test_supported_rows_balance_at_rest_and_free_rows_equal_eom(structure):
    """eom_all: at rest in the reference equilibrium, with the static bar multipliers and support
    reactions (statics.support_reactions), every row, supports included, is zero to round-off; a 1 %
    error in a reaction shows in its row only; on a record's states its free rows are eom's bit for bit."""
    dyn, rec, f, _ = _record(structure, [[1, 1]] if structure.name == "x1" else [[3, 0]], 10.0, t_end=1.0)
    res = Residual(dyn)
    n_free = dyn.n_free
    z = torch.zeros(1, n_free, dtype=torch.float64)
    sigma, lam = torch.as_tensor(structure.sigma), torch.as_tensor(structure.bar_sigma)[None]
    R = support_reactions(structure, structure.sigma, structure.bar_sigma)
    assert R.shape == (dyn.q0.size - n_free,) and np.abs(R).max() > 1.0  # N: the supports carry the weight
    r = res.eom_all(res.q0_free[None], z, z, lam, torch.as_tensor(R)[None], None, sigma, torch.tensor(1.0))
    scale = float(np.abs(structure.gravity_force).max() + np.abs(R).max())
    assert r.shape == (1, dyn.q0.size) and float(r.abs().max()) < 1e-12 * scale
    R_bad = R.copy()
    R_bad[0] *= 1.01
    r = res.eom_all(
        res.q0_free[None], z, z, lam, torch.as_tensor(R_bad)[None], None, sigma, torch.tensor(1.0)
    )
    assert float(r[0, n_free].abs()) == pytest.approx(0.01 * abs(R[0]), rel=1e-9)
    assert float(r[0, n_free + 1 :].abs().max()) < 1e-12 * scale
    q, qd = (torch.as_tensor(rec[k][:, dyn.free]) for k in ("q", "qd"))
    qdd, lam = torch.as_tensor(rec["qdd"][:, dyn.free]), torch.as_tensor(rec["lam"])
    fe = torch.as_tensor(np.array([f(t, dyn.q0.size) for t in rec["t"]]))
    reactions = torch.zeros(q.shape[0], dyn.q0.size - n_free, dtype=torch.float64)
    full = res.eom_all(q, qd, qdd, lam, reactions, fe, sigma, torch.tensor(1.0))
    assert torch.equal(full[:, :n_free], res.eom(q, qd, qdd, lam, fe, sigma, torch.tensor(1.0)))


def test_a_cable_between_supports_enters_only_the_supported_rows(x1):
    """The X1 base cable joins the two pinned nodes: d r / d sigma_base is exactly zero on the free rows
    and not on the supported ones, so with the support rows in the loss (the paper's full multiplier
    vector) the optimiser moves it (it drifts), while the free rows alone never would."""
    dyn = Dynamics(x1)
    res = Residual(dyn)
    base = int(np.flatnonzero(np.all(~x1.free_mask.reshape(x1.n_nodes, -1)[x1.cables], axis=(1, 2)))[0])
    sigma = torch.as_tensor(x1.sigma).clone().requires_grad_(True)
    z = torch.zeros(1, dyn.n_free, dtype=torch.float64)
    R = torch.as_tensor(support_reactions(x1, x1.sigma, x1.bar_sigma))[None]
    lam = torch.as_tensor(x1.bar_sigma)[None]
    r = res.eom_all(res.q0_free[None], z, z, lam, R, None, sigma, torch.tensor(1.0))
    g_free = torch.autograd.grad(r[0, : dyn.n_free].sum(), sigma, retain_graph=True)[0]
    g_fixed = torch.autograd.grad(r[0, dyn.n_free :].abs().sum(), sigma)[0]
    assert float(g_free[base]) == 0.0 and float(g_fixed[base].abs()) > 0.1  # m: the cable's length
