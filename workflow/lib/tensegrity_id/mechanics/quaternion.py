"""Quaternion dynamics of class-1 tensegrities (Cefalo and Mirats-Tur 2011).

An independent forward model of the same physics as
:mod:`tensegrity_id.mechanics.dynamics`, written from the formulation of Cefalo
and Mirats-Tur (*A comprehensive dynamic model for class-1 tensegrity systems
based on quaternions*) and sharing no dynamics code with the Cartesian
simulator: it reads the structure object and the cable constants ``K, L0, c``
as data and implements the kinematics, the tension-only law, the rigid-body
equations, the events and the integration loop itself.
:mod:`tensegrity_id.mechanics.crosscheck` compares the two.

Coordinates (Cefalo and Mirats-Tur §3.1)
    Each bar ``(i, j)`` of length ``l`` is a rigid body with a unit quaternion
    ``e = (e0, e1, e2, e3)`` (Hamilton convention) orienting a bar frame whose
    x axis runs from node ``i`` to node ``j``: the bar vector is

        b = l (e0^2 + e1^2 - e2^2 - e3^2, 2 (e1 e2 + e0 e3), 2 (e1 e3 - e0 e2))   (Eq. 12),

    the first column of the rotation matrix of ``e``.  A free bar adds its
    centre of mass ``c`` (Cefalo and Mirats-Tur: 7 coordinates per bar);
    ``x_i = c - b/2``, ``x_j = c + b/2``.  A bar with one end on a pin support
    (the frames, the prisms' base) keeps only ``e``: the pinned end ``p`` is its
    anchor and the other end is ``p +- b`` (rotation about the fixed end, 4
    coordinates).  A bar with both ends supported does not move.  Planar structures are
    embedded at z = 0 with gravity along -y; with in-plane forces every
    torque is along z, so the motion stays planar to the last bit.  The
    initial quaternion is the shortest-arc rotation of x onto the bar, which
    has ``e1 = 0`` (Cefalo and Mirats-Tur's choice, §2, of the rotation axis in
    the y-z plane); at ``b = -l x`` it is their singular solution ``(0, 0, 0, 1)``.

Inertia (Cefalo and Mirats-Tur Eq. 28)
    ``J3 = diag(m r^2 / 2, m l^2 / 12, m l^2 / 12)`` about the centre (Cefalo
    and Mirats-Tur's solid cylinder with the slender-bar transverse moment), and
    ``diag(m r^2 / 2, m l^2 / 3, m l^2 / 3)`` about a pinned end (parallel
    axes).  This is the Cartesian consistent mass of a uniform rigid bar: with
    ``x_i = c - b/2``, ``x_j = c + b/2`` and ``|b'| = l |w_perp|``,

        m/6 (|x_i'|^2 + x_i'.x_j' + |x_j'|^2) = m/2 |c'|^2 + m l^2/24 |w_perp|^2,

    which is ``m |c'|^2 / 2 + w.J3 w / 2`` without the axial term.  The
    axial moment never acts: the end forces give torques ``b x f`` normal to
    the bar, and Euler's equation about the symmetry axis,
    ``J_ax w_ax' = (J_t - J_t) w_2 w_3 + 0``, keeps the axial spin at its
    initial zero.  So the model is independent of ``r`` (a unit test checks
    it) and ``J3`` stays invertible, as Eq. 64 needs.

Equations of motion (Cefalo and Mirats-Tur Eqs. 55-64)
    Translation of a free bar (Eq. 55/63, no ground friction ``b_t``):
    ``m c'' = f_i + f_j + m g``.  Rotation (Eq. 64): with the body-frame
    angular velocity ``w = 2 vec(e* e')`` (A.26) and torque about the anchor
    in the body frame ``mu = vec(e* [0, mu_0] e)``, ``mu_0 = sum_n alpha_n b x
    f_n + alpha_c b x m g`` (Eq. 42 about the anchor; ``alpha`` places each
    node and the centre along ``b``),

        e'' = 1/2 e [0, J3^-1 (mu - w x J3 w)] - |e'|^2 e,

    which is Eq. 64, ``e'' = 1/4 E+ J4^-1 E+^T n_e - e e'^T e'`` with
    ``n_e = 2 E+ [0, mu]`` and ``J4 = diag(tr(J3)/2, J3)`` (Chou 1992),
    written with quaternion products.  The gyroscopic term ``w x J3 w``, which
    Eq. 64 drops, is kept: it vanishes identically for an axisymmetric bar
    without axial spin (``J3 w`` is parallel to ``w``), so both forms agree
    here.  The term ``-|e'|^2 e`` keeps ``d^2 |e|^2 / dt^2 = 0``: the unit
    norm holds at the acceleration level only, as in Cefalo and Mirats-Tur,
    and its drift ``max | |e|^2 - 1 |`` is measured along every run (no
    projection).

Cables and events
    Tension-only springs ``T = K (l - L0)`` with the axial damper ``c l'``
    while taut (the paper, Eq. 4), acting on the bar ends; the integration
    runs mode by mode with one terminal event per cable on ``l - L0``, like
    the Cartesian simulator but coded here again.

Energy
    ``E = sum (m |c'|^2 + w.J w) / 2 - sum m g.c + sum_taut K (l - L0)^2 / 2``
    obeys ``dE/dt = P_ext + P_damp``; the work ``W`` is integrated alongside.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp

from .quaternion_algebra import bar_vector, bar_vector_rate, conj, pure, quat_mul, shortest_arc
from .structure import Structure

__all__ = [
    "ClassOneError",
    "QuaternionModel",
    "QuaternionRecord",
    "simulate_quaternion",
    "quat_mul",
    "bar_vector",
]


class ClassOneError(ValueError):
    """The structure is outside the quaternion model's scope (names the node or bar)."""


