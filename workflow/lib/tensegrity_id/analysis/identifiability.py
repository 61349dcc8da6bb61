"""Identifiability before inversion: structural counts, Fisher information, CRLB.

Structural identifiability (the paper §3.3, Table S3 "Resolvable")
    The cable force densities enter the nodal balance linearly through the
    cable columns ``A_c`` of the equilibrium matrix on the free coordinates.
    A cable whose two ends are both restrained has an identically zero
    column: it is *invisible* to the free coordinates, taut or slack.  The
    remaining null space of ``A_c`` is spanned by *first-order self-stress
    combinations*: cable combinations that produce no free-coordinate force
    at the reference configuration.  The number of cables determined at
    first order is ``rank A_c``.  A combination that also produces no force
    at the restrained coordinates is a self-stress of the cables alone
    (``n_cable_self_stresses``): no measurement of the nodal motion, at any
    sensor set or grounding, can determine it (the form-found octahedral
    cell carries one, see :func:`tensegrity_id.mechanics.generators.octahedral_cell`);
    the others (the X2 and X3 frames') load the supports only.

Fisher information (the paper's Eq. 8)
    With sensor sensitivities ``S(t) = d a_sensors(t) / d theta`` (central
    finite differences of the verified forward model, relative step 1e-3
    floored at 1e-6) and per-channel noise ``s_n,i`` (2 % of the channel's
    RMS), ``J = sum_t S(t)^T Sigma_n^-1 S(t)``.  Near-null eigen-directions
    and the members that span them are reported; the Cramér–Rao bounds are
    the square roots of the diagonal of the inverse of the identifiable
    block.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.excitation import Forcing
from ..mechanics.simulate import simulate_from_rest
from ..mechanics.statics import RANK_TOL, equilibrium_matrix
from ..mechanics.structure import Structure
from ..results.fisher import FisherSummary, NearNull, StructuralIdentifiability

__all__ = [
    "first_order_identifiability",
    "parameter_vector",
    "acceleration_sensitivities",
    "fisher_information",
    "summarise_fisher",
    "active_channels",
    "group_information",
]


def first_order_identifiability(structure: Structure, *, tol: float = RANK_TOL) -> StructuralIdentifiability:
    """Which cables the free coordinates determine at first order.

    Returns
    -------
    StructuralIdentifiability
        ``resolvable`` (int, rank of the cable block), ``n_cables``,
        ``invisible`` (cables with both ends restrained), ``n_combinations``
        (dimension of the remaining null space), ``combinations`` (its
        orthonormal basis, one row per combination, over all cables) and
        ``n_cable_self_stresses`` (the dimension of the combinations that are
        also in equilibrium at the restrained coordinates: self-stresses of
        the cables alone).
    """
    A_all = equilibrium_matrix(structure)[:, structure.n_bars :]
    A = A_all[structure.free_mask]
    col = np.linalg.norm(A, axis=0)
    scale = col.max() if col.size else 1.0
    invisible = np.flatnonzero(col <= tol * scale)
    U, sv, Vt = np.linalg.svd(A, full_matrices=True)
    rank = int((sv > tol * sv[0]).sum()) if sv.size else 0
    null = Vt[rank:]
    # remove the invisible unit directions, keep the genuine combinations
    vis = np.setdiff1d(np.arange(structure.n_cables), invisible)
    comb = null[:, vis]
    r2 = np.linalg.svd(comb, compute_uv=False) if comb.size else np.zeros(0)
    n_comb = int((r2 > 1e-8).sum())
    basis = np.zeros((n_comb, structure.n_cables))
    n_cable_ss = 0
    if n_comb:
        _, _, W = np.linalg.svd(comb)
        basis[:, vis] = W[:n_comb]
        sv_all = np.linalg.svd(A_all @ basis.T, compute_uv=False)
        n_cable_ss = n_comb - int((sv_all > tol * scale).sum())
    return StructuralIdentifiability(
        resolvable=rank,
        n_cables=structure.n_cables,
        invisible=invisible.tolist(),
        n_combinations=n_comb,
        combinations=basis.tolist(),
        n_cable_self_stresses=n_cable_ss,
    )


def parameter_vector(dyn: Dynamics, theta: tuple[str, ...] = ("sigma", "c")) -> tuple[np.ndarray, list[str]]:
    """theta = (sigma_1..n, c[, EA_1..n]) at the dynamics' values, with names.

    The damping is one coefficient shared by all cables (as identified in the
    paper); ``EA`` is per cable.
    """
    vals, names = [], []
    for p in theta:
        if p == "sigma":
            vals += list(dyn.params.sigma)
            names += [f"sigma_{k}" for k in range(len(dyn.params.sigma))]
        elif p == "c":
            vals.append(float(np.mean(dyn.params.c)))
            names.append("c")
        elif p == "EA":
            vals += list(dyn.params.EA)
            names += [f"EA_{k}" for k in range(len(dyn.params.EA))]
        else:
            raise ValueError(f"unknown parameter group {p!r} (sigma, c, EA)")
    return np.array(vals), names


def _dynamics_at(structure, theta_names, values):
    n = structure.n_cables
    kw = {
        "sigma": np.array(structure.sigma),
        "c": np.array(structure.cable_damping),
        "EA": np.array(structure.cable_EA),
    }
    i = 0
    for p in theta_names:
        if p == "sigma":
            kw["sigma"] = values[i : i + n]
            i += n
        elif p == "c":
            kw["c"] = np.full(n, values[i])
            i += 1
        else:
            kw["EA"] = values[i : i + n]
            i += n
    return Dynamics(structure, **kw)


def _run(args):
    structure, theta, values, forcing, channels, sim = args
    dyn = _dynamics_at(structure, theta, values)
    rec = simulate_from_rest(dyn, forcing, **sim)
    return rec.qdd[:, channels]


def acceleration_sensitivities(
    structure: Structure,
    forcing: Forcing | None,
    channels,
    *,
    theta: tuple[str, ...] = ("sigma", "c"),
    rel_step: float = 1e-3,
    floor: float = 1e-6,
    workers: int = 1,
    **sim,
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Central-difference sensitivities of the sensor accelerations.

    Every perturbed run starts from the reference configuration at rest, as
    the identified model does, so a perturbed force density also enters
    through the initial out-of-balance force.

    Returns
    -------
    S : ndarray, shape (n_t, n_channels, n_theta), (m/s^2) per parameter unit
    theta0 : ndarray, shape (n_theta,)
    names : list of str
    """
    dyn = Dynamics(structure)
    theta0, names = parameter_vector(dyn, theta)
    h = np.maximum(rel_step * np.abs(theta0), floor)
    jobs = []
    for i in range(len(theta0)):
        for sgn in (1.0, -1.0):
            v = theta0.copy()
            v[i] += sgn * h[i]
            jobs.append((structure, theta, v, forcing, list(channels), sim))
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            out = list(pool.map(_run, jobs))
    else:
        out = [_run(j) for j in jobs]
    S = np.stack([(out[2 * i] - out[2 * i + 1]) / (2 * h[i]) for i in range(len(theta0))], axis=-1)
    return S, theta0, names


