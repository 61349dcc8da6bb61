"""The spring–rod example of Wang, Aanjaneya and Bekris: first-principles regression, black boxes.

From *A First Principles Approach for Data-Efficient System Identification of
Spring-Rod Systems via Differentiable Physics Engines*: first-principles
regression against black-box identification.

System (Wang et al., §4 and Appendix A)
    One rigid rod, length 2 m, mass M = 10 kg, held by two linear springs
    from fixed nails to its two ends; spring rest lengths 1 m and 1.414 m; no
    gravity; ground truth K = 100 N/m, c = 10 N s/m for both springs.  Wang et
    al. do not give the nail positions; here the rod lies on the x axis at rest
    (ends at x = -1 and +1 m) with nail 1 at (-2, 0, 0) and nail 2 at
    (2, 1, 0), so both springs are at their rest lengths (1 and sqrt 2 m) in
    the equilibrium (a documented choice).  Springs push and pull (MuJoCo
    springs, unlike tension-only cables):

        f_i = -(K (l_i - r_i) + c l'_i) u_i      on rod end i,

    ``u_i`` the unit vector from nail to end (Wang et al. Eqs. 1-2).

Forward model
    Rigid-body dynamics with a unit quaternion (Wang et al. Eqs. 3-4): centre of
    mass ``p``, velocity ``v``, orientation ``q``, body angular velocity
    ``Omega``; ``M v' = f_1 + f_2``, ``I Omega' = R^T (r_1 x f_1 + r_2 x f_2)
    - Omega x I Omega`` with the inertia of a solid cylinder of radius 1 cm.
    Integrated with SciPy's RK45 (rtol 1e-10) and sampled every ``dt``; the
    quaternion is renormalised in the right-hand side.

First-principles regression (Wang et al. §3.2-3.4)
    From the states alone (positions, velocities, orientations, angular
    velocities at the samples), the translational acceleration is linear in
    ``w = (K/M, c/M)``:

        a(S_t) = -(K/M) sum_i (l_i - r_i) u_i - (c/M) sum_i l'_i u_i  =  X_t w ,

    ``X_t`` (3 x 2) from the state ``S_t``.  As in Wang et al. (§3.4) this is a
    single linear layer without activation or bias, whose prediction of the
    next state goes through their integration module (semi-implicit Euler,
    ``v_{t+1} = v_t + a dt``, ``p_{t+1} = p_t + v_{t+1} dt``), and whose loss is
    the MSE between the predicted and the recorded ``(p, v)_{t+1}``; trained
    30 epochs with Adam from a learning rate of 0.1 halved every 3 epochs, from
    the initial parameters 1 (their Appendix A).  The prediction is linear in
    ``w``, so the per-pair gradient is exact in closed form,
    ``(2/6) (G_t w - h_t)`` with ``G_t = A_t^T A_t``, ``h_t = A_t^T b_t``,
    ``A_t = [dt^2 X_t; dt X_t]``; Adam and the step schedule are PyTorch's
    (``torch.optim.Adam`` defaults, ``StepLR(step_size=3, gamma=0.5)``),
    written out in float64 because a batch of one pair makes a per-step
    PyTorch call a thousand times slower; a unit test holds the two equal.
    Open choices take PyTorch's defaults: ``DataLoader`` batch size 1, no
    shuffling (pairs in trajectory and time order, so no random seed enters),
    Adam betas (0.9, 0.999), eps 1e-8.  Only the translational state is
    predicted (the orientation adds no parameter here).

Black-box baselines (Wang et al. Appendix A)
    M known; ``(K, c)`` searched in ``[0.1, 1000]`` from the guess 1 (their
    l. 185, 199) by minimising the mean squared end-point position misfit of a
    re-simulated trajectory against the ground-truth one, relative to the mean
    square of the end-point motion about its mean (their loss is not stated):
    L-BFGS-B with finite-difference gradients ("LS", SciPy's default
    tolerances) and CMA-ES (``cma`` package) with tolerance 1 (their l. 80,
    199), read as pycma's ``tolfun`` (its "tolerance in function value";
    ``tolx`` keeps its default).  Both stop after 30 iterations: their table is
    the right panel of their Fig. 13, "parameters estimated after 30
    iterations".  Where Wang et al. are silent, CMA-ES takes pycma's defaults
    (population ``4 + floor(3 ln 2) = 6``) and pycma's documented initial step,
    a quarter of the search width, ``sigma0 = (1000 - 0.1) / 4``.  Every fit
    starts from the same guess (no spread of starts); the CMA-ES seed is the
    trajectory index + 1.  Success: both parameters within 5 % of the truth.
"""

