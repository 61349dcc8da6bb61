"""The spring-rod baselines use the settings Wang, Aanjaneya and Bekris state.

Line numbers refer to shared/papers/spring-rod-identification.txt: guess 1
(l. 199), search range [0.1, 1000] (l. 88, 185), CMA tolerance 1 (l. 80, 199),
30 iterations (Fig. 13, l. 193-197), regression 30 epochs of Adam from 0.1
halved every 3 epochs (l. 74).
"""

import copy

import cma
import numpy as np
import pytest
import torch
from tensegrity_id.identify import springrod
from tensegrity_id.identify.springrod import (
    PEER_BLACK_BOX,
    PEER_REGRESSION,
    SpringRod,
    black_box_fit,
    make_trajectories,
    regress_ratios,
)


@pytest.fixture(scope="module")
def short_traj():
    return make_trajectories(1, 60, 1e-3, seed=1)[0]


def test_peer_constants_are_the_documents_values():
    assert PEER_BLACK_BOX == {
        "x0": (1.0, 1.0),
        "bounds": (0.1, 1000.0),
        "cma_tolfun": 1.0,
        "max_iterations": 30,
    }
    assert {k: PEER_REGRESSION[k] for k in ("epochs", "lr", "lr_step", "lr_gamma", "init")} == {
        "epochs": 30,
        "lr": 0.1,
        "lr_step": 3,
        "lr_gamma": 0.5,
        "init": 1.0,
    }


def test_cma_is_called_with_the_peer_settings(monkeypatch, short_traj):
    calls = []

    class Spy(cma.CMAEvolutionStrategy):
        def __init__(self, x0, sigma0, opts):
            calls.append((list(x0), sigma0, copy.deepcopy(opts)))
            super().__init__(x0, sigma0, opts)

    monkeypatch.setattr(cma, "CMAEvolutionStrategy", Spy)
    f = black_box_fit(short_traj, 1e-3, "cmaes", max_evals=12)
    ((x0, sigma0, opts),) = calls
    assert x0 == [1.0, 1.0]
    assert sigma0 == pytest.approx(
        (1000.0 - 0.1) / 4, rel=1e-15
    )  # pycma's "1/4th of the search domain width"
    assert opts["bounds"] == [0.1, 1000.0] and opts["tolfun"] == 1.0 and opts["maxiter"] == 30
    assert "popsize" not in opts and "tolx" not in opts  # the library's defaults
    assert f["optimizer_options"]["popsize"] == 6  # 4 + floor(3 ln 2)
    assert 0.1 <= f["K"] <= 1000.0 and 0.1 <= f["c"] <= 1000.0


def test_lbfgsb_is_called_with_the_peer_settings(monkeypatch, short_traj):
    calls = []
    real = springrod.minimize

    def spy(fun, x0, **kw):
        calls.append((np.array(x0), kw))
        return real(fun, x0, **kw)

    monkeypatch.setattr(springrod, "minimize", spy)
    black_box_fit(short_traj, 1e-3, "lbfgsb", max_evals=9)
    ((x0, kw),) = calls
    assert x0.tolist() == [1.0, 1.0] and kw["method"] == "L-BFGS-B"
    assert kw["bounds"] == [(0.1, 1000.0), (0.1, 1000.0)]
    assert kw["options"] == {"maxiter": 30, "maxfun": 9}  # other tolerances: SciPy's defaults


def test_regression_schedule_is_30_epochs_halved_every_3():
    trajs = make_trajectories(1, 40, 1e-3, seed=2)
    r = regress_ratios(trajs, 1e-3)
    lrs = r["lr_per_epoch"]
    assert r["epochs"] == 30 and len(lrs) == 30 and len(r["loss_per_epoch"]) == 30
    assert lrs[0] == lrs[2] == 0.1 and lrs[3] == 0.05 and lrs[6] == 0.025 and lrs[29] == 0.1 * 0.5**9
    assert r["n_pairs"] == 40  # batch size 1: one Adam step per (S_t, S_t+1) pair


def test_regression_equals_torch_adam_with_steplr():
    """The written-out Adam is PyTorch's: a single bias-free linear layer, Adam, StepLR(3, 0.5), batch 1."""
    dt, epochs = 1e-3, 7
    Y = make_trajectories(1, 80, dt, seed=3)[0]
    m = SpringRod()
    xe, ve, _ = m.state_ends(Y[:-1])
    stretch, rate, u = m.spring_geometry(xe, ve)
    X = torch.tensor(np.stack([-(stretch[..., None] * u).sum(1), -(rate[..., None] * u).sum(1)], -1))
    S0 = torch.tensor(np.c_[Y[:-1, :3], Y[:-1, 3:6]])
    S1 = torch.tensor(np.c_[Y[1:, :3], Y[1:, 3:6]])
    layer = torch.nn.Linear(2, 1, bias=False).double()
    torch.nn.init.constant_(layer.weight, 1.0)
    opt = torch.optim.Adam(layer.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    torch_lrs = []
    for _ in range(epochs):
        torch_lrs.append(opt.param_groups[0]["lr"])
        for i in range(len(X)):
            opt.zero_grad()
            v = S0[i, 3:] + layer(X[i]).squeeze(-1) * dt  # semi-implicit Euler
            p = S0[i, :3] + v * dt
            torch.nn.functional.mse_loss(torch.cat([p, v]), S1[i]).backward()
            opt.step()
        sched.step()
    r = regress_ratios([Y], dt, epochs=epochs)
    assert r["lr_per_epoch"] == pytest.approx(torch_lrs, rel=1e-15)
    assert [r["K_over_M"], r["c_over_M"]] == pytest.approx(layer.weight.detach().numpy().ravel(), rel=1e-9)


def test_regression_recovers_the_ratios_with_the_peer_training():
    """Behaviour: 2 trajectories x 300 samples; the one-step target on RK45 data biases c/M by about
    (K/M) dt / 2 = 0.5 %, so both ratios are asserted within 1 % (the document's success bound is 5 %)."""
    r = regress_ratios(make_trajectories(2, 300, 1e-3, seed=0), 1e-3)
    assert r["K_over_M"] == pytest.approx(10.0, rel=0.01) and r["c_over_M"] == pytest.approx(1.0, rel=0.01)
    assert r["loss_per_epoch"][-1] < 1e-3 * r["loss_per_epoch"][0]
