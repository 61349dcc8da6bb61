"""Constrained Cartesian dynamics of tensegrities with rigid bars.

Formulation (Goyal & Skelton 2019, as in the STEDY code; the paper's text
omits the printed equations, so the derivation is written out here).

Coordinates and mass
    The state is the redundant nodal coordinate vector ``q`` (node by node,
    see :mod:`tensegrity_id.mechanics.structure`).  A uniform rigid bar of mass ``m``
    between nodes ``i`` and ``j`` has the material point
    ``r(xi) = (1 - xi) x_i + xi x_j``, so its kinetic energy is

        T = m/2 ∫_0^1 |r'(xi)|^2 dxi = m/6 (|x_i'|^2 + x_i'·x_j' + |x_j'|^2),

    i.e. the consistent translational plus rotational inertia
    ``M_bar = m/6 [[2 I, I], [I, 2 I]]``; ``M`` is constant in ``q``.
    Gravity gives the potential ``m g (z_i + z_j)/2`` per bar, a constant
    generalised force ``G``.

Constraints
    Supports fix coordinates (linear constraints); they are eliminated, so
    the integration runs on the free coordinates ``q_f``.  Bar ``k`` keeps its
    length: ``phi_k = (q^T X_k^T X_k q - Lbar_k^2)/2 = 0`` with ``X_k q = b_k =
    x_j - x_i``.  Its gradient is the row ``J_k = b_k^T X_k`` (``-b_k`` at node
    ``i``, ``+b_k`` at node ``j``).  Differentiating twice,

        J q'' + kappa = 0,   kappa_k = |X_k q'|^2   (quadratic velocity terms).

Equations of motion
    With multipliers ``lambda`` (Lagrange, index 3) the motion obeys
    ``M q'' = G + f_s + f_d + f_ext - J^T lambda``.  The force ``-J_k^T lambda_k``
    on node ``j`` is ``-lambda_k b_k``, so ``lambda_k`` is the bar force density
    (tension positive): at the prestressed equilibrium it equals the bar
    force densities of the prestress LP.  Combining with the acceleration
    constraint gives the index-1 saddle-point system solved at every
    right-hand-side evaluation,

        [ M_ff   J_f^T ] [ q_f'' ]   [ f_f    ]
        [ J_f    0     ] [ lambda ] = [ -kappa ],

    solved here by the Schur complement of the constant ``M_ff``:
    ``(J_f M_ff^-1 J_f^T) lambda = J_f M_ff^-1 f_f + kappa``, then
    ``q_f'' = M_ff^-1 (f_f - J_f^T lambda)``.

Cables
    ``f_s + f_d`` from :mod:`tensegrity_id.mechanics.cables` (the single implementation
    of the tension-only law), with ``K_k = EA_k / L_ref + sigma_k`` and
    ``L0_k = L_ref (1 - sigma_k / K_k)`` from the force densities.

Energy
    ``E = T + V_g + V_s`` obeys ``dE/dt = (f_ext + f_d) · q'`` exactly, since
    the constraint forces do no work; the work ``W`` of the external and
    damping forces is integrated alongside the state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cables import (
    cable_force_density,
    cable_kinematics,
    damping_force_density,
    incidence_matrix,
    nodal_cable_forces,
    strain_energy,
)
from .structure import Structure

__all__ = ["Dynamics", "consistent_mass_matrix", "MemberParameters"]


def consistent_mass_matrix(structure: Structure) -> np.ndarray:
    """Constant mass matrix M, shape (n_coords, n_coords), kg."""
    n, dim = structure.n_nodes, structure.dim
    Mn = np.zeros((n, n))
    for (i, j), m in zip(structure.bars, structure.bar_masses, strict=True):
        Mn[i, i] += m / 3
        Mn[j, j] += m / 3
        Mn[i, j] += m / 6
        Mn[j, i] += m / 6
    return np.kron(Mn, np.eye(dim))


@dataclass(frozen=True)
class MemberParameters:
    """Cable parameters theta = (sigma, c, EA) entering the dynamics.

    ``sigma`` (N/m) is the force density at the reference length, ``c`` the
    damper coefficient (N s/m) and ``EA`` the axial stiffness (N); ``K`` and
    ``L0`` follow from the member convention.
    """

    sigma: np.ndarray
    c: np.ndarray
    EA: np.ndarray
    L_ref: np.ndarray

    @property
    def K(self) -> np.ndarray:
        return self.EA / self.L_ref + self.sigma

    @property
    def L0(self) -> np.ndarray:
        return self.L_ref * (1.0 - self.sigma / self.K)


class Dynamics:
    """Operators and right-hand side of one structure's equations of motion.

    Parameters
    ----------
    structure : Structure
        Must carry a prestress (``sigma``), whose bar force densities give the
        static multipliers.
    sigma, c, EA : array_like, shape (n_cables,), optional
        Parameters overriding the structure's (identification, Fisher).
    mass : ndarray, shape (n_coords, n_coords), optional
        A mass matrix replacing the consistent bar mass (the model-form
        generators of :mod:`tensegrity_id.mechanics.model_form`); symmetric
        positive definite on the free coordinates.  The gravity load stays
        that of the bars.
    """

    def __init__(self, structure: Structure, *, sigma=None, c=None, EA=None, mass=None):
        if not structure.has_prestress and sigma is None:
            raise ValueError(f"structure '{structure.name}' carries no prestress")
        self.structure = structure
        nc = structure.n_cables
        self.params = MemberParameters(
            sigma=np.broadcast_to(
                np.asarray(structure.sigma if sigma is None else sigma, float), (nc,)
            ).copy(),
            c=np.broadcast_to(np.asarray(structure.cable_damping if c is None else c, float), (nc,)).copy(),
            EA=np.broadcast_to(np.asarray(structure.cable_EA if EA is None else EA, float), (nc,)).copy(),
            L_ref=structure.cable_lengths,
        )
        self.K = self.params.K
        self.L0 = self.params.L0
        self.c = self.params.c
        self.n, self.dim = structure.n_nodes, structure.dim
        self.free = np.flatnonzero(structure.free_mask)
        self.q0 = structure.q0
        self.M = consistent_mass_matrix(structure) if mass is None else np.asarray(mass, float)
        if self.M.shape != (structure.n_coords, structure.n_coords) or not np.allclose(self.M, self.M.T):
            raise ValueError(
                f"structure '{structure.name}': the mass matrix must be symmetric, shape "
                f"({structure.n_coords}, {structure.n_coords})"
            )
        Mff = self.M[np.ix_(self.free, self.free)]
        if np.linalg.matrix_rank(Mff) < len(self.free):
            raise ValueError(
                f"structure '{structure.name}': the mass matrix is singular on the free coordinates "
                "(a free node carries no bar mass)"
            )
        self.Mff = Mff
        self.Minv = np.linalg.inv(Mff)
        self.G = structure.gravity_force
        self.Cc = incidence_matrix(structure.cables, self.n)
        self.Cb = incidence_matrix(structure.bars, self.n)
        self.bar_lengths = structure.bar_lengths

    # ----------------------------------------------------------- helpers
    @property
    def n_free(self) -> int:
        return len(self.free)

    def full(self, q_free, v_free=None):
        """Full coordinates (and velocities) from the free ones, shape (..., n, dim)."""
        q = np.broadcast_to(self.q0, q_free.shape[:-1] + self.q0.shape).copy()
        q[..., self.free] = q_free
        x = q.reshape(q.shape[:-1] + (self.n, self.dim))
        if v_free is None:
            return x
        v = np.zeros_like(q)
        v[..., self.free] = v_free
        return x, v.reshape(x.shape)

    def constraint_jacobian(self, x):
        """Bar constraint Jacobian on all coordinates, shape (..., n_bars, n_coords)."""
        b = self.Cb @ x
        J = self.Cb[:, :, None] * b[..., :, None, :]
        return J.reshape(J.shape[:-2] + (-1,))

    def cable_state(self, x, v, taut=None):
        """Cable vectors, lengths, rates, taut flags, elastic and damping force densities."""
        s, length, rate = cable_kinematics(self.Cc, x, v)
        if taut is None:
            taut = length > self.L0
        sig = cable_force_density(length, self.K, self.L0, taut)
        dmp = damping_force_density(length, rate, self.c, taut)
        return s, length, rate, taut, sig, dmp

    # ------------------------------------------------------------- physics
    def accelerations(self, q_free, v_free, f_ext=None, taut=None):
        """Solve the saddle-point system at one state.

        Parameters
        ----------
        q_free, v_free : ndarray, shape (n_free,)
            Free coordinates (m) and velocities (m/s).
        f_ext : ndarray, shape (n_coords,), optional
            External force (N) on all coordinates.
        taut : bool ndarray, shape (n_cables,), optional
            Taut set (default: from the lengths).

        Returns
        -------
        qdd : ndarray, shape (n_free,), m/s^2
        lam : ndarray, shape (n_bars,), N/m (bar force densities)
        damping_power : float, W (power of the damping forces)
        """
        x, v = self.full(q_free, v_free)
        s, _, _, _, sig, dmp = self.cable_state(x, v, taut)
        f = self.G + nodal_cable_forces(self.Cc, s, sig + dmp).ravel()
        if f_ext is not None:
            f = f + f_ext
        ff = f[self.free]
        J = self.constraint_jacobian(x)[:, self.free]
        bd = self.Cb @ v
        kappa = (bd * bd).sum(-1)
        MJ = self.Minv @ J.T
        lam = np.linalg.solve(J @ MJ, J @ (self.Minv @ ff) + kappa) if len(J) else np.zeros(0)
        qdd = self.Minv @ ff - MJ @ lam
        fd = nodal_cable_forces(self.Cc, s, dmp).ravel()
        return qdd, lam, float(fd[self.free] @ v_free)

    def accelerations_batch(self, q_free, v_free, K, L0, c, f_ext=None):
        """Accelerations of a batch of states, each with its own cable constants.

        The same saddle-point solve as :meth:`accelerations` with the exact
        tension-only law (taut where ``length > L0``), vectorised over the
        leading axis for filters that propagate many parameter samples at once.

        Parameters
        ----------
        q_free, v_free : ndarray, shape (B, n_free)
        K, L0, c : ndarray, shape (B, n_cables) or broadcastable
            Cable stiffness (N/m), rest length (m), damper coefficient (N s/m).
        f_ext : ndarray, shape (n_coords,) or (B, n_coords), optional

        Returns
        -------
        qdd : ndarray, shape (B, n_free), m/s^2
        """
        x, v = self.full(q_free, v_free)
        s, length, rate = cable_kinematics(self.Cc, x, v)
        sig = cable_force_density(length, K, L0)
        w = sig + damping_force_density(length, rate, c, length > L0)
        f = self.G + nodal_cable_forces(self.Cc, s, w).reshape(len(q_free), -1)
        if f_ext is not None:
            f = f + f_ext
        ff = f[:, self.free]
        Mf = ff @ self.Minv.T
        if not len(self.Cb):
            return Mf
        J = self.constraint_jacobian(x)[..., self.free]
        bd = self.Cb @ v
        kappa = (bd * bd).sum(-1)
        MJ = np.einsum("ij,bkj->bik", self.Minv, J)
        A = J @ MJ
        lam = np.linalg.solve(A, (np.einsum("bkj,bj->bk", J, Mf) + kappa)[..., None])[..., 0]
        return Mf - np.einsum("bik,bk->bi", MJ, lam)

    def energies(self, q_free, v_free, taut=None):
        """Kinetic, gravitational and strain energy, J (arrays over leading axes)."""
        x, v = self.full(q_free, v_free)
        T = 0.5 * np.einsum("...i,ij,...j->...", v_free, self.Mff, v_free)
        q = x.reshape(x.shape[:-2] + (-1,))
        Vg = -(q - self.q0) @ self.G
        _, length, _ = cable_kinematics(self.Cc, x, v)
        Vs = strain_energy(length, self.K, self.L0, taut)
        return T, Vg, Vs

    def static_residual(self):
        """Out-of-balance of the free coordinates at rest in q0 with the static multipliers."""
        x = self.full(self.q0[self.free])
        s, _, _, _, sig, _ = self.cable_state(x, np.zeros_like(x))
        f = self.G + nodal_cable_forces(self.Cc, s, sig).ravel()
        lam = self.structure.bar_sigma if self.structure.bar_sigma is not None else np.zeros(len(self.Cb))
        J = self.constraint_jacobian(x)
        return (f - J.T @ lam)[self.free]

    def constraint_violation(self, q_free):
        """Relative violation of the squared bar lengths, shape (..., n_bars)."""
        x = self.full(q_free)
        b = self.Cb @ x
        return (b * b).sum(-1) / self.bar_lengths**2 - 1.0
