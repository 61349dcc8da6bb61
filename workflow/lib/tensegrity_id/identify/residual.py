"""The equation-of-motion and bar residuals (the paper's Eq. 6), batched in PyTorch.

The physics-informed identification evaluates the equations of motion of
:mod:`tensegrity_id.mechanics.dynamics` on network outputs instead of integrating
them.  With the free coordinates ``q_f``, velocities, accelerations and the
bar multipliers ``lambda`` all given, the residual on the free coordinates is

    r_EOM = M_ff q''_f - [ G + f_s(q; sigma, EA) + f_d(q, q'; c) + f_ext(t) - J(q)^T lambda ]_f ,

the same balance the simulator solves for ``(q''_f, lambda)``.  Every
operator comes from :class:`~tensegrity_id.mechanics.dynamics.Dynamics` (the constant
mass matrix, gravity, the cable and bar incidence matrices, the supports)
and the cable law from :mod:`tensegrity_id.mechanics.cables`; this module holds no
second copy of either.  The force densities enter ``f_s`` linearly, so
``d r / d sigma_k`` is closed-form (the paper §3.3).

Cable laws (``law``):

``"exact"``
    The tension-only law of the paper's Eq. 4; the taut set is ``l > L0`` or given.
``"smooth"``
    The softplus law at sharpness ``beta`` with the sigmoid damper switch
    (the paper §3.1.3), used for training.
``"tension"``
    The complementarity treatment (the paper §S1): the cable term uses a given
    tension ``T_k`` as the force density ``T_k / l_k``; the damper acts
    while ``l > L0``.

The bar residual is the relative violation of the squared bar lengths,
``(|X_k q|^2 - Lbar_k^2) / Lbar_k^2``, i.e. the constraint normalised by the
squared bar length.
"""

from __future__ import annotations

import numpy as np
import torch

from ..mechanics.cables import (
    cable_force_density,
    damping_force_density,
    fischer_burmeister,
    member_lengths_and_rates,
    smoothed_force_density,
    smoothed_taut_switch,
    smoothing_peak_bias,
    strain_coordinate,
)
from ..mechanics.dynamics import Dynamics, MemberParameters

__all__ = ["Residual", "LAWS", "verify_against_simulator", "verify_on_record", "smoothing_bias"]

LAWS = ("exact", "smooth", "tension")