from __future__ import annotations

import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import minimize

__all__ = [
    "PEER_BLACK_BOX",
    "PEER_REGRESSION",
    "SpringRod",
    "regress_ratios",
    "black_box_fit",
    "make_trajectories",
    "run_example",
    "example_table",
]


#: The black-box settings Wang et al. state (Appendix A; line numbers of
#: shared/papers/spring-rod-identification.txt in the comments).
PEER_BLACK_BOX = {
    "x0": (1.0, 1.0),  # l. 199: "The initial guess for LS and CMA-ES is 1."
    "bounds": (0.1, 1000.0),  # l. 88, 185: "a positive interval [0.1,1000] for K>0,c>0"
    "cma_tolfun": 1.0,  # l. 80, 199: "The CMA tolerance is set to 1."
    "max_iterations": 30,  # l. 193-197: Fig. 13 (right), "parameters estimated after 30 iterations"
}

#: Wang et al.'s regression training (§3.4, l. 74; initial parameters l. 199).
PEER_REGRESSION = {
    "epochs": 30,
    "lr": 0.1,
    "lr_step": 3,  # "reducing 50% every 3 epochs": StepLR(step_size=3, gamma=0.5)
    "lr_gamma": 0.5,
    "init": 1.0,
    "batch_size": 1,  # not stated: torch.utils.data.DataLoader's default
}


def _quat_to_R(q):
    """Rotation matrices of (unnormalised) quaternions ``(w, x, y, z)``, shape (..., 3, 3)."""
    q = np.asarray(q, float)
    w, x, y, z = np.moveaxis(q / np.linalg.norm(q, axis=-1, keepdims=True), -1, 0)
    R = np.stack(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )
    return np.moveaxis(R, (0, 1), (-2, -1))


def _quat_mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ]
    )


