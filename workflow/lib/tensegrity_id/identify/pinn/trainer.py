"""The trainer of one physics-informed identification run: network, parameters, loss, optimiser.

The method, its loss and the three transition treatments are described in
:mod:`tensegrity_id.identify.pinn`.
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

from ...mechanics.dynamics import Dynamics
from ..base import C0, SIGMA0
from ..residual import Residual
from .data import RecordTensors, collocation_points, prepare_records, sign_change_times
from .net import PINNNet
from .settings import TRAIN_SEED_TAG, PINNDivergenceError, PINNSettings

__all__ = ["PINNTrainer"]

log = logging.getLogger(__name__)


class PINNTrainer:
    """Network, physical parameters and optimiser of one identification run.

    Parameters
    ----------
    structure : Structure
        Geometry, supports, masses and nominal EA (its prestress is not read).
    records : list of RecordData
        Records with sensor data (noise realisation already chosen) and forcing.
    settings : PINNSettings
    seed : int
    lambda0 : ndarray, shape (n_bars,)
        Nominal static multipliers (N/m) for the multiplier head's start.
    sigma0, c0 : float
        Initial guesses (N/m, N s/m).
    """

    def __init__(
        self, structure, records, settings: PINNSettings, *, seed: int, lambda0, sigma0=SIGMA0, c0=C0
    ):
        self.settings = s = settings
        self.seed = int(seed)
        self.init_guess = (float(sigma0), float(c0))
        self.dtype = getattr(torch, s.dtype)
        nc = structure.n_cables
        self.structure = structure
        self.dyn = Dynamics(structure, sigma=np.full(nc, float(sigma0)), c=float(c0))
        self.res = Residual(self.dyn, dtype=self.dtype)
        self.free = self.dyn.free
        pos = {int(c): i for i, c in enumerate(self.free)}
        if not records:
            raise ValueError("the physics-informed identification needs at least one record")
        for r in records:
            if r.forcing is None:
                raise ValueError(f"record '{r.name}': the EOM residual needs the known forcing")
        p_max = max(r.forcing.amplitude for r in records)
        R = len(records)
        self.recs, self.data_scale = prepare_records(records, pos, t_ref=s.t_ref, dtype=self.dtype)
        self.n_data = sum(r.a_train.numel() for r in self.recs)
        # ---- network (seeded) and physical parameters
        lam0 = np.asarray(lambda0, float)
        bar_len = float(np.mean(structure.bar_lengths))
        lam_scale = max(float(np.abs(lam0).max(initial=0.0)), p_max / bar_len)
        members = np.r_[structure.bar_lengths, structure.cable_lengths]
        self.T_nom = float(sigma0) * float(members.mean())
        self.slack_scale = torch.as_tensor(
            self.T_nom * structure.cable_lengths / self.dyn.params.EA, dtype=self.dtype
        )
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self._seed_int("init"))
            self.net = PINNNet(
                self.dyn.n_free,
                structure.n_bars,
                lam0,
                lambda_scale=lam_scale,
                n_desc=0 if R == 1 else R + 1,
                n_tension=nc if s.treatment == "fb" else 0,
                tension_scale=self.T_nom,
                width=s.width,
                depth=s.depth,
                n_fourier=s.n_fourier,
                fourier=s.fourier,
                tau_ic=s.tau_ic,
                disp_scale=s.disp_scale,
                dtype=self.dtype,
            )
        self.log_sigma = torch.nn.Parameter(torch.full((nc,), math.log(sigma0), dtype=self.dtype))
        self.log_c = torch.nn.Parameter(torch.tensor(math.log(c0), dtype=self.dtype))
        phys = [self.log_sigma, self.log_c]
        self.log_EA = None
        if s.identify_EA:
            ea0 = s.EA0 if s.EA0 is not None else float(np.mean(structure.cable_EA))
            self.log_EA = torch.nn.Parameter(torch.tensor(math.log(ea0), dtype=self.dtype))
            phys.append(self.log_EA)
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
        self.gen = torch.Generator().manual_seed(self._seed_int("collocation"))
        self.step = 0
        self.history: list[dict] = []
        self.elapsed = 0.0

    # ------------------------------------------------------------ helpers
    def _seed_int(self, stream: str) -> int:
        tag = {"init": 1, "collocation": 2}[stream]
        ss = np.random.SeedSequence([TRAIN_SEED_TAG, self.seed, tag])
        return int(ss.generate_state(1, np.uint64)[0] % (2**63 - 1))

    def parameters_now(self) -> dict:
        """Current physical parameters as floats."""
        out = {
            "sigma": torch.exp(self.log_sigma).detach().cpu().numpy().astype(float),
            "c": float(torch.exp(self.log_c.detach())),
        }
        if self.log_EA is not None:
            out["EA"] = float(torch.exp(self.log_EA.detach()))
        return out

    def _EA(self):
        return None if self.log_EA is None else torch.exp(self.log_EA)

    def _desc(self, rec: RecordTensors, n: int):
        return None if rec.desc is None else rec.desc.expand(n, -1)

    # ----------------------------------------------------------- sampling
    def _collocation(self, rec: RecordTensors) -> torch.Tensor:
        return collocation_points(rec, self.settings, self.gen, self.dtype)

    @torch.no_grad()
    def detect_transitions(self) -> list[np.ndarray]:
        """Taut-slack transition times (s) of the current solution, per record."""
        s = self.settings
        sigma = torch.exp(self.log_sigma)
        out = []
        for rec in self.recs:
            tau = torch.linspace(0.0, rec.T / rec.T_ref, s.event_grid, dtype=self.dtype)[:, None]
            d = self.net.displacement(tau, self._desc(rec, tau.shape[0]))
            e = self.res.strain(self.res.q0_free + d, sigma, self._EA()).numpy()
            t = tau[:, 0].numpy() * rec.T_ref
            times = sign_change_times(e, t)
            rec.events = torch.as_tensor(np.sort(np.asarray(times, float)), dtype=self.dtype)
            out.append(rec.events.numpy())
        return out

    # -------------------------------------------------------------- loss
    def losses(self) -> dict:
        """The loss terms at a fresh collocation batch (tensors)."""
        s = self.settings
        taus, descs, inv_T, fext, p2 = [], [], [], [], []
        n_coords = self.dyn.q0.size
        for rec in self.recs:
            tc = self._collocation(rec)
            taus.append(tc)
            descs.append(self._desc(rec, tc.shape[0]))
            inv_T.append(torch.full((tc.shape[0], 1), 1.0 / rec.T_ref, dtype=self.dtype))
            t_np = tc[:, 0].numpy() * rec.T_ref
            fext.append(torch.as_tensor(rec.forcing.at(t_np, n_coords), dtype=self.dtype))
            p2.append(torch.full((tc.shape[0], 1), rec.p**2, dtype=self.dtype))
        n_c = sum(x.shape[0] for x in taus)
        for rec in self.recs:
            taus.append(rec.tau_train)
            descs.append(self._desc(rec, rec.tau_train.shape[0]))
        tau = torch.cat(taus, 0)
        desc = None if descs[0] is None else torch.cat(descs, 0)
        d0, d1, d2, lam, T = self.net(tau, desc)
        # data: accelerations at the instrumented channels
        sq = 0.0
        row = n_c
        for rec in self.recs:
            n = rec.tau_train.shape[0]
            a = d2[row : row + n][:, rec.ch_free] / rec.T_ref**2
            sq = sq + ((a - rec.a_train) ** 2).sum()
            row += n
        L_data = sq / self.n_data / self.data_scale
        # physics at the collocation points
        iT = torch.cat(inv_T, 0)
        q = self.res.q0_free + d0[:n_c]
        qd = d1[:n_c] * iT
        qdd = d2[:n_c] * iT * iT
        lam = lam[:n_c]
        sigma, c, EA = torch.exp(self.log_sigma), torch.exp(self.log_c), self._EA()
        out = {}
        if s.treatment == "fb":
            T = T[:n_c]
            r = self.res.eom(q, qd, qdd, lam, torch.cat(fext, 0), sigma, c, EA, law="tension", tension=T)
            ncp = self.res.ncp(q, T, sigma, EA, tension_scale=self.T_nom, slack_scale=self.slack_scale)
            out["ncp"] = (ncp**2).mean()
        else:
            r = self.res.eom(q, qd, qdd, lam, torch.cat(fext, 0), sigma, c, EA, law="smooth", beta=s.beta)
        out["eom"] = (r * r / torch.cat(p2, 0)).mean()
        out["bar"] = (self.res.bar(q) ** 2).mean()
        out["data"] = L_data
        total = L_data + s.w_eom * out["eom"] + s.w_bar * out["bar"]
        if "ncp" in out:
            total = total + s.w_ncp * out["ncp"]
        out["total"] = total
        return out

    # ---------------------------------------------------------- checkpoint
    def fingerprint(self) -> str:
        """Hash of everything that defines the run (settings, seed, data, structure)."""
        h = hashlib.sha256()
        h.update(repr(dataclasses.asdict(self.settings)).encode())
        h.update(str(self.seed).encode())
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
            "net": self.net.state_dict(),
            "log_sigma": self.log_sigma.detach().clone(),
            "log_c": self.log_c.detach().clone(),
            "log_EA": None if self.log_EA is None else self.log_EA.detach().clone(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "generator": self.gen.get_state(),
            "events": [r.events.clone() for r in self.recs],
            "history": list(self.history),
            "elapsed": self.elapsed,
        }

    def load_state_dict(self, st: dict) -> None:
        self.step = int(st["step"])
        self.net.load_state_dict(st["net"])
        with torch.no_grad():
            self.log_sigma.copy_(st["log_sigma"])
            self.log_c.copy_(st["log_c"])
            if self.log_EA is not None:
                self.log_EA.copy_(st["log_EA"])
        self.optimizer.load_state_dict(st["optimizer"])
        self.scheduler.load_state_dict(st["scheduler"])
        self.gen.set_state(st["generator"])
        for r, ev in zip(self.recs, st["events"], strict=True):
            r.events = ev
        self.history = list(st["history"])
        self.elapsed = float(st["elapsed"])

    def save_checkpoint(self, path, fingerprint: str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        torch.save({"fingerprint": fingerprint, **self.state_dict()}, tmp)
        os.replace(tmp, path)

    def try_resume(self, path, fingerprint: str) -> bool:
        """Load a checkpoint of this very run; ignore (with a log line) one of another run."""
        path = Path(path)
        if not path.exists():
            return False
        st = torch.load(path, weights_only=False)
        if st.get("fingerprint") != fingerprint:
            log.info("checkpoint %s belongs to another run configuration; starting afresh", path)
            return False
        self.load_state_dict(st)
        log.info("resumed from checkpoint %s at step %d", path, self.step)
        return True

    # ------------------------------------------------------------ training
    def _record_history(self, terms: dict) -> None:
        p = self.parameters_now()
        row = {"step": self.step, **{f"L_{k}": float(v) for k, v in terms.items()}}
        row["lr_net"], row["lr_params"] = self.scheduler.get_last_lr()
        row.update({f"sigma_{k}": float(v) for k, v in enumerate(p["sigma"])})
        row["c"] = p["c"]
        if "EA" in p:
            row["EA"] = p["EA"]
        self.history.append(row)

    def train(self, *, checkpoint=None, progress=None, until: int | None = None) -> dict:
        """Run (or resume) the optimisation to ``settings.steps``; returns the parameters.

        Parameters
        ----------
        checkpoint : path, optional
            Checkpoint file: resumed from when it belongs to this run, written
            every ``checkpoint_every`` steps (and when stopping at ``until``).
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
        resumed = checkpoint is not None and self.try_resume(checkpoint, fp)
        t_start = time.perf_counter() - self.elapsed
        last_good = self.step if resumed else None
        while self.step < stop:
            if s.treatment == "event" and self.step % s.event_every == 0:
                ev = self.detect_transitions()
                if s.log_every and self.step % s.log_every == 0:
                    out.info("step %d: %s transitions detected", self.step, [len(e) for e in ev])
            self.optimizer.zero_grad(set_to_none=True)
            terms = self.losses()
            total = terms["total"]
            if not torch.isfinite(total):
                where = (
                    f"; last good checkpoint (step {last_good}) kept at {checkpoint}"
                    if last_good is not None
                    else ""
                )
                detail = ", ".join(f"{k} {float(v.detach()):.3g}" for k, v in terms.items())
                raise PINNDivergenceError(
                    f"training diverged at step {self.step}: non-finite loss ({detail}){where}"
                )
            total.backward()
            self.optimizer.step()
            self.scheduler.step()
            self.step += 1
            bad = [
                n
                for n, p in (("sigma", self.log_sigma), ("c", self.log_c), ("EA", self.log_EA))
                if p is not None and not torch.isfinite(p).all()
            ]
            if bad:
                where = (
                    f"; last good checkpoint (step {last_good}) kept at {checkpoint}"
                    if last_good is not None
                    else ""
                )
                raise PINNDivergenceError(
                    f"training diverged at step {self.step}: parameter {bad[0]} is not finite{where}"
                )
            if s.history_every and (self.step % s.history_every == 0 or self.step == s.steps):
                self._record_history({k: v.detach() for k, v in terms.items()})
            if s.log_every and (self.step % s.log_every == 0 or self.step == s.steps):
                self.elapsed = time.perf_counter() - t_start
                rate = self.step / max(self.elapsed, 1e-9)
                p = self.parameters_now()
                out.info(
                    "step %d/%d loss %.3e (data %.3e, eom %.3e, bar %.3e%s) sigma %s c %.4g | "
                    "%.1f steps/s, ETA %.0f s",
                    self.step,
                    s.steps,
                    float(total),
                    float(terms["data"]),
                    float(terms["eom"]),
                    float(terms["bar"]),
                    f", ncp {float(terms['ncp']):.3e}" if "ncp" in terms else "",
                    np.array2string(p["sigma"], precision=3, separator=", "),
                    p["c"],
                    rate,
                    (s.steps - self.step) / max(rate, 1e-9),
                )
            if checkpoint is not None and s.checkpoint_every and self.step % s.checkpoint_every == 0:
                self.elapsed = time.perf_counter() - t_start
                self.save_checkpoint(checkpoint, fp)
                last_good = self.step
        self.elapsed = time.perf_counter() - t_start
        if checkpoint is not None and self.step < s.steps and self.step != last_good:
            self.save_checkpoint(checkpoint, fp)
        return self.parameters_now()

    # ------------------------------------------------------------ outputs
    @torch.no_grad()
    def predict(self, i: int = 0, t=None) -> dict:
        """Network positions and accelerations on all coordinates, and at the sensors.

        Returns ``{"q", "qdd"}`` of shape (n_t, n_coords) (fixed coordinates at
        their supports) and ``"a"`` (n_t, n_channels), at the record's sample
        times by default.
        """
        rec = self.recs[i]
        t = rec.t if t is None else np.asarray(t, float)
        tau = torch.as_tensor(t / rec.T_ref, dtype=self.dtype)[:, None]
        d0, _, d2, _, _ = self.net(tau, self._desc(rec, tau.shape[0]))
        n_coords = self.dyn.q0.size
        q = np.broadcast_to(self.dyn.q0, (t.size, n_coords)).copy()
        q[:, self.free] += d0.numpy()
        qdd = np.zeros((t.size, n_coords))
        qdd[:, self.free] = d2.numpy() / rec.T_ref**2
        return {"q": q, "qdd": qdd, "a": qdd[:, rec.channels]}
