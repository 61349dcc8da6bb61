"""Elastic-bar forward model: a generator the rigid-bar residual cannot represent (the paper §S5, §S6).

The rigid-bar records (:mod:`~tensegrity_id.mechanics.dynamics`,
:mod:`~tensegrity_id.mechanics.simulate`) keep every bar length by a Lagrange
multiplier and integrate an index-1 saddle-point system with an explicit
Runge-Kutta method.  This model shares neither: every bar is a stiff axial
spring, there are no constraints, and the ordinary differential equations

    M_ff q_f'' = G_f + f_cables,f + f_bars,f + f_ext,f

are integrated by an implicit solver of ``solve_ivp`` (Radau by default; BDF
or LSODA), whose Newton iterations handle the stiffness of the bar axial
modes.  Nothing of the rigid model's code is used: the cable and bar forces
are assembled here from their definitions.

Members
    Cable ``k = (i, j)`` with vector ``s = x_j - x_i``, length ``l``, rest
    length ``L0`` and stiffness ``K`` (the structure's convention) carries,
    while taut (``l > L0``), the tension ``T = K (l - L0) + c dl/dt``; the
    force on node ``j`` is ``-T s / l`` and ``+T s / l`` on node ``i``.
    Bar ``b`` carries the axial force ``N = (EA_bar / L_r) (l - L_r)``
    (tension positive) with the rest length ``L_r = L / (1 + sigma_b L / EA_bar)``
    chosen so that at the reference length ``L`` it is the static bar force
    ``sigma_b L`` of the prestress: the prestressed reference configuration is
    an equilibrium of this model too, and the record starts at rest there.
    The stored ``lam`` is the bar force density ``N / l``, which is what the
    rigid model's multiplier approximates.

Mass
    The consistent mass of a uniform two-node bar, ``m/6 [[2 I, I], [I, 2 I]]``
    (the linear-interpolation element mass), and the same gravity load
    ``-m g / 2`` per end as the rigid model.

Energy
    ``E = T + V_g + V_cables + V_bars`` with ``V_bars = (EA_bar / L_r)(l - L_r)^2 / 2``
    obeys ``dE/dt = (f_ext + f_damping) . q'``; the work is integrated beside
    the state, so the balance is checked from integrated quantities only.

Taut-slack events are located by the rigid simulator's own event loop,
:func:`~tensegrity_id.mechanics.events.integrate_with_events` (one terminal
event per cable on ``l - L0``; the taut set is fixed within a piece), so that
records carry the same transition lists.
"""

from __future__ import annotations

import time

import numpy as np
from scipy.linalg import cho_factor, cho_solve, eigh

from .events import SimulationError, integrate_with_events, output_times
from .excitation import Forcing
from .simulate import Record
from .structure import Structure

__all__ = [
    "ElasticBarModel",
    "simulate_elastic",
    "elastic_frequencies",
    "flexible_bar_convergence",
    "IMPLICIT_METHODS",
]

IMPLICIT_METHODS = ("Radau", "BDF", "LSODA")


