"""The problem a batch of physics-informed runs solves: records as tensors, residual, networks, parameters.

:class:`PINNProblem` builds, for ``M`` seeds, what the loss is made of (the training
records as tensors and their data scale, the dynamics and residual of the structure at the
initial guess, the stacked networks with their multiplier and tension heads, the physical
parameters in log form) and reads off the current solution (the physical parameters as
floats, the network's positions and accelerations); :func:`seed_stream` gives the seed of
each training stream of a run seed.  The loss and the step are :mod:`.step`'s, the
optimiser and the loop :mod:`.trainer`'s.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ...mechanics.dynamics import Dynamics
from ...mechanics.statics import bar_multipliers, support_reactions
from ..base import C0, SIGMA0, RecordData
from ..residual import Residual
from .data import prepare_records
from .net import PINNNet
from .settings import TRAIN_SEED_TAG, PINNSettings

__all__ = ["PINNProblem", "seed_stream"]


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


class PINNProblem:
    """Records, residual, networks and physical parameters of a batch of identification runs.

    The base of :class:`~.trainer.PINNTrainer`, which is the class to construct; the
    parameters are listed there.

    Attributes
    ----------
    seeds : list of int
    n_members : int
        ``M``, the number of seeds.
    recs : list of RecordTensors
        The training records as tensors (with each member's event windows).
    net : PINNNet
        The ``M`` stacked networks.
    log_sigma, log_c : torch.nn.Parameter, shapes (M, n_cables) and (M,)
        Logarithms of the force densities (N/m) and the damper coefficient (N s/m).
    log_EA, log_fs : torch.nn.Parameter or None
        Logarithms of EA (N), shape (M,), and of the force scales, shape (M, n_driven),
        where identified.
    params : list of torch.Tensor
        The network's parameters, then the physical ones (the order of a loss's ``values``).
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

    # ------------------------------------------------------------ helpers
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
        of the trainer's parameters, or of ``phys`` (their values by name,
        :meth:`~.step.PINNStep.loss_terms`)."""
        get = (lambda k: getattr(self, k)) if phys is None else phys.get  # noqa: E731
        sigma = torch.exp(get("log_sigma"))[:, None, :]
        c = torch.exp(get("log_c"))[:, None, None]
        EA = None if self.log_EA is None else torch.exp(get("log_EA"))[:, None, None]
        return sigma, c, EA

    def _expand_desc(self, desc, n: int):
        return None if desc is None else desc.expand(self.n_members, n, -1)

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
