"""Physics-informed identification of prestress, damping and (optionally) EA (seed §3.1, §S1, §S2).

Unknowns
    Every cable force density ``sigma_k``, one damper coefficient ``c``
    shared by the cables and optionally one axial stiffness ``EA``, all
    trained in log form (multiplicative Adam steps), from the initial guesses
    of the problem (Table S2: 10 N/m, 0.3 N s/m; EA from ``EA0`` or the
    nominal value).  The exact parameters are never read here.

Loss (seed Eq. 7), every term divided by its natural scale::

    L = L_data + w_eom L_EOM + w_b L_bar  (+ w_ncp L_NCP, complementarity)

    L_data = mean (q''_net - a_meas)^2 / mean a_meas^2   (training samples, pooled channels)
    L_EOM  = mean r_EOM^2 / p^2                          (fresh collocation points, p the forcing amplitude)
    L_bar  = mean ((|b|^2 - Lbar^2) / Lbar^2)^2           (same points)

with ``r_EOM`` from :class:`tensegrity_id.residual.Residual` (the simulator's
operators and cable law).  One Adam optimiser, two parameter groups
(network 2e-3, physical 1e-2), both cosine-annealed to zero over the run;
no clipping.

Transition treatments (same trunk, weights, normalisation, optimiser)
    ``smooth``  softplus cable law at beta = 800 with the sigmoid damper switch.
    ``fb``      exact law through a tension head ``T_k >= 0`` (softplus, scaled
                by the nominal tension ``T_nom`` = 10 N/m x mean member
                length): the EOM uses ``T_k / l_k``, and ``L_NCP`` is the mean
                squared Fischer-Burmeister residual of ``(T/T_nom, g/g_k)`` with
                the elastic slackness ``g = L0 - l + T/K`` and the member
                slackness scale ``g_k = T_nom L_ref,k / EA_k`` (the elongation
                at the nominal tension), weight ``w_ncp`` = 10.  The damper acts
                while ``l > L0``.
    ``event``   the smoothed law, and every ``event_every`` steps the current
                solution is scanned (on ``event_grid`` points per record) for
                sign changes of the cable strains; then ``event_fraction`` of
                each batch is drawn from Gaussian windows (std ``event_width``
                seconds) about the detected transition times.

Multi-record training
    One trunk conditioned on a record descriptor (the record's forcing
    amplitude over the largest, and a one-hot record index), shared physical
    parameters; data are pooled (one normaliser), each record's residual is
    normalised by its own forcing amplitude, and each record receives
    ``n_colloc`` collocation points per step.

Engineering
    Deterministic for a seed (network initialisation from
    ``SeedSequence([TRAIN_SEED_TAG, seed])``, collocation from its own
    generator); progress lines (step, losses, sigma, c, ETA) every
    ``log_every`` steps; checkpoints (network, parameters, optimiser,
    scheduler, collocation generator, event windows, history, step) every
    ``checkpoint_every`` steps, so a killed run resumes and ends with the same
    result bit for bit; a non-finite loss or parameter stops the run with
    :class:`PINNDivergenceError`, keeping the last good checkpoint.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .dynamics import Dynamics
from .identification import IdentificationMethod, IdentificationProblem, register
from .pinn_net import PINNNet
from .residual import Residual

__all__ = [
    "TREATMENTS",
    "TRAIN_SEED_TAG",
    "PINNSettings",
    "PINNTrainer",
    "PINNDivergenceError",
    "PINNSmooth",
    "PINNComplementarity",
    "PINNEventAware",
]

log = logging.getLogger(__name__)

TREATMENTS = {
    "smooth": "smoothed cable law",
    "fb": "Fischer-Burmeister NCP",
    "event": "event-aware collocation",
}
TRAIN_SEED_TAG = 4_150_003
"""Mixed into training seeds: training streams never equal dataset or noise streams."""


class PINNDivergenceError(RuntimeError):
    """Training produced a non-finite loss or parameter; the last good checkpoint is kept."""


@dataclass(frozen=True)
class PINNSettings:
    """Hyperparameters of a physics-informed identification run (defaults: Table S2).

    Errors name the config field (``identify.pinn.settings.<field>``).
    """

    treatment: str = "smooth"
    steps: int = 25_000
    width: int = 64
    depth: int = 4
    n_fourier: int = 8
    fourier: str = "geometric"
    t_ref: float | None = None
    tau_ic: float = 0.08
    disp_scale: float = 0.1
    n_colloc: int = 256
    lr_net: float = 2e-3
    lr_params: float = 1e-2
    w_eom: float = 1.0
    w_bar: float = 100.0
    w_ncp: float = 10.0
    beta: float = 800.0
    identify_EA: bool = False
    EA0: float | None = None
    event_every: int = 500
    event_fraction: float = 0.5
    event_width: float = 0.02
    event_grid: int = 2001
    log_every: int = 500
    history_every: int = 50
    checkpoint_every: int = 1000
    dtype: str = "float32"

    def __post_init__(self):
        def bad(name, why):
            raise ValueError(f"config field 'identify.pinn.settings.{name}': {why}")

        if self.treatment not in TREATMENTS:
            bad("treatment", f"{self.treatment!r} is not one of {', '.join(TREATMENTS)}")
        for name in ("steps", "width", "depth", "n_fourier", "n_colloc", "event_every", "event_grid"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                bad(name, f"must be a positive integer, got {v!r}")
        for name in ("log_every", "history_every", "checkpoint_every"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                bad(name, f"must be a non-negative integer (0 = off), got {v!r}")
        positive = ("tau_ic", "disp_scale", "lr_net", "lr_params", "beta", "event_width")
        for name in positive + ("w_eom", "w_bar", "w_ncp"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                bad(name, f"must be a number, got {v!r}")
            if (name in positive and v <= 0) or v < 0:
                bad(name, f"must be {'> 0' if name in positive else '>= 0'}, got {v!r}")
        if not 0.0 <= self.event_fraction <= 1.0:
            bad("event_fraction", f"must lie in [0, 1], got {self.event_fraction!r}")
        if self.EA0 is not None and not (isinstance(self.EA0, int | float) and self.EA0 > 0):
            bad("EA0", f"must be a positive number of newtons or null, got {self.EA0!r}")
        if self.fourier not in ("geometric", "linear"):
            bad("fourier", f"must be geometric or linear, got {self.fourier!r}")
        if self.t_ref is not None and not (isinstance(self.t_ref, int | float) and self.t_ref > 0):
            bad(
                "t_ref", f"must be a positive time in seconds or null (the record length), got {self.t_ref!r}"
            )
        if self.dtype not in ("float64", "float32"):
            bad("dtype", f"must be float64 or float32, got {self.dtype!r}")

    @classmethod
    def from_dict(cls, d: dict) -> PINNSettings:
        """Settings from a config mapping; an unknown key is an error naming it."""
        names = {f.name for f in dataclasses.fields(cls)}
        for key in d:
            if key not in names:
                raise ValueError(
                    f"config field 'identify.pinn.settings.{key}': unknown setting "
                    f"(known: {', '.join(sorted(names))})"
                )
        return cls(**d)


@dataclass
class _Rec:
    """Torch-side data of one record."""

    name: str
    forcing: object
    T: float
    T_ref: float
    p: float
    desc: torch.Tensor | None
    t: np.ndarray
    channels: np.ndarray
    ch_free: torch.Tensor
    tau_train: torch.Tensor
    a_train: torch.Tensor
    events: torch.Tensor


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
        self, structure, records, settings: PINNSettings, *, seed: int, lambda0, sigma0=10.0, c0=0.3
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
        self.recs: list[_Rec] = []
        a_sq = []
        R = len(records)
        for i, r in enumerate(records):
            sens = r.sensors
            for key in ("t", "channels", "noisy", "train", "keep"):
                if key not in sens:
                    raise ValueError(f"record '{r.name}': sensor data lack '{key}'")
            t = np.asarray(sens["t"], float)
            held = [int(c) for c in sens["channels"] if int(c) not in pos]
            if held:
                raise ValueError(f"record '{r.name}': channel {held[0]} is not a free coordinate")
            if not np.isfinite(np.asarray(sens["noisy"], float)).all():
                raise ValueError(f"record '{r.name}': the sensor data contain NaN or infinite values")
            T = float(t[-1])
            T_ref = T if s.t_ref is None else float(s.t_ref)
            use = np.asarray(sens["train"]) & np.asarray(sens["keep"])
            a = np.asarray(sens["noisy"], float)[use]
            a_sq.append(a**2)
            desc = None
            if R > 1:
                onehot = np.eye(R)[i]
                desc = torch.as_tensor(np.r_[r.forcing.amplitude / p_max, onehot], dtype=self.dtype)
            self.recs.append(
                _Rec(
                    name=r.name,
                    forcing=r.forcing,
                    T=T,
                    T_ref=T_ref,
                    p=float(r.forcing.amplitude),
                    desc=desc,
                    t=t,
                    channels=np.asarray(sens["channels"], int),
                    ch_free=torch.as_tensor([pos[int(c)] for c in sens["channels"]]),
                    tau_train=torch.as_tensor(t[use] / T_ref, dtype=self.dtype)[:, None],
                    a_train=torch.as_tensor(a, dtype=self.dtype),
                    events=torch.zeros(0, dtype=self.dtype),
                )
            )
        self.data_scale = float(np.mean(np.concatenate([x.ravel() for x in a_sq])))
        if not self.data_scale > 0:
            raise ValueError("the measured accelerations are all zero: nothing to identify from")
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

    def _desc(self, rec: _Rec, n: int):
        return None if rec.desc is None else rec.desc.expand(n, -1)

    # ----------------------------------------------------------- sampling
    def _collocation(self, rec: _Rec) -> torch.Tensor:
        s = self.settings
        n = s.n_colloc
        n_ev = int(round(s.event_fraction * n)) if (s.treatment == "event" and rec.events.numel()) else 0
        tau = torch.rand(n - n_ev, 1, generator=self.gen, dtype=self.dtype) * (rec.T / rec.T_ref)
        if n_ev:
            idx = torch.randint(rec.events.numel(), (n_ev,), generator=self.gen)
            t = rec.events[idx] + s.event_width * torch.randn(n_ev, generator=self.gen, dtype=self.dtype)
            tau = torch.cat([tau, (t.clamp(0.0, rec.T) / rec.T_ref)[:, None]], 0)
        return tau

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
            times = []
            for k in range(e.shape[1]):
                idx = np.flatnonzero(np.sign(e[:-1, k]) != np.sign(e[1:, k]))
                for i in idx:
                    w = e[i, k] / (e[i, k] - e[i + 1, k])
                    times.append(t[i] + w * (t[i + 1] - t[i]))
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


class _PINNMethod(IdentificationMethod):
    """The physics-informed identification through the common interface.

    Options are :class:`PINNSettings` fields; ``checkpoint`` (path) and
    ``progress`` (logger) are run controls, not hyperparameters.
    """

    treatment = "smooth"
    n_hyperparameters = 15
    """Trunk width, depth, Fourier count and spacing, tau_ic, displacement scale,
    collocation count, two learning rates, the cosine schedule, w_eom, w_b, beta,
    training length, and the shared initial guess (the seed counts 15)."""

    def __init__(self, *, checkpoint=None, progress=None, **settings):
        super().__init__(**settings)
        self.settings = PINNSettings.from_dict({**settings, "treatment": self.treatment})
        self.checkpoint = checkpoint
        self.progress = progress

    def _fit(self, problem: IdentificationProblem) -> dict:
        if problem.lambda0 is None:
            raise ValueError("the physics-informed identification needs the nominal multipliers lambda0")
        trainer = PINNTrainer(
            problem.structure,
            problem.records,
            self.settings,
            seed=problem.seed,
            lambda0=problem.lambda0,
            sigma0=problem.sigma0,
            c0=problem.c0,
        )
        params = trainer.train(checkpoint=self.checkpoint, progress=self.progress)
        predicted = [trainer.predict(i) for i in range(len(problem.records))]
        out = {
            "sigma": params["sigma"],
            "c": params["c"],
            "steps": self.settings.steps,
            "treatment": self.treatment,
            "train_wall_s": trainer.elapsed,
            "steps_per_s": self.settings.steps / max(trainer.elapsed, 1e-9),
            "final_losses": {k: v for k, v in trainer.history[-1].items() if k.startswith("L_")}
            if trainer.history
            else {},
            "predicted": predicted,
            "_history": trainer.history,
        }
        if "EA" in params:
            out["EA"] = params["EA"]
        if self.settings.treatment == "event":
            out["detected_transitions"] = [int(r.events.numel()) for r in trainer.recs]
        return out


@register
class PINNSmooth(_PINNMethod):
    """Smoothed (softplus) cable law: the primary treatment."""

    name = "pinn_smooth"
    treatment = "smooth"


@register
class PINNComplementarity(_PINNMethod):
    """Fischer-Burmeister complementarity with a tension head (seed §S1)."""

    name = "pinn_fb"
    treatment = "fb"
    n_hyperparameters = 17  # + the NCP weight and the nominal tension


@register
class PINNEventAware(_PINNMethod):
    """Smoothed law with collocation concentrated about detected transitions (seed §S1)."""

    name = "pinn_event"
    treatment = "event"
    n_hyperparameters = 18  # + detection interval, event fraction, window width