class ElasticBarModel:
    """Equations of motion of a structure whose bars are elastic axial members.

    Parameters
    ----------
    structure : Structure
        With a prestress (cable and bar force densities).
    EA_bar : float or array_like, shape (n_bars,), N
        Bar axial stiffness.
    """

    def __init__(self, structure: Structure, *, EA_bar):
        if not structure.has_prestress or structure.bar_sigma is None:
            raise ValueError(f"structure '{structure.name}' carries no prestress")
        self.structure = structure
        self.n, self.dim = structure.n_nodes, structure.dim
        self.EA_bar = np.broadcast_to(np.asarray(EA_bar, float), (structure.n_bars,)).copy()
        if np.any(self.EA_bar <= 0):
            raise ValueError(f"structure '{structure.name}': EA_bar must be > 0 (got {self.EA_bar})")
        self.free = np.flatnonzero(structure.free_mask)
        self.q0 = structure.q0.copy()
        self.cables, self.bars = np.asarray(structure.cables), np.asarray(structure.bars)
        self.K, self.L0 = structure.cable_K, structure.cable_L0
        self.c = np.broadcast_to(np.asarray(structure.cable_damping, float), (structure.n_cables,)).copy()
        self.bar_lengths = structure.bar_lengths
        L = self.bar_lengths
        self.bar_rest = L / (1.0 + structure.bar_sigma * L / self.EA_bar)
        if np.any(self.bar_rest <= 0):
            raise ValueError(f"structure '{structure.name}': EA_bar too soft for the bar forces")
        self.k_bar = self.EA_bar / self.bar_rest
        M = np.zeros((self.n * self.dim,) * 2)
        eye = np.eye(self.dim)
        for (i, j), m in zip(self.bars, structure.bar_masses, strict=True):
            for a, b, w in ((i, i, 2), (j, j, 2), (i, j, 1), (j, i, 1)):
                M[self.dim * a : self.dim * a + self.dim, self.dim * b : self.dim * b + self.dim] += (
                    m * w / 6 * eye
                )
        self.M = M
        self.Mff = M[np.ix_(self.free, self.free)]
        self._chol = cho_factor(self.Mff)
        self.G = structure.gravity_force

    @property
    def n_free(self) -> int:
        return len(self.free)

    def full(self, q_free, v_free=None):
        """Node positions (and velocities), shape (..., n, dim), from the free coordinates."""
        q = np.broadcast_to(self.q0, np.shape(q_free)[:-1] + self.q0.shape).copy()
        q[..., self.free] = q_free
        x = q.reshape(q.shape[:-1] + (self.n, self.dim))
        if v_free is None:
            return x
        v = np.zeros_like(q)
        v[..., self.free] = v_free
        return x, v.reshape(x.shape)

    @staticmethod
    def _members(pairs, x, v=None):
        s = x[..., pairs[:, 1], :] - x[..., pairs[:, 0], :]
        length = np.sqrt((s * s).sum(-1))
        if v is None:
            return s, length
        ds = v[..., pairs[:, 1], :] - v[..., pairs[:, 0], :]
        return s, length, (s * ds).sum(-1) / length

    def _assemble(self, pairs, s, length, tension):
        f = np.zeros((self.n, self.dim))
        fk = (tension / length)[:, None] * s
        np.add.at(f, pairs[:, 1], -fk)
        np.add.at(f, pairs[:, 0], fk)
        return f.ravel()

    def forces(self, q_free, v_free, taut):
        """Free-coordinate forces of gravity, cables and bars (N), the damping force, the bar forces."""
        x, v = self.full(q_free, v_free)
        s, lc, rate = self._members(self.cables, x, v)
        t_el = np.where(taut, self.K * (lc - self.L0), 0.0)
        t_d = np.where(taut, self.c * rate, 0.0)
        sb, lb = self._members(self.bars, x)
        N = self.k_bar * (lb - self.bar_rest)
        f = self.G + self._assemble(self.cables, s, lc, t_el + t_d) + self._assemble(self.bars, sb, lb, N)
        fd = self._assemble(self.cables, s, lc, t_d)
        return f[self.free], fd[self.free], N, lb, t_el

    def accelerations(self, q_free, v_free, f_ext, taut):
        f, fd, N, lb, _ = self.forces(q_free, v_free, taut)
        if f_ext is not None:
            f = f + f_ext[self.free]
        return cho_solve(self._chol, f), N / lb, float(fd @ v_free)

    def jacobian(self, q_free, v_free, taut):
        """Analytic derivatives of the free-coordinate forces, ``(df/dq, df/dv)``, N/m and N s/m.

        Member ``(i, j)`` pushes node ``j`` by ``-F`` and node ``i`` by ``+F``
        with ``F = (T / l) s``, ``T = T_el(l) + c l'`` and ``l' = s . s' / l``:

            dF/ds  = (T / l) I + (T_el'(l) / l - T / l^2) s s^T / l + (c / l) s (s' / l - l' s / l^2)^T,
            dF/ds' = (c / l^2) s s^T,

        with ``T_el' = K`` (cables, taut) or ``EA_bar / L_r`` (bars).  The
        implicit solvers use it in their Newton iterations.
        """
        x, v = self.full(q_free, v_free)
        nc, dim = self.dim * self.n, self.dim
        Jq, Jv = np.zeros((nc, nc)), np.zeros((nc, nc))
        s, lc, rate = self._members(self.cables, x, v)
        ds = v[self.cables[:, 1]] - v[self.cables[:, 0]]
        sb, lb = self._members(self.bars, x)
        eye = np.eye(dim)
        blocks = []
        for k in np.flatnonzero(taut):
            sk, lk, rk = s[k], lc[k], rate[k]
            T = self.K[k] * (lk - self.L0[k]) + self.c[k] * rk
            dl = np.outer(sk, sk) / lk
            dFs = (T / lk) * eye + (self.K[k] / lk - T / lk**2) * dl
            dFs += (self.c[k] / lk) * np.outer(sk, ds[k] / lk - rk * sk / lk**2)
            blocks.append((self.cables[k], dFs, (self.c[k] / lk**2) * np.outer(sk, sk)))
        for k in range(len(self.bars)):
            N = self.k_bar[k] * (lb[k] - self.bar_rest[k])
            dl = np.outer(sb[k], sb[k]) / lb[k]
            blocks.append(
                (self.bars[k], (N / lb[k]) * eye + (self.k_bar[k] / lb[k] - N / lb[k] ** 2) * dl, None)
            )
        for (i, j), dFs, dFv in blocks:
            a, b = slice(dim * i, dim * i + dim), slice(dim * j, dim * j + dim)
            for J, D in ((Jq, dFs), (Jv, dFv)):
                if D is None:
                    continue
                J[b, b] -= D
                J[b, a] += D
                J[a, b] += D
                J[a, a] -= D
        idx = np.ix_(self.free, self.free)
        return Jq[idx], Jv[idx]

    def energies(self, q_free, v_free, taut):
        """Kinetic, gravitational, cable and bar strain energy, J."""
        T = 0.5 * v_free @ self.Mff @ v_free
        x = self.full(q_free)
        Vg = -(x.ravel() - self.q0) @ self.G
        _, lc = self._members(self.cables, x)
        _, lb = self._members(self.bars, x)
        Vc = 0.5 * (np.where(taut, self.K * (lc - self.L0) ** 2, 0.0)).sum()
        Vb = 0.5 * (self.k_bar * (lb - self.bar_rest) ** 2).sum()
        return T, Vg, Vc + Vb

    def constraint_violation(self, q_free):
        """Relative change of the squared bar lengths, shape (..., n_bars): elastic here, not an error."""
        x = self.full(q_free)
        _, lb = self._members(self.bars, x)
        return lb**2 / self.bar_lengths**2 - 1.0