class SpringRod:
    """The rod between two springs (parameters K, c, M; geometry as in the module docstring)."""

    length = 2.0
    radius = 0.01
    nails = np.array([[-2.0, 0.0, 0.0], [2.0, 1.0, 0.0]])
    rest = np.array([1.0, 1.414])

    def __init__(self, K=100.0, c=10.0, M=10.0):
        self.K, self.c, self.M = float(K), float(c), float(M)
        r, L = self.radius, self.length
        self.I = M * np.array([r * r / 2, (3 * r * r + L * L) / 12, (3 * r * r + L * L) / 12])
        self.arms = np.array([[-L / 2, 0.0, 0.0], [L / 2, 0.0, 0.0]])  # body frame, rod along x

    def ends(self, p, q, v, Omega):
        """End positions, velocities and arms (world), shape (..., 2, 3), states over leading axes."""
        R = _quat_to_R(q)
        r = np.einsum("kj,...ij->...ki", self.arms, R)
        w = np.einsum("...ij,...j->...i", R, Omega)
        return p[..., None, :] + r, v[..., None, :] + np.cross(w[..., None, :], r), r

    def state_ends(self, Y):
        """:meth:`ends` of state rows ``(p, v, q, Omega)``, shape (..., 13)."""
        return self.ends(Y[..., :3], Y[..., 6:10], Y[..., 3:6], Y[..., 10:13])

    def spring_geometry(self, x_end, v_end):
        """Stretch ``l - r``, rate ``l'`` and unit vectors ``u`` (nail -> end) of both springs."""
        d = x_end - self.nails
        length = np.linalg.norm(d, axis=-1)
        u = d / length[..., None]
        return length - self.rest, (v_end * u).sum(-1), u

    def rhs(self, t, y):
        p, v, q, Om = y[:3], y[3:6], y[6:10], y[10:13]
        q = q / np.linalg.norm(q)
        xe, ve, r = self.ends(p, q, v, Om)
        stretch, rate, u = self.spring_geometry(xe, ve)
        f = -(self.K * stretch + self.c * rate)[:, None] * u
        R = _quat_to_R(q)
        tau_b = R.T @ np.cross(r, f).sum(0)
        dOm = (tau_b - np.cross(Om, self.I * Om)) / self.I
        dq = 0.5 * _quat_mul(q, np.r_[0.0, Om])
        return np.r_[v, f.sum(0) / self.M, dq, dOm]

    def simulate(self, y0, n_steps: int, dt: float, rtol: float = 1e-10):
        """States at ``n_steps + 1`` samples, shape (n, 13): p, v, q (w, x, y, z), Omega."""
        t = np.arange(n_steps + 1) * dt
        sol = solve_ivp(self.rhs, (0.0, t[-1]), y0, t_eval=t, method="RK45", rtol=rtol, atol=rtol * 1e-2)
        if not sol.success:
            raise RuntimeError(f"spring-rod simulation failed: {sol.message}")
        return sol.y.T


def make_trajectories(n: int, n_steps: int, dt: float, seed: int, model: SpringRod | None = None):
    """``n`` ground-truth trajectories from random initial conditions (deterministic in ``seed``)."""
    model = model or SpringRod()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        ang = rng.uniform(-0.3, 0.3)
        q0 = np.r_[np.cos(ang / 2), np.sin(ang / 2) * axis]
        y0 = np.r_[rng.uniform(-0.2, 0.2, 3), rng.uniform(-0.5, 0.5, 3), q0, rng.uniform(-0.5, 0.5, 3)]
        out.append(model.simulate(y0, n_steps, dt))
    return out


def _regression_pairs(trajectories, dt: float, model: SpringRod):
    """Per-pair normal-equation terms of the one-step loss: ``G`` (n, 3), ``h`` (n, 2), ``bb`` (n,).

    ``G`` holds ``(G00, G01, G11)`` of ``A^T A``; ``A = [dt^2 X_t; dt X_t]`` (6 x 2)
    maps ``w`` to the predicted change of ``(p, v)``, ``b`` is the recorded change
    less what the prediction holds without forces (``p_t + v_t dt``, ``v_t``).
    """
    G, h, bb = [], [], []
    for Y in trajectories:
        xe, ve, _ = model.state_ends(Y[:-1])
        stretch, rate, u = model.spring_geometry(xe, ve)
        X = np.stack([-(stretch[..., None] * u).sum(1), -(rate[..., None] * u).sum(1)], axis=-1)  # (n, 3, 2)
        A = np.concatenate([dt * dt * X, dt * X], axis=1)  # rows: p_{t+1}, v_{t+1}
        b = np.concatenate([Y[1:, :3] - Y[:-1, :3] - dt * Y[:-1, 3:6], Y[1:, 3:6] - Y[:-1, 3:6]], axis=1)
        AtA = np.einsum("nki,nkj->nij", A, A)
        G.append(np.stack([AtA[:, 0, 0], AtA[:, 0, 1], AtA[:, 1, 1]], axis=1))
        h.append(np.einsum("nki,nk->ni", A, b))
        bb.append((b * b).sum(1))
    return np.concatenate(G), np.concatenate(h), np.concatenate(bb)


