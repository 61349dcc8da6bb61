"""Seed 001's spring-rod example (rule springrod_example): first-principles regression vs black boxes.

Outputs
* ``results/identify/springrod/summary.json``: settings, the regression's
  ``K_over_M`` and ``c_over_M`` (1/s^2, 1/s) with errors (%), and per black-box
  method (``lbfgsb``, ``cmaes``) the ``(K, c)`` of every trajectory, their
  mean and std, success fraction (both within 5 %), seconds per iteration.
* ``results/tables/springrod.csv`` / ``.md``: one row per method with the
  seed's published Appendix A values alongside.
"""

import time

import numpy as np
import pandas as pd
from tensegrity_id.runio import setup_log, write_json
from tensegrity_id.springrod import SpringRod, black_box_fit, make_trajectories, regress_ratios
from tensegrity_id.tables import write_table

log = setup_log(snakemake.log[0])  # noqa: F821
cfg = {
    "n_trajectories": 20,
    "n_steps": 2000,
    "dt": 0.001,
    "seed": 0,
    "black_box": {"n_trajectories": 2, "n_steps": 1000, "max_evals": 300},
    **snakemake.params.settings,  # noqa: F821
}
bb = {"n_trajectories": 2, "n_steps": 1000, "max_evals": 300, **cfg["black_box"]}
truth = SpringRod()
K, c, M = truth.K, truth.c, truth.M
log.info("simulating %d trajectories of %d steps (dt %g s)", cfg["n_trajectories"], cfg["n_steps"], cfg["dt"])
t0 = time.perf_counter()
trajs = make_trajectories(cfg["n_trajectories"], cfg["n_steps"], cfg["dt"], cfg["seed"])
t1 = time.perf_counter()
reg = regress_ratios(trajs, cfg["dt"])
t_reg = time.perf_counter() - t1
reg.update(
    K_over_M_err_pct=100 * abs(reg["K_over_M"] / (K / M) - 1),
    c_over_M_err_pct=100 * abs(reg["c_over_M"] / (c / M) - 1),
    wall_s=t_reg,
)
reg["success"] = bool(max(reg["K_over_M_err_pct"], reg["c_over_M_err_pct"]) <= 5.0)
log.info(
    "regression: K/M %.6g, c/M %.6g (%.2g %%, %.2g %%), %.2f s (simulation %.1f s)",
    reg["K_over_M"],
    reg["c_over_M"],
    reg["K_over_M_err_pct"],
    reg["c_over_M_err_pct"],
    t_reg,
    t1 - t0,
)
black = {}
for method in ("lbfgsb", "cmaes"):
    fits = []
    for i in range(bb["n_trajectories"]):
        f = black_box_fit(
            trajs[i][: bb["n_steps"] + 1], cfg["dt"], method, M=M, max_evals=bb["max_evals"], seed=i
        )
        f["success"] = bool(abs(f["K"] / K - 1) <= 0.05 and abs(f["c"] / c - 1) <= 0.05)
        fits.append(f)
        log.info(
            "%s trajectory %d: K %.4g, c %.4g, %d evaluations, %.1f s",
            method,
            i,
            f["K"],
            f["c"],
            f["n_evaluations"],
            f["wall_s"],
        )
    Ks, cs = np.array([f["K"] for f in fits]), np.array([f["c"] for f in fits])
    black[method] = {
        "fits": fits,
        "K_mean": float(Ks.mean()),
        "K_std": float(Ks.std()),
        "c_mean": float(cs.mean()),
        "c_std": float(cs.std()),
        "success": float(np.mean([f["success"] for f in fits])),
        "sec_per_iteration": float(np.mean([f["wall_s"] / max(f["iterations"], 1) for f in fits])),
    }
write_json(
    snakemake.output.json,
    {
        "settings": cfg,
        "truth": {"K": K, "c": c, "M": M},
        "regression": reg,  # noqa: F821
        "black_box": black,
    },
)
pub = pd.read_csv(snakemake.input.published).set_index("method")  # noqa: F821
rows = [
    {
        "method": "First-principles regression (K/M, c/M scaled by M)",
        "K_mean": reg["K_over_M"] * M,
        "K_std": 0.0,
        "c_mean": reg["c_over_M"] * M,
        "c_std": 0.0,
        "success": float(reg["success"]),
        "wall_s": t_reg,
        "trajectories": cfg["n_trajectories"],
        "key": "first_principles",
    }
]
for key, label in (("lbfgsb", "Least squares (L-BFGS-B)"), ("cmaes", "CMA-ES")):
    b = black[key]
    rows.append(
        {
            "method": label,
            **{k: b[k] for k in ("K_mean", "K_std", "c_mean", "c_std", "success")},
            "wall_s": float(np.mean([f["wall_s"] for f in b["fits"]])),
            "trajectories": bb["n_trajectories"],
            "key": key,
        }
    )
df = pd.DataFrame(rows)
for col in ("K_mean", "K_std", "c_mean", "c_std", "success"):
    df[f"paper_{col}"] = [float(pub.loc[k, col]) for k in df["key"]]
df = df.drop(columns="key")
log.info("\n%s", df.to_string(index=False))
write_table(
    df,
    snakemake.output.csv,
    snakemake.output.md,  # noqa: F821
    title="Seed 001 spring-rod example (K = 100 N/m, c = 10 N s/m, M = 10 kg)",
)