def simulate_elastic(
    model: ElasticBarModel,
    forcing: Forcing | None,
    *,
    t_end: float = 5.0,
    dt_out: float = 0.01,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    method: str = "Radau",
    max_step: float | None = None,
    max_pieces: int = 100_000,
) -> Record:
    """Integrate the elastic-bar model from rest at the prestressed reference configuration.

    Returns a :class:`~tensegrity_id.mechanics.simulate.Record` in the rigid
    simulator's format (``lam`` holds the elastic bar force densities).
    """
    name = model.structure.name
    if method not in IMPLICIT_METHODS:
        raise SimulationError(f"elastic bars need an implicit method {IMPLICIT_METHODS}, not '{method}'")
    n_coords, nf = model.q0.size, model.n_free
    if forcing is not None:
        fixed = sorted(set(forcing.coords) - set(model.free.tolist()))
        if fixed:
            raise SimulationError(f"structure '{name}': forcing acts on fixed coordinate {fixed[0]}")
    fext = (lambda t: forcing(t, n_coords)) if forcing is not None else (lambda t: None)
    t_out = output_times(t_end, dt_out)

    def rhs(t, y, taut):
        qf, vf = y[:nf], y[nf : 2 * nf]
        fe = fext(t)
        a, _, pd = model.accelerations(qf, vf, fe, taut)
        pe = 0.0 if fe is None else float(fe[model.free] @ vf)
        return np.concatenate([vf, a, [pe + pd]])

    def jac(t, y, taut):
        qf, vf = y[:nf], y[nf : 2 * nf]
        Jq, Jv = model.jacobian(qf, vf, taut)
        out = np.zeros((2 * nf + 1, 2 * nf + 1))
        out[:nf, nf : 2 * nf] = np.eye(nf)
        out[nf : 2 * nf, :nf] = cho_solve(model._chol, Jq)
        out[nf : 2 * nf, nf : 2 * nf] = cho_solve(model._chol, Jv)
        return out  # the work row is left out: it does not feed back into the motion

    def gap(k, i, j):
        def g(t, y):
            x = model.full(y[:nf])
            return float(np.linalg.norm(x[j] - x[i]) - model.L0[k])

        return g

    x0 = model.full(model.q0[model.free])
    taut = ElasticBarModel._members(model.cables, x0)[1] > model.L0
    wall = time.perf_counter()
    sol = integrate_with_events(
        rhs,
        np.concatenate([model.q0[model.free], np.zeros(nf), [0.0]]),
        taut,
        [gap(k, i, j) for k, (i, j) in enumerate(model.cables)],
        t_out,
        t_end=t_end,
        method=method,
        rtol=rtol,
        atol=atol,
        max_step=dt_out if max_step is None else max_step,
        jac=jac,
        max_pieces=max_pieces,
        label=f"structure '{name}'",
    )
    wall = time.perf_counter() - wall
    t, Y, mode_at = sol.t, sol.y, sol.modes
    qf, vf = Y[:, :nf], Y[:, nf : 2 * nf]
    nt = t.size
    qdd, lam = np.zeros((nt, nf)), np.zeros((nt, model.structure.n_bars))
    tension = np.zeros((nt, model.structure.n_cables))
    E = np.zeros((3, nt))
    for i in range(nt):
        qdd[i], lam[i], _ = model.accelerations(qf[i], vf[i], fext(t[i]), mode_at[i])
        tension[i] = model.forces(qf[i], vf[i], mode_at[i])[4]
        E[:, i] = model.energies(qf[i], vf[i], mode_at[i])

    x, v = model.full(qf, vf)
    a = np.zeros((nt, n_coords))
    a[:, model.free] = qdd
    return Record(
        t=t,
        q=x.reshape(nt, -1),
        qd=v.reshape(nt, -1),
        qdd=a,
        lam=lam,
        tension=tension,
        taut=mode_at,
        transition_times=sol.event_times,
        transition_cables=sol.event_switches,
        transition_to_taut=sol.event_to_on,
        energy={"T": E[0], "Vg": E[1], "Vs": E[2], "W": Y[:, -1]},
        forcing=forcing.signals(t).T if forcing is not None else np.zeros((nt, 0)),
        stats={
            "method": method,
            "rtol": rtol,
            "atol": atol,
            "nfev": sol.nfev,
            "pieces": sol.pieces,
            "wall_s": wall,
            "EA_bar": model.EA_bar.tolist(),
        },
    )


