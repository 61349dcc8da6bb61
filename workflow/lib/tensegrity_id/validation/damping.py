"""An identifiability limit on axial cable damping (the paper §4.12, "An identifiability limit on damping").

Damping enters the formulation as an axial viscous coefficient ``c`` per
cable, so its effect on a mode scales with how much that mode extends the
cables.  For a mass-normalised mode ``phi`` (``phi^T M phi = 1``) with
circular frequency ``w``:

* the cable extensions per unit modal amplitude are ``e = C phi``
  (``e_k = u_k . (phi_j - phi_i)``, ``u_k`` the cable's unit vector);
* at a peak kinetic energy of 1 J the amplitude is ``sqrt(2) / w``, so the
  root-sum-square cable-length change *per unit modal kinetic energy* is
  ``sqrt(2) |C phi| / w`` (m / J^0.5);
* a dashpot ``c`` in every taut cable gives the modal damping matrix
  ``c C^T C`` and, to first order, the damping ratio
  ``zeta = c |C phi|^2 / (2 w)``.

So a single coefficient fitted to a damping ratio ``zeta_r`` of the
rotational mechanism mode predicts ``zeta_j = zeta_r (|C phi_j|^2 / w_j) /
(|C phi_r|^2 / w_r)`` for every other mode.  A mechanism stiffened by
prestress extends no member to first order, so ``|C phi_r|`` is small (of
order the ratio of geometric to material stiffness) and the predicted
ratios above it are enormous: axial dashpots cannot produce modal damping
of the same order across these modes.
"""

from __future__ import annotations

import numpy as np

from ..mechanics.cables import cable_kinematics
from .modal_fit import ModalFamily

__all__ = ["cable_extension_matrix", "damping_limit"]


def cable_extension_matrix(family: ModalFamily) -> np.ndarray:
    """``C`` on the free coordinates: each cable's extension per unit displacement, (n_cables, n_free)."""
    dyn = family.dyn
    x = dyn.full(dyn.q0[dyn.free])
    s, length, _ = cable_kinematics(dyn.Cc, x, np.zeros_like(x))
    u = s / length[:, None]
    C = np.einsum("kn,kd->knd", dyn.Cc, u).reshape(len(length), -1)
    return C[:, dyn.free]


def damping_limit(family: ModalFamily, scale: float, rotational: int, *, zeta_rot: float = 0.02) -> dict:
    """Cable extension per unit modal kinetic energy and the damping ratios one coefficient implies.

    Parameters
    ----------
    family : ModalFamily
    scale : float
        Prestress scale at which the modes are taken.
    rotational : int
        0-based index of the rotational mechanism mode.
    zeta_rot : float
        Damping ratio of the rotational mode the coefficient is fitted to.

    Returns
    -------
    dict with per mode ``frequency_hz``, ``extension_per_sqrt_joule`` (m/J^0.5),
    ``ratio_to_rotational`` (that extension over the rotational mode's),
    ``implied_damping_ratio``; and the fitted ``c_fitted`` (N s/m).
    """
    f, phi = family.modes(scale)
    w = 2 * np.pi * f
    C = cable_extension_matrix(family)
    e = np.linalg.norm(C @ phi, axis=0)
    per_energy = np.sqrt(2.0) * e / w
    quot = e**2 / (2 * w)  # zeta per unit c
    c_fit = zeta_rot / quot[rotational]
    zeta = c_fit * quot
    others = [i for i in range(len(f)) if i != rotational]
    ratio = per_energy / per_energy[rotational]
    return {
        "scale": float(scale),
        "rotational_mode": int(rotational),
        "zeta_rotational": zeta_rot,
        "c_fitted_Ns_per_m": float(c_fit),
        "frequency_hz": f.tolist(),
        "extension_per_sqrt_joule": per_energy.tolist(),
        "ratio_to_rotational": ratio.tolist(),
        "implied_damping_ratio": zeta.tolist(),
        "min_ratio_above": float(ratio[others].min()) if others else None,
        "min_implied_damping_above": float(zeta[others].min()) if others else None,
    }
