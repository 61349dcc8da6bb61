"""Small-oscillation frequencies as functions of a prestress scale and a cable stiffness scale.

About a prestressed equilibrium the constrained stiffness on the tangent
space of the bar constraints splits into a material and a geometric part
(:func:`tensegrity_id.mechanics.modal.stiffness_split`, the paper's Eq. 9),

    H(s, e) = e K_e + s K_g ,

where scaling every force density (cables and bars) by ``s`` scales the
geometric part and leaves the geometry, the mass and ``K_e`` unchanged,
and scaling every cable ``EA`` by ``e`` scales the material part (the
cable's ``K_e = EA s s^T / l^3``).  So one geometry factorisation serves a
whole family of prestress levels: this is the model a modal
identification fits.

Free-free forms carry six rigid-body modes at zero frequency; they are
removed by restricting the problem to the mass-orthogonal complement of
the rigid motions inside the constraint tangent space.  That restriction
matters when the stiffness is modified (e.g. the bars' transverse geometric
term dropped, :meth:`ModalFamily.frequencies` with ``bars_geometric=False``):
without the balancing bar forces the cable stresses alone are not
self-equilibrated and would lend the rigid rotations a spurious stiffness.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh, null_space

from ..mechanics.dynamics import Dynamics
from ..mechanics.modal import stiffness_split
from ..mechanics.statics import rigid_body_modes

__all__ = ["ModalFamily", "distinct_lines"]


class ModalFamily:
    """Frequencies of one structure under a prestress scale and a cable-stiffness scale.

    Parameters
    ----------
    dyn : Dynamics
        The structure at its reference prestress (scale 1), with its mass
        matrix (a custom one where given to :class:`Dynamics`).
    extra_stiffness : ndarray, shape (n_free, n_free), N/m, optional
        A stiffness independent of both scales (e.g. joint stiffness).
    """

    def __init__(self, dyn: Dynamics, *, extra_stiffness=None):
        self.dyn = dyn
        s = dyn.structure
        x = dyn.full(dyn.q0[dyn.free])
        rows = [dyn.constraint_jacobian(x)[:, dyn.free]] if s.n_bars else []
        unsupported = s.fixed.sum() == 0
        if unsupported:
            R = rigid_body_modes(s.nodes)
            R = R if R.shape[0] == s.n_coords else R.T
            rows.append((dyn.Mff @ R[dyn.free]).T)
        self.N = null_space(np.vstack(rows)) if rows else np.eye(dyn.n_free)
        self.Ke, self.Kg = stiffness_split(dyn)
        _, self.Kg_cables = stiffness_split(dyn, lam=np.zeros(s.n_bars))
        self.K0 = np.zeros_like(self.Ke) if extra_stiffness is None else np.asarray(extra_stiffness, float)
        self.Mr = self._reduce(dyn.Mff)

    def _reduce(self, K):
        Kr = self.N.T @ K @ self.N
        return (Kr + Kr.T) / 2

    def stiffness(self, scale: float = 1.0, ea_scale: float = 1.0, *, bars_geometric: bool = True):
        """``e K_e + s K_g (+ K_0)`` on the free coordinates, N/m."""
        Kg = self.Kg if bars_geometric else self.Kg_cables
        return ea_scale * self.Ke + scale * Kg + self.K0

    def modes(self, scale: float = 1.0, ea_scale: float = 1.0, *, bars_geometric: bool = True):
        """Frequencies (Hz, ascending, rigid-body modes removed) and mass-normalised shapes.

        Returns
        -------
        freq_hz : ndarray, shape (n_modes,)
        shapes : ndarray, shape (n_free, n_modes)
        """
        K = self._reduce(self.stiffness(scale, ea_scale, bars_geometric=bars_geometric))
        w2, phi = eigh(K, self.Mr)
        return np.sign(w2) * np.sqrt(np.abs(w2)) / (2 * np.pi), self.N @ phi

    def frequencies(self, scale: float = 1.0, ea_scale: float = 1.0, *, bars_geometric: bool = True):
        """Frequencies (Hz, ascending) at a prestress scale and a cable-stiffness scale."""
        return self.modes(scale, ea_scale, bars_geometric=bars_geometric)[0]


def distinct_lines(freq_hz, *, rtol: float = 1e-5):
    """Group (near-)degenerate frequencies into distinct lines.

    Parameters
    ----------
    freq_hz : array_like, ascending
    rtol : float
        Relative gap below which two frequencies are one line (degenerate
        pairs of symmetric forms agree to rounding).

    Returns
    -------
    lines_hz : ndarray, the mean frequency of each line
    modes : list of list of int, the 1-based mode numbers of each line
    """
    lines, modes = [], []
    for i, f in enumerate(np.asarray(freq_hz, float)):
        if lines and abs(f - lines[-1][-1]) <= rtol * abs(f):
            lines[-1].append(f)
            modes[-1].append(i + 1)
        else:
            lines.append([f])
            modes.append([i + 1])
    return np.array([np.mean(v) for v in lines]), modes