def regress_ratios(
    trajectories,
    dt: float,
    model: SpringRod | None = None,
    *,
    epochs: int = PEER_REGRESSION["epochs"],
    lr: float = PEER_REGRESSION["lr"],
    lr_step: int = PEER_REGRESSION["lr_step"],
    lr_gamma: float = PEER_REGRESSION["lr_gamma"],
    init: float = PEER_REGRESSION["init"],
    betas=(0.9, 0.999),
    eps: float = 1e-8,
) -> dict:
    """``(K/M, c/M)``: Wang et al.'s linear layer trained by Adam on one-step state predictions.

    Parameters
    ----------
    trajectories : list of ndarray, shape (n_samples, 13)
        States ``(p, v, q, Omega)`` sampled every ``dt`` seconds.
    epochs, lr, lr_step, lr_gamma, init
        Wang et al.'s schedule (:data:`PEER_REGRESSION`): the learning rate of
        epoch ``e`` (0-based) is ``lr * lr_gamma ** (e // lr_step)``.
    betas, eps
        ``torch.optim.Adam``'s defaults.

    Returns
    -------
    dict
        ``K_over_M`` (1/s^2), ``c_over_M`` (1/s), ``n_pairs``, ``epochs``,
        ``lr_per_epoch`` and ``loss_per_epoch`` (mean one-step MSE over the
        epoch's updates, m^2 and (m/s)^2 mixed as in the state vector).
    """
    model = model or SpringRod()
    G, h, bb = _regression_pairs(trajectories, dt, model)
    G00, G01, G11 = (G[:, k].tolist() for k in range(3))
    h0, h1, bbl = h[:, 0].tolist(), h[:, 1].tolist(), bb.tolist()
    b1, b2 = betas
    w0 = w1 = float(init)
    m0 = m1 = v0 = v1 = 0.0
    step = 0
    lrs, losses = [], []
    for epoch in range(epochs):
        lr_e = lr * lr_gamma ** (epoch // lr_step)  # StepLR stepped once per epoch
        lrs.append(lr_e)
        total = 0.0
        for i in range(len(bbl)):
            # loss = |A w - b|^2 / 6 (the MSE over the six state components)
            Gw0 = G00[i] * w0 + G01[i] * w1
            Gw1 = G01[i] * w0 + G11[i] * w1
            total += (w0 * Gw0 + w1 * Gw1 - 2.0 * (w0 * h0[i] + w1 * h1[i]) + bbl[i]) / 6.0
            g0 = (Gw0 - h0[i]) / 3.0
            g1 = (Gw1 - h1[i]) / 3.0
            # torch.optim.Adam (default: no weight decay, no amsgrad), one step
            step += 1
            m0 = b1 * m0 + (1.0 - b1) * g0
            m1 = b1 * m1 + (1.0 - b1) * g1
            v0 = b2 * v0 + (1.0 - b2) * g0 * g0
            v1 = b2 * v1 + (1.0 - b2) * g1 * g1
            bc2 = (1.0 - b2**step) ** 0.5
            step_size = lr_e / (1.0 - b1**step)
            w0 -= step_size * m0 / (v0**0.5 / bc2 + eps)
            w1 -= step_size * m1 / (v1**0.5 / bc2 + eps)
        losses.append(total / max(len(bbl), 1))
    return {
        "K_over_M": w0,
        "c_over_M": w1,
        "n_pairs": len(bbl),
        "epochs": int(epochs),
        "lr_per_epoch": lrs,
        "loss_per_epoch": losses,
    }


def black_box_fit(
    trajectory,
    dt: float,
    method: str,
    *,
    M: float = 10.0,
    x0=PEER_BLACK_BOX["x0"],
    bounds=PEER_BLACK_BOX["bounds"],
    max_iterations: int = PEER_BLACK_BOX["max_iterations"],
    cma_tolfun: float = PEER_BLACK_BOX["cma_tolfun"],
    sigma0: float | None = None,
    max_evals=600,
    seed=0,
) -> dict:
    """``(K, c)`` of one trajectory by re-simulation: ``method`` "lbfgsb" (LS) or "cmaes".

    Defaults are Wang et al.'s (:data:`PEER_BLACK_BOX`); ``sigma0`` (CMA-ES)
    defaults to a quarter of the search width (pycma's guidance);
    ``max_evals`` caps the simulations as a compute budget.  The result's
    ``optimizer_options`` records what was passed to the optimiser.
    """
    n_steps = len(trajectory) - 1
    y0 = trajectory[0]
    n_eval = {"n": 0}

    ref = SpringRod(M=M).state_ends(trajectory)[0]
    scale = float(np.mean((ref - ref.mean(axis=0)) ** 2))  # the motion's own mean square: loss is relative

    def loss(x):
        n_eval["n"] += 1
        m = SpringRod(K=x[0], c=x[1], M=M)
        try:
            Y = m.simulate(y0, n_steps, dt, rtol=1e-8)
        except RuntimeError:
            return 1e3
        return float(np.mean((m.state_ends(Y)[0] - ref) ** 2)) / scale

    t0 = time.perf_counter()
    if method == "lbfgsb":
        options = {"maxiter": int(max_iterations), "maxfun": int(max_evals)}
        res = minimize(
            loss,
            np.asarray(x0, float),
            method="L-BFGS-B",
            bounds=[tuple(bounds), tuple(bounds)],
            options=options,
        )
        x, n_it = res.x, int(res.nit)
        used = {"x0": [float(v) for v in x0], "bounds": list(map(float, bounds)), **options}
    elif method == "cmaes":
        import cma

        sigma0 = 0.25 * (bounds[1] - bounds[0]) if sigma0 is None else float(sigma0)
        options = {
            "bounds": [float(bounds[0]), float(bounds[1])],
            "tolfun": float(cma_tolfun),
            "maxiter": int(max_iterations),
            "maxfevals": int(max_evals),
            "seed": seed + 1,
            "verbose": -9,
        }
        # pycma rewrites the options' bounds in place: pass a copy, keep ``options`` as given
        es = cma.CMAEvolutionStrategy(
            [float(v) for v in x0], sigma0, {**options, "bounds": list(options["bounds"])}
        )
        es.optimize(loss)
        x, n_it = es.result.xbest, int(es.result.iterations)
        used = {"x0": [float(v) for v in x0], "sigma0": sigma0, "popsize": int(es.popsize), **options}
        used["stop"] = {k: (v if isinstance(v, (int, float, str)) else str(v)) for k, v in es.stop().items()}
    else:
        raise ValueError(f"unknown black-box method {method!r}; use 'lbfgsb' or 'cmaes'")
    return {
        "K": float(x[0]),
        "c": float(x[1]),
        "n_evaluations": n_eval["n"],
        "iterations": n_it,
        "wall_s": time.perf_counter() - t0,
        "optimizer_options": used,
    }


EXAMPLE_DEFAULTS = {
    "n_trajectories": 20,
    "n_steps": 2000,
    "dt": 0.001,
    "seed": 0,
    "black_box": {"n_trajectories": 2, "n_steps": 1000, "max_evals": 300},
}


def run_example(settings: dict | None = None, log=None) -> dict:
    """Wang et al.'s comparison: regression over all trajectories, black boxes on the first few.

    ``settings`` (see :data:`EXAMPLE_DEFAULTS`): ``n_trajectories``, ``n_steps``,
    ``dt`` (s), ``seed``, ``black_box: {n_trajectories, n_steps, max_evals}``.
    Returns ``{settings, peer_settings, truth, regression, black_box}``;
    ``peer_settings`` are Wang et al.'s optimiser settings used throughout
    (:data:`PEER_BLACK_BOX`, :data:`PEER_REGRESSION`); success means both
    parameters within 5 % (Wang et al.).
    """
    cfg = {**EXAMPLE_DEFAULTS, **(settings or {})}
    bb = {**EXAMPLE_DEFAULTS["black_box"], **cfg["black_box"]}
    cfg["black_box"] = bb
    truth = SpringRod()
    K, c, M = truth.K, truth.c, truth.M
    trajs = make_trajectories(cfg["n_trajectories"], cfg["n_steps"], cfg["dt"], cfg["seed"])
    t0 = time.perf_counter()
    reg = regress_ratios(trajs, cfg["dt"])
    reg["wall_s"] = time.perf_counter() - t0
    reg["K_over_M_err_pct"] = 100 * abs(reg["K_over_M"] / (K / M) - 1)
    reg["c_over_M_err_pct"] = 100 * abs(reg["c_over_M"] / (c / M) - 1)
    reg["success"] = bool(max(reg["K_over_M_err_pct"], reg["c_over_M_err_pct"]) <= 5.0)
    if log:
        log.info("regression: K/M %.6g, c/M %.6g, %.2f s", reg["K_over_M"], reg["c_over_M"], reg["wall_s"])
    black = {}
    for method in ("lbfgsb", "cmaes"):
        fits = []
        for i in range(bb["n_trajectories"]):
            f = black_box_fit(
                trajs[i][: bb["n_steps"] + 1], cfg["dt"], method, M=M, max_evals=bb["max_evals"], seed=i
            )
            f["success"] = bool(abs(f["K"] / K - 1) <= 0.05 and abs(f["c"] / c - 1) <= 0.05)
            fits.append(f)
            if log:
                log.info(
                    "%s trajectory %d: K %.4g, c %.4g, %d evaluations, %.1f s",
                    method,
                    i,
                    f["K"],
                    f["c"],
                    f["n_evaluations"],
                    f["wall_s"],
                )
        Ks, cs = np.array([f["K"] for f in fits]), np.array([f["c"] for f in fits])
        black[method] = {
            "fits": fits,
            "K_mean": float(Ks.mean()),
            "K_std": float(Ks.std()),
            "c_mean": float(cs.mean()),
            "c_std": float(cs.std()),
            "success": float(np.mean([f["success"] for f in fits])),
            "wall_s": float(np.mean([f["wall_s"] for f in fits])),
            "sec_per_iteration": float(np.mean([f["wall_s"] / max(f["iterations"], 1) for f in fits])),
        }
    peer = {"black_box": dict(PEER_BLACK_BOX), "regression": dict(PEER_REGRESSION)}
    return {
        "settings": cfg,
        "peer_settings": peer,
        "truth": {"K": K, "c": c, "M": M},
        "regression": reg,
        "black_box": black,
    }


def example_table(summary: dict, published=None):
    """One row per method (regression ratios scaled by M), published values alongside when given."""
    import pandas as pd

    reg, M = summary["regression"], summary["truth"]["M"]
    rows = [
        {
            "method": "First-principles regression (K/M, c/M scaled by M)",
            "K_mean": reg["K_over_M"] * M,
            "K_std": 0.0,
            "c_mean": reg["c_over_M"] * M,
            "c_std": 0.0,
            "success": float(reg["success"]),
            "wall_s": reg["wall_s"],
            "trajectories": summary["settings"]["n_trajectories"],
            "key": "first_principles",
        }
    ]
    for key, label in (("lbfgsb", "Least squares (L-BFGS-B)"), ("cmaes", "CMA-ES")):
        b = summary["black_box"][key]
        cols = ("K_mean", "K_std", "c_mean", "c_std", "success", "wall_s")
        rows.append(
            {
                "method": label,
                **{k: b[k] for k in cols},
                "trajectories": summary["settings"]["black_box"]["n_trajectories"],
                "key": key,
            }
        )
    df = pd.DataFrame(rows)
    if published is not None:
        pub = published.set_index("method")
        for col in ("K_mean", "K_std", "c_mean", "c_std", "success"):
            df[f"paper_{col}"] = [float(pub.loc[k, col]) for k in df["key"]]
    return df.drop(columns="key")
