"""Fisher information at identified parameters (a signal that needs no exact values).

The identifiability analysis of :mod:`.identifiability` evaluates the Fisher
information at the exact parameters, before any inversion.  On a measured
record the exact parameters are unknown; what can be evaluated is the
information at the *identified* parameters: the same central-difference
sensitivities of the sensor accelerations, from the reference configuration
at rest, with the force densities and the damper coefficient set to the
estimate.  Pooled records add their information.  The summary (condition
number of the identifiable block, smallest eigenvalue, worst relative
Cramér–Rao bound and its parameter, near-null members) is what the
silent-failure table reports: a silent failure that lands in a region where
the record is locally uninformative shows it here; one that lands in a
well-conditioned region does not (the paper's §3.3 remark that a local
Fisher analysis cannot rule out practical non-uniqueness).
"""

from __future__ import annotations

import numpy as np

from ..results.fisher import LocalFisher
from ..results.record import field_values
from ..results.screening import DETERMINABLE, UNDETERMINABLE, WEAK, ChannelScreen
from .identifiability import acceleration_sensitivities, fisher_information, summarise_fisher

__all__ = ["local_fisher", "screen_channels"]


def local_fisher(
    problem,
    sigma,
    c: float,
    *,
    rel_step: float = 1e-3,
    floor: float = 1e-6,
    null_tol: float = 1e-8,
    workers: int = 1,
) -> LocalFisher:
    """Fisher summary of ``problem``'s sensor channels at (``sigma``, ``c``).

    Parameters
    ----------
    problem : IdentificationProblem
        Its structure (geometry, masses, supports), records (forcing, sensor
        channels and noise levels) and simulation options.
    sigma : array_like, shape (n_cables,)
        Force densities (N/m) at which the information is evaluated.
    c : float
        Damper coefficient (N s/m), shared by the cables.

    Returns
    -------
    LocalFisher
        ``theta`` (the evaluation point), ``condition_identifiable``,
        ``lambda_min_identifiable``, ``null_members``, ``crlb_relative``
        (per identifiable parameter, relative to its value at the point),
        ``crlb_max_pct`` and ``crlb_max_parameter``.
    """
    st = problem.structure
    sigma = np.asarray(sigma, float)
    if sigma.shape != (st.n_cables,):
        raise ValueError(f"sigma has shape {sigma.shape}; structure '{st.name}' has {st.n_cables} cables")
    at = st.with_changes(sigma=sigma, cable_damping=np.full(st.n_cables, float(c)))
    J, theta0, names = None, None, None
    for rec in problem.records:
        S, theta0, names = acceleration_sensitivities(
            at,
            rec.forcing,
            rec.sensors["channels"],
            rel_step=rel_step,
            floor=floor,
            workers=workers,
            **problem.sim,
        )
        Jr = fisher_information(S, rec.sensors["noise_std"])
        J = Jr if J is None else J + Jr
    out = summarise_fisher(J, theta0, names, null_tol=null_tol)
    worst = out.worst_crlb_parameter
    return LocalFisher(
        theta=out.theta,
        names=names,
        condition_identifiable=out.condition_identifiable,
        lambda_min_identifiable=out.lambda_min_identifiable,
        null_members=out.null_members,
        crlb_relative=out.crlb_relative,
        crlb_max_pct=100.0 * out.crlb_relative[worst],
        crlb_max_parameter=worst,
    )


def screen_channels(problem, sigma, c: float, *, weak_pct: float = 10.0, **fisher_options) -> ChannelScreen:
    """First-order screening, before an inversion: which members the record's channels can determine.

    The Fisher information of the channels (:func:`local_fisher`) at a nominal
    point a user has before identifying (the structure's design prestress
    and damping), from the geometry, supports, masses, forcing and channel
    set only.  Members are ``determinable`` (relative
    Cramér–Rao bound below ``weak_pct`` %), ``weak`` (above it) or
    ``undeterminable``: near-null in the information (e.g. a cable with
    both ends supported, or one these channels do not see).  A linearised
    statement at the nominal point: a member it calls determinable may
    still be lost to a practically non-unique valley far from it.
    """
    f = local_fisher(problem, sigma, c, **fisher_options)
    members = {}
    for name in f.names:
        if name in f.null_members:
            members[name] = UNDETERMINABLE
        else:
            members[name] = DETERMINABLE if 100.0 * f.crlb_relative[name] <= weak_pct else WEAK
    return ChannelScreen(
        **field_values(f),
        weak_pct=weak_pct,
        members=members,
        point="nominal (design prestress and damping)",
    )