class Residual:
    """Residuals of one structure on batches of states (PyTorch, any dtype).

    Parameters
    ----------
    dyn : Dynamics
        The structure's operators; its own prestress is not used.
    dtype : torch.dtype
        float64 for verification; training may use float32.
    """

    def __init__(self, dyn: Dynamics, *, dtype=torch.float64):
        self.dyn = dyn
        self.dtype = dtype
        tt = lambda a: torch.as_tensor(np.asarray(a, float), dtype=dtype)  # noqa: E731
        n_coords = dyn.q0.size
        B = np.zeros((dyn.n_free, n_coords))
        B[np.arange(dyn.n_free), dyn.free] = 1.0
        q0_fixed = dyn.q0.copy()
        q0_fixed[dyn.free] = 0.0
        self.B = tt(B)
        self.q0_fixed = tt(q0_fixed)
        self.q0_free = tt(dyn.q0[dyn.free])
        self.Mff = tt(dyn.Mff)
        self.G_free = tt(dyn.G[dyn.free])
        self.Cc = tt(dyn.Cc)
        self.Cb = tt(dyn.Cb)
        self.L_ref = tt(dyn.params.L_ref)
        self.EA_nominal = tt(dyn.params.EA)
        self.bar_length_sq = tt(dyn.bar_lengths**2)
        self.n, self.dim = dyn.n, dyn.dim
        # The incidence products on the free coordinates, one small product each: member vectors
        # s = C x = q_f E + s0 (E the rows of C kron I_dim at the free coordinates, s0 the
        # supports' part) and nodal forces -C^T (w s) on the free coordinates = -(w s) E^T.
        # s equals C x to the bit (each entry is x_b - x_a, rounded once); the forces sum the
        # same terms as C^T (w s) does.
        self.free_idx = torch.as_tensor(dyn.free, dtype=torch.long)
        fixed = np.setdiff1d(np.arange(n_coords), dyn.free)
        self.fixed_idx = torch.as_tensor(fixed, dtype=torch.long)
        self.n_fixed = int(fixed.size)
        # the supported rows of Eq. 1: their mass coupling to the free accelerations and gravity
        self.Mcf = tt(dyn.M[np.ix_(fixed, dyn.free)])
        self.G_fixed = tt(dyn.G[fixed])
        self._maps, self._fixed_maps = {}, {}
        for name, C in (("cables", dyn.Cc), ("bars", dyn.Cb)):
            K = np.kron(C, np.eye(self.dim))
            # the supports' part in the working dtype, as C x would round it
            self._maps[name] = (tt(K[:, dyn.free].T), (tt(K) @ self.q0_fixed).reshape(-1, self.dim))
            self._fixed_maps[name] = tt(K[:, fixed].T)

    # ------------------------------------------------------------ helpers
    def nodes(self, q_f):
        """Nodal positions (..., n, dim) from free coordinates (..., n_free)."""
        q = self.q0_fixed + q_f @ self.B
        return q.reshape(q.shape[:-1] + (self.n, self.dim))

    def velocities(self, qd_f):
        v = qd_f @ self.B
        return v.reshape(v.shape[:-1] + (self.n, self.dim))

    def members(self, sigma, EA=None):
        """Stiffness K and rest length L0 of the cables (member convention of the paper's §2.2)."""
        p = MemberParameters(sigma=sigma, c=None, EA=self.EA_nominal if EA is None else EA, L_ref=self.L_ref)
        return p.K, p.L0

    def to_free(self, f_full):
        """The free-coordinate part of full force vectors (..., n_coords)."""
        return f_full.index_select(-1, self.free_idx)

    def member_vectors(self, q_f, members: str = "cables"):
        """Member vectors ``C x`` of the ``"cables"`` or the ``"bars"``, shape (..., n_members, dim)."""
        E, s0 = self._maps[members]
        return (q_f @ E).reshape(q_f.shape[:-1] + s0.shape) + s0

    def member_rates(self, qd_f, members: str = "cables"):
        """Member vector rates ``C v``, (..., n_members, dim)."""
        E, s0 = self._maps[members]
        return (qd_f @ E).reshape(qd_f.shape[:-1] + s0.shape)

    def member_forces(self, s, w, members: str = "cables", *, rows: str = "free"):
        """Nodal forces ``-C^T (w s)`` of force densities ``w`` on the free coordinates, (..., n_free),
        or (``rows="fixed"``) on the supported ones, (..., n_fixed)."""
        E = self._maps[members][0] if rows == "free" else self._fixed_maps[members]
        return -((w[..., None] * s).flatten(-2) @ E.T)

    def cable_lengths(self, q_f):
        """Cable lengths l_k, shape (..., n_cables), m."""
        s = self.member_vectors(q_f)
        return (s * s).sum(-1) ** 0.5

    def strain(self, q_f, sigma, EA=None):
        """Cable strain coordinate e = 1 - L0/l, shape (..., n_cables)."""
        return strain_coordinate(self.cable_lengths(q_f), self.members(sigma, EA)[1])

    # ---------------------------------------------------------- residuals
    def cable_forces(self, q_f, qd_f, sigma, c, EA=None, **law):
        """Cable elastic plus damping forces on the free coordinates, shape (..., n_free), N."""
        return self.member_forces(*self.cable_terms(q_f, qd_f, sigma, c, EA, **law))

    def cable_terms(self, q_f, qd_f, sigma, c, EA=None, *, law="exact", beta=800.0, tension=None, taut=None):
        """Cable vectors ``s`` (..., n_cables, dim) and force densities ``w`` (elastic plus damping,
        N/m) of the cable law ``law``; the nodal forces are ``-C^T (w s)``."""
        if law not in LAWS:
            raise ValueError(f"unknown cable law {law!r}; choose one of {', '.join(LAWS)}")
        K, L0 = self.members(sigma, EA)
        s = self.member_vectors(q_f)
        length, rate = member_lengths_and_rates(s, self.member_rates(qd_f))
        if law == "smooth":
            sig = smoothed_force_density(length, K, L0, beta)
            switch = smoothed_taut_switch(length, L0, beta)
        else:
            switch = (length > L0) if taut is None else torch.as_tensor(taut, dtype=torch.bool)
            if law == "tension":
                if tension is None:
                    raise ValueError("law 'tension' needs the cable tensions")
                sig = tension / length
            else:
                sig = cable_force_density(length, K, L0, switch)
        w = sig + damping_force_density(length, rate, c, switch)
        return s, w

    def constraint_forces(self, q_f, lam):
        """Bar constraint forces -J^T lambda on the free coordinates, shape (..., n_free), N."""
        return self.member_forces(self.member_vectors(q_f, "bars"), lam, "bars")

    def eom(self, q_f, qd_f, qdd_f, lam, f_ext, sigma, c, EA=None, **law):
        """Equation-of-motion residual r_EOM, shape (..., n_free), N.

        Parameters
        ----------
        q_f, qd_f, qdd_f : tensor, shape (..., n_free)
            Free coordinates (m), velocities (m/s), accelerations (m/s^2).
        lam : tensor, shape (..., n_bars)
            Bar multipliers = bar force densities, N/m (tension positive).
        f_ext : tensor, shape (..., n_coords) or None
            Known external force on all coordinates, N.
        sigma : tensor, shape (n_cables,)
            Force densities at the reference lengths, N/m.
        c : tensor, scalar or (n_cables,)
            Damper coefficients, N s/m.
        EA : tensor, optional
            Axial stiffness, N (default: the structure's).
        law : keyword arguments of :meth:`cable_forces` (``law``, ``beta``,
            ``tension``, ``taut``).
        """
        f = self.G_free + self.cable_forces(q_f, qd_f, sigma, c, EA, **law) + self.constraint_forces(q_f, lam)
        if f_ext is not None:
            f = f + self.to_free(f_ext)
        return qdd_f @ self.Mff.T - f

    def eom_all(self, q_f, qd_f, qdd_f, lam, reactions, f_ext, sigma, c, EA=None, **law):
        """Equation-of-motion residual on every coordinate, supports included, shape (..., n_coords), N:
        the free rows of :meth:`eom`, then the supported rows in coordinate order,

            r_fixed = M_cf q''_f - [ G + f_s + f_d + f_ext - J^T lambda ]_fixed - R ,

        with ``reactions`` ``R`` (..., n_fixed) the support multipliers (N), the forces the supports
        exert.  The paper's multiplier head "outputs the full vector" of Eq. 1's multipliers, so its
        residual carries these rows; a cable between two supports enters the loss only here.
        """
        s, w = self.cable_terms(q_f, qd_f, sigma, c, EA, **law)
        sb = self.member_vectors(q_f, "bars")
        f = self.G_free + self.member_forces(s, w) + self.member_forces(sb, lam, "bars")
        g = (
            self.G_fixed
            + self.member_forces(s, w, rows="fixed")
            + self.member_forces(sb, lam, "bars", rows="fixed")
            + reactions
        )
        if f_ext is not None:
            f = f + self.to_free(f_ext)
            g = g + f_ext.index_select(-1, self.fixed_idx)
        return torch.cat([qdd_f @ self.Mff.T - f, qdd_f @ self.Mcf.T - g], -1)

    def bar(self, q_f):
        """Relative violation of the squared bar lengths, shape (..., n_bars)."""
        b = self.member_vectors(q_f, "bars")
        return (b * b).sum(-1) / self.bar_length_sq - 1.0

    def ncp(self, q_f, tension, sigma, EA=None, *, tension_scale: float, slack_scale):
        """Fischer-Burmeister complementarity residual of the cables (the paper §S1), shape (..., n_cables).

        ``phi(T / T_s, g / g_s)`` with the elastic slackness ``g = L0 - l + T/K``;
        zero iff ``T >= 0, g >= 0, T g = 0`` (taut and elastic, or slack and
        force-free).
        """
        K, L0 = self.members(sigma, EA)
        g = L0 - self.cable_lengths(q_f) + tension / K
        return fischer_burmeister(tension / tension_scale, g / slack_scale)


