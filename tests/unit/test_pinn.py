"""Physics-informed identification: one-pass derivatives, training, checkpoints, configuration."""

import re

import numpy as np
import pytest
import torch
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.base import IdentificationProblem, RecordData, get_method
from tensegrity_id.identify.pinn import PINNDivergenceError, PINNSettings, PINNTrainer
from tensegrity_id.identify.pinn.net import PINNNet, derivatives_autograd
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.excitation import Forcing
from tensegrity_id.mechanics.simulate import simulate
from tensegrity_id.workflow.config_check import ConfigError, check_config

PROTOCOL = {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}


def _record(s, amplitude, name="r"):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": amplitude, "frequency": 1.0}
    f = forcing_from_spec(s, spec)
    rec = simulate(Dynamics(s), f)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    return s, RecordData(name, f, sensor_data(s, arrays, PROTOCOL), arrays, rec.n_transitions)


@pytest.fixture(scope="module")
def taut(x1):
    return _record(x1, 10.0)


def _trainer(taut, **kw):
    s, rd = taut
    return PINNTrainer(s, [rd], PINNSettings(**{"log_every": 0, **kw}), seed=0, lambda0=s.bar_sigma)


def test_one_pass_derivatives_match_autograd(rng):
    """Forward-mode (d, d', d'') equals the autograd loop to 1e-10 (relative, float64)."""
    torch.manual_seed(0)
    net = PINNNet(4, 2, np.zeros(2), n_desc=2)
    for p in net.parameters():  # give the zero-initialised heads real weights
        torch.nn.init.normal_(p, std=0.3)
    tau = torch.as_tensor(rng.uniform(0, 1, (37, 1)))
    desc = torch.as_tensor(rng.uniform(0, 1, (37, 2)))
    d0, d1, d2, _, _ = net(tau, desc)
    r0, r1, r2 = derivatives_autograd(net, tau, desc)
    for a, b in ((d0, r0), (d1, r1), (d2, r2)):
        assert float((a - b).abs().max().detach() / b.abs().max().detach()) < 1e-10


def test_hard_initial_conditions_and_equilibrium_start(taut):
    tr = _trainer(taut)
    for p in tr.net.disp.parameters():
        torch.nn.init.normal_(p, std=1.0)
    d0, d1, _, lam, _ = tr.net(torch.zeros(1, 1, dtype=tr.dtype))
    assert (
        float(d0.detach().abs().max()) == 0.0 and float(d1.detach().abs().max()) == 0.0
    )  # q(0) = q0, q'(0) = 0
    np.testing.assert_allclose(lam[0].detach().numpy(), taut[0].bar_sigma, rtol=1e-6)  # static multipliers


@pytest.mark.slow
def test_short_run_lowers_loss_and_moves_sigma_toward_truth(x1):
    """300 steps on the X1 slack-transition record: the loss falls, sigma approach the exact values."""
    s, rd = _record(x1, 40.0)
    tr = PINNTrainer(
        s, [rd], PINNSettings(steps=300, log_every=0, history_every=10), seed=0, lambda0=s.bar_sigma
    )
    tr.train()
    h = tr.history
    assert np.mean([r["L_total"] for r in h[-5:]]) < 0.75 * np.mean([r["L_total"] for r in h[:5]])
    sig = tr.parameters_now()["sigma"]
    start = np.abs(10.0 - s.sigma[1:]).sum()
    assert np.abs(sig[1:] - s.sigma[1:]).sum() < 0.95 * start
    assert sig[0] == pytest.approx(10.0, rel=1e-12)  # the inert base cable receives no gradient


@pytest.mark.slow
def test_resume_from_checkpoint_reproduces_the_run(taut, tmp_path):
    """A run stopped at step 60 and resumed by a fresh trainer ends bit-identical to an unbroken run."""
    for treatment in ("smooth", "event"):
        kw = {"steps": 120, "checkpoint_every": 30, "treatment": treatment, "event_every": 40}
        ref = _trainer(taut, **kw)
        ref.train()
        ck = tmp_path / f"{treatment}.pt"
        _trainer(taut, **kw).train(checkpoint=ck, until=60)
        again = _trainer(taut, **kw)
        again.train(checkpoint=ck)
        assert again.step == 120
        assert torch.equal(ref.log_sigma, again.log_sigma) and torch.equal(ref.log_c, again.log_c)
        for a, b in zip(ref.net.parameters(), again.net.parameters(), strict=True):
            assert torch.equal(a, b)
        assert ref.history == again.history


