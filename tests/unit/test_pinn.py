"""Physics-informed identification: one-pass derivatives, training, batches of seeds, checkpoints,
configuration."""

import json
import logging
import os
import re

import numpy as np
import pytest
import torch
from result_records import make_result
from tensegrity_id.data.records import forcing_from_spec
from tensegrity_id.data.sensors import noise_realization, sensor_data
from tensegrity_id.identify.base import IdentificationProblem, RecordData, get_method
from tensegrity_id.identify.pinn import PINNSettings, PINNTrainer, collocation_points
from tensegrity_id.identify.pinn.compile import cxx_compiler
from tensegrity_id.identify.pinn.net import PINNNet, derivatives_autograd
from tensegrity_id.identify.seeds import seed_group_summary
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate
from tensegrity_id.mechanics.statics import bar_multipliers, support_reactions
from tensegrity_id.results.identification import SeedStats
from tensegrity_id.workflow.config_check import ConfigError, check_config

PROTOCOL = {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}


def _record(s, amplitude, name="r", protocol=PROTOCOL):
    spec = {"forcing": "harmonic", "drive": [[1, 1]], "amplitude": amplitude, "frequency": 1.0}
    f = forcing_from_spec(s, spec)
    rec = simulate(Dynamics(s), f)
    arrays = {k: getattr(rec, k) for k in ("t", "q", "qd", "qdd")}
    return s, RecordData(
        name, f, noise_realization(sensor_data(s, arrays, protocol), 0), arrays, rec.n_transitions
    )


@pytest.fixture(scope="module")
def taut(x1):
    return _record(x1, 10.0)


def _trainer(taut, seeds=0, **kw):
    s, rd = taut
    return PINNTrainer(s, [rd], PINNSettings(**{"log_every": 0, **kw}), seeds=seeds, lambda0=s.bar_sigma)


def _noisy(rd, seeds):
    """One record per seed, each with that seed's noise realisation."""
    return [
        [RecordData(rd.name, rd.forcing, noise_realization(rd.sensors, k), rd.states, rd.n_transitions)]
        for k in seeds
    ]


def test_one_pass_derivatives_match_autograd(rng):
    """Forward-mode (d, d', d'') equals the autograd loop to 1e-10 (relative, float64)."""
    torch.manual_seed(0)
    net = PINNNet(4, 2, np.zeros(2), n_desc=2)
    for p in net.parameters():  # give the zero-initialised heads real weights
        torch.nn.init.normal_(p, std=0.3)
    tau = torch.as_tensor(rng.uniform(0, 1, (1, 37, 1)))
    desc = torch.as_tensor(rng.uniform(0, 1, (1, 37, 2)))
    d0, d1, d2, _, _ = net(tau, desc)
    r0, r1, r2 = derivatives_autograd(net, tau, desc)
    for a, b in ((d0, r0), (d1, r1), (d2, r2)):
        assert float((a - b).abs().max().detach() / b.abs().max().detach()) < 1e-10


def test_hard_initial_conditions_and_equilibrium_start(taut):
    tr = _trainer(taut)
    for p in (tr.net.head_weights[0], tr.net.head_biases[0]):  # the displacement head
        torch.nn.init.normal_(p, std=1.0)
    d0, d1, _, lam, _ = tr.net(torch.zeros(1, 1, 1, dtype=tr.dtype))
    assert (
        float(d0.detach().abs().max()) == 0.0 and float(d1.detach().abs().max()) == 0.0
    )  # q(0) = q0, q'(0) = 0
    nb = taut[0].n_bars  # static multipliers: the bars' force densities, then the support reactions
    np.testing.assert_allclose(lam[0, 0, :nb].detach().numpy(), taut[0].bar_sigma, rtol=1e-6)
    guess = np.full(taut[0].n_cables, tr.init_guess[0])
    reactions = support_reactions(taut[0], guess, bar_multipliers(taut[0], guess))
    assert lam.shape[-1] == nb + tr.res.n_fixed == nb + 4  # X1: two pinned nodes, two coordinates each
    np.testing.assert_allclose(lam[0, 0, nb:].detach().numpy(), reactions, rtol=1e-6, atol=1e-4)