# ------------------------------------------------------------ verification
def _level(res: Residual, q, qd, qdd, lam, fe, sigma, c, taut, n_slack: int) -> dict:
    """Largest exact-law residual relative to the largest force term of the balance."""
    r = res.eom(q, qd, qdd, lam, fe, sigma, c, law="exact", taut=taut)
    terms = [
        qdd @ res.Mff.T,
        res.cable_forces(q, qd, sigma, c, taut=taut),
        res.constraint_forces(q, lam),
        res.G_free.expand_as(q),
    ]
    if fe is not None:
        terms.append(res.to_free(fe))
    scale = max(float(t.abs().max()) for t in terms)
    return {
        "max_abs_residual_N": float(r.abs().max()),
        "force_scale_N": scale,
        "relative": float(r.abs().max()) / scale,
        "n_samples": int(q.shape[0]),
        "n_slack_samples": int(n_slack),
    }


def _record_tensors(dyn: Dynamics, record: dict, forcing):
    """Free coordinates, velocities and the forcing on all coordinates of a record (float64)."""
    tt = lambda a: torch.as_tensor(a, dtype=torch.float64)  # noqa: E731
    fe = tt(forcing.at(record["t"], dyn.q0.size)) if forcing is not None else None
    return tt(record["q"][:, dyn.free]), tt(record["qd"][:, dyn.free]), fe


