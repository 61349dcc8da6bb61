"""Statics: equilibrium matrix, Maxwell counts, self-stress and prestress.

Equilibrium matrix
------------------
With member force densities ``t`` (N/m, tension positive; bars first, then
cables) the force that member ``k = (i, j)`` exerts on node ``i`` is
``t_k (x_j - x_i)`` and on node ``j`` is ``t_k (x_i - x_j)``.  Collecting
these columns gives ``A`` (n_coords x n_members) with nodal balance

    A t + f_ext = 0 .

On a supported structure the reactions absorb the rows of the fixed
coordinates, so the counts use ``A`` restricted to the free coordinates.  A
free-standing form has no reactions, so its rank is taken on all coordinates
(the paper §S3).  With ``r = rank A`` (relative singular-value tolerance 1e-6)

    s = n_members - r         (independent self-stress states)
    m = n_free - n_rigid - r  (infinitesimal mechanisms)

where ``n_rigid`` is the number of rigid-body motions left unrestrained by the
supports; it is zero on a supported structure and on a minimally grounded
form, for which ``m = n_free - r`` as in Table S3.  Maxwell's rule
``m - s = n_free - n_rigid - n_members`` holds by construction.

Prestress
---------
* ``lp``: a linear program (HiGHS) over all member force densities balancing
  gravity at the free coordinates, every cable ``sigma >= sigma_min``, bars
  free, minimising the total cable force density.
* ``selfstress``: the structure's own self-stress mode (the null space of the
  all-coordinate equilibrium matrix), sign-checked so that cables are in
  tension and bars in compression, scaled so its largest cable force density
  equals ``scale``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from .structure import Structure

__all__ = [
    "RANK_TOL",
    "PrestressError",
    "StaticCounts",
    "equilibrium_matrix",
    "counts",
    "self_stress_basis",
    "mechanism_basis",
    "prestress_lp",
    "prestress_selfstress",
    "apply_prestress",
    "static_residual",
    "support_reactions",
    "minimal_grounding",
    "rigid_body_modes",
]

RANK_TOL = 1e-6
"""Relative singular-value tolerance for ranks (Table S2)."""


class PrestressError(RuntimeError):
    """No admissible prestress: names the structure and the setting."""


@dataclass(frozen=True)
class StaticCounts:
    """Maxwell counts of a structure (Table S3 columns)."""

    n_free: int
    n_members: int
    rank_A: int
    s: int
    m: int

    def as_dict(self) -> dict:
        return {
            "n_free": self.n_free,
            "n_members": self.n_members,
            "rank_A": self.rank_A,
            "s": self.s,
            "m": self.m,
        }


def equilibrium_matrix(structure: Structure, nodes=None) -> np.ndarray:
    """Equilibrium matrix on all coordinates, shape (n_coords, n_members).

    Parameters
    ----------
    structure : Structure
    nodes : ndarray, shape (n_nodes, dim), optional
        Configuration at which to evaluate it (default: the reference one).
    """
    x = structure.nodes if nodes is None else np.asarray(nodes, float)
    dim = structure.dim
    mem = structure.members
    A = np.zeros((structure.n_coords, len(mem)))
    d = x[mem[:, 1]] - x[mem[:, 0]]
    for a in range(dim):
        A[dim * mem[:, 0] + a, np.arange(len(mem))] += d[:, a]
        A[dim * mem[:, 1] + a, np.arange(len(mem))] -= d[:, a]
    return A


def rigid_body_modes(nodes: np.ndarray) -> np.ndarray:
    """Infinitesimal rigid-body motions of a node set, shape (n_coords, 3 or 6)."""
    nodes = np.asarray(nodes, float)
    x = nodes - nodes.mean(axis=0)
    n, dim = x.shape
    modes = []
    for a in range(dim):
        u = np.zeros((n, dim))
        u[:, a] = 1.0
        modes.append(u.ravel())
    axes = [(0, 1)] if dim == 2 else [(0, 1), (1, 2), (2, 0)]
    for a, b in axes:
        u = np.zeros((n, dim))
        u[:, a], u[:, b] = -x[:, b], x[:, a]
        modes.append(u.ravel())
    return np.array(modes).T


def _rank(M: np.ndarray, tol: float = RANK_TOL) -> tuple[int, np.ndarray]:
    sv = np.linalg.svd(M, compute_uv=False)
    if sv.size == 0 or sv[0] == 0.0:
        return 0, sv
    return int((sv > tol * sv[0]).sum()), sv


def _counting_matrix(structure: Structure) -> np.ndarray:
    A = equilibrium_matrix(structure)
    return A if structure.free_standing else A[structure.free_mask]


def _unrestrained_rigid_modes(structure: Structure) -> int:
    if not structure.free_standing:
        return 0
    R = rigid_body_modes(structure.nodes)
    held, _ = _rank(R[~structure.free_mask], 1e-9) if (~structure.free_mask).any() else (0, None)
    return R.shape[1] - held


def counts(structure: Structure, *, tol: float = RANK_TOL) -> StaticCounts:
    """Maxwell counts (n_free, n_members, rank A, s, m) of the paper's §S3."""
    r, _ = _rank(_counting_matrix(structure), tol)
    s = structure.n_members - r
    m = structure.n_free - _unrestrained_rigid_modes(structure) - r
    return StaticCounts(structure.n_free, structure.n_members, r, s, m)


