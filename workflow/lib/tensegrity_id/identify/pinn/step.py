"""One optimisation step of a batch: collocation draw, loss terms and their gradients, eager or compiled.

:class:`PINNStep` adds to the problem of :mod:`.problem` the work of a step: the
collocation times and forcing of every member (each from its own generator and event
windows, the windows found by :meth:`~PINNStep.detect_transitions`), the per-record
constants of the loss, the loss terms of every member (:meth:`~PINNStep.loss_terms`) and,
with ``settings.compile``, the loss and its gradients as one graph compiled by
:mod:`.compile`.  The optimiser's update and the loop are :mod:`.trainer`'s.

Speed
    The step is dominated by the trunk's matrix products and by the
    elementwise work of the Taylor streams.  ``settings.compile`` compiles
    the loss together with its gradients (``torch.func.grad_and_value``)
    into one graph with ``torch.compile`` (TorchInductor's C++ backend): the
    elementwise work fused into a few loops, the matrix products with MKL,
    and no autograd bookkeeping at run time; without a working C++ compiler
    the trainer falls back to the eager step (loss, then ``backward``) with
    a log line.  Every later call goes through Dynamo with its guards
    evaluated: a Python value the loss reads (a weight, the smoothing
    sharpness, the dtype, the records) that changes between steps
    recompiles rather than returning a stale result.  Adam's update is
    ``torch.optim.Adam(..., fused=True)``'s own step.  Only public PyTorch
    API is used in the step.  Host-side work per step is one
    forcing evaluation per record for the whole batch (the collocation
    times of all members at once); the per-record constants of the loss
    are built once.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from .data import collocation_points, sign_change_times
from .problem import PINNProblem

__all__ = ["PINNStep"]


class PINNStep(PINNProblem):
    """The problem of a batch with its step: sampling, loss terms, gradients (eager or compiled).

    The base of :class:`~.trainer.PINNTrainer`; it reads the collocation generators
    ``gens`` and the step state (``_compiled``, ``step_mode``) that the trainer sets up.
    """

    # ----------------------------------------------------------- sampling
    def sample(self):
        """This step's collocation times (M, R n_colloc, 1) and forcing there (M, R n_colloc, n_coords).

        Every member draws from its own generator (and event windows); the
        forcing of a record is evaluated once for all members' times.
        """
        M, n_coords = self.n_members, self.dyn.q0.size
        taus, fext = [], []
        for rec in self.recs:
            tc = torch.stack(
                [
                    collocation_points(rec, rec.events[m], self.settings, self.gens[m], self.dtype)
                    for m in range(M)
                ]
            )
            t_np = tc[..., 0].numpy() * rec.T_ref
            f = rec.forcing.at(t_np.ravel(), n_coords).reshape(M, tc.shape[1], n_coords)
            taus.append(tc)
            fext.append(torch.as_tensor(f, dtype=self.dtype))
        return torch.cat(taus, 1), torch.cat(fext, 1)

    @torch.no_grad()
    def detect_transitions(self) -> list[list[np.ndarray]]:
        """Taut-slack transition times (s) of every member's current solution, per member and record."""
        s = self.settings
        sigma, _, EA = self._phys()
        out = [[] for _ in range(self.n_members)]
        for rec in self.recs:
            tau = torch.linspace(0.0, rec.T / rec.T_ref, s.event_grid, dtype=self.dtype)[:, None]
            taus = tau.expand(self.n_members, -1, -1)
            d = self.net.displacement(taus, self._expand_desc(rec.desc, tau.shape[0]))
            e = self.res.strain(self.res.q0_free + d, sigma, EA).numpy()
            t = tau[:, 0].numpy() * rec.T_ref
            for m in range(self.n_members):
                times = sign_change_times(e[m], t)
                rec.events[m] = torch.as_tensor(np.sort(np.asarray(times, float)), dtype=self.dtype)
                out[m].append(rec.events[m].numpy())
        return out

    # -------------------------------------------------------------- loss
    def _constants(self) -> None:
        """Per-record constants of the loss, built once: scales, descriptors, data times."""
        s, dt = self.settings, self.dtype
        n = s.n_colloc
        self._inv_T = torch.cat([torch.full((n, 1), 1.0 / r.T_ref, dtype=dt) for r in self.recs], 0)
        weight = float(abs(np.sum(self.structure.gravity_force)))
        scale = [weight if s.eom_scale == "weight" and weight > 0 else r.p for r in self.recs]
        self._p2 = torch.cat([torch.full((n, 1), p**2, dtype=dt) for p in scale], 0)
        self._tau_data = torch.cat([r.tau_train for r in self.recs], 0)
        self._desc = None
        if self.recs[0].desc is not None:
            rows = [r.desc.expand(n, -1) for r in self.recs] + [
                r.desc.expand(r.tau_train.shape[0], -1) for r in self.recs
            ]
            self._desc = torch.cat(rows, 0)

    def _eom(self, q, qd, qdd, lam, fext, sigma, c, EA, **law):
        """The EOM residual on the rows of ``settings.residual_rows`` (every coordinate, or the free)."""
        if not self.n_reactions:
            return self.res.eom(q, qd, qdd, lam, fext, sigma, c, EA, **law)
        nb = self._n_bars
        return self.res.eom_all(q, qd, qdd, lam[..., :nb], lam[..., nb:], fext, sigma, c, EA, **law)

    def loss_terms(self, tau_c, fext, values=None):
        """Per-member loss terms (tensors of shape (M,)) at collocation times ``tau_c`` with forcing ``fext``.

        A pure function of its inputs and the trainable tensors (what
        ``torch.compile`` traces): the trainer's own, or ``values``, one
        tensor per entry of :attr:`params` in its order (what
        :meth:`_loss_and_grads` differentiates).  Rows: every record's
        collocation points, then every record's training samples.
        """
        s = self.settings
        M, n_c = self.n_members, tau_c.shape[1]
        tau = torch.cat([tau_c, self._tau_data.expand(M, -1, -1)], 1)
        inputs = (tau, self._expand_desc(self._desc, tau.shape[1]))
        phys = None
        if values is None:
            d0, d1, d2, lam, T = self.net(*inputs)
        else:
            n_net = len(self._net_names)
            net_values = dict(zip(self._net_names, values[:n_net], strict=True))
            d0, d1, d2, lam, T = torch.func.functional_call(self.net, net_values, inputs)
            phys = dict(zip(self._phys_names, values[n_net:], strict=True))
        # data: accelerations at the instrumented channels
        sq = 0.0
        row = n_c
        for rec in self.recs:
            n = rec.tau_train.shape[0]
            a = d2[:, row : row + n][..., rec.ch_pick] / rec.T_ref**2
            sq = sq + ((a - rec.a_train) ** 2).sum(dim=(1, 2))
            row += n
        L_data = sq / self.n_data / self.data_scale
        # physics at the collocation points
        iT = self._inv_T
        q = self.res.q0_free + d0[:, :n_c]
        qd = d1[:, :n_c] * iT
        qdd = d2[:, :n_c] * iT * iT
        lam = lam[:, :n_c]
        sigma, c, EA = self._phys(phys)
        if self.log_fs is not None:  # the recorded force of each record times its factors
            f = torch.exp(self.log_fs if phys is None else phys["log_fs"]) - 1.0
            n = s.n_colloc
            fext = torch.cat(
                [
                    fext[:, r * n : (r + 1) * n] * (1.0 + f @ E)[:, None, :]
                    for r, E in enumerate(self._fs_maps)
                ],
                1,
            )
        out = {}
        if s.treatment == "fb":
            T = T[:, :n_c]
            r = self._eom(q, qd, qdd, lam, fext, sigma, c, EA, law="tension", tension=T)
            ncp = self.res.ncp(q, T, sigma, EA, tension_scale=self.T_nom, slack_scale=self.slack_scale)
            out["ncp"] = (ncp**2).mean(dim=(1, 2))
        else:
            r = self._eom(q, qd, qdd, lam, fext, sigma, c, EA, law="smooth", beta=s.beta)
        out["eom"] = (r * r / self._p2).mean(dim=(1, 2))
        out["bar"] = (self.res.bar(q) ** 2).mean(dim=(1, 2))
        out["data"] = L_data
        total = L_data + s.w_eom * out["eom"] + s.w_bar * out["bar"]
        if "ncp" in out:
            total = total + s.w_ncp * out["ncp"]
        out["total"] = total
        return out

    # ----------------------------------------------------------- compiling
    def _loss_and_grads(self, values, tau_c, fext):
        """The loss terms at ``values`` (one tensor per entry of :attr:`params`) and the gradients of
        the members' summed loss with respect to them, by ``torch.func`` (what the compiled step
        traces: forward and backward as one graph, no autograd bookkeeping at run time).  The
        members are independent, so member ``m``'s gradient is that of its own loss."""

        def objective(values):
            terms = self.loss_terms(tau_c, fext, values)
            return terms["total"].sum(), terms

        grads, (_, terms) = torch.func.grad_and_value(objective, has_aux=True)(values)
        # in the parameters' (contiguous) layout: the fused Adam kernel walks a gradient as stored,
        # so a transposed one would update the wrong entries (autograd's accumulation does the same)
        return terms, [g.contiguous() for g in grads]

    def _run_terms(self, tau_c, fext, out):
        """This step's loss terms, and their gradients where the compiled step computed them (else
        ``None``: the eager step leaves them to ``backward``).  Compiled when asked for and possible."""
        if self._compiled is None:  # first step: compile if asked (a resumed eager run stays eager)
            self._compiled = False
            if self.settings.compile:
                from .compile import compile_loss

                self._compiled = compile_loss(self._loss_and_grads, out) or False
        if self._compiled is False:
            self.step_mode = "eager"
            return self.loss_terms(tau_c, fext), None
        try:
            t0 = time.perf_counter()
            values = [p.detach() for p in self.params]
            terms, grads = self._compiled(values, tau_c, fext)
        except Exception as exc:  # noqa: BLE001 (a compiler failure of any kind: fall back)
            first = str(exc).splitlines()[0] if str(exc) else ""
            out.warning(
                "torch.compile failed (%s: %s); continuing with the eager step", type(exc).__name__, first
            )
            self._compiled = False
            self.step_mode = "eager"
            return self.loss_terms(tau_c, fext), None
        if self.step_mode != "compiled":
            out.info("compiled step ready after %.1f s", time.perf_counter() - t0)
        self.step_mode = "compiled"
        return terms, grads