def elastic_frequencies(model: ElasticBarModel, *, rel_step: float = 1e-7) -> np.ndarray:
    """Small-oscillation frequencies (Hz, ascending) of the elastic-bar model at its equilibrium.

    The stiffness is the central finite difference of the model's own force
    function (all cables taut as at the reference state), so this checks the
    simulated equations themselves, not a separately assembled tangent.
    """
    q = model.q0[model.free]
    taut = ElasticBarModel._members(model.cables, model.full(q))[1] > model.L0
    h = rel_step * max(1.0, np.abs(q).max())
    nf = model.n_free
    H = np.zeros((nf, nf))
    zero = np.zeros(nf)
    for k in range(nf):
        e = np.zeros(nf)
        e[k] = h
        H[:, k] = -(model.forces(q + e, zero, taut)[0] - model.forces(q - e, zero, taut)[0]) / (2 * h)
    w2 = eigh((H + H.T) / 2, model.Mff, eigvals_only=True)
    return np.sign(w2) * np.sqrt(np.abs(w2)) / (2 * np.pi)


def flexible_bar_convergence(structure: Structure, E_bar) -> dict:
    """Elastic-bar frequencies per bar modulus against the constrained rigid-bar modes.

    The ``n_free - n_bars`` lowest elastic frequencies are compared with the
    rigid ones; the error falls as ``1 / EA`` (bar compliance), and the bar
    axial frequencies grow as ``sqrt(EA)``.
    """
    from .dynamics import Dynamics
    from .modal import constrained_modes

    rigid = constrained_modes(Dynamics(structure))[0]
    area = np.pi * np.broadcast_to(structure.bar_radius, (structure.n_bars,)) ** 2
    freqs, errs, EAs = [], [], []
    for E in E_bar:
        f = elastic_frequencies(ElasticBarModel(structure, EA_bar=float(E) * area))
        freqs.append(f.tolist())
        errs.append(float(np.abs(f[: rigid.size] / rigid - 1.0).max()))
        EAs.append((float(E) * area).tolist())
    slopes = -np.diff(np.log(errs)) / np.diff(np.log(np.asarray(E_bar, float)))
    return {
        "structure": structure.name,
        "E_bar": [float(E) for E in E_bar],
        "EA_bar": EAs,
        "frequencies_hz": freqs,
        "rigid_hz": rigid.tolist(),
        "max_rel_error": errs,
        "order": slopes.tolist(),
    }