@dataclass
class QuaternionRecord:
    """One quaternion-model run (arrays over the output times).

    Attributes
    ----------
    t : (n_t,) s;  x, v : (n_t, n_nodes, 3) node positions (m) and velocities (m/s),
    planar structures at z = 0;  taut : (n_t, n_cables) bool;
    transition_times : (n_events,) s;  transition_cables : (n_events,) int;
    transition_to_taut : (n_events,) bool;  energy : dict of (n_t,) arrays T, Vg, Vs, W (J);
    norm_drift : (n_t,) max over bars of | |e|^2 - 1 |;  stats : solver statistics.
    """

    t: np.ndarray
    x: np.ndarray
    v: np.ndarray
    taut: np.ndarray
    transition_times: np.ndarray
    transition_cables: np.ndarray
    transition_to_taut: np.ndarray
    energy: dict
    norm_drift: np.ndarray
    stats: dict = field(default_factory=dict)

    @property
    def n_transitions(self) -> int:
        return len(self.transition_times)

    def energy_error(self) -> float:
        """Largest |E - W - E(0)| relative to the largest kinetic, strain-change or work term."""
        e = self.energy
        E = e["T"] + e["Vg"] + e["Vs"]
        err = np.abs(E - e["W"] - E[0])
        scale = max(np.abs(e["T"]).max(), np.abs(e["Vs"] - e["Vs"][0]).max(), np.abs(e["W"]).max(), 1e-300)
        return float(err.max() / scale)