def test_checkpoint_of_another_configuration_is_not_resumed(taut, tmp_path):
    ck = tmp_path / "c.pt"
    _trainer(taut, steps=40, checkpoint_every=20).train(checkpoint=ck, until=20)
    other = _trainer(taut, steps=40, lr_params=5e-3)
    other.train(checkpoint=ck, until=1)
    assert other.step == 1


def test_divergence_stops_with_a_clear_message_and_keeps_the_last_checkpoint(taut, tmp_path):
    """A NaN entering the loss at step 25 stops the run; the step-20 checkpoint survives."""
    tr = _trainer(taut, steps=100, checkpoint_every=10)
    forcing = tr.recs[0].forcing
    calls = {"n": 0}

    class Poisoned:
        amplitude, coords, spec = forcing.amplitude, forcing.coords, forcing.spec
        at = Forcing.at  # the real vectorised evaluation, over the poisoned signals

        def signals(self, t):
            calls["n"] += 1
            out = np.asarray(forcing.signals(t), float)
            return out * np.nan if calls["n"] > 25 else out

    tr.recs[0].forcing = Poisoned()
    ck = tmp_path / "run.pt"
    with pytest.raises(
        PINNDivergenceError, match=r"diverged at step 25: non-finite loss .*checkpoint \(step 20\)"
    ):
        tr.train(checkpoint=ck)
    assert torch.load(ck, weights_only=False)["step"] == 20


@pytest.mark.parametrize("treatment", ["fb", "event"])
def test_alternative_treatments_train(taut, treatment):
    tr = _trainer(taut, steps=30, treatment=treatment, history_every=10, event_every=10)
    tr.train()
    assert np.isfinite(tr.parameters_now()["sigma"]).all()
    assert ("L_ncp" in tr.history[-1]) == (treatment == "fb")


def test_event_detection_finds_slack_transitions_of_a_network_solution(x1):
    """Event windows: strain sign changes of the current solution are located in time."""
    s, rd = _record(x1, 40.0)
    tr = PINNTrainer(s, [rd], PINNSettings(treatment="event", log_every=0), seed=0, lambda0=s.bar_sigma)
    true_q = torch.as_tensor(rd.states["q"][:, tr.free] - tr.dyn.q0[tr.free])
    t = rd.states["t"]

    def displacement(tau, desc=None):  # the exact solution in place of the network
        tt = tau[:, 0].numpy() * tr.recs[0].T_ref
        return torch.as_tensor(np.stack([np.interp(tt, t, c) for c in true_q.numpy().T], 1), dtype=tr.dtype)

    tr.net.displacement = displacement
    with torch.no_grad():
        tr.log_sigma.copy_(torch.log(torch.tensor(s.sigma)))
    events = tr.detect_transitions()[0]
    assert abs(len(events) - rd.n_transitions) <= 2
    sampled = tr._collocation(tr.recs[0])
    assert sampled.shape == (256, 1)


def test_multi_record_training_shares_parameters(x1):
    s, a = _record(x1, 6.0, "p6")
    _, b = _record(x1, 14.0, "p14")
    tr = PINNTrainer(s, [a, b], PINNSettings(steps=20, log_every=0), seed=0, lambda0=s.bar_sigma)
    tr.train()
    assert tr.recs[0].desc.numel() == 3 and tr.net.trunk[0].in_features == 17 + 3
    assert tr.predict(1)["q"].shape == (501, 8)


def test_method_interface_reports_the_metrics(taut):
    s, rd = taut
    problem = IdentificationProblem(
        s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": 220.0}, lambda0=s.bar_sigma, seed=0
    )
    out = get_method("pinn_smooth", steps=50, log_every=0).run(problem)
    keys = {"method", "structure", "record", "seed", "steps", "identified", "exact", "errors"}
    keys |= {"inert_members", "reconstruction_pct", "held_out_ratio", "resimulation_pct", "outcome", "wall_s"}
    assert keys <= set(out)
    assert out["inert_members"] == [0] and out["errors"]["sigma_pct"][0] is None
    assert out["resimulation_pct"] is not None and out["held_out_ratio"] > 0
    assert out["_series"]["true"].shape == (501,) and len(out["_history"]) > 0


