"""Force-density form finding of super-stable free-standing tensegrities.

The force-density method (Schek 1974; Tibert & Pellegrino 2003, §3.4;
Zhang & Ohsaki 2006) writes the nodal balance of a free-standing form with
member force densities ``q`` as ``D X = 0``, where the ``n x n`` force
density (stress) matrix is

    D_ii = sum_{k ∋ i} q_k ,   D_ij = -q_k  for member k = (i, j) .

A non-degenerate configuration in ``d`` dimensions needs ``D`` to have a null
space of dimension ``d + 1`` (the constant vector plus the ``d`` coordinate
columns).  If moreover ``D`` is positive semi-definite the form is
super-stable (Connelly 1982).  For a topology with cable force densities
fixed and one common strut force density ``-y`` we therefore lower ``-y``
from zero until the smallest non-trivial eigenvalue of ``D`` reaches zero: at
that value ``D`` is PSD by continuity, and the configuration is read from
the eigenvectors of the vanishing eigenvalues.  The result is determined up to
an affine map, which preserves the self-stress; we return the eigenvector
(orthonormal) representative, centred, in the frame of its own nodes
(:func:`node_frame`: the same coordinates whichever orthonormal eigenvectors
the machine's LAPACK returns).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

__all__ = ["FormFindingError", "force_density_matrix", "find_superstable_form", "node_frame"]


class FormFindingError(RuntimeError):
    """The topology admits no non-degenerate super-stable form."""


def force_density_matrix(n_nodes: int, members, q) -> np.ndarray:
    """Force density (stress) matrix D, shape (n_nodes, n_nodes)."""
    members = np.asarray(members, int)
    q = np.asarray(q, float)
    D = np.zeros((n_nodes, n_nodes))
    i, j = members[:, 0], members[:, 1]
    np.add.at(D, (i, i), q)
    np.add.at(D, (j, j), q)
    np.add.at(D, (i, j), -q)
    np.add.at(D, (j, i), -q)
    return D


def find_superstable_form(n_nodes, cables, q_cables, bars, *, dim=3):
    """Super-stable configuration of a topology with fixed cable force densities.

    Parameters
    ----------
    n_nodes : int
    cables : array_like of int, shape (n_cables, 2)
    q_cables : array_like, shape (n_cables,)
        Positive cable force densities (relative values matter).
    bars : array_like of int, shape (n_bars, 2)
        All bars carry the same force density ``-y``.
    dim : int

    Returns
    -------
    nodes : ndarray, shape (n_nodes, dim)
        The configuration (orthonormal-eigenvector scale, centred).
    y : float
        Bar force density magnitude relative to ``q_cables``.
    """
    cables = np.asarray(cables, int)
    bars = np.asarray(bars, int)
    members = np.vstack([cables, bars])
    basis = np.linalg.qr(np.hstack([np.ones((n_nodes, 1)), np.eye(n_nodes)[:, :-1]]))[0][:, 1:]

    def reduced(y):
        q = np.concatenate([q_cables, -y * np.ones(len(bars))])
        return basis.T @ force_density_matrix(n_nodes, members, q) @ basis

    def lowest(y):
        return np.linalg.eigvalsh(reduced(y))[0]

    hi = 1e-3
    while lowest(hi) > 0:
        hi *= 1.5
        if hi > 1e6:
            raise FormFindingError("no strut force density makes the stress matrix singular")
    lo = hi / 1.5 if hi > 1e-3 else 0.0
    y = brentq(lowest, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    w, V = np.linalg.eigh(reduced(y))
    scale = max(abs(w).max(), 1.0)
    if abs(w[dim - 1]) > 1e-9 * scale or w[dim] < 1e-6 * scale:
        raise FormFindingError(
            f"the stress matrix has nullity {int((abs(w) < 1e-9 * scale).sum()) + 1} at the "
            f"first singular point, not {dim + 1}: the form is degenerate"
        )
    X = basis @ V[:, :dim]
    return node_frame(X - X.mean(axis=0)), y


def node_frame(X, *, tol: float = 1e-6) -> np.ndarray:
    """Coordinates of the centred configuration ``X`` (n, d) in a frame built from its own nodes.

    Gram-Schmidt over the node position vectors in node order: the first axis
    along the first node, each next axis along the component of the first
    further node that leaves the span so far (by more than ``tol`` of the
    largest coordinate).  The result depends on ``X`` only through its Gram
    matrix ``X X^T``, so any orthogonal transformation of ``X`` (a rotation or
    a reflection) gives the same coordinates to rounding.  The null-space
    eigenvectors of the force density matrix are defined only up to such a
    transformation, and LAPACK's choice varies between machines; so did the
    principal axes of a form with equal spreads (the tetrahedral cells), so a
    grounded form's margin depended on the machine.
    """
    X = np.asarray(X, float)
    dim = X.shape[1]
    scale = max(np.abs(X).max(), 1e-300)
    axes: list[np.ndarray] = []
    for x in X:
        v = x.copy()
        for _ in range(2):  # orthogonalised twice (classical Gram-Schmidt's loss of orthogonality)
            for e in axes:
                v -= (v @ e) * e
        norm = np.linalg.norm(v)
        if norm > tol * scale:
            axes.append(v / norm)
            if len(axes) == dim:
                return X @ np.array(axes).T
    raise FormFindingError(f"the configuration spans fewer than {dim} dimensions")