@pytest.mark.slow
def test_short_run_lowers_loss_and_moves_sigma_toward_truth(x1):
    """300 steps on the X1 slack-transition record: the loss falls, sigma approach the exact values."""
    s, rd = _record(x1, 40.0)
    tr = PINNTrainer(
        s, [rd], PINNSettings(steps=300, log_every=0, history_every=10), seeds=0, lambda0=s.bar_sigma
    )
    tr.train()
    h = tr.history[0]
    assert np.mean([r["L_total"] for r in h[-5:]]) < 0.75 * np.mean([r["L_total"] for r in h[:5]])
    sig = tr.parameters_now()[0]["sigma"]
    start = np.abs(10.0 - s.sigma[1:]).sum()
    assert np.abs(sig[1:] - s.sigma[1:]).sum() < 0.95 * start
    # the inert base cable (both ends pinned) enters only the supported rows of the residual, where
    # the support multipliers can balance any value: it moves without a pull toward 25 N/m (it drifts)
    assert abs(sig[0] - 10.0) > 0.1
    free = PINNTrainer(
        s, [rd], PINNSettings(steps=20, log_every=0, residual_rows="free"), seeds=0, lambda0=s.bar_sigma
    )
    free.train()  # on the free rows alone it receives no gradient at all
    assert free.parameters_now()[0]["sigma"][0] == pytest.approx(10.0, rel=1e-12)


@pytest.mark.slow
def test_resume_of_a_batch_reproduces_the_uninterrupted_batch(taut, tmp_path):
    """A batch of two seeds stopped at step 60 and resumed by a fresh trainer ends bit-identical to an
    unbroken batch: parameters, networks, histories."""
    seeds = [0, 4]
    for treatment in ("smooth", "event"):
        kw = {"steps": 120, "checkpoint_every": 30, "treatment": treatment, "event_every": 40}
        ref = _trainer(taut, seeds, **kw)
        ref.train()
        ck = tmp_path / f"{treatment}.pt"
        _trainer(taut, seeds, **kw).train(checkpoint=ck, until=60)
        again = _trainer(taut, seeds, **kw)
        again.train(checkpoint=ck)
        assert again.step == 120
        assert torch.equal(ref.log_sigma, again.log_sigma) and torch.equal(ref.log_c, again.log_c)
        for a, b in zip(ref.net.parameters(), again.net.parameters(), strict=True):
            assert torch.equal(a, b)
        assert ref.history == again.history and len(ref.history) == 2


def test_checkpoint_of_another_configuration_is_not_resumed(taut, tmp_path):
    ck = tmp_path / "c.pt"
    _trainer(taut, steps=40, checkpoint_every=20).train(checkpoint=ck, until=20)
    other = _trainer(taut, steps=40, lr_params=5e-3)
    other.train(checkpoint=ck, until=1)
    assert other.step == 1


@pytest.mark.parametrize(
    "compile",
    [
        False,
        pytest.param(
            True,
            marks=[
                pytest.mark.slow,
                pytest.mark.skipif(cxx_compiler() is None, reason="torch.compile needs a C++ compiler"),
            ],
        ),
    ],
)
def test_nan_in_one_member_stops_that_member_only(taut, caplog, compile):
    """Member 1's data turn NaN at step 25: it stops there with its step-24 parameters kept and says so;
    members 0 and 2 finish exactly as in a batch without the fault.  Compiled, the gradients of all
    members come from one graph and the stopped member's are dropped after it."""
    s, rd = taut
    seeds = [0, 1, 2]
    st = PINNSettings(steps=60, log_every=0, history_every=5, compile=compile)
    ref = PINNTrainer(s, _noisy(rd, seeds), st, seeds=seeds, lambda0=s.bar_sigma)
    ref.train()
    tr = PINNTrainer(s, _noisy(rd, seeds), st, seeds=seeds, lambda0=s.bar_sigma)
    tr.train(until=24)
    kept = tr.parameters_now()[1]
    tr.train(until=25)
    tr.recs[0].a_train[1, 3, 0] = float("nan")
    with caplog.at_level(logging.WARNING):
        tr.train()
    assert tr.diverged[0] is None and tr.diverged[2] is None
    assert tr.diverged[1]["step"] == 25 and tr.diverged[1]["kept_step"] == 24
    assert "non-finite loss" in tr.diverged[1]["reason"] and "seed 1 diverged at step 25" in caplog.text
    now = tr.parameters_now()
    np.testing.assert_array_equal(now[1]["sigma"], kept["sigma"])
    assert now[1]["c"] == kept["c"] and tr.history[1][-1]["step"] == 25  # nothing after the stop
    for m in (0, 2):
        assert tr.history[m] == ref.history[m]
        np.testing.assert_array_equal(now[m]["sigma"], ref.parameters_now()[m]["sigma"])