def test_noise_realisation_depends_on_the_seed(taut):
    sens = taut[1].sensors
    a, b = noise_realization(sens, 0), noise_realization(sens, 3)
    assert np.array_equal(a["noisy"], sens["noisy"]) and not np.array_equal(b["noisy"], sens["noisy"])
    resid = (b["noisy"] - b["clean"]) / b["noise_std"]
    assert 0.8 < resid.std() < 1.2


ROW = {"structure": "x1", "record": "taut_1pt", "protocol": "top_node"}
PINN_ROW = {**ROW, "treatment": "smooth", "steps": 10, "seed": 0}


@pytest.mark.parametrize(
    ("mutate", "field", "detail"),
    [
        (
            lambda c: c["identify"]["pinn"]["settings"].update(widht=64),
            "identify.pinn.settings.widht",
            "unknown key (a misspelling?); known keys here: ",
        ),
        (
            lambda c: c["identify"]["pinn"]["settings"].update(beta=-1.0),
            "identify.pinn.settings.beta",
            "-1.0 is less than or equal to the minimum of 0",
        ),
        (
            lambda c: c["identify"]["pinn"]["settings"].update(steps=10),
            "identify.pinn.settings.steps",
            "unknown key (a misspelling?)",
        ),
        (
            lambda c: c["table5"].update(cases=[{**ROW, "record": "slak_1pt"}]),
            "table5.cases[0]",
            "record 'slak_1pt' of 'x1' is not defined under 'records.x1'",
        ),
        (
            lambda c: c["figures"].update(fig4=[{**PINN_ROW, "protocol": "nosuch"}]),
            "figures.fig4[0]",
            "protocol 'nosuch' is not defined under 'protocols.x1'",
        ),
        (  # the positional rows of the old config format are refused
            lambda c: c["table5"].update(cases=[["x1", "slack_1pt", "top_node"]]),
            "table5.cases[0]",
            "is not of type 'object'",
        ),
        (
            lambda c: c["table9"].update(pinn=[{**PINN_ROW, "stpes": 10}]),
            "table9.pinn[0].stpes",
            "unknown key (a misspelling?)",
        ),
        (
            lambda c: c["table9"].update(baselines=[{"method": "ukf", **ROW, "protocol": "no", "seed": 0}]),
            "table9.baselines[0]",
            "protocol 'no' is not defined under 'protocols.x1'",
        ),
        (
            lambda c: c["grouping"]["x2"]["case"].update(record="nope"),
            "grouping.x2.case",
            "record 'nope' of 'x2' is not defined under 'records.x2'",
        ),
        (
            lambda c: c.update(tabel5={}),
            "tabel5",
            "unknown key (a misspelling?); known keys here: ",
        ),
    ],
)
def test_malformed_identification_config_names_the_field(repo, mutate, field, detail):
    import yaml

    cfg = yaml.safe_load((repo / "config/config.yaml").read_text())
    check_config(cfg, repo / "config/schema.yaml")  # the default config passes before the change
    mutate(cfg)
    with pytest.raises(ConfigError, match=re.escape(f"config field '{field}': ")) as info:
        check_config(cfg, repo / "config/schema.yaml")
    assert detail in str(info.value) and "\n" not in str(info.value)


def test_axial_stiffness_can_be_identified_jointly(taut):
    s, rd = taut
    problem = IdentificationProblem(
        s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": float(s.cable_EA.mean())}, lambda0=s.bar_sigma
    )
    out = get_method("pinn_smooth", steps=30, log_every=0, identify_EA=True, EA0=300.0).run(problem)
    assert out["identified"]["EA"] != pytest.approx(300.0) and "EA_pct" in out["errors"]
    assert out["errors"]["EA_pct"] == pytest.approx(
        100 * abs(out["identified"]["EA"] - out["exact"]["EA"]) / out["exact"]["EA"]
    )
