"""The equation-of-motion residual with elastic bars (the paper §S5, Table 2 row 6).

The rigid-bar residual (:class:`~tensegrity_id.identify.residual.Residual`)
closes the balance with bar multipliers and constrains the bar lengths.  With
elastic bars there are neither: each bar carries the axial force

    N_b = EA_b (l_b - L_r,b) / L_r,b ,   L_r = L / (1 + sigma_b L / EA_b) ,

whose rest length ``L_r`` keeps the static bar force ``sigma_b L`` of the
self-stress at the reference length ``L``, and the residual on the free
coordinates is

    r = M_ff q''_f - [ G + f_s(q; sigma, EA) + f_d(q, q'; c) + f_bars(q; EA_bar, sigma_b) + f_ext ]_f .

``EA_bar`` and ``sigma_b`` enter as tensors, so either can be trained.  The
elastic term is written here from its definition; it is verified against the
independent elastic-bar generator
(:class:`~tensegrity_id.mechanics.elastic_bars.ElasticBarModel`), whose own
force assembly shares no code with it (:func:`verify_elastic_against_simulator`).
"""

from __future__ import annotations

import numpy as np
import torch

from ..mechanics.dynamics import Dynamics
from .residual import Residual, _record_tensors

__all__ = ["FlexibleResidual", "verify_elastic_against_simulator"]


class FlexibleResidual(Residual):
    """:class:`Residual` with elastic bars in place of the bar constraints."""

    def __init__(self, dyn: Dynamics, *, dtype=torch.float64):
        super().__init__(dyn, dtype=dtype)
        self.bar_length = torch.tensor(np.asarray(dyn.bar_lengths, float), dtype=dtype)
        bar_sigma = dyn.structure.bar_sigma
        self.bar_sigma = (
            None if bar_sigma is None else torch.tensor(np.asarray(bar_sigma, float), dtype=dtype)
        )

    def elastic_bar_forces(self, q_f, EA_bar, bar_sigma=None):
        """Elastic bar forces on the free coordinates, shape (..., n_free), N.

        ``EA_bar`` (N, scalar or per bar) and ``bar_sigma`` (N/m, the bars'
        static force densities at the reference lengths; default: the
        structure's self-stress) may be trainable tensors.
        """
        sb = self.bar_sigma if bar_sigma is None else bar_sigma
        if sb is None:
            raise ValueError("elastic bars need the bars' static force densities (structure bar_sigma)")
        L = self.bar_length
        L_rest = L / (1.0 + sb * L / EA_bar)
        b = self.member_vectors(q_f, "bars")
        length = (b * b).sum(-1) ** 0.5
        w = EA_bar * (length - L_rest) / (L_rest * length)  # force density N / l, tension positive
        return self.member_forces(b, w, "bars")

    def eom_elastic(self, q_f, qd_f, qdd_f, f_ext, sigma, c, EA_bar, bar_sigma=None, EA=None, **law):
        """Equation-of-motion residual with elastic bars, shape (..., n_free), N.

        Arguments as :meth:`Residual.eom` (no multipliers), with ``EA_bar`` and
        ``bar_sigma`` as in :meth:`elastic_bar_forces`.
        """
        f = self.G_free + self.cable_forces(q_f, qd_f, sigma, c, EA, **law)
        f = f + self.elastic_bar_forces(q_f, EA_bar, bar_sigma)
        if f_ext is not None:
            f = f + self.to_free(f_ext)
        return qdd_f @ self.Mff.T - f


def verify_elastic_against_simulator(dyn: Dynamics, model, record: dict, forcing) -> dict:
    """The flexible-bar residual on the elastic-bar generator's own state derivatives (Table 2, row 6).

    ``model`` is the :class:`~tensegrity_id.mechanics.elastic_bars.ElasticBarModel`
    that made ``record``; at every stored state its right-hand side gives
    ``q''`` (taut set from the lengths), and :meth:`FlexibleResidual.eom_elastic`
    at its ``EA_bar`` must vanish.  Relative to the largest force term.  The
    floor is round-off in ``l - L_r`` of the stiff bars, about ``EA_bar * eps``
    in newtons.  ``grad_EA_bar_finite`` checks that the residual trains in
    ``EA_bar``.
    """
    res = FlexibleResidual(dyn)
    q, qd, fe = _record_tensors(dyn, record, forcing)
    qdd = np.empty(q.shape)
    for i in range(q.shape[0]):
        qi = q[i].numpy()
        taut = model._members(model.cables, model.full(qi))[1] > model.L0
        f_i = None if fe is None else fe[i].numpy()
        qdd[i] = model.accelerations(qi, qd[i].numpy(), f_i, taut)[0]
    sigma = torch.as_tensor(dyn.params.sigma)
    c = torch.as_tensor(dyn.params.c)
    EA_bar = torch.tensor(model.EA_bar, dtype=torch.float64, requires_grad=True)
    qdd = torch.as_tensor(qdd)
    r = res.eom_elastic(q, qd, qdd, fe, sigma, c, EA_bar, law="exact")
    terms = [
        qdd @ res.Mff.T,
        res.cable_forces(q, qd, sigma, c),
        res.elastic_bar_forces(q, EA_bar),
        res.G_free,
    ]
    if fe is not None:
        terms.append(res.to_free(fe))
    scale = max(float(t.detach().abs().max()) for t in terms)
    (grad,) = torch.autograd.grad((r * r).sum(), EA_bar)
    return {
        "max_abs_residual_N": float(r.detach().abs().max()),
        "force_scale_N": scale,
        "relative": float(r.detach().abs().max()) / scale,
        "n_samples": int(q.shape[0]),
        "n_slack_samples": int((res.strain(q, sigma) <= 0).any(dim=1).sum()),
        "EA_bar_N": model.EA_bar.tolist(),
        "grad_EA_bar_finite": bool(torch.isfinite(grad).all()),
    }