def test_members_of_a_batch_are_independent(taut):
    """Changing one member's seed leaves the other members' steps unchanged, bit for bit."""
    s, rd = taut
    st = PINNSettings(steps=1000, log_every=0, history_every=5)
    runs = []
    for seeds in ([0, 3, 5], [0, 4, 5]):
        tr = PINNTrainer(s, _noisy(rd, seeds), st, seeds=seeds, lambda0=s.bar_sigma)
        tr.train(until=20)
        runs.append(tr)
    a, b = runs
    for m in (0, 2):
        assert a.history[m] == b.history[m]
        assert torch.equal(a.log_sigma[m], b.log_sigma[m])
        for p, q in zip(a.net.parameters(), b.net.parameters(), strict=True):
            assert torch.equal(p[m], q[m])
    assert a.history[1] != b.history[1]


def test_a_batch_of_one_reproduces_the_single_run_implementation(repo, x1):
    """Against the single-run trainer that preceded batching (commit 7f5bcc9): 60 float64 steps of the
    smoothed and the complementarity treatment, two seeds.  Bit-identical until the step's products
    were rearranged for speed (the residual's nodal forces as one product on the free coordinates,
    the skinny layer products the other way round): the same sums in another order, 7e-16 relative
    on the machine that made the reference (AVX512, this torch), so 1e-13 there; elsewhere BLAS
    kernels may round differently, so 1e-10."""
    ref = json.loads((repo / "tests/data/pinn_single_run_reference.json").read_text())
    s, rd = _record(x1, ref["record"]["amplitude"])
    exact = torch.backends.cpu.get_cpu_capability() == ref["cpu_capability"]
    for run in ref["runs"].values():
        st = PINNSettings(
            treatment=run["treatment"],
            steps=run["steps"],
            dtype="float64",
            log_every=0,
            history_every=10,
            residual_rows="free",  # the single-run trainer's residual: the free coordinates
            fourier="geometric",  # the reading of the reference, the default then
            init="torch",
        )
        tr = PINNTrainer(s, [rd], st, seeds=run["seed"], lambda0=s.bar_sigma)
        tr.train(until=run["until"])
        p = tr.parameters_now()[0]
        got = [*p["sigma"], p["c"], *[r["L_total"] for r in tr.history[0]]]
        want = [*run["sigma"], run["c"], *run["L_total"]]
        np.testing.assert_allclose(got, want, rtol=1e-13 if exact else 1e-10)


def test_the_single_run_is_the_batch_of_one(taut):
    """The method's single run and a batch holding only that problem give the same result record."""
    s, rd = taut
    problem = IdentificationProblem(
        s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": 220.0}, lambda0=s.bar_sigma, seed=2
    )
    method = get_method("pinn_smooth", steps=30, log_every=0)
    one = method.run(problem)
    (batch,) = method.run_batch([problem])
    for key in ("identified", "errors", "held_out_ratio", "reconstruction_pct", "history", "step_mode"):
        assert getattr(one, key) == getattr(batch, key), key
    assert (one.batch.seeds, one.batch.size) == ([2], 1) and one.batch.train_wall_s > 0


def test_a_batch_runs_through_the_method_interface(taut):
    """run_batch: one record per problem, each scored against the same exact values, with its seed."""
    s, rd = taut
    truth = {"sigma": s.sigma, "c": 1.0, "EA": 220.0}
    problems = [
        IdentificationProblem(s, recs, truth=truth, lambda0=s.bar_sigma, seed=k)
        for k, recs in zip((0, 5), _noisy(rd, (0, 5)), strict=True)
    ]
    results = get_method("pinn_smooth", steps=20, log_every=10).run_batch(problems)
    assert [r.seed for r in results] == [0, 5] and results[0].identified != results[1].identified
    assert all(r.batch.seeds == [0, 5] and r.outcome != "diverged" for r in results)
    with pytest.raises(ValueError, match="differs from the first in more than its seed"):
        other = IdentificationProblem(s, [rd], truth=truth, lambda0=s.bar_sigma, seed=1, sigma0=5.0)
        get_method("pinn_smooth", steps=20, log_every=0).run_batch([problems[0], other])


