"""Quaternion algebra and bar geometry of the quaternion model (Cefalo and Mirats-Tur 2011).

Helpers of :mod:`tensegrity_id.mechanics.quaternion` (Hamilton products, the
bar vector of Eq. 12 and its rate, the shortest-arc initial orientation); like
that model, they share no code with the Cartesian simulator.
"""

from __future__ import annotations

import numpy as np

__all__ = ["quat_mul", "conj", "pure", "bar_vector", "bar_vector_rate", "shortest_arc"]


def quat_mul(p, q):
    """Hamilton product ``p q`` of quaternions, arrays of shape (..., 4)."""
    p0, pv = p[..., :1], p[..., 1:]
    q0, qv = q[..., :1], q[..., 1:]
    return np.concatenate(
        [p0 * q0 - (pv * qv).sum(-1, keepdims=True), p0 * qv + q0 * pv + np.cross(pv, qv)], axis=-1
    )


def conj(q):
    """Conjugate quaternion, shape (..., 4)."""
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def pure(v):
    """Pure quaternion (0, v) of a vector v, shape (..., 3) -> (..., 4)."""
    return np.concatenate([np.zeros(v.shape[:-1] + (1,)), v], axis=-1)


def bar_vector(e):
    """Unit-length bar direction of Eq. 12 (times |e|^2 off the unit sphere), shape (..., 3)."""
    e0, e1, e2, e3 = np.moveaxis(e, -1, 0)
    return np.stack(
        [e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3, 2 * (e1 * e2 + e0 * e3), 2 * (e1 * e3 - e0 * e2)], -1
    )


def bar_vector_rate(e, ed):
    """d/dt of :func:`bar_vector`: its Jacobian in e (linear in e) applied to ed, shape (..., 3)."""
    e0, e1, e2, e3 = np.moveaxis(e, -1, 0)
    d0, d1, d2, d3 = np.moveaxis(ed, -1, 0)
    return 2 * np.stack(
        [
            e0 * d0 + e1 * d1 - e2 * d2 - e3 * d3,
            e3 * d0 + e2 * d1 + e1 * d2 + e0 * d3,
            -e2 * d0 + e3 * d1 - e0 * d2 + e1 * d3,
        ],
        -1,
    )


def shortest_arc(u):
    """Unit quaternion turning x onto the unit vector u (e1 = 0), shape (..., 4)."""
    w = 1.0 + u[..., 0]
    e = np.stack([w, np.zeros_like(w), -u[..., 2], u[..., 1]], -1)  # (1 + x.u, x cross u)
    n = np.linalg.norm(e, axis=-1, keepdims=True)
    flip = n[..., 0] < 1e-12  # u = -x: Cefalo and Mirats-Tur's singular orientation
    e = np.where(flip[..., None], np.array([0.0, 0.0, 0.0, 1.0]), e / np.where(n > 0, n, 1.0))
    return e
