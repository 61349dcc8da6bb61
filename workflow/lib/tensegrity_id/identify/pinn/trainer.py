"""The trainer of the physics-informed identification: a batch of independent seeds trained as one.

The method, its loss and the three transition treatments are described in
:mod:`tensegrity_id.identify.pinn`.

A batch of seeds
    One trainer trains ``M`` independent runs at once, one per seed: ``M``
    network initialisations (:class:`~.net.PINNNet` stacks them along a
    leading member axis), ``M`` noise realisations of the same records,
    ``M`` sets of physical parameters (``log_sigma`` of shape (M,
    n_cables), ``log_c`` and ``log_EA`` of shape (M,)), and per member its
    own collocation generator and event windows.  Each member's loss is
    normalised by its own data scale and reduced over its own points; the
    optimised objective is the plain sum of the member losses, so the
    gradient of member ``m`` is the gradient of its own loss, and Adam (an
    elementwise update, no clipping) steps every member independently.
    The single run is the batch of one.

    A member whose loss or parameters become non-finite is stopped: its
    parameters are put back to the last state with a finite loss, it is
    excluded from the objective from then on, and :attr:`diverged` says
    when and why; the other members finish.

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

import dataclasses
import hashlib
import logging
import math
import os
import time
from pathlib import Path

import numpy as np
import torch

from ...data.runio import atomic_path
from ...mechanics.dynamics import Dynamics
from ...mechanics.statics import bar_multipliers, support_reactions
from ..base import C0, SIGMA0, RecordData
from ..residual import Residual
from .data import collocation_points, prepare_records, sign_change_times
from .net import PINNNet
from .settings import TRAIN_SEED_TAG, PINNSettings

__all__ = ["PINNTrainer", "seed_stream"]

log = logging.getLogger(__name__)


def seed_stream(seed: int, stream: str) -> int:
    """The integer seed of a training stream (``init`` or ``collocation``) of a run seed."""
    tag = {"init": 1, "collocation": 2}[stream]
    ss = np.random.SeedSequence([TRAIN_SEED_TAG, int(seed), tag])
    return int(ss.generate_state(1, np.uint64)[0] % (2**63 - 1))


def _seed_list(seeds) -> list[int]:
    if isinstance(seeds, int | np.integer):
        return [int(seeds)]
    out = [int(s) for s in seeds]
    if not out:
        raise ValueError("a batch needs at least one seed")
    if len(set(out)) != len(out):
        raise ValueError(f"the seeds of a batch must differ, got {out}")
    return out


class PINNTrainer:
    """Networks, physical parameters and optimiser of a batch of identification runs.

    Parameters
    ----------
    structure : Structure
        Geometry, supports, masses and nominal EA (its prestress is not read).
    records : list of RecordData, or one such list per seed
        Records with sensor data (noise realisation already chosen) and
        forcing; a single list is shared by every member.
    settings : PINNSettings
    seeds : int or sequence of int
        One run seed per member (network initialisation, collocation draws).
    lambda0 : ndarray, shape (n_bars,)
        Nominal static multipliers (N/m) for the multiplier head's start.
    reactions0 : ndarray, shape (n_fixed,), optional
        Nominal static support reactions (N), the start of the support multipliers
        (``residual_rows="all"``; without them, those balancing ``lambda0`` and the guess).
    sigma0, c0 : float
        Initial guesses (N/m, N s/m).

    Attributes
    ----------
    seeds : list of int
    history : list of list of dict
        Per member, a row every ``history_every`` steps.
    diverged : list of dict or None
        Per member, ``None`` or ``{"step", "reason", "kept_step"}``.
    step_mode : str
        ``"eager"`` or ``"compiled"`` (what the steps ran as).
    """

    def __init__(
        self,
        structure,
        records,
        settings: PINNSettings,
        *,
        seeds,
        lambda0,
        reactions0=None,
        sigma0=SIGMA0,
        c0=C0,
    ):
        self.settings = s = settings
        self.seeds = _seed_list(seeds)
        M = self.n_members = len(self.seeds)
        if not records:
            raise ValueError("the physics-informed identification needs at least one record")
        member_records = [list(records)] * M if isinstance(records[0], RecordData) else list(records)
        if len(member_records) != M:
            raise ValueError(f"{len(member_records)} record sets for {M} seeds; give one per seed")
        self.init_guess = (float(sigma0), float(c0))
        self.dtype = getattr(torch, s.dtype)
        nc = structure.n_cables
        self.structure = structure
        self.dyn = Dynamics(structure, sigma=np.full(nc, float(sigma0)), c=float(c0))
        self.res = Residual(self.dyn, dtype=self.dtype)
        self.free = self.dyn.free
        pos = {int(c): i for i, c in enumerate(self.free)}
        for r in member_records[0]:
            if r.forcing is None:
                raise ValueError(f"record '{r.name}': the EOM residual needs the known forcing")
        p_max = max(r.forcing.amplitude for r in member_records[0])
        R = len(member_records[0])
        self.recs, self.data_scale = prepare_records(member_records, pos, t_ref=s.t_ref, dtype=self.dtype)
        self.n_data = sum(r.a_train[0].numel() for r in self.recs)
        # ---- networks (seeded per member) and physical parameters
        lam0 = np.asarray(lambda0, float)
        guess = np.full(structure.n_cables, float(sigma0))
        if s.lambda_init == "guess":  # the multipliers that balance the initial guess
            lam0 = bar_multipliers(structure, guess)
        bar_len = float(np.mean(structure.bar_lengths))
        lam_scale = max(float(np.abs(lam0).max(initial=0.0)), p_max / bar_len)
        self._n_bars = int(structure.n_bars)  # a Python int: the compiled step reads no array
        self.n_reactions = self.res.n_fixed if s.residual_rows == "all" else 0
        if self.n_reactions:  # the support multipliers: reactions (N) after the bars' (N/m)
            if s.lambda_init == "guess" or reactions0 is None:  # those of the initial guess
                reactions0 = support_reactions(structure, guess, bar_multipliers(structure, guess))
            r0 = np.asarray(reactions0, float)
            r_scale = max(float(np.abs(r0).max(initial=0.0)), p_max)
            lam0 = np.r_[lam0, r0]
            lam_scale = np.r_[np.full(structure.n_bars, lam_scale), np.full(self.n_reactions, r_scale)]
        members = np.r_[structure.bar_lengths, structure.cable_lengths]
        self.T_nom = float(sigma0) * float(members.mean())
        self.slack_scale = torch.as_tensor(
            self.T_nom * structure.cable_lengths / self.dyn.params.EA, dtype=self.dtype
        )
        tau_ic = s.tau_ic
        if s.tau_ic_unit == "seconds":  # one window for every record: one time scale
            t_refs = {r.T_ref for r in self.recs}
            if len(t_refs) > 1:
                raise ValueError(
                    "config field 'identify.pinn.settings.tau_ic_unit': 'seconds' needs one time "
                    f"scale for every record, got T_ref {sorted(t_refs)} s; set 't_ref'"
                )
            tau_ic = s.tau_ic / t_refs.pop()
        self.net = PINNNet(
            self.dyn.n_free,
            structure.n_bars,
            lam0,
            lambda_scale=lam_scale,
            n_reactions=self.n_reactions,
            n_desc=0 if R == 1 else R + 1,
            n_tension=nc if s.treatment == "fb" else 0,
            tension_scale=self.T_nom,
            width=s.width,
            depth=s.depth,
            n_fourier=s.n_fourier,
            fourier=s.fourier,
            fourier_constant=s.fourier_constant,
            init=s.init,
            tau_ic=tau_ic,
            disp_scale=s.disp_scale,
            init_seeds=[seed_stream(x, "init") for x in self.seeds],
            dtype=self.dtype,
        )
        self.log_sigma = torch.nn.Parameter(torch.full((M, nc), math.log(sigma0), dtype=self.dtype))
        self.log_c = torch.nn.Parameter(torch.full((M,), math.log(c0), dtype=self.dtype))
        phys = [self.log_sigma, self.log_c]
        self._phys_names = ["log_sigma", "log_c"]  # names of phys, in order
        self.log_EA = None
        if s.identify_EA:
            ea0 = s.EA0 if s.EA0 is not None else float(np.mean(structure.cable_EA))
            self.log_EA = torch.nn.Parameter(torch.full((M,), math.log(ea0), dtype=self.dtype))
            phys.append(self.log_EA)
            self._phys_names.append("log_EA")
        self.log_fs, self._fs_maps = None, []
        if s.fit_force_scale:  # one factor per driven coordinate of every record, from 1
            n_coords = self.dyn.q0.size
            sizes = [len(r.forcing.coords) for r in member_records[0]]
            self.log_fs = torch.nn.Parameter(torch.zeros((M, sum(sizes)), dtype=self.dtype))
            phys.append(self.log_fs)
            self._phys_names.append("log_fs")
            i = 0
            for r, n in zip(member_records[0], sizes, strict=True):
                E = torch.zeros((sum(sizes), n_coords), dtype=self.dtype)
                for j, c in enumerate(r.forcing.coords):
                    E[i + j, int(c)] = 1.0
                self._fs_maps.append(E)
                i += n
        self.params = list(self.net.parameters()) + phys
        self._net_names = [n for n, _ in self.net.named_parameters()]  # names of the network's part
        self.optimizer = torch.optim.Adam(  # fused: one kernel for all tensors
            [
                {"params": list(self.net.parameters()), "lr": s.lr_net},
                {"params": phys, "lr": s.lr_params},
            ],
            fused=True,
        )
        steps = s.steps
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda k: 0.5 * (1.0 + math.cos(math.pi * min(k, steps) / steps))
        )
        self.gens = [torch.Generator().manual_seed(seed_stream(x, "collocation")) for x in self.seeds]
        self.step = 0
        self.history: list[list[dict]] = [[] for _ in self.seeds]
        self.diverged: list[dict | None] = [None] * M
        self.elapsed = 0.0
        self.step_mode = "eager"
        # last parameters with a finite loss, and the kept state of stopped members
        self._good = [p.detach().clone() for p in self.params]
        self._kept = [p.detach().clone() for p in self.params]
        self._good_step = 0
        self._constants()
        self._compiled = None

    # ------------------------------------------------------------ helpers
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

    @property
    def active(self) -> torch.Tensor:
        """Members still training, a bool tensor of shape (M,)."""
        return torch.tensor([d is None for d in self.diverged])

    def parameters_now(self) -> list[dict]:
        """Current physical parameters as floats, one dict per member."""
        sig = torch.exp(self.log_sigma.detach()).cpu().numpy().astype(float)
        c = torch.exp(self.log_c.detach()).cpu().numpy().astype(float)
        out = [{"sigma": sig[m], "c": float(c[m])} for m in range(self.n_members)]
        if self.log_EA is not None:
            ea = torch.exp(self.log_EA.detach()).cpu().numpy().astype(float)
            for m, p in enumerate(out):
                p["EA"] = float(ea[m])
        if self.log_fs is not None:
            fs = torch.exp(self.log_fs.detach()).cpu().numpy().astype(float)
            for m, p in enumerate(out):
                p["force_scale"] = fs[m].tolist()
        return out

    def _phys(self, phys: dict | None = None):
        """sigma (M, 1, n_cables), c (M, 1, 1) and EA (M, 1, 1) or None, broadcasting over points;
        of the trainer's parameters, or of ``phys`` (their values by name, :meth:`loss_terms`)."""
        get = (lambda k: getattr(self, k)) if phys is None else phys.get  # noqa: E731
        sigma = torch.exp(get("log_sigma"))[:, None, :]
        c = torch.exp(get("log_c"))[:, None, None]
        EA = None if self.log_EA is None else torch.exp(get("log_EA"))[:, None, None]
        return sigma, c, EA

    def _expand_desc(self, desc, n: int):
        return None if desc is None else desc.expand(self.n_members, n, -1)

    def _eom(self, q, qd, qdd, lam, fext, sigma, c, EA, **law):
        """The EOM residual on the rows of ``settings.residual_rows`` (every coordinate, or the free)."""
        if not self.n_reactions:
            return self.res.eom(q, qd, qdd, lam, fext, sigma, c, EA, **law)
        nb = self._n_bars
        return self.res.eom_all(q, qd, qdd, lam[..., :nb], lam[..., nb:], fext, sigma, c, EA, **law)

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

    # ---------------------------------------------------------- checkpoint
    def fingerprint(self) -> str:
        """Hash of everything that defines the batch (settings, seeds, data, structure)."""
        h = hashlib.sha256()
        h.update(repr(dataclasses.asdict(self.settings)).encode())
        h.update(repr(self.seeds).encode())
        h.update(self.structure.digest().encode())
        for rec in self.recs:
            h.update(rec.a_train.numpy().tobytes())
            h.update(rec.tau_train.numpy().tobytes())
            h.update(repr(rec.forcing.spec).encode())
        h.update(repr((self.init_guess, self.net.lambda0.tolist())).encode())
        return h.hexdigest()[:16]

    def state_dict(self) -> dict:
        return {
            "step": self.step,
            "seeds": list(self.seeds),
            "net": self.net.state_dict(),
            "log_sigma": self.log_sigma.detach().clone(),
            "log_c": self.log_c.detach().clone(),
            "log_EA": None if self.log_EA is None else self.log_EA.detach().clone(),
            "log_fs": None if self.log_fs is None else self.log_fs.detach().clone(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "generators": [g.get_state() for g in self.gens],
            "events": [[ev.clone() for ev in r.events] for r in self.recs],
            "history": [list(h) for h in self.history],
            "diverged": list(self.diverged),
            "good": [p.clone() for p in self._good],
            "kept": [p.clone() for p in self._kept],
            "good_step": self._good_step,
            "elapsed": self.elapsed,
            "step_mode": self.step_mode,
        }

    def load_state_dict(self, st: dict) -> None:
        self.step = int(st["step"])
        self.net.load_state_dict(st["net"])
        with torch.no_grad():
            self.log_sigma.copy_(st["log_sigma"])
            self.log_c.copy_(st["log_c"])
            if self.log_EA is not None:
                self.log_EA.copy_(st["log_EA"])
            if self.log_fs is not None:
                self.log_fs.copy_(st["log_fs"])
        self.optimizer.load_state_dict(st["optimizer"])
        self.scheduler.load_state_dict(st["scheduler"])
        for g, state in zip(self.gens, st["generators"], strict=True):
            g.set_state(state)
        for r, evs in zip(self.recs, st["events"], strict=True):
            r.events = list(evs)
        self.history = [list(h) for h in st["history"]]
        self.diverged = list(st["diverged"])
        self._good = [p.clone() for p in st["good"]]
        self._kept = [p.clone() for p in st["kept"]]
        self._good_step = int(st["good_step"])
        self.elapsed = float(st["elapsed"])
        if st["step_mode"] == "eager":  # a resumed run keeps the step of its checkpoint
            self._compiled = False

    def save_checkpoint(self, path, fingerprint: str) -> None:
        """Write the batch's state atomically (a job killed mid-write leaves the previous checkpoint)."""
        with atomic_path(path) as tmp:
            torch.save({"fingerprint": fingerprint, **self.state_dict()}, tmp)

    def try_resume(self, path, fingerprint: str) -> bool:
        """Load a checkpoint of this very batch; ignore (with a log line) one of another run.

        An unreadable checkpoint (truncated, say, by a full disk) is renamed
        to ``<name>.corrupt``, with a warning naming both paths, and training
        starts afresh.
        """
        path = Path(path)
        if not path.exists():
            return False
        try:
            st = torch.load(path, weights_only=False)
            if not isinstance(st, dict):
                raise ValueError(f"holds a {type(st).__name__}, not a checkpoint dict")
        except Exception as exc:  # torch raises RuntimeError, EOFError, UnpicklingError, ...
            aside = path.with_name(path.name + ".corrupt")
            os.replace(path, aside)
            # torch's first sentence says what failed; the rest is generic advice
            reason = (str(exc).splitlines() or [type(exc).__name__])[0].split(". ")[0]
            log.warning(
                "checkpoint %s is unreadable (%s); moved it to %s and training from scratch",
                path,
                reason,
                aside,
            )
            return False
        if st.get("fingerprint") != fingerprint:
            log.info("checkpoint %s belongs to another run configuration; starting afresh", path)
            return False
        self.load_state_dict(st)
        log.info("resumed from checkpoint %s at step %d", path, self.step)
        return True

    # ---------------------------------------------------------- divergence
    def _stop(self, members, reason: str, out) -> None:
        """Stop members: keep their last good parameters, exclude them from the objective."""
        kept_step = self._good_step
        with torch.no_grad():
            for p, good, kept in zip(self.params, self._good, self._kept, strict=True):
                for m in members:
                    p[m] = good[m]
                    kept[m] = good[m]
        for m in members:
            self.diverged[m] = {"step": self.step, "reason": reason, "kept_step": kept_step}
            out.warning(
                "seed %d diverged at step %d: %s; stopped, its parameters of step %d kept "
                "(%d of %d members still training)",
                self.seeds[m],
                self.step,
                reason,
                kept_step,
                sum(d is None for d in self.diverged),
                self.n_members,
            )

    def _hold_stopped(self) -> None:
        """Put the stopped members' parameters back (Adam's moments would move them)."""
        idx = [m for m, d in enumerate(self.diverged) if d is not None]
        if idx:
            with torch.no_grad():
                for p, kept in zip(self.params, self._kept, strict=True):
                    p[idx] = kept[idx]

    def _finite_params(self) -> list[bool]:
        """Per member, whether its physical parameters are finite: one sum per tensor (finite when
        every entry is, short of an overflow of the logarithms, itself a divergence) read at once."""
        sums = [self.log_sigma.detach().sum(1), self.log_c.detach()]
        if self.log_EA is not None:
            sums.append(self.log_EA.detach())
        if self.log_fs is not None:
            sums.append(self.log_fs.detach().sum(1))
        return [all(map(math.isfinite, row)) for row in zip(*(t.tolist() for t in sums), strict=True)]

    # ------------------------------------------------------------ training
    def _record_history(self, terms: dict) -> None:
        lr_net, lr_params = self.scheduler.get_last_lr()
        vals = {k: v.detach().numpy() for k, v in terms.items()}
        for m, p in enumerate(self.parameters_now()):
            if self.diverged[m] is not None:
                continue
            row = {"step": self.step, **{f"L_{k}": float(v[m]) for k, v in vals.items()}}
            row["lr_net"], row["lr_params"] = lr_net, lr_params
            row.update({f"sigma_{k}": float(v) for k, v in enumerate(p["sigma"])})
            row["c"] = p["c"]
            if "EA" in p:
                row["EA"] = p["EA"]
            for k, v in enumerate(p.get("force_scale", [])):
                row[f"force_scale_{k}"] = v
            self.history[m].append(row)

    def _progress(self, out, terms: dict, rate: float) -> None:
        s = self.settings
        eta = (s.steps - self.step) / max(rate, 1e-9)
        params = self.parameters_now()
        if self.n_members == 1:
            p, v = params[0], {k: float(t[0]) for k, t in terms.items()}
            out.info(
                "step %d/%d loss %.3e (data %.3e, eom %.3e, bar %.3e%s) sigma %s c %.4g%s | "
                "%.1f steps/s, ETA %.0f s",
                self.step,
                s.steps,
                v["total"],
                v["data"],
                v["eom"],
                v["bar"],
                f", ncp {v['ncp']:.3e}" if "ncp" in v else "",
                np.array2string(p["sigma"], precision=3, separator=", "),
                p["c"],
                f" force scale {np.round(p['force_scale'], 4).tolist()}" if "force_scale" in p else "",
                rate,
                eta,
            )
            return
        live = [m for m, d in enumerate(self.diverged) if d is None] or list(range(self.n_members))
        tot = np.array([float(terms["total"][m]) for m in live])
        sig = np.array([params[m]["sigma"] for m in live])
        c = np.array([params[m]["c"] for m in live])
        out.info(
            "step %d/%d, %d seeds%s: loss median %.3e [%.3e, %.3e]; sigma median %s, spread %s; "
            "c median %.4g [%.4g, %.4g] | %.1f steps/s, ETA %.0f s",
            self.step,
            s.steps,
            self.n_members,
            f" ({self.n_members - len(live)} stopped)" if len(live) < self.n_members else "",
            np.median(tot),
            tot.min(),
            tot.max(),
            np.array2string(np.median(sig, 0), precision=3, separator=", "),
            np.array2string(sig.max(0) - sig.min(0), precision=2, separator=", "),
            np.median(c),
            c.min(),
            c.max(),
            rate,
            eta,
        )

    def train(self, *, checkpoint=None, progress=None, until: int | None = None) -> list[dict]:
        """Run (or resume) the optimisation to ``settings.steps``; returns each member's parameters.

        Parameters
        ----------
        checkpoint : path, optional
            Checkpoint file of the whole batch: resumed from when it belongs
            to this batch, written every ``checkpoint_every`` steps (and when
            stopping at ``until``).
        progress : logging.Logger, optional
            Where progress lines go (default: this module's logger).
        until : int, optional
            Stop after this step (training in chunks); the schedule still
            spans ``settings.steps``.
        """
        s = self.settings
        stop = s.steps if until is None else min(int(until), s.steps)
        out = progress or log
        fp = self.fingerprint()
        if checkpoint is not None:
            self.try_resume(checkpoint, fp)
        t_start = time.perf_counter() - self.elapsed
        while self.step < stop:
            if s.treatment == "event" and self.step % s.event_every == 0:
                ev = self.detect_transitions()
                if s.log_every and self.step % s.log_every == 0:
                    counts = (
                        [len(e) for e in ev[0]] if self.n_members == 1 else [sum(map(len, e)) for e in ev]
                    )
                    out.info("step %d: %s transitions detected", self.step, counts)
            terms, grads = self._run_terms(*self.sample(), out)
            total = terms["total"]
            finite = [math.isfinite(v) for v in total.detach().tolist()]
            newly = [m for m in range(self.n_members) if self.diverged[m] is None and not finite[m]]
            all_live = not newly and all(d is None for d in self.diverged)
            if not all_live:
                live = self.active
                live[newly] = False
            if grads is not None:  # compiled: the gradients of the summed loss, already there
                for p, g in zip(self.params, grads, strict=True):
                    p.grad = g
            else:
                self.optimizer.zero_grad(set_to_none=True)
                if all_live:
                    total.sum().backward()
                else:
                    torch.where(live, total, torch.zeros_like(total)).sum().backward()
            if not all_live:  # stopped members take no step (nor a non-finite gradient)
                idx = torch.nonzero(~live)[:, 0]
                for p in self.params:
                    if p.grad is not None:
                        p.grad[idx] = 0.0
            if newly:
                detail = ", ".join(f"{k} {float(v.detach()[newly[0]]):.3g}" for k, v in terms.items())
                self._stop(newly, f"non-finite loss ({detail})", out)
            with torch.no_grad():
                for good, p in zip(self._good, self.params, strict=True):
                    good.copy_(p)
            self._good_step = self.step
            self.optimizer.step()
            self.scheduler.step()
            self.step += 1
            self._hold_stopped()
            bad = [m for m, ok in enumerate(self._finite_params()) if not ok]
            if bad:
                self._stop(bad, "non-finite parameter after the update", out)
            if s.history_every and (self.step % s.history_every == 0 or self.step == s.steps):
                self._record_history({k: v.detach() for k, v in terms.items()})
            if s.log_every and (self.step % s.log_every == 0 or self.step == s.steps):
                self.elapsed = time.perf_counter() - t_start
                self._progress(
                    out, {k: v.detach() for k, v in terms.items()}, self.step / max(self.elapsed, 1e-9)
                )
            if checkpoint is not None and s.checkpoint_every and self.step % s.checkpoint_every == 0:
                self.elapsed = time.perf_counter() - t_start
                self.save_checkpoint(checkpoint, fp)
        self.elapsed = time.perf_counter() - t_start
        if checkpoint is not None and self.step < s.steps:
            self.save_checkpoint(checkpoint, fp)
        return self.parameters_now()

    # ------------------------------------------------------------ outputs
    @torch.no_grad()
    def predict(self, i: int = 0, t=None) -> list[dict]:
        """Network positions and accelerations on all coordinates, and at the sensors, per member.

        Returns, per member, ``{"q", "qdd"}`` of shape (n_t, n_coords) (fixed
        coordinates at their supports) and ``"a"`` (n_t, n_channels), at the
        record's sample times by default.
        """
        rec = self.recs[i]
        t = rec.t if t is None else np.asarray(t, float)
        tau = torch.as_tensor(t / rec.T_ref, dtype=self.dtype)[:, None].expand(self.n_members, -1, -1)
        d0, _, d2, _, _ = self.net(tau, self._expand_desc(rec.desc, t.size))
        n_coords = self.dyn.q0.size
        out = []
        for m in range(self.n_members):
            q = np.broadcast_to(self.dyn.q0, (t.size, n_coords)).copy()
            q[:, self.free] += d0[m].numpy()
            qdd = np.zeros((t.size, n_coords))
            qdd[:, self.free] = d2[m].numpy() / rec.T_ref**2
            out.append({"q": q, "qdd": qdd, "a": qdd[:, rec.channels]})
        return out
