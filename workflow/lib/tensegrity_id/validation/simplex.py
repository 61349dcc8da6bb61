"""The Małyszko–Rutkiewicz tensegrity simplex rebuilt from published facts (the paper §4.12).

Geometry
    A regular minimal prism (three struts, nine cables) at the 30° twist at
    which its single self-stress exists, lower triangle fixed, upper
    triangle free: node planes ``height`` apart (1.186 m, seed) on circles
    of diameter ``diameter`` (0.5 m, the source's abstract).  The published
    node coordinates are not in the paper, so these two published dimensions
    define the rebuild.  Nodes 0-2 are the fixed base, 3-5 the free top;
    cables 0-2 the lower triangle, 3-5 the upper, 6-8 the cross cables.

Self-stress (hand derivation, the unit test's known answer)
    At the 30° twist the force densities of the regular minimal prism obey
    ``q_triangle / q_cross = 1 / (2 sin(pi/3)) = 1 / sqrt(3)``, independent of
    height and radius.  With the triangle side ``sqrt(3) R`` and the cross
    cable ``L_c = sqrt(H^2 + (2 R sin 15°)^2)`` the base-to-cross force ratio is
    ``T_b / T_c = (1/sqrt(3)) sqrt(3) R / L_c = R / L_c``.

Mass (two conventions, both from published facts)
    Struts: uniform at ``strut_linear_density`` (1.990 kg/m), with the
    rigid-bar consistent mass ``m/6 [[2, 1], [1, 2]]``.

    * ``weighed``: each strut's weighed surplus (224 g) sits as two point
      masses at the welded connections ``surplus_offset`` (13.75 cm) from its
      nodes; a point mass ``m_p`` at ``xi`` along a rigid bar moves as
      ``(1 - xi) x_i + xi x_j`` exactly, so it adds
      ``m_p [[(1-xi)^2, xi(1-xi)], [xi(1-xi), xi^2]]``; each free node carries
      the weighed hardware ``node_hardware`` (1.166 kg).
    * ``distributed`` (the source's convention): no strut surplus; each free
      node carries its joint (``joint_mass``, 0.897 kg: the weighed total
      less the joints and struts is what the source spread over the cable
      length) plus the moving share of the cables at ``cable_linear_density``
      (0.516 kg/m) and the accelerometer: a third of the cross cable (a
      consistent chord with one fixed end) and, per upper cable, a quarter
      of its mass (a chord of the rotating triangle has mean squared radius
      exactly half the nodes', so half its mass counts, shared by two
      nodes).  With the rebuilt lengths this is 0.342 kg, the paper's value.

    The self-weight is left out (``gravity = 0``): the mechanism law of the
    the paper's model passes through the origin, and 12 N of node weight is small
    against 263-3584 N of cable force.

Prestress scale
    The force ``F`` reported by a cross-cable transducer; the model's cross
    cables carry ``F`` times a force factor.  For the rotational mechanism
    mode the squared frequency is linear in the cable force through the
    origin (the paper's Eq. 11), ``f^2 = a F``; the *model slope* ``a`` (Hz^2/N) is the
    least-squares line through the model's ``f^2`` at the measured forces.
    The measured law (the paper's Eq. 12) is ``f^2 = A F + B``: matching slopes gives
    the dynamic force factor ``A / a``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..mechanics.dynamics import Dynamics, consistent_mass_matrix
from ..mechanics.generators import prism
from ..mechanics.statics import apply_prestress
from ..mechanics.structure import Structure
from .modal_fit import ModalFamily

__all__ = [
    "SimplexHardware",
    "simplex_structure",
    "simplex_mass",
    "base_to_cross_ratio",
    "rotation_pattern",
    "joint_stiffness_matrix",
    "JointedDynamics",
    "SimplexModel",
    "CROSS_CABLES",
    "TOP_NODES",
    "simulate_strike",
]

CROSS_CABLES = (6, 7, 8)
"""Indices of the three cross cables (fixed node to free node)."""
UPPER_CABLES = (3, 4, 5)
TOP_NODES = (3, 4, 5)
"""Indices of the three free nodes."""


@dataclass(frozen=True)
class SimplexHardware:
    """Published facts of the simplex (the paper §4.12; the source's abstract), SI units.

    ``cable_EA`` is not published in the paper; it enters only the small
    elastic coupling of the mechanism mode (the damping limit) and is a
    stated assumption of the config.
    """

    height: float = 1.186
    diameter: float = 0.5
    twist_deg: float = 30.0
    strut_linear_density: float = 1.990
    strut_surplus: float = 0.224
    surplus_offset: float = 0.1375
    node_hardware: float = 1.166
    joint_mass: float = 0.897
    cable_linear_density: float = 0.516
    accelerometer: float = 0.025
    cable_EA: float = 2.0e6

    def __post_init__(self):
        for name, v in asdict(self).items():
            if not (np.isfinite(v) and v > 0):
                raise ValueError(f"simplex hardware '{name}' must be a positive number (got {v!r})")


def simplex_structure(hw: SimplexHardware, cross_force: float = 1.0) -> Structure:
    """The rebuilt simplex with its self-stress scaled to ``cross_force`` N in the cross cables."""
    s = prism(
        3,
        radius=hw.diameter / 2,
        height=hw.height,
        twist_deg=hw.twist_deg,
        pinned_base=True,
        gravity=0.0,
        name="simplex",
        members={"cable_EA": hw.cable_EA},
    )
    L = s.bar_lengths
    s = s.with_changes(
        bar_mass=hw.strut_linear_density * L,
        description=(
            f"Małyszko-Rutkiewicz simplex rebuilt: height {hw.height} m, diameter {hw.diameter} m, "
            f"twist {hw.twist_deg} deg, lower triangle fixed"
        ),
    )
    return apply_prestress(
        s, {"method": "selfstress", "tension": float(cross_force), "cable": CROSS_CABLES[0]}
    )


def _bar_point_mass(M, dim, i, j, m, xi):
    blk = m * np.array([[(1 - xi) ** 2, xi * (1 - xi)], [xi * (1 - xi), xi**2]])
    for a, na in enumerate((i, j)):
        for b, nb in enumerate((i, j)):
            M[dim * na : dim * na + dim, dim * nb : dim * nb + dim] += blk[a, b] * np.eye(dim)


def simplex_mass(structure: Structure, hw: SimplexHardware, convention: str = "weighed"):
    """Mass matrix (kg, full coordinates) under one of the two conventions, and its breakdown.

    Returns
    -------
    M : ndarray, shape (n_coords, n_coords)
    info : dict
        ``node_mass_kg`` (per free node), ``strut_mass_kg`` (uniform part),
        ``effective_tangential_mass_kg`` (the mass one free node carries in
        a rigid rotation of the top triangle, struts included).
    """
    if convention not in ("weighed", "distributed"):
        raise ValueError(f"mass convention {convention!r} is not 'weighed' or 'distributed'")
    M = consistent_mass_matrix(structure)
    dim = structure.dim
    L = structure.bar_lengths
    if convention == "weighed":
        for (i, j), length in zip(structure.bars, L, strict=True):
            xi = hw.surplus_offset / length
            for pos in (xi, 1 - xi):
                _bar_point_mass(M, dim, i, j, hw.strut_surplus / 2, pos)
        node = hw.node_hardware
    else:
        lc = structure.cable_lengths
        cross = np.mean(lc[list(CROSS_CABLES)])
        upper = np.mean(lc[list(UPPER_CABLES)])
        node = hw.joint_mass + hw.cable_linear_density * (cross / 3 + upper / 2) + hw.accelerometer
    for n in TOP_NODES:
        M[dim * n : dim * n + dim, dim * n : dim * n + dim] += node * np.eye(dim)
    u = rotation_pattern(structure)
    u_node = u / np.linalg.norm(u[dim * TOP_NODES[0] : dim * TOP_NODES[0] + dim])
    info = {
        "convention": convention,
        "node_mass_kg": float(node),
        "distributed_share_kg": float(node - hw.joint_mass) if convention == "distributed" else None,
        "strut_mass_kg": float(hw.strut_linear_density * L.mean()),
        "effective_tangential_mass_kg": float(u_node @ M @ u_node / len(TOP_NODES)),
    }
    return M, info


def base_to_cross_ratio(structure: Structure) -> float:
    """Tension of a lower-triangle cable over that of a cross cable under the self-stress."""
    T = structure.cable_tension
    return float(np.mean(T[:3]) / np.mean(T[list(CROSS_CABLES)]))


def rotation_pattern(structure: Structure) -> np.ndarray:
    """Rigid rotation of the upper triangle about the vertical axis (full coordinates, unit norm).

    At each free node the tangential unit vector ``e_z x (x - c) / |...|``
    about the triangle's centroid ``c``; zero elsewhere.
    """
    dim = structure.dim
    top = structure.nodes[list(TOP_NODES)]
    c = top.mean(axis=0)
    u = np.zeros(structure.n_coords)
    for n, x in zip(TOP_NODES, top, strict=True):
        r = x - c
        t = np.array([-r[1], r[0], 0.0])
        u[dim * n : dim * n + dim] = t / np.linalg.norm(t)
    return u / np.linalg.norm(u)


def joint_stiffness_matrix(structure: Structure, k_theta: float) -> np.ndarray:
    """Rotational stiffness ``k_theta`` (N m/rad) of each strut's base joint, on the free coordinates.

    A strut of length ``L`` pinned at its base turns by ``|P dx| / L`` when its
    top node moves by ``dx`` (``P = I - b b^T`` removes the along-strut part,
    which the rigid strut forbids anyway), so a base joint resisting that
    rotation stores ``k_theta |P dx|^2 / (2 L^2)``: a stiffness
    ``k_theta P / L^2`` at the strut's free node.
    """
    dim = structure.dim
    K = np.zeros((structure.n_coords, structure.n_coords))
    free = structure.free_mask
    for (i, j), length in zip(structure.bars, structure.bar_lengths, strict=True):
        b = (structure.nodes[j] - structure.nodes[i]) / length
        top = j if free[dim * j : dim * j + dim].any() else i
        blk = k_theta * (np.eye(dim) - np.outer(b, b)) / length**2
        K[dim * top : dim * top + dim, dim * top : dim * top + dim] += blk
    idx = np.flatnonzero(free)
    return K[np.ix_(idx, idx)]


class JointedDynamics(Dynamics):
    """:class:`Dynamics` plus a linear joint stiffness about the reference configuration.

    The joint force ``-K_j (q_f - q0_f)`` is added to the external force of
    every right-hand side, and its potential ``(q_f - q0_f)^T K_j (q_f - q0_f) / 2``
    to the strain energy, so the simulator's energy balance still closes.
    """

    def __init__(self, structure: Structure, *, joint_stiffness, mass=None, **kw):
        super().__init__(structure, mass=mass, **kw)
        self.Kj = np.asarray(joint_stiffness, float)

    def _joint_force(self, q_free):
        f = np.zeros(self.q0.size)
        f[self.free] = -self.Kj @ (q_free - self.q0[self.free])
        return f

    def accelerations(self, q_free, v_free, f_ext=None, taut=None):
        f = self._joint_force(q_free) if f_ext is None else f_ext + self._joint_force(q_free)
        return super().accelerations(q_free, v_free, f, taut)

    def energies(self, q_free, v_free, taut=None):
        T, Vg, Vs = super().energies(q_free, v_free, taut)
        d = q_free - self.q0[self.free]
        return T, Vg, Vs + 0.5 * np.einsum("...i,ij,...j->...", d, self.Kj, d)


class SimplexModel:
    """The rebuilt simplex under one mass convention: mechanism mode against cable force.

    Parameters
    ----------
    hw : SimplexHardware
    convention : {'weighed', 'distributed'}
    k_theta : float, N m/rad
        Base-joint rotational stiffness (0: the pin-jointed idealisation).
    """

    def __init__(self, hw: SimplexHardware, convention: str = "weighed", *, k_theta: float = 0.0):
        self.hw = hw
        self.structure = simplex_structure(hw, 1.0)
        self.M, self.mass_info = simplex_mass(self.structure, hw, convention)
        self.Kj = joint_stiffness_matrix(self.structure, k_theta)
        self.dyn = Dynamics(self.structure, mass=self.M)
        self.family = ModalFamily(self.dyn, extra_stiffness=self.Kj)
        self.rotation = rotation_pattern(self.structure)[self.dyn.free]

    def modes(self, cross_force: float):
        """Frequencies (Hz) and shapes at a cross-cable force (N); the rotational mode's index."""
        f, phi = self.family.modes(cross_force)
        mac = (self.rotation @ self.dyn.Mff @ phi) ** 2 / np.einsum("ik,ij,jk->k", phi, self.dyn.Mff, phi)
        mac = mac / (self.rotation @ self.dyn.Mff @ self.rotation)
        return f, phi, int(np.argmax(mac)), mac

    def rotational_frequency(self, cross_force) -> np.ndarray:
        """Rotational-mode frequency (Hz) at each cross-cable force (N)."""
        out = []
        for F in np.atleast_1d(np.asarray(cross_force, float)):
            f, _, k, _ = self.modes(F)
            out.append(f[k])
        return np.array(out)

    def mechanism_law(self, forces) -> dict:
        """Model ``f^2`` against cable force: slope, intercept, log-slopes (the paper's Eq. 11).

        Returns ``f2_per_newton`` (Hz^2/N, least-squares line through the
        model's ``f^2`` at ``forces``), ``intercept_hz2``, its size relative to
        the mean ``f^2``, and ``log_slope`` (``d ln f / d ln F`` by central
        differences at each force; 1/2 for a pure mechanism).
        """
        F = np.asarray(forces, float)
        f = self.rotational_frequency(F)
        slope, icpt = np.polyfit(F, f**2, 1)
        h = 1e-4
        lo, hi = self.rotational_frequency(F * (1 - h)), self.rotational_frequency(F * (1 + h))
        log_slope = (np.log(hi) - np.log(lo)) / (np.log1p(h) - np.log1p(-h))
        return {
            "forces_N": F.tolist(),
            "frequency_hz": f.tolist(),
            "f2_per_newton": float(slope),
            "intercept_hz2": float(icpt),
            "intercept_relative": float(abs(icpt) / np.mean(f**2)),
            "log_slope": log_slope.tolist(),
        }

    def dynamics_at(self, cross_force: float) -> JointedDynamics:
        """Nonlinear dynamics at a cross-cable force (N), joint stiffness and mass included."""
        s = simplex_structure(self.hw, cross_force)
        return JointedDynamics(s, joint_stiffness=self.Kj, mass=self.M)

    def joint_stiffness_for_intercept(self, intercept_hz2: float) -> float:
        """Base-joint stiffness ``k_theta`` (N m/rad) giving ``f^2 = intercept`` at zero force."""
        unit = SimplexModel(self.hw, self.mass_info["convention"], k_theta=1.0)
        f, _, k, _ = unit.modes(0.0)
        return float(intercept_hz2 / f[k] ** 2)


def simulate_strike(
    model: SimplexModel,
    cross_force: float,
    *,
    amplitude: float = 100.0,
    duration: float = 0.005,
    start: float = 0.05,
    node: int = TOP_NODES[0],
    axis: int = 0,
    t_end: float = 4.0,
    sample_rate: float = 1024.0,
    noise: float = 0.02,
    seed: int = 0,
) -> dict:
    """A simulated hammer strike on the rebuilt simplex, as a measured record would hold it.

    Half-sine hammer force of ``amplitude`` (N) and ``duration`` (s) on one
    coordinate of a free node, the nonlinear simulator (tension-only cables,
    joint stiffness of the model), accelerations of the three free nodes
    sampled at ``sample_rate`` (Hz) with Gaussian noise of ``noise`` times
    each channel's RMS (seeded).

    Returns
    -------
    dict: ``t`` (n_t,), ``acc`` (n_t, 3, 3) m/s^2 (free node, axis),
    ``force`` (n_t,) N, ``true_hz`` (the linearised rotational frequency),
    ``energy_error`` (the simulator's relative energy-balance error).
    """
    from ..mechanics.excitation import make_forcing
    from ..mechanics.simulate import simulate

    dyn = model.dynamics_at(cross_force)
    dim = dyn.dim
    forcing = make_forcing(
        "half_sine", [dim * node + axis], amplitude=amplitude, duration=duration, start=start
    )
    rec = simulate(
        dyn, forcing, t_end=t_end, dt_out=1.0 / sample_rate, max_step=min(duration / 4, 1.0 / sample_rate)
    )
    cols = [dim * n + a for n in TOP_NODES for a in range(dim)]
    acc = rec.qdd[:, cols]
    rng = np.random.default_rng(np.random.SeedSequence([0x51A9, int(seed)]))
    acc = acc + noise * np.sqrt(np.mean(acc**2, axis=0)) * rng.standard_normal(acc.shape)
    E = rec.energy["T"] + rec.energy["Vg"] + rec.energy["Vs"] - rec.energy["W"]
    scale = max(np.abs(rec.energy["W"]).max(), 1e-300)
    return {
        "t": rec.t,
        "acc": acc.reshape(len(rec.t), len(TOP_NODES), dim),
        "force": rec.forcing[:, 0],
        "true_hz": float(model.rotational_frequency(cross_force)[0]),
        "energy_error": float(np.abs(E - E[0]).max() / scale),
        "strike_end_s": start + duration,
    }