class QuaternionModel:
    """Cefalo and Mirats-Tur's class-1 equations for one prestressed structure.

    Parameters
    ----------
    structure : Structure
        Class-1 (every node on at most one bar), each node either fully
        supported or free, every free node on a bar; must carry a prestress.
    sigma, c, EA : array_like, shape (n_cables,), optional
        Cable parameters overriding the structure's (same member convention:
        ``K = EA / L_ref + sigma``, ``L0 = L_ref (1 - sigma / K)``).
    """

    def __init__(self, structure: Structure, *, sigma=None, c=None, EA=None):
        name = structure.name
        if not structure.has_prestress and sigma is None:
            raise ClassOneError(f"structure '{name}' carries no prestress")
        n, dim = structure.n_nodes, structure.dim
        owner = np.full(n, -1)
        for k, (i, j) in enumerate(structure.bars):
            for node in (i, j):
                if owner[node] >= 0:
                    raise ClassOneError(
                        f"structure '{name}': node {node} joins bars {owner[node]} and {k}; the "
                        "quaternion model covers class-1 structures (one bar per node)"
                    )
                owner[node] = k
        fixed_node = structure.fixed.all(axis=1)
        partial = structure.fixed.any(axis=1) & ~fixed_node
        if partial.any():
            node = int(np.flatnonzero(partial)[0])
            raise ClassOneError(
                f"structure '{name}': node {node} has some but not all coordinates supported; the "
                "quaternion model takes pinned nodes or free nodes (a minimally grounded form: "
                "use its free-free variant)"
            )
        loose = (~fixed_node) & (owner < 0)
        if loose.any():
            raise ClassOneError(f"structure '{name}': free node {int(np.flatnonzero(loose)[0])} has no bar")
        self.structure = structure
        self.n, self.dim = n, dim
        X0 = np.zeros((n, 3))
        X0[:, :dim] = structure.nodes
        self.X0 = X0
        self.g0 = np.zeros(3)
        self.g0[dim - 1] = -structure.gravity
        nc = structure.n_cables
        sig = np.broadcast_to(np.asarray(structure.sigma if sigma is None else sigma, float), (nc,))
        ea = np.broadcast_to(np.asarray(structure.cable_EA if EA is None else EA, float), (nc,))
        L_ref = structure.cable_lengths
        self.K = ea / L_ref + sig
        self.L0 = L_ref * (1.0 - sig / self.K)
        self.c = np.broadcast_to(np.asarray(structure.cable_damping if c is None else c, float), (nc,)).copy()
        self.ci, self.cj = structure.cables[:, 0], structure.cables[:, 1]

        # moving bars: free (anchor = centre) first, then pinned (anchor = the supported end)
        free_bars, pinned = [], []
        for k, (i, j) in enumerate(structure.bars):
            fi, fj = fixed_node[i], fixed_node[j]
            if not fi and not fj:
                free_bars.append((k, i, j, -0.5, 0.5, i))
            elif fi and not fj:
                pinned.append((k, i, j, 0.0, 1.0, i))
            elif fj and not fi:
                pinned.append((k, i, j, -1.0, 0.0, j))
        bars = free_bars + pinned
        self.nf = len(free_bars)  # free bars come first: rows [:nf] carry a centre of mass
        self.n_moving = len(bars)
        self.bar_index = np.array([b[0] for b in bars], int)
        self.node_i = np.array([b[1] for b in bars], int)
        self.node_j = np.array([b[2] for b in bars], int)
        self.alpha_i = np.array([b[3] for b in bars])
        self.alpha_j = np.array([b[4] for b in bars])
        self.alpha_c = 0.5 * (self.alpha_i + self.alpha_j)
        self.anchor_node = np.array([b[5] for b in bars], int)
        self.length = structure.bar_lengths[self.bar_index]
        self.mass = structure.bar_masses[self.bar_index]
        radius = structure.bar_radius[self.bar_index]
        offset = self.alpha_c * self.length  # centre's distance from the anchor
        Jt = self.mass * self.length**2 / 12 + self.mass * offset**2
        self.J = np.stack([0.5 * self.mass * radius**2, Jt, Jt], -1)  # principal moments (n_moving, 3)
        if (self.J <= 0).any():
            raise ClassOneError(f"structure '{name}': a moving bar has no mass")
        self.size = 3 * self.nf + 4 * self.n_moving  # positions part of the state

    # ------------------------------------------------------------ state layout
    def split(self, y):
        """(c, e, cd, ed) of a state vector (without the work entry)."""
        nf, nm = self.nf, self.n_moving
        p = self.size
        c = y[: 3 * nf].reshape(nf, 3)
        e = y[3 * nf : p].reshape(nm, 4)
        cd = y[p : p + 3 * nf].reshape(nf, 3)
        ed = y[p + 3 * nf : 2 * p].reshape(nm, 4)
        return c, e, cd, ed

    def pack(self, c, e, cd, ed, W=0.0):
        return np.concatenate([c.ravel(), e.ravel(), cd.ravel(), ed.ravel(), [W]])

    def state_from_nodes(self, x, v):
        """State of node positions and velocities ``x, v`` (shape (n_nodes, dim) or (n_nodes, 3)).

        Quaternions by the shortest arc (normalised), angular velocity
        ``w = b x b' / |b|^2`` (no axial spin), ``e' = [0, w] e / 2``.
        """
        X = np.zeros((self.n, 3))
        V = np.zeros((self.n, 3))
        X[:, : x.shape[1]] = x
        V[:, : v.shape[1]] = v
        b = X[self.node_j] - X[self.node_i]
        bd = V[self.node_j] - V[self.node_i]
        nb = np.linalg.norm(b, axis=1)
        e = shortest_arc(b / nb[:, None])
        w = np.cross(b, bd) / (nb**2)[:, None]
        ed = 0.5 * quat_mul(pure(w), e)
        bu = self.length[:, None] * b / nb[:, None]  # the model's bar of exact length
        c = (X[self.node_i] - self.alpha_i[:, None] * bu)[: self.nf]
        cd = (V[self.node_i] - self.alpha_i[:, None] * (np.cross(w, bu)))[: self.nf]
        return self.pack(c, e, cd, ed)

    def kinematics(self, y):
        """Node positions and velocities (n_nodes, 3) plus the bar quantities of state ``y``."""
        c, e, cd, ed = self.split(y)
        bhat = bar_vector(e)
        b = self.length[:, None] * bhat
        bd = self.length[:, None] * bar_vector_rate(e, ed)
        a = self.X0[self.anchor_node].copy()
        ad = np.zeros_like(a)
        a[: self.nf] = c
        ad[: self.nf] = cd
        X = self.X0.copy()
        V = np.zeros_like(X)
        X[self.node_i] = a + self.alpha_i[:, None] * b
        X[self.node_j] = a + self.alpha_j[:, None] * b
        V[self.node_i] = ad + self.alpha_i[:, None] * bd
        V[self.node_j] = ad + self.alpha_j[:, None] * bd
        return X, V, (c, e, cd, ed, a, b, bd)

    def cable_lengths(self, X):
        s = X[self.cj] - X[self.ci]
        return np.sqrt((s * s).sum(-1))

    def _cables(self, X, V, taut):
        s = X[self.cj] - X[self.ci]
        length = np.sqrt((s * s).sum(-1))
        rate = (s * (V[self.cj] - V[self.ci])).sum(-1) / length
        tension = np.where(taut, self.K * (length - self.L0), 0.0)
        damper = np.where(taut, self.c * rate, 0.0)
        return s, length, rate, tension, damper

    def _external(self, f_ext):
        F = np.zeros((self.n, 3))
        if f_ext is not None:
            F[:, : self.dim] = np.asarray(f_ext, float).reshape(self.n, self.dim)
        return F

    def derivatives(self, y, taut, f_ext=None):
        """Accelerations ``(c'', e'')`` and the external plus damping power at state ``y``.

        Parameters
        ----------
        y : ndarray, the state (see :meth:`pack`)
        taut : bool ndarray, shape (n_cables,)
        f_ext : ndarray, shape (n_coords,), N, optional (structure's coordinates)
        """
        X, V, (c, e, cd, ed, a, b, bd) = self.kinematics(y)
        s, length, rate, tension, damper = self._cables(X, V, taut)
        fc = ((tension + damper) / length)[:, None] * s  # pulls node j towards node i
        Fext = self._external(f_ext)
        F = Fext.copy()
        np.add.at(F, self.cj, -fc)
        np.add.at(F, self.ci, fc)
        Fi, Fj = F[self.node_i], F[self.node_j]
        wg = self.mass[:, None] * self.g0
        cdd = ((Fi + Fj + wg) / self.mass[:, None])[: self.nf]
        mu0 = np.cross(
            b, self.alpha_i[:, None] * Fi + self.alpha_j[:, None] * Fj + self.alpha_c[:, None] * wg
        )
        mu = quat_mul(quat_mul(conj(e), pure(mu0)), e)[:, 1:]
        w = 2 * quat_mul(conj(e), ed)[:, 1:]
        wdot = (mu - np.cross(w, self.J * w)) / self.J
        edd = 0.5 * quat_mul(e, pure(wdot)) - (ed * ed).sum(-1, keepdims=True) * e
        power = float((Fext * V).sum() - (damper * rate).sum())
        return cdd, edd, power

    def node_accelerations(self, y, taut, f_ext=None):
        """Node accelerations (n_nodes, 3) at state ``y``: ``a'' + alpha b''`` per bar end."""
        cdd, edd, _ = self.derivatives(y, taut, f_ext)
        _, e, _, ed = self.split(y)
        bdd = self.length[:, None] * (bar_vector_rate(e, edd) + bar_vector_rate(ed, ed))
        add = np.zeros((self.n_moving, 3))
        add[: self.nf] = cdd
        A = np.zeros((self.n, 3))
        A[self.node_i] = add + self.alpha_i[:, None] * bdd
        A[self.node_j] = add + self.alpha_j[:, None] * bdd
        return A

    def rhs(self, t, y, taut, forcing=None):
        """Time derivative of the state (positions, velocities, work)."""
        f_ext = None if forcing is None else forcing(t, self.n * self.dim)
        cdd, edd, power = self.derivatives(y, taut, f_ext)
        p = self.size
        return np.concatenate([y[p : 2 * p], cdd.ravel(), edd.ravel(), [power]])

    def energies(self, y, taut):
        """Kinetic, gravitational and strain energy (J) of state ``y``."""
        X, V, (c, e, cd, ed, a, b, bd) = self.kinematics(y)
        w = 2 * quat_mul(conj(e), ed)[:, 1:]
        T = 0.5 * (self.mass[: self.nf] * (cd * cd).sum(-1)).sum() + 0.5 * (self.J * w * w).sum()
        centre = a + self.alpha_c[:, None] * b
        Vg = -float((self.mass[:, None] * self.g0 * centre).sum())
        length = self.cable_lengths(X)
        Vs = float(np.where(taut, 0.5 * self.K * (length - self.L0) ** 2, 0.0).sum())
        return float(T), Vg, Vs

    def norm_drift(self, y) -> float:
        _, e, _, _ = self.split(y)
        return float(np.abs((e * e).sum(-1) - 1.0).max(initial=0.0))


