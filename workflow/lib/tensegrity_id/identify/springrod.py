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

First-principles regression (Wang et al. §3.2-3.3)
    From the states alone (positions, velocities, orientations, angular
    velocities at the samples), the translational equation is linear in
    ``(K/M, c/M)``:

        a = -(K/M) sum_i (l_i - r_i) u_i - (c/M) sum_i l'_i u_i ,

    with ``a`` the central difference of the sampled velocity (O(dt^2)).
    One linear least-squares solve over all samples of all trajectories.

Black-box baselines (Wang et al. Appendix A)
    M known; ``(K, c)`` searched in ``[0.1, 1000]`` from the guess 1 by
    minimising the mean squared end-point position misfit of a re-simulated
    trajectory against the ground-truth one, relative to the mean square of
    the end-point motion about its mean: L-BFGS-B with finite-difference
    gradients ("LS") and CMA-ES (``cma`` package; initial step 100, bounds
    as above).  Success: both parameters within 5 % of the truth.
"""

from __future__ import annotations

import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import minimize

__all__ = [
    "SpringRod",
    "regress_ratios",
    "black_box_fit",
    "make_trajectories",
    "run_example",
    "example_table",
]


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


def regress_ratios(trajectories, dt: float, model: SpringRod | None = None) -> dict:
    """``(K/M, c/M)`` by linear least squares from state trajectories (central differences)."""
    model = model or SpringRod()
    rows, rhs = [], []
    for Y in trajectories:
        a = (Y[2:, 3:6] - Y[:-2, 3:6]) / (2 * dt)
        xe, ve, _ = model.state_ends(Y[1:-1])
        stretch, rate, u = model.spring_geometry(xe, ve)
        rows.append(
            np.stack([-(stretch[..., None] * u).sum(1), -(rate[..., None] * u).sum(1)], axis=-1).reshape(
                -1, 2
            )
        )
        rhs.append(a.reshape(-1))
    A = np.concatenate(rows)
    b = np.concatenate(rhs)
    sol, res, *_ = np.linalg.lstsq(A, b, rcond=None)
    return {"K_over_M": float(sol[0]), "c_over_M": float(sol[1]), "n_equations": int(len(b))}


def black_box_fit(
    trajectory,
    dt: float,
    method: str,
    *,
    M: float = 10.0,
    x0=(1.0, 1.0),
    bounds=(0.1, 1000.0),
    max_evals=600,
    seed=0,
) -> dict:
    """``(K, c)`` of one trajectory by re-simulation: ``method`` "lbfgsb" (LS) or "cmaes"."""
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
        res = minimize(
            loss,
            np.asarray(x0, float),
            method="L-BFGS-B",
            bounds=[bounds, bounds],
            options={"maxfun": max_evals},
        )
        x, n_it = res.x, int(res.nit)
    elif method == "cmaes":
        import cma

        es = cma.CMAEvolutionStrategy(
            list(x0),
            100.0,
            {
                "bounds": list(bounds),
                "maxfevals": max_evals,
                "seed": seed + 1,
                "verbose": -9,
                "tolfun": 1e-10,
            },
        )
        es.optimize(loss)
        x, n_it = es.result.xbest, int(es.result.iterations)
    else:
        raise ValueError(f"unknown black-box method {method!r}; use 'lbfgsb' or 'cmaes'")
    return {
        "K": float(x[0]),
        "c": float(x[1]),
        "n_evaluations": n_eval["n"],
        "iterations": n_it,
        "wall_s": time.perf_counter() - t0,
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
    Returns ``{settings, truth, regression, black_box}``; success means both
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
    return {"settings": cfg, "truth": {"K": K, "c": c, "M": M}, "regression": reg, "black_box": black}


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
