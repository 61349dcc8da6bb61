"""What a training batch reports while it runs: the rows of its training history and its progress lines.

:class:`ProgressMixin`, mixed into :class:`~.trainer.PINNTrainer`, appends a history row
per member still training (step, loss terms, learning rates, physical parameters) and
writes a progress line: for one member its losses and parameters, for a batch the median
and range over the members still training, each line with the step rate and the time left.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ProgressMixin"]


class ProgressMixin:
    """History rows and progress lines of a :class:`~.trainer.PINNTrainer`, from its attributes."""

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
