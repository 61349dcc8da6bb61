"""The tension-only cable law: the one implementation every stage uses.

With member vector ``s_k = Y_k q`` (``x_j - x_i`` for cable ``k = (i, j)``),
length ``l_k = |s_k|``, rest length ``L0_k`` and stiffness ``K_k`` the force
density is (seed Eq. 4)

    sigma_k(l) = K_k (1 - L0_k / l)   if l > L0_k   (taut),
               = 0                    otherwise      (slack),

so the tension is ``T_k = sigma_k l_k = K_k (l_k - L0_k)`` while taut: a
linear spring about the rest length, with strain energy
``V_s = K (l - L0)^2 / 2``.  The axial viscous damper acts only while taut
with force ``c_k dl/dt`` along the cable, i.e. a damping force density
``c_k (dl/dt) / l``.  The nodal force of all cables is

    f = -sum_k (sigma_k + c_k l'_k / l_k) Y_k^T Y_k q .

The functions accept NumPy arrays or PyTorch tensors (the residual of the
physics-informed identification evaluates the same law on network outputs).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "cable_force_density",
    "damping_force_density",
    "strain_energy",
    "cable_kinematics",
    "nodal_cable_forces",
    "incidence_matrix",
]


def _where(cond, a, b):
    if isinstance(cond, np.ndarray) or np.isscalar(cond):
        return np.where(cond, a, b)
    import torch

    return torch.where(cond, a, torch.zeros_like(a) + b)


def cable_force_density(length, K, L0, taut=None):
    """Force density sigma_k(l) of the exact tension-only law, N/m.

    Parameters
    ----------
    length : array, shape (..., n_cables), metres
    K, L0 : array, shape (n_cables,), N/m and metres
    taut : bool array, optional
        Explicit taut set (the simulator integrates mode by mode between
        events); by default a cable is taut where ``length > L0``.
    """
    if taut is None:
        taut = length > L0
    return _where(taut, K * (1.0 - L0 / length), 0.0)


def damping_force_density(length, rate, c, taut):
    """Damping force density c l' / l of the taut cables, N/m."""
    return _where(taut, c * rate / length, 0.0)


def strain_energy(length, K, L0, taut=None):
    """Elastic energy sum_k K (l - L0)^2 / 2 of the taut cables, J."""
    if taut is None:
        taut = length > L0
    e = _where(taut, 0.5 * K * (length - L0) ** 2, 0.0)
    return e.sum(-1)


def incidence_matrix(pairs, n_nodes) -> np.ndarray:
    """Member-node incidence C (n_members x n_nodes): C[k, i] = -1, C[k, j] = +1."""
    pairs = np.asarray(pairs, int).reshape(-1, 2)
    C = np.zeros((len(pairs), n_nodes))
    C[np.arange(len(pairs)), pairs[:, 0]] = -1.0
    C[np.arange(len(pairs)), pairs[:, 1]] = 1.0
    return C


def cable_kinematics(C, x, v):
    """Member vectors, lengths and length rates.

    Parameters
    ----------
    C : ndarray, shape (n_cables, n_nodes)
        Incidence matrix (:func:`incidence_matrix`).
    x, v : array, shape (..., n_nodes, dim)
        Nodal positions (m) and velocities (m/s).

    Returns
    -------
    s : shape (..., n_cables, dim); length, rate : shape (..., n_cables)
    """
    s = C @ x
    sd = C @ v
    length = (s * s).sum(-1) ** 0.5
    rate = (s * sd).sum(-1) / length
    return s, length, rate


def nodal_cable_forces(C, s, w):
    """Nodal forces -C^T (w s) of member force densities ``w``, shape (..., n_nodes, dim)."""
    return -(C.T @ (w[..., :, None] * s))