def self_stress_basis(structure: Structure, *, tol: float = RANK_TOL) -> np.ndarray:
    """Orthonormal basis of self-stress states, shape (n_members, s)."""
    A = _counting_matrix(structure)
    r, _ = _rank(A, tol)
    _, _, Vt = np.linalg.svd(A)
    return Vt[r:].T


def mechanism_basis(structure: Structure, *, tol: float = RANK_TOL) -> np.ndarray:
    """Orthonormal basis of infinitesimal mechanisms on the free coordinates.

    Returns shape (n_free, m): displacements of the free coordinates that
    extend no member to first order (null space of the compatibility matrix
    ``A_free^T``), orthogonal to the rigid-body motions of a free-free form.
    """
    free = structure.free_mask
    C = equilibrium_matrix(structure)[free].T  # compatibility on free coords
    if _unrestrained_rigid_modes(structure):  # free-free: exclude rigid-body motions
        R = rigid_body_modes(structure.nodes)[free]
        C = np.vstack([C, R.T])
    r, _ = _rank(C, tol)
    _, _, Vt = np.linalg.svd(C)
    return Vt[r:].T


def static_residual(structure: Structure, sigma_cables, sigma_bars) -> np.ndarray:
    """Out-of-balance force at the free coordinates, N (zero at equilibrium)."""
    t = np.concatenate([sigma_bars, sigma_cables])
    f = equilibrium_matrix(structure) @ t + structure.gravity_force
    return f[structure.free_mask] if not structure.free_standing else f


def prestress_lp(structure: Structure, *, sigma_min: float) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-total-force-density prestress that balances gravity.

    Returns
    -------
    sigma : ndarray, shape (n_cables,), N/m
    bar_sigma : ndarray, shape (n_bars,), N/m (negative in compression)

    Raises
    ------
    PrestressError
        If no prestress with every cable at least ``sigma_min`` balances the
        load; the message names the structure and ``sigma_min``.
    """
    if not sigma_min >= 0:
        raise PrestressError(f"structure '{structure.name}': sigma_min must be >= 0")
    A = _counting_matrix(structure)
    f = structure.gravity_force
    b = -(f if structure.free_standing else f[structure.free_mask])
    nb, nc = structure.n_bars, structure.n_cables
    cost = np.concatenate([np.zeros(nb), np.ones(nc)])
    bounds = [(None, None)] * nb + [(sigma_min, None)] * nc
    # Scale rows so the equality tolerance is relative to the geometry.
    scale = np.maximum(np.abs(A).max(axis=1), 1e-300)
    res = linprog(cost, A_eq=A / scale[:, None], b_eq=b / scale, bounds=bounds, method="highs")
    if res.status != 0:
        # status 2: infeasible (the solver's own words add nothing); any other: the solver's message
        why = "" if res.status == 2 else f" ({res.message.strip()})"
        raise PrestressError(
            f"structure '{structure.name}': no prestress with every cable force density "
            f">= sigma_min = {sigma_min:g} N/m balances the load{why}; lower sigma_min, or change "
            "the nodes, cables or supports so that cables in tension can hold the bars in equilibrium"
        )
    t = res.x
    return t[nb:].copy(), t[:nb].copy()


def prestress_selfstress(structure: Structure, *, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The structure's own self-stress mode, scaled to ``max(sigma) = scale``.

    The mode is taken from the equilibrium matrix on all coordinates (the
    free-floating form), so supports play no part.  It must be unique (one
    self-stress state) and sign-consistent: every cable in tension and every
    bar in compression.
    """
    A = equilibrium_matrix(structure)
    r, sv = _rank(A)
    s = structure.n_members - r
    if s != 1:
        raise PrestressError(
            f"structure '{structure.name}': prestress method 'selfstress' needs exactly one "
            f"self-stress state of the free-floating form, found {s}; use method 'lp'"
        )
    _, _, Vt = np.linalg.svd(A)
    mode = Vt[-1]
    nb = structure.n_bars
    cab, bar = mode[nb:], mode[:nb]
    if cab.sum() < 0:
        cab, bar = -cab, -bar
    tiny = 1e-9 * np.abs(mode).max()
    if (cab <= tiny).any() or (bar >= -tiny).any():
        raise PrestressError(
            f"structure '{structure.name}': its self-stress mode is not sign-consistent "
            "(some cable would be compressed or some bar stretched); use method 'lp', or change "
            "the nodes, cables or bars"
        )
    k = scale / cab.max()
    return cab * k, bar * k


