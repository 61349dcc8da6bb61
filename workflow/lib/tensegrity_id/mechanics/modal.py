"""Small-oscillation analysis about the prestressed equilibrium.

Constrained linearisation
    Perturbing ``M q'' = f(q) - sum_k lambda_k X_k^T X_k q`` about the static
    state ``(q0, lambda0)`` on the free coordinates gives the stiffness

        H = K_c + sum_k lambda0_k (X_k^T X_k)_ff ,

    where ``K_c = -df/dq`` is the cable tangent stiffness and the second
    term is the constraint-Hessian (geometric) stiffness of the bars, negative
    for compressed bars.  Admissible perturbations keep the bar lengths,
    ``J_f dq = 0``; with ``N`` an orthonormal basis of that tangent space the
    natural frequencies follow from ``N^T H N phi = w^2 N^T M N phi``.

Member tangent stiffness
    A straight two-node member with force density ``sigma(l)`` and vector
    ``s`` has ``-dF/dx`` block ``k = sigma I + (d sigma / d l) s s^T / l``.
    For the cable law ``sigma = K (1 - L0 / l)`` one has ``K L0 = EA``, and
    for an elastic bar of rest length ``L_r``, ``sigma = EA (1/L_r - 1/l)``:
    both give ``k = sigma I + EA s s^T / l^3``.

Classical limit
    :func:`truss_frequencies` assembles, element by element and
    independently of the dynamics operators, the prestressed-truss tangent
    stiffness with the bars as very stiff elastic members carrying the
    static bar force densities; as ``EA_bar`` grows its lowest frequencies
    converge to the constrained ones (Table 2).
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh, null_space

from .dynamics import Dynamics, consistent_mass_matrix
from .structure import Structure

__all__ = [
    "tangent_stiffness",
    "stiffness_split",
    "constrained_modes",
    "geometric_fractions",
    "truss_frequencies",
    "truss_limit_frequencies",
]


def stiffness_split(dyn: Dynamics, q_free=None, lam=None, taut=None) -> tuple[np.ndarray, np.ndarray]:
    """Material and geometric parts of the tangent stiffness on the free coordinates (N/m).

    ``K_e = sum_cables EA s s^T / l^3`` (member extension) and
    ``K_g = sum_cables sigma I + sum_bars lambda I`` (linear in the force
    densities, the paper's Eq. 9); ``H = K_e + K_g``.  Defaults: the reference
    configuration and the static multipliers.
    """
    q_free = dyn.q0[dyn.free] if q_free is None else q_free
    lam = dyn.structure.bar_sigma if lam is None else lam
    x = dyn.full(q_free)
    s, length, _, tt, sig, _ = dyn.cable_state(x, np.zeros_like(x), taut)
    n, dim = dyn.n, dyn.dim
    Ke = np.zeros((n * dim, n * dim))
    Kg = np.zeros((n * dim, n * dim))
    eye = np.eye(dim)
    for k in np.flatnonzero(tt):
        _scatter(Ke, dyn.structure.cables[k], dyn.params.EA[k] * np.outer(s[k], s[k]) / length[k] ** 3, dim)
        _scatter(Kg, dyn.structure.cables[k], sig[k] * eye, dim)
    for k, (i, j) in enumerate(dyn.structure.bars):
        _scatter(Kg, (i, j), lam[k] * eye, dim)
    idx = np.ix_(dyn.free, dyn.free)
    return Ke[idx], Kg[idx]


def tangent_stiffness(dyn: Dynamics, q_free=None, lam=None, taut=None) -> np.ndarray:
    """Tangent stiffness H = K_e + K_g on the free coordinates (N/m)."""
    Ke, Kg = stiffness_split(dyn, q_free, lam, taut)
    return Ke + Kg


def _scatter(H, pair, kl, dim):
    i, j = pair
    a, b = slice(dim * i, dim * i + dim), slice(dim * j, dim * j + dim)
    H[a, a] += kl
    H[b, b] += kl
    H[a, b] -= kl
    H[b, a] -= kl


def constrained_modes(dyn: Dynamics):
    """Natural frequencies (Hz, ascending) and mode shapes of the constrained system.

    Returns
    -------
    freq_hz : ndarray, shape (n_dof,)
    modes : ndarray, shape (n_free, n_dof), mass-normalised, free coordinates
    """
    x = dyn.full(dyn.q0[dyn.free])
    J = dyn.constraint_jacobian(x)[:, dyn.free]
    N = null_space(J) if len(J) else np.eye(dyn.n_free)
    H = tangent_stiffness(dyn)
    Kr = N.T @ H @ N
    Mr = N.T @ dyn.Mff @ N
    w2, phi = eigh((Kr + Kr.T) / 2, (Mr + Mr.T) / 2)
    freq = np.sign(w2) * np.sqrt(np.abs(w2)) / (2 * np.pi)
    return freq, N @ phi


def geometric_fractions(dyn: Dynamics) -> tuple[np.ndarray, np.ndarray]:
    """Per mode the ratio phi^T K_g phi / phi^T H phi (the paper's Eq. 10-11).

    With ``phi^T M phi = 1`` it equals ``d ln w^2 / d ln s`` for a uniform
    scaling ``s`` of the prestress (the eigenvalue derivative and the
    linearity of ``K_g`` in the force densities); it is 1 for a pure
    mechanism mode and near 0 for a mode stiffened by member extension.

    Returns frequencies (Hz) and fractions, ascending by frequency.
    """
    freq, phi = constrained_modes(dyn)
    Ke, Kg = stiffness_split(dyn)
    num = np.einsum("ik,ij,jk->k", phi, Kg, phi)
    den = np.einsum("ik,ij,jk->k", phi, Ke + Kg, phi)
    rigid = np.abs(den) <= 1e-10 * np.abs(den).max()  # rigid-body modes of free-free forms
    return freq, np.where(rigid, np.nan, num / np.where(rigid, 1.0, den))


def truss_frequencies(structure: Structure, *, EA_bar: float = 1e12, n_lowest: int | None = None):
    """Frequencies (Hz) of the prestressed truss with elastic bars of stiffness ``EA_bar`` (N).

    Assembled element by element: cables with ``sigma I + EA s s^T / l^3``
    at the prestress, bars with the same form at their static force
    densities; consistent bar mass.  Returns the ``n_lowest`` (default: the
    number of constrained degrees of freedom) lowest frequencies.
    """
    x = structure.nodes
    n, dim = x.shape
    K = np.zeros((n * dim, n * dim))
    eye = np.eye(dim)
    for k, (i, j) in enumerate(structure.cables):
        sv = x[j] - x[i]
        ln = np.linalg.norm(sv)
        _scatter(K, (i, j), structure.sigma[k] * eye + structure.cable_EA[k] * np.outer(sv, sv) / ln**3, dim)
    for k, (i, j) in enumerate(structure.bars):
        sv = x[j] - x[i]
        ln = np.linalg.norm(sv)
        _scatter(K, (i, j), structure.bar_sigma[k] * eye + EA_bar * np.outer(sv, sv) / ln**3, dim)
    free = structure.free_mask
    M = consistent_mass_matrix(structure)[np.ix_(free, free)]
    w2 = eigh(K[np.ix_(free, free)], M, eigvals_only=True)
    freq = np.sign(w2) * np.sqrt(np.abs(w2)) / (2 * np.pi)
    n_dof = structure.n_free - structure.n_bars if n_lowest is None else n_lowest
    return freq[:n_dof]


def truss_limit_frequencies(structure: Structure, *, EA_bar: float = 1e7, n_lowest: int | None = None):
    """Classical-limit (rigid-bar) truss frequencies, Hz.

    The truss frequencies approach their limit as ``f(EA) = f_inf + a / EA +
    O(EA^-2)``; a direct evaluation at very large ``EA`` loses accuracy to
    the conditioning of the stiffness matrix, so the limit is taken by
    Richardson extrapolation from ``EA_bar`` and ``2 EA_bar``.
    """
    f1 = truss_frequencies(structure, EA_bar=EA_bar, n_lowest=n_lowest)
    f2 = truss_frequencies(structure, EA_bar=2 * EA_bar, n_lowest=n_lowest)
    return 2 * f2 - f1