def simulate_quaternion(
    model: QuaternionModel,
    forcing=None,
    *,
    t_end: float = 5.0,
    dt_out: float = 0.01,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    method: str = "DOP853",
    x0=None,
    v0=None,
    max_step: float | None = None,
    max_pieces: int = 100_000,
) -> QuaternionRecord:
    """Integrate the quaternion model mode by mode with taut-slack events.

    Parameters
    ----------
    model : QuaternionModel
    forcing : callable ``forcing(t, n_coords)`` or None
        External nodal force on the structure's coordinates, N.
    t_end, dt_out : float, s
    rtol, atol, method : solver settings of ``solve_ivp``
    x0, v0 : ndarray, shape (n_nodes, dim), optional
        Initial node positions and velocities (default: rest at the reference).
    max_step : float, s, optional (default ``dt_out``)
    """
    name = model.structure.name
    max_step = dt_out if max_step is None else max_step
    x0 = model.structure.nodes if x0 is None else np.asarray(x0, float)
    v0 = np.zeros_like(x0) if v0 is None else np.asarray(v0, float)
    y = model.state_from_nodes(x0, v0)
    t_out = np.round(np.arange(0.0, t_end + dt_out / 2, dt_out), 12)
    t_out = t_out[t_out <= t_end + 1e-12]
    t_out[-1] = min(t_out[-1], t_end)
    taut = model.cable_lengths(model.kinematics(y)[0]) > model.L0
    nfev = [0]

    def rhs(t, yy, mode):
        nfev[0] += 1
        return model.rhs(t, yy, mode, forcing)

    def make_events(mode):
        evs = []
        for k in range(len(model.L0)):

            def ev(t, yy, _mode, k=k):
                X = model.kinematics(yy)[0]
                s = X[model.cj[k]] - X[model.ci[k]]
                return float(np.sqrt(s @ s) - model.L0[k])

            ev.terminal = True
            ev.direction = -1.0 if mode[k] else 1.0
            evs.append(ev)
        return evs

    ts, ys, modes, trans = [], [], [], []
    t0, pieces = 0.0, 0
    wall = time.perf_counter()
    while t0 < t_end - 1e-12:
        pieces += 1
        if pieces > max_pieces:
            raise RuntimeError(f"structure '{name}': more than {max_pieces} taut-slack events")
        mode = taut.copy()
        sel = t_out[(t_out >= t0) & (t_out <= t_end)]
        sol = solve_ivp(
            rhs,
            (t0, t_end),
            y,
            method=method,
            rtol=rtol,
            atol=atol,
            t_eval=sel,
            events=make_events(mode),
            args=(mode,),
            max_step=max_step,
        )
        if sol.status == -1:
            raise RuntimeError(
                f"structure '{name}': quaternion solver failed after t = {t0:.6g} s: {sol.message}"
            )
        keep = sol.t >= (ts[-1][-1] + 1e-12 if ts else -1.0)
        if keep.any():
            ts.append(sol.t[keep])
            ys.append(sol.y[:, keep].T)
            modes.append(np.repeat(mode[None], keep.sum(), axis=0))
        if sol.status != 1:
            break
        t_ev, k_ev = min((ev[0], k) for k, ev in enumerate(sol.t_events) if ev.size)
        y = sol.y_events[k_ev][0].copy()
        taut[k_ev] = not taut[k_ev]
        trans.append((t_ev, k_ev, bool(taut[k_ev])))
        t0 = t_ev
    wall = time.perf_counter() - wall
    t = np.concatenate(ts)
    Y = np.concatenate(ys)
    taut_at = np.concatenate(modes)
    nt = len(t)
    x = np.zeros((nt, model.n, 3))
    v = np.zeros_like(x)
    E = np.zeros((nt, 3))
    drift = np.zeros(nt)
    for m in range(nt):
        x[m], v[m], _ = model.kinematics(Y[m])
        E[m] = model.energies(Y[m], taut_at[m])
        drift[m] = model.norm_drift(Y[m])
    return QuaternionRecord(
        t=t,
        x=x,
        v=v,
        taut=taut_at,
        transition_times=np.array([tr[0] for tr in trans]),
        transition_cables=np.array([tr[1] for tr in trans], int),
        transition_to_taut=np.array([tr[2] for tr in trans], bool),
        energy={"T": E[:, 0], "Vg": E[:, 1], "Vs": E[:, 2], "W": Y[:, -1]},
        norm_drift=drift,
        stats={
            "method": method,
            "rtol": rtol,
            "atol": atol,
            "nfev": nfev[0],
            "pieces": pieces,
            "wall_s": wall,
        },
    )