def test_seed_group_summary_against_a_hand_computation():
    def result(seed, sig, c, err, diverged=None):
        return make_result(
            record="r", protocol="p", steps=10, seed=seed, identified={"sigma": sig, "c": c},
            errors={"sigma_pct": [None, err], "sigma_max_pct": err, "sigma_median_pct": err,
                    "c_pct": 2 * err},
            reconstruction_pct=err / 10, held_out_ratio=1.0, held_out_misfit_pct=2.0,
            resimulation_pct=None, outcome="diverged" if diverged else "identified",
            diverged=diverged, exact={"sigma": [10.0, 20.0], "c": 1.0}, wall_s=7.0,
        )  # fmt: skip

    runs = [
        result(0, [10.0, 21.0], 1.1, 5.0),
        result(1, [10.0, 19.0], 0.9, 5.0 + 3.0),
        result(2, [10.0, 22.0], 1.0, 2.0),
    ]
    runs.append(result(3, [10.0, 1e9], 9.0, 1e9, diverged={"step": 3}))
    summ = seed_group_summary(runs)
    assert summ.seeds == [0, 1, 2, 3] and summ.diverged == [3]
    assert summ.wall_s == 28.0  # four runs, each its own job (no batch named): their times summed
    assert summ.outcomes == {"identified": 3, "diverged": 1}
    s1 = summ.parameters["sigma_1"]
    assert s1.mean == pytest.approx(62.0 / 3) and s1.n == 3
    assert s1.std == pytest.approx(np.std([21.0, 19.0, 22.0], ddof=1)) and (s1.min, s1.max) == (19, 22)
    assert summ.errors["sigma_pct_0"] == SeedStats(mean=None, std=None, min=None, max=None, n=0)
    assert summ.errors["c_pct"].mean == pytest.approx(10.0)
    assert summ.fit["resimulation_pct"].n == 0 and summ.fit["reconstruction_pct"].max == 0.8
    one = seed_group_summary(runs[:1])
    assert one.parameters["c"] == SeedStats(mean=1.1, std=None, min=1.1, max=1.1, n=1)
    assert list(one.to_json())[:3] == ["schema", "method", "structure"] and one.variant is None


def test_compile_falls_back_to_the_eager_step_without_a_compiler(taut, monkeypatch, caplog):
    from tensegrity_id.identify.pinn import compile as compile_mod

    monkeypatch.setattr(compile_mod, "cxx_compiler", lambda: None)
    tr = _trainer(taut, steps=10, compile=True)
    with caplog.at_level(logging.WARNING):
        tr.train(until=3)
    assert tr.step_mode == "eager" and "no C++ compiler found" in caplog.text
    ref = _trainer(taut, steps=10)
    ref.train(until=3)
    assert torch.equal(ref.log_sigma, tr.log_sigma)


@pytest.mark.parametrize("treatment", ["fb", "event"])
def test_alternative_treatments_train(taut, treatment):
    tr = _trainer(taut, steps=30, treatment=treatment, history_every=10, event_every=10)
    tr.train()
    assert np.isfinite(tr.parameters_now()[0]["sigma"]).all()
    assert ("L_ncp" in tr.history[0][-1]) == (treatment == "fb")


def test_event_detection_finds_slack_transitions_of_a_network_solution(x1):
    """Event windows: strain sign changes of the current solution are located in time."""
    s, rd = _record(x1, 40.0)
    tr = PINNTrainer(s, [rd], PINNSettings(treatment="event", log_every=0), seeds=0, lambda0=s.bar_sigma)
    true_q = torch.as_tensor(rd.states["q"][:, tr.free] - tr.dyn.q0[tr.free])
    t = rd.states["t"]

    def displacement(tau, desc=None):  # the exact solution in place of the network
        tt = tau[0, :, 0].numpy() * tr.recs[0].T_ref
        d = np.stack([np.interp(tt, t, c) for c in true_q.numpy().T], 1)
        return torch.as_tensor(d, dtype=tr.dtype)[None]

    tr.net.displacement = displacement
    with torch.no_grad():
        tr.log_sigma.copy_(torch.log(torch.tensor(s.sigma))[None])
    events = tr.detect_transitions()[0][0]
    assert abs(len(events) - rd.n_transitions) <= 2
    sampled = collocation_points(tr.recs[0], tr.recs[0].events[0], tr.settings, tr.gens[0], tr.dtype)
    assert sampled.shape == (256, 1)
    near = np.abs(sampled[128:, 0].numpy()[:, None] * tr.recs[0].T_ref - events[None, :]).min(1)
    assert np.median(near) < 3 * tr.settings.event_width  # half the batch sits in the event windows


def test_multi_record_training_shares_parameters(x1):
    s, a = _record(x1, 6.0, "p6")
    _, b = _record(x1, 14.0, "p14")
    tr = PINNTrainer(s, [a, b], PINNSettings(steps=20, log_every=0), seeds=0, lambda0=s.bar_sigma)
    tr.train()
    assert tr.recs[0].desc.numel() == 3 and tr.net.weights[0].shape == (1, 64, 17 + 3)
    assert tr.predict(1)[0]["q"].shape == (501, 8)


