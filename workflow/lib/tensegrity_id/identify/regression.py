"""First-principles linear regression from full states (Wang, Aanjaneya and Bekris), a baseline.

Wang et al. (*A First Principles Approach for Data-Efficient System
Identification of Spring-Rod Systems via Differentiable Physics Engines*)
identify spring stiffness and damping of spring-rod systems by a per-member
linear regression of the equations of motion on full state trajectories.
Here the same idea is applied to the tensegrity equations: with ``q, q',
q''`` known at every sample, the member convention gives the current force
density of a taut cable as

    sigma_k(l) = K_k (1 - L0_k / l) = sigma_k + EA_k (1 / L_ref_k - 1 / l)

(``K L0 = EA``), which is linear in the reference force density
``sigma_k``; the damping force density ``c l'/l`` is linear in ``c``.  The
unknown bar multipliers are eliminated by projecting the equations onto the
tangent space of the bar constraints, ``N(t)^T`` with ``J_f N = 0``:

    N^T (M q'' - G - f_ext - sum_taut EA (1/L - 1/l) n_k)
        = N^T sum_taut (sigma_k + c l'/l) n_k ,

with ``n_k`` the nodal force of a unit force density in cable ``k``.  Stacking
all samples gives one linear least-squares problem.  The taut set depends on
the rest lengths, hence on ``sigma``; it is iterated to a fixed point from the
initial guess.  With exact full states this is the full-state upper bound of
the study; invisible cables have zero columns and are reported undetermined.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import null_space

from ..mechanics.cables import cable_kinematics
from ..mechanics.dynamics import Dynamics
from .base import SIGMA0, IdentificationMethod, IdentificationProblem, register

__all__ = ["FullStateRegression", "full_state_regression"]


def full_state_regression(dyn: Dynamics, t, q, qd, qdd, forcing, *, sigma0=SIGMA0, max_iter=20):
    """Least-squares (sigma, c) from full states.

    Parameters
    ----------
    dyn : Dynamics
        Operators of the structure (its own sigma is not used).
    t : (n_t,) s;  q, qd, qdd : (n_t, n_coords) full coordinates
    forcing : Forcing or None

    Returns
    -------
    sigma : (n_cables,) N/m, NaN where undetermined;  c : float;  info : dict
    """
    st = dyn.structure
    free = dyn.free
    EA, Lref = dyn.params.EA, dyn.params.L_ref
    nc = st.n_cables
    x = q.reshape(len(t), dyn.n, dyn.dim)
    v = qd.reshape(x.shape)
    s, length, rate = cable_kinematics(dyn.Cc, x, v)  # (n_t, nc, dim), (n_t, nc)
    # nodal force of a unit force density in each cable: node i +s, node j -s
    n_vec = -np.einsum("kn,tkd->tknd", dyn.Cc, s).reshape(len(t), nc, -1)[:, :, free]
    fe = forcing.at(t, dyn.q0.size)[:, free] if forcing is not None else 0.0
    base = qdd[:, free] @ dyn.Mff.T - dyn.G[free] - fe  # (n_t, n_free)
    Ns = [null_space(dyn.constraint_jacobian(x[i])[:, free]) for i in range(len(t))]
    sigma = np.full(nc, float(sigma0))
    taut_prev = None
    iterations = 0
    for _ in range(max_iter):
        iterations += 1
        K = EA / Lref + sigma
        L0 = Lref * (1 - sigma / K)
        taut = length > L0
        if taut_prev is not None and np.array_equal(taut, taut_prev):
            break
        taut_prev = taut
        elastic_shift = np.where(taut, EA * (1 / Lref - 1 / length), 0.0)
        rows, rhs = [], []
        for i in range(len(t)):
            Phi = np.concatenate(
                [
                    (n_vec[i] * taut[i][:, None]).T,
                    (n_vec[i].T @ np.where(taut[i], rate[i] / length[i], 0.0))[:, None],
                ],
                axis=1,
            )
            b = base[i] - n_vec[i].T @ elastic_shift[i]
            rows.append(Ns[i].T @ Phi)
            rhs.append(Ns[i].T @ b)
        A = np.vstack(rows)
        y = np.concatenate(rhs)
        col = np.linalg.norm(A, axis=0)
        active = col > 1e-10 * col.max()
        theta = np.full(nc + 1, np.nan)
        theta[active] = np.linalg.lstsq(A[:, active], y, rcond=None)[0]
        sigma = np.where(np.isnan(theta[:nc]), sigma0, theta[:nc])
        c = float(theta[nc])
    out_sigma = np.where(np.isnan(theta[:nc]), np.nan, sigma)
    resid = y - A[:, active] @ theta[active]
    return out_sigma, c, dict(iterations=iterations, rms_residual_N=float(np.sqrt(np.mean(resid**2))))


@register
class FullStateRegression(IdentificationMethod):
    """Wang et al.'s regression applied to the tensegrity EOM with full states."""

    name = "regression"
    n_hyperparameters = 1  # the shared initial guess, used for the first taut set

    def _fit(self, problem: IdentificationProblem) -> dict:
        st = problem.states
        if st is None:
            raise ValueError("the regression baseline needs full states (q, qd, qdd)")
        dyn = Dynamics(
            problem.structure, sigma=np.full(problem.structure.n_cables, problem.sigma0), c=problem.c0
        )
        sigma, c, info = full_state_regression(
            dyn, st["t"], st["q"], st["qd"], st["qdd"], problem.forcing, sigma0=problem.sigma0
        )
        return dict(sigma=sigma, c=c, n_forward_simulations=0, **info)