def bar_multipliers(structure: Structure, sigma) -> np.ndarray:
    """The bar force densities (N/m) that best balance gravity with the cable force densities ``sigma``
    at the reference geometry (least squares over the free coordinates, or all of them for a
    free-standing form; exact where ``sigma`` is an equilibrium prestress)."""
    A = _counting_matrix(structure)
    nb = structure.n_bars
    f = structure.gravity_force
    rhs = -(f if structure.free_standing else f[structure.free_mask]) - A[:, nb:] @ np.asarray(sigma, float)
    return np.linalg.lstsq(A[:, :nb], rhs, rcond=None)[0]


def support_reactions(structure: Structure, sigma, bar_sigma) -> np.ndarray:
    """Static support reactions (N) at the fixed coordinates, in coordinate order: the forces the
    supports exert so that the cable force densities ``sigma`` and the bar force densities
    ``bar_sigma`` (N/m) balance gravity there (the support multipliers of the paper's Eq. 1 at
    rest).  Empty for a free-standing form."""
    t = np.concatenate([np.asarray(bar_sigma, float), np.asarray(sigma, float)])
    f = equilibrium_matrix(structure) @ t + structure.gravity_force
    return -f[~structure.free_mask]


def apply_prestress(structure: Structure, spec: dict) -> Structure:
    """Attach the prestress described by ``spec`` (the config's ``prestress``).

    ``spec['method']`` is ``'lp'`` (with ``sigma_min``), ``'selfstress'``
    (with ``scale``, the largest cable force density, or ``tension`` with
    ``cable``: the tension in newtons carried by that cable) or ``'given'``
    (the structure already carries sigma; its bar force densities are
    recovered by least squares and checked).
    """
    method = spec.get("method", "lp")
    if method == "lp":
        sigma, bar_sigma = prestress_lp(structure, sigma_min=float(spec["sigma_min"]))
    elif method == "selfstress":
        sigma, bar_sigma = prestress_selfstress(structure, scale=float(spec.get("scale", 1.0)))
        if "tension" in spec:  # scale so that one reference cable carries a given tension
            k = int(spec.get("cable", 0))
            if not 0 <= k < structure.n_cables:
                raise PrestressError(
                    f"structure '{structure.name}': prestress.cable = {k} is not a cable index "
                    f"(0 to {structure.n_cables - 1})"
                )
            f = float(spec["tension"]) / (sigma[k] * structure.cable_lengths[k])
            sigma, bar_sigma = sigma * f, bar_sigma * f
    elif method == "given":
        if structure.sigma is None:
            raise PrestressError(
                f"structure '{structure.name}': prestress method 'given' needs 'sigma' in the structure file"
            )
        sigma = structure.sigma
        bar_sigma = bar_multipliers(structure, sigma)
    else:
        raise PrestressError(f"structure '{structure.name}': unknown prestress method {method!r}")
    out = structure.with_prestress(sigma, bar_sigma)
    res = static_residual(out, sigma, bar_sigma)
    load = max(np.abs(structure.gravity_force).max(), np.abs(sigma).max() * 1e-3, 1e-12)
    if np.abs(res).max() > 1e-6 * max(load, np.abs(sigma).max()):
        raise PrestressError(
            f"structure '{structure.name}': prestress ({method}) leaves an out-of-balance "
            f"force of {np.abs(res).max():.3g} N at the free coordinates; " + _balance_fix(structure, method)
        )
    return out


def _balance_fix(structure: Structure, method: str) -> str:
    """What to change when a prestress of ``method`` leaves ``structure`` out of balance."""
    if method == "given":
        return "give force densities 'sigma' that balance the load, or use method 'lp'"
    if structure.gravity > 0:  # a self-stress mode balances no load
        return f"a self-stress mode carries no load: under gravity ({structure.gravity:g} m/s^2) use 'lp'"
    return "check the nodes, cables and supports"


def minimal_grounding(nodes: np.ndarray) -> np.ndarray:
    """Fixed-coordinate mask that removes exactly the rigid-body motions.

    Coordinates are chosen greedily, node by node and axis by axis, keeping
    one only if it restrains a further rigid-body motion (3-2-1 grounding in
    3D, 2-1 in 2D).  Returns a bool array of shape (n_nodes, dim).
    """
    nodes = np.asarray(nodes, float)
    n, dim = nodes.shape
    R = rigid_body_modes(nodes)
    need = R.shape[1]
    chosen: list[int] = []
    for c in range(n * dim):
        trial = chosen + [c]
        if _rank(R[trial], 1e-9)[0] > len(chosen):
            chosen = trial
        if len(chosen) == need:
            break
    mask = np.zeros(n * dim, bool)
    mask[chosen] = True
    return mask.reshape(n, dim)