def test_method_interface_reports_the_metrics(taut):
    s, rd = taut
    problem = IdentificationProblem(
        s, [rd], truth={"sigma": s.sigma, "c": 1.0, "EA": 220.0}, lambda0=s.bar_sigma, seed=0
    )
    out = get_method("pinn_smooth", steps=50, log_every=0).run(problem)
    keys = {"method", "structure", "record", "seed", "steps", "identified", "exact", "errors"}
    keys |= {"inert_members", "reconstruction_pct", "held_out_ratio", "resimulation_pct", "outcome", "wall_s"}
    assert keys <= set(out.to_json())
    assert out.inert_members == [0] and out.errors.sigma_pct[0] is None
    assert out.resimulation_pct is not None and out.held_out_ratio > 0
    assert out.series["true"].shape == (501,) and len(out.history) > 0


def test_noise_realisation_depends_on_the_seed(taut):
    sens = taut[1].sensors
    a, b = noise_realization(sens, 0), noise_realization(sens, 3)
    assert np.array_equal(a["noisy"], sens["noisy"]) and not np.array_equal(b["noisy"], sens["noisy"])
    assert np.array_equal(noise_realization(sens, 3)["noisy"], b["noisy"])  # one draw per seed
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
            lambda c: c["studies"]["table5"].update(cases=[{**ROW, "record": "slak_1pt"}]),
            "studies.table5.cases[0]",
            "record 'slak_1pt' of 'x1' is not defined under 'records.suite.x1'",
        ),
        (
            lambda c: c["studies"].update(fig4=[{**PINN_ROW, "protocol": "nosuch"}]),
            "studies.fig4[0]",
            "protocol 'nosuch' is not defined under 'records.protocols.x1'",
        ),
        (  # the positional rows of the old config format are refused
            lambda c: c["studies"]["table5"].update(cases=[["x1", "slack_1pt", "top_node"]]),
            "studies.table5.cases[0]",
            "is not of type 'object'",
        ),
        (
            lambda c: c["studies"]["table9"].update(pinn=[{**PINN_ROW, "stpes": 10}]),
            "studies.table9.pinn[0].stpes",
            "unknown key (a misspelling?)",
        ),
        (
            lambda c: c["studies"]["table9"].update(
                baselines=[{"method": "ukf", **ROW, "protocol": "no", "seed": 0}]
            ),
            "studies.table9.baselines[0]",
            "protocol 'no' is not defined under 'records.protocols.x1'",
        ),
        (
            lambda c: c["analysis"]["grouping"]["x2"]["case"].update(record="nope"),
            "analysis.grouping.x2.case",
            "record 'nope' of 'x2' is not defined under 'records.suite.x2'",
        ),
        (
            lambda c: c["studies"].update(tabel5={}),
            "studies.tabel5",
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
    assert out.identified.EA != pytest.approx(300.0) and out.errors.EA_pct is not None
    assert out.errors.EA_pct == pytest.approx(100 * abs(out.identified.EA - out.exact.EA) / out.exact.EA)


@pytest.mark.slow
@pytest.mark.skipif(
    cxx_compiler() is None,
    reason="torch.compile needs a C++ compiler (the eager step is tested everywhere)",
)
@pytest.mark.parametrize("channels, seeds", [([[1, 0], [1, 1]], [0, 1]), ([[1, 1]], [0, 1, 2, 3])])
def test_compiled_step_agrees_with_the_eager_step(x1, channels, seeds):
    """The fused step computes the same loss and gradients as the eager one, to float32 rounding, and
    trains the same: after four steps every parameter within 2e-4 of the eager run's (Adam moves an
    entry by about lr = 1e-3 a step, so an update applied to the wrong entries would show).

    One channel over a batch of seeds is the case TorchInductor miscompiled
    when the channel was picked by an index tensor (a crash; pinn.data.pick_channels).
    """
    taut = _record(x1, 10.0, protocol={**PROTOCOL, "channels": channels})
    tr = _trainer(taut, seeds, steps=100, compile=True, treatment="fb")
    tr.train(until=4)
    assert tr.step_mode == "compiled"
    twin = _trainer(taut, seeds, steps=100, compile=False, treatment="fb")
    twin.train(until=4)
    for a, b in zip(tr.params, twin.params, strict=True):
        assert float((a - b).abs().max()) < 2e-4
    tau, fext = tr.sample()
    values = [p.detach() for p in tr.params]
    terms, grads = tr._compiled(values, tau, fext)  # one graph, by torch.func
    fused = list(grads) + [terms[k].detach() for k in sorted(terms)]
    tr.optimizer.zero_grad(set_to_none=True)
    terms = tr.loss_terms(tau, fext)
    terms["total"].sum().backward()
    eager = [p.grad.clone() for p in tr.params] + [terms[k].detach() for k in sorted(terms)]
    for a, b in zip(fused, eager, strict=True):
        assert float((a - b).abs().max() / b.abs().max().clamp_min(1e-30)) < 1e-4


def test_the_compiled_step_never_returns_a_stale_result(taut, monkeypatch):
    """Every Python value the compiled loss reads, changed between calls on one trainer (a loss
    weight, the smoothing sharpness, the record count, the dtype of the inputs), gives
    the result the eager loss gives for the new values: Dynamo's guards run at every call, nothing
    skips them.  Dynamo's guards do not depend on the backend, so the graph is run by its eager
    backend here (fast; the C++ backend is the slow test above)."""
    import dataclasses

    import tensegrity_id.identify.pinn.compile as comp

    monkeypatch.setattr(
        comp, "compile_loss", lambda fn, log: torch.compile(fn, dynamic=False, backend="eager")
    )
    s, rd = taut
    second = RecordData("second", rd.forcing.scaled(0.5), rd.sensors, rd.states, rd.n_transitions)
    tr = PINNTrainer(
        s,
        [rd, second],
        PINNSettings(log_every=0, steps=50, compile=True, treatment="smooth", beta=50.0),
        seeds=[0, 1],
        lambda0=s.bar_sigma,
    )
    tr.train(until=2)
    assert tr.step_mode == "compiled"
    tau, fext = tr.sample()
    seen, quiet = [], logging.getLogger("quiet")

    def agrees():  # the trainer's own step path against the eager loss
        compiled, _ = tr._run_terms(tau, fext, quiet)
        assert tr.step_mode == "compiled"
        eager = tr.loss_terms(tau, fext)
        assert set(compiled) == set(eager)
        for k in eager:
            assert compiled[k].dtype == eager[k].dtype, k
            torch.testing.assert_close(compiled[k], eager[k], rtol=1e-5, atol=0.0)
        seen.append(eager["total"].detach().double())

    def changed():  # the new value moved the loss: a stale graph would have been caught
        assert not torch.allclose(seen[-1], seen[-2], rtol=1e-6, atol=0.0)

    agrees()
    tr.settings = dataclasses.replace(tr.settings, w_eom=10 * tr.settings.w_eom)
    agrees()
    changed()
    tr.settings = dataclasses.replace(tr.settings, beta=5.0)
    agrees()
    changed()
    tr.recs = tr.recs[:1]  # one record fewer, the loss's constants rebuilt for it
    tr.n_data = sum(r.a_train[0].numel() for r in tr.recs)
    tr._constants()
    n = tr.settings.n_colloc
    tau, fext = tau[:, :n], fext[:, :n]
    agrees()
    changed()
    # float64 inputs where float32 was compiled: traced anew, not run through the float32 graph, so
    # the compiled call fails as the eager one does (the network's float32 weights), never a value
    values = [p.detach().double() for p in tr.params]
    for call in (tr._compiled, lambda v, t, f: tr.loss_terms(t, f, v)):
        with pytest.raises(RuntimeError, match="expected scalar type"):
            call(values, tau.double(), fext.double())


def test_force_scale_trains_with_the_parameters(taut):
    """fit_force_scale: one factor per driven coordinate, trained from 1, reported, scored and resumed."""
    s, rd = taut
    miscal = RecordData(rd.name, rd.forcing.scaled(1 / 1.2), rd.sensors, rd.states, rd.n_transitions)
    truth = {"sigma": s.sigma, "c": 1.0, "force_scale": [1.2]}
    problem = IdentificationProblem(s, [miscal], truth=truth, lambda0=s.bar_sigma)
    out = get_method("pinn_smooth", steps=40, log_every=0, fit_force_scale=True).run(problem)
    f = out.identified.force_scale
    assert len(f) == 1 and f[0] != pytest.approx(1.0)
    assert out.identified.force_scale_channels == [f"{rd.name}:force:1:y"]
    assert out.errors.force_scale_pct == [pytest.approx(100 * abs(f[0] / 1.2 - 1))]
    tr = _trainer((s, miscal), steps=10, fit_force_scale=True, history_every=5)
    tr.train()
    assert "force_scale_0" in tr.history[0][-1]
    again = _trainer((s, miscal), steps=10, fit_force_scale=True)
    again.load_state_dict(tr.state_dict())
    assert again.parameters_now()[0]["force_scale"] == tr.parameters_now()[0]["force_scale"]
    # without the option the force is taken as recorded: no factor
    plain = get_method("pinn_smooth", steps=5, log_every=0).run(problem)
    assert "force_scale" not in plain.identified.to_json() and "force_scale_pct" not in plain.errors.to_json()


def test_fourier_spacings_are_the_readings_of_the_paper():
    from tensegrity_id.identify.pinn.net import fourier_frequencies

    pi = np.pi
    np.testing.assert_allclose(
        fourier_frequencies(4, "geometric").numpy(), [pi, 2 * pi, 4 * pi, 8 * pi], rtol=1e-15
    )
    np.testing.assert_allclose(
        fourier_frequencies(4, "linear").numpy(), [2 * pi, 4 * pi, 6 * pi, 8 * pi], rtol=1e-15
    )
    np.testing.assert_allclose(fourier_frequencies(3, "linear_pi").numpy(), [pi, 2 * pi, 3 * pi], rtol=1e-15)
    with pytest.raises(ValueError, match="fourier"):
        PINNSettings(fourier="cosine")


def test_trunk_initialisations_torch_default_and_glorot():
    """``torch`` is nn.Linear's initialisation drawn under the member's seed; ``glorot`` redraws the
    trunk weights normal with std sqrt(2/(fan_in + fan_out)) and zeroes the biases; the heads that
    start the structure at rest stay zero either way."""
    kw = dict(width=64, depth=4, n_fourier=8, init_seeds=[3, 4], dtype=torch.float64)
    a = PINNNet(4, 2, np.zeros(2), **kw)
    b = PINNNet(4, 2, np.zeros(2), init="glorot", **kw)
    torch.manual_seed(3)
    ref = torch.nn.Linear(17, 64, dtype=torch.float64)
    assert torch.equal(a.weights[0][0], ref.weight) and torch.equal(a.biases[0][0], ref.bias)
    for k, W in enumerate(b.weights):
        fan_in, fan_out = W.shape[2], W.shape[1]
        std = float(W.std())  # 2 x 64 x fan_in samples: within 5 % of the Glorot value
        assert std == pytest.approx((2.0 / (fan_in + fan_out)) ** 0.5, rel=0.05), k
        assert float(a.weights[k].abs().max()) <= fan_in**-0.5  # the default's uniform bound
        assert not b.biases[k].any()
    assert not torch.equal(b.weights[0][0], b.weights[0][1])  # each member its own draw
    assert torch.equal(b.weights[1], PINNNet(4, 2, np.zeros(2), init="glorot", **kw).weights[1])
    for heads in (a, b):
        assert not heads.head_weights[0].any() and not heads.head_weights[1].any()
    with pytest.raises(ValueError, match="init"):
        PINNSettings(init="he")


def test_multiplier_start_and_eom_normaliser_readings(taut):
    """``lambda_init: guess`` starts the multiplier head at the bar force densities that best balance the
    initial guess (sigma = 10 N/m everywhere) under gravity (least squares: the guess is not an
    equilibrium, 13.6 N out of balance at each free coordinate of X1); ``eom_scale: weight`` divides
    the EOM residual by the squared weight."""
    from tensegrity_id.mechanics.statics import bar_multipliers, static_residual

    s, rd = taut
    np.testing.assert_allclose(bar_multipliers(s, s.sigma), s.bar_sigma, rtol=1e-9, atol=1e-9)
    ten = np.full(s.n_cables, 10.0)
    guess = bar_multipliers(s, ten)
    best = np.linalg.norm(static_residual(s, ten, guess))
    assert best == pytest.approx(2 * 13.620213, rel=1e-6)
    for k in range(s.n_bars):  # any other multipliers balance it worse
        step = np.eye(s.n_bars)[k] * 1e-3 * np.abs(guess).max()
        for sign in (1.0, -1.0):
            assert np.linalg.norm(static_residual(s, ten, guess + sign * step)) > best
    tr = _trainer(taut, lambda_init="guess", steps=10)
    np.testing.assert_allclose(tr.net.lambda0.numpy()[: s.n_bars], guess, rtol=1e-6)
    assert not np.allclose(guess, s.bar_sigma)
    assert float(_trainer(taut, steps=10)._p2[0, 0]) == pytest.approx(10.0**2)
    weight = abs(float(np.sum(s.gravity_force)))
    assert weight > 0 and float(_trainer(taut, eom_scale="weight", steps=10)._p2[0, 0]) == pytest.approx(
        weight**2
    )
    for name in ("lambda_init", "eom_scale"):
        with pytest.raises(ValueError, match=name):
            PINNSettings(**{name: "other"})


def test_constant_feature_and_window_in_seconds(taut):
    """``fourier_constant`` puts a feature 1 (derivatives 0) before tau; ``tau_ic_unit: seconds`` takes
    the window's time constant in seconds, i.e. tau_ic / T_ref in scaled time (X1's record: 5 s)."""
    from tensegrity_id.identify.pinn.net import fourier_features

    tau = torch.linspace(0.0, 1.0, 5, dtype=torch.float64)[:, None]
    plain = fourier_features(tau, 3, "linear_pi")
    const = fourier_features(tau, 3, "linear_pi", constant=True)
    for k in range(3):
        assert const[k].shape == (5, 8) and torch.equal(const[k][:, 1:], plain[k])
    assert torch.equal(const[0][:, 0], torch.ones(5, dtype=torch.float64))
    assert not const[1][:, 0].any() and not const[2][:, 0].any()
    assert PINNNet(4, 2, np.zeros(2), n_fourier=8, fourier_constant=True).n_in == 18
    tr = _trainer(taut, steps=10, fourier_constant=True, tau_ic=0.4, tau_ic_unit="seconds")
    assert tr.net.n_in == 18 and tr.recs[0].T_ref == pytest.approx(5.0)
    assert tr.net.tau_ic == pytest.approx(0.4 / 5.0)
    assert _trainer(taut, steps=10, tau_ic=0.4).net.tau_ic == pytest.approx(0.4)
    with pytest.raises(ValueError, match="tau_ic_unit"):
        PINNSettings(tau_ic_unit="ms")
    with pytest.raises(ValueError, match="fourier_constant"):
        PINNSettings(fourier_constant="yes")


def test_compile_cache_dir_kept_beside_checkpoints_unless_the_user_set_one(monkeypatch, tmp_path):
    """use_cache_dir sets TORCHINDUCTOR_CACHE_DIR (absolute) when unset and leaves a user's value alone."""
    from tensegrity_id.identify.pinn.compile import use_cache_dir

    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert use_cache_dir("results/checkpoints/torchinductor") == str(
        tmp_path / "results/checkpoints/torchinductor"
    )
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "results/checkpoints/torchinductor")
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", "/somewhere/else")
    assert use_cache_dir("results/checkpoints/torchinductor") == "/somewhere/else"


