"""The tension-only cable law: the one implementation every stage uses.

With member vector ``s_k = Y_k q`` (``x_j - x_i`` for cable ``k = (i, j)``),
length ``l_k = |s_k|``, rest length ``L0_k`` and stiffness ``K_k`` the force
density is (the paper's Eq. 4)

    sigma_k(l) = K_k (1 - L0_k / l)   if l > L0_k   (taut),
               = 0                    otherwise      (slack),

so the tension is ``T_k = sigma_k l_k = K_k (l_k - L0_k)`` while taut: a
linear spring about the rest length, with strain energy
``V_s = K (l - L0)^2 / 2``.  The axial viscous damper acts only while taut
with force ``c_k dl/dt`` along the cable, i.e. a damping force density
``c_k (dl/dt) / l``.  The nodal force of all cables is

    f = -sum_k (sigma_k + c_k l'_k / l_k) Y_k^T Y_k q .

Smoothed law (the paper §3.1.3).  In the strain coordinate ``e = 1 - L0/l`` the
exact force density is the ramp ``K max(e, 0)``; the physics-informed
identification trains with its softplus smoothing

    sigma_k(l) = K_k softplus_beta(e) = (K_k / beta) ln(1 + exp(beta e)),

which exceeds the ramp by at most ``K ln2 / beta`` (at ``e = 0``) inside a
boundary layer of width ``1/beta``, and switches the damper with the
matching sigmoid ``1 / (1 + exp(-beta e))`` (the derivative of the softplus
in ``e``).  At beta = 800 the overshoot is ``ln2/800 = 8.7e-4`` in strain.

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
    "member_lengths_and_rates",
    "nodal_cable_forces",
    "incidence_matrix",
    "strain_coordinate",
    "smoothed_force_density",
    "smoothed_taut_switch",
    "smoothing_peak_bias",
    "fischer_burmeister",
]


_NUMPY = (np.ndarray, np.generic, bool, int, float)
"""Types taking the NumPy branch (an isinstance test, which torch.compile can trace)."""


def _where(cond, a, b):
    if isinstance(cond, _NUMPY):
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
    """Damping force density c l' / l of the taut cables, N/m.

    ``taut`` is a boolean array (exact law) or a switch in [0, 1] (the
    smoothed law's sigmoid, :func:`smoothed_taut_switch`).
    """
    if not _is_bool(taut):
        return taut * c * rate / length
    return _where(taut, c * rate / length, 0.0)


def _is_bool(a) -> bool:
    """A boolean taut set (not a floating-point switch)."""
    if isinstance(a, _NUMPY):
        return np.asarray(a).dtype == np.bool_
    return not a.is_floating_point()  # a torch tensor: bool, or a floating-point switch


def strain_coordinate(length, L0):
    """The strain coordinate e = 1 - L0/l of the ramp law (positive while taut), -."""
    return 1.0 - L0 / length


def _softplus(z):
    if isinstance(z, _NUMPY):
        return np.logaddexp(0.0, z)
    import torch

    return torch.nn.functional.softplus(z)


def _sigmoid(z):
    if isinstance(z, _NUMPY):
        return 0.5 * (1.0 + np.tanh(0.5 * z))
    import torch

    return torch.sigmoid(z)


def smoothed_force_density(length, K, L0, beta: float):
    """Force density of the softplus-smoothed law, K softplus(beta e)/beta, N/m."""
    return K * _softplus(beta * strain_coordinate(length, L0)) / beta


def smoothed_taut_switch(length, L0, beta: float):
    """Sigmoid taut indicator sigmoid(beta e) in [0, 1] that switches the damper smoothly."""
    return _sigmoid(beta * strain_coordinate(length, L0))


def smoothing_peak_bias(K, beta: float):
    """Largest excess of the smoothed over the exact force density, K ln2 / beta, N/m."""
    return np.asarray(K, float) * np.log(2.0) / beta


def fischer_burmeister(a, b):
    """phi(a, b) = a + b - sqrt(a^2 + b^2): zero iff a >= 0, b >= 0 and a b = 0."""
    return a + b - (a * a + b * b) ** 0.5


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
    return (s, *member_lengths_and_rates(s, C @ v))


def member_lengths_and_rates(s, sd):
    """Lengths and length rates of member vectors ``s`` with rates ``sd`` (..., n_members, dim)."""
    length = (s * s).sum(-1) ** 0.5
    return length, (s * sd).sum(-1) / length


def nodal_cable_forces(C, s, w):
    """Nodal forces -C^T (w s) of member force densities ``w``, shape (..., n_nodes, dim)."""
    return -(C.T @ (w[..., :, None] * s))