def verify_against_simulator(dyn: Dynamics, record: dict, forcing) -> dict:
    """Residual on the simulator's own state derivatives, slack states included (Table 2, row 1).

    At every stored state ``(q, q')`` the simulator's right-hand side gives
    ``(q'', lambda)`` (taut set from the lengths); the residual with the exact
    law must vanish.  Returns the largest residual relative to the largest
    force term of the balance, and the number of slack samples covered.
    """
    res = Residual(dyn)
    q, qd, fe = _record_tensors(dyn, record, forcing)
    qdd = np.empty(q.shape)
    lam = np.empty((q.shape[0], len(dyn.bar_lengths)))
    for i in range(q.shape[0]):
        f_i = None if fe is None else fe[i].numpy()
        qdd[i], lam[i], _ = dyn.accelerations(q[i].numpy(), qd[i].numpy(), f_i)
    sigma = torch.as_tensor(dyn.params.sigma)
    c = torch.as_tensor(dyn.params.c)
    n_slack = (res.strain(q, sigma) <= 0).any(dim=1).sum()
    return _level(res, q, qd, torch.as_tensor(qdd), torch.as_tensor(lam), fe, sigma, c, None, n_slack)


def verify_on_record(dyn: Dynamics, record: dict, forcing) -> dict:
    """Residual at the exact parameters on a stored reference trajectory (Table 2, row 2).

    Uses the stored accelerations, multipliers and taut flags of the record
    with the exact cable law.
    """
    res = Residual(dyn)
    q, qd, fe = _record_tensors(dyn, record, forcing)
    qdd = torch.as_tensor(record["qdd"][:, dyn.free])
    lam = torch.as_tensor(record["lam"])
    taut = torch.as_tensor(record["taut"])
    sigma = torch.as_tensor(dyn.params.sigma)
    c = torch.as_tensor(dyn.params.c)
    n_slack = (~record["taut"]).any(axis=1).sum()
    return _level(res, q, qd, qdd, lam, fe, sigma, c, taut, n_slack)


def smoothing_bias(dyn: Dynamics, beta: float, *, n_grid: int = 20001) -> dict:
    """Peak force-density bias of the smoothed law relative to each cable's sigma (Table 2, row 3).

    The excess ``K softplus(beta e)/beta - K max(e, 0)`` is evaluated on a
    grid of strain ``e`` spanning ten boundary-layer widths either side of
    zero and compared with its closed-form peak ``K ln2 / beta``.
    """
    K, L0 = dyn.K, dyn.L0
    e = np.linspace(-10.0 / beta, 10.0 / beta, n_grid)
    length = L0[:, None] / (1.0 - e[None, :])
    exact = cable_force_density(length, K[:, None], L0[:, None])
    smooth = smoothed_force_density(length, K[:, None], L0[:, None], beta)
    peak = (smooth - exact).max(axis=1)
    rel = peak / np.abs(dyn.params.sigma)
    k = int(np.argmax(rel))
    return {
        "beta": beta,
        "peak_bias_N_per_m": peak.tolist(),
        "closed_form_N_per_m": smoothing_peak_bias(K, beta).tolist(),
        "relative": rel.tolist(),
        "max_relative": float(rel[k]),
        "worst_cable": k,
        "strain_overshoot": float(np.log(2.0) / beta),
        "layer_width": 1.0 / beta,
    }