def active_channels(noise_std) -> np.ndarray:
    """Channels that carry signal (a channel at a kinematically locked node has zero RMS)."""
    std = np.asarray(noise_std, float)
    return std > 1e-12 * std.max() if std.size and std.max() > 0 else np.zeros(std.shape, bool)


def fisher_information(S: np.ndarray, noise_std: np.ndarray) -> np.ndarray:
    """J = sum_t S^T Sigma_n^-1 S over the active channels, shape (n_theta, n_theta).

    Channels without signal (zero RMS, hence zero noise level) are left out:
    they carry no information, as the two channels on the locked top node of
    the bridge in the paper's §4.7.
    """
    act = active_channels(noise_std)
    W = S[:, act, :] / np.asarray(noise_std, float)[act][None, :, None]
    J = np.einsum("tci,tcj->ij", W, W)
    return 0.5 * (J + J.T)


def summarise_fisher(
    J: np.ndarray, theta0: np.ndarray, names: list[str], *, null_tol: float = 1e-8
) -> FisherSummary:
    """Spectrum, near-null directions, identifiable block, condition and CRLB.

    A direction is near-null when its eigenvalue is below ``null_tol`` times
    the median eigenvalue (the median, not the largest, because on
    slack-transition records central differences across shifted transition
    instants inflate the largest eigenvalues, as the paper notes for its
    slack-record bounds); the parameters carrying most of the weight of the
    near-null eigenvectors are removed, and the bounds come from the inverse
    of the remaining (identifiable) block.
    """
    w, V = np.linalg.eigh(J)
    near_null = np.flatnonzero(w < null_tol * np.median(np.abs(w)))
    drop = sorted({int(np.argmax(np.abs(V[:, k]))) for k in near_null})
    keep = [i for i in range(len(theta0)) if i not in drop]
    Jb = J[np.ix_(keep, keep)]
    wb = np.linalg.eigvalsh(Jb)
    cov = np.linalg.inv(Jb)
    crlb = np.sqrt(np.diag(cov))
    return FisherSummary(
        names=list(names),
        theta=theta0.tolist(),
        J=J.tolist(),
        eigenvalues=w.tolist(),
        eigenvectors=V.tolist(),
        near_null=[
            NearNull(
                eigenvalue=float(w[k]),
                vector=V[:, k].tolist(),
                members=[names[i] for i in np.flatnonzero(np.abs(V[:, k]) > 0.1)],
            )
            for k in near_null
        ],
        null_members=[names[i] for i in drop],
        identifiable=[names[i] for i in keep],
        condition_identifiable=float(wb.max() / wb.min()),
        lambda_min_identifiable=float(wb.min()),
        crlb=dict(zip([names[i] for i in keep], crlb.tolist(), strict=True)),
        crlb_relative={names[i]: float(c / abs(theta0[i])) for i, c in zip(keep, crlb, strict=True)},
        sensitivity_norms=dict(zip(names, np.sqrt(np.diag(J)).tolist(), strict=True)),
    )


def group_information(J: np.ndarray, Gamma: np.ndarray) -> np.ndarray:
    """Information of group values g with sigma = Gamma^T g: Gamma J Gamma^T.

    ``Gamma`` has one row per group over the parameters of ``J`` (parameters
    outside every group, such as the damping, get their own row).
    """
    G = np.asarray(Gamma, float)
    return G @ J @ G.T