def test_the_float32_trunk_tanh_is_within_seven_ulp():
    """The float32 trunk activation (the rational tanh of Eigen and XLA) against float64 tanh: at most
    7 ulp over [-10, 10] and tiny arguments (measured 6.6), odd to the bit, +-1 beyond the clamp;
    its gradient is tanh's, 1 - y^2 of its output.  float64 keeps torch.tanh."""
    from tensegrity_id.identify.pinn.net import trunk_tanh

    tiny = torch.logspace(-30, 0, 20001, dtype=torch.float64)
    x = torch.cat([torch.linspace(-10, 10, 2_000_001, dtype=torch.float64), tiny, -tiny]).float()
    y = trunk_tanh(x)
    ref = torch.tanh(x.double())
    ulp = (ref.float().abs().nextafter(torch.tensor(float("inf"))) - ref.float().abs()).double()
    err = (y.double() - ref).abs() / ulp.clamp_min(1e-45)
    assert float(err.max()) <= 7.0
    assert float(err.max()) > 1.0  # it is the approximation, not torch.tanh
    assert torch.equal(trunk_tanh(-x), -y)
    assert torch.equal(trunk_tanh(torch.tensor([-50.0, 50.0])), torch.tensor([-1.0, 1.0]))
    z = torch.linspace(-3, 3, 101).requires_grad_(True)
    out = trunk_tanh(z)
    (g,) = torch.autograd.grad(out.sum(), z)
    assert torch.equal(g, 1.0 - out.detach() ** 2)
    x64 = torch.linspace(-3, 3, 101, dtype=torch.float64)
    assert torch.equal(trunk_tanh(x64), torch.tanh(x64))


@pytest.mark.parametrize("n_members", [1, 3])
@pytest.mark.parametrize(("n_in", "n_out"), [(17, 64), (64, 6)])
def test_skinny_products_and_their_gradients_are_the_plain_ones(n_members, n_in, n_out):
    """The input layer's and the heads' products (layouts chosen for speed) give A W^T and its
    gradients as autograd does for the plain product, to float64 rounding."""
    from tensegrity_id.identify.pinn.net import matmul_t, skinny_matmul_t

    g = torch.Generator().manual_seed(1)
    A = torch.randn(n_members, 50, n_in, dtype=torch.float64, generator=g)
    W = torch.randn(n_members, n_out, n_in, dtype=torch.float64, generator=g)
    G = torch.randn(n_members, 50, n_out, dtype=torch.float64, generator=g)
    grads = []
    for fn in (skinny_matmul_t, matmul_t):
        a, w = A.clone().requires_grad_(True), W.clone().requires_grad_(True)
        out = fn(a, w)
        grads.append([out.detach(), *torch.autograd.grad((out * G).sum(), (a, w))])
    for got, want in zip(*grads, strict=True):
        torch.testing.assert_close(got, want, rtol=1e-13, atol=1e-13)
