"""Tables comparing the identification methods: Table 6 and Table S5's every-method companion.

Table 6 sets the physics-informed identification beside the baselines
(Levenberg-Marquardt shooting, the unscented Kalman filter, the particle
filter with EnKF, full-state regression) on a taut and a slack-transition
record, with each run's cost and a note on how it ended; the model-form
companion runs every method on Table S5's rows and states each method's
degradation from its matched record.
"""

from __future__ import annotations

import pandas as pd

from ..results.identification import KEY, IdentificationResult
from .table_stats import identifiable_mean, mean_of, outcome_label

__all__ = [
    "TABLE6_LABELS",
    "MODEL_FORM_METHOD_COLUMNS",
    "table6",
    "model_form_methods_table",
]


TABLE6_LABELS = {
    "pinn": "Physics-informed identification",
    "lm_shooting": "Levenberg-Marquardt shooting",
    "ukf": "Unscented Kalman filter",
    "pf_enkf": "Particle filter with EnKF",
    "regression": "Full-state regression (upper bound)",
}


def _note(res: IdentificationResult) -> str:
    if res.spurious_minimum is not None:
        return f"chi2 {res.chi2:.3g}" + (" (spurious minimum)" if res.spurious_minimum else "")
    if res.ess:
        return f"median ESS {res.ess.median:.3g} of {res.ess.n_particles}"
    if res.steps:
        return f"{res.steps} steps"
    return ""


def table6(runs: dict, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """Method comparison on a taut and a slack-transition record (the paper's Table 6).

    ``runs``: ``{method_key: {"taut": result, "slack": result}}`` (``pinn``
    for any PINN treatment).  Published values, when given, sit next to the
    reproduced ones (``paper_*`` columns).
    """
    rows = []
    pub = published.set_index("method") if published is not None else None
    for key, pair in runs.items():
        t, s = pair["taut"], pair["slack"]
        row = {
            "method": TABLE6_LABELS.get(key, key),
            "taut_sigma_max_pct": t.errors.sigma_max_pct,
            "taut_c_pct": t.errors.c_pct,
            "slack_sigma_max_pct": s.errors.sigma_max_pct,
            "slack_c_pct": s.errors.c_pct,
            "wall_taut_s": t.wall_s,
            "wall_slack_s": s.wall_s,
            "hyperparameters": t.n_hyperparameters,
            "taut_outcome": t.outcome,
            "slack_outcome": s.outcome,
            "taut_note": _note(t),
            "slack_note": _note(s),
        }
        if pub is not None and key in pub.index:
            for c in ("taut_sigma_max_pct", "taut_c_pct", "slack_sigma_max_pct", "slack_c_pct"):
                row[f"paper_{c}"] = float(pub.loc[key, c])
            row["paper_wall_s"] = f"{pub.loc[key, 'wall_taut_s']:g} / {pub.loc[key, 'wall_slack_s']:g}"
            row["paper_hyperparameters"] = int(pub.loc[key, "hyperparameters"])
        rows.append(row)
    return pd.DataFrame(rows)


MODEL_FORM_METHOD_COLUMNS = [
    "row",
    "label",
    "structure",
    "record",
    "method",
    "seeds",
    KEY.sigma_max_pct,
    "sigma_mean_pct",
    KEY.c_pct,
    "d_sigma_max_pct",
    "d_c_pct",
    "resim_chi2",
    KEY.outcome,
    KEY.wall_s,
]
"""Table S5's companion: every method on every model-form row.  ``d_*`` are the changes against
the same method on the row's matched record (the row labelled ``matched`` whose id shares the
row's prefix before the first ``_``: ``taut_``, ``slack_``, ``prism_``); ``wall_s`` the
method's time per run (for a batch, the batch's)."""


def model_form_methods_table(rows: list[dict], results: dict) -> pd.DataFrame:
    """Every method on Table S5's rows, with its degradation from the matched record.

    ``rows``: Table S5's rows (``row``, ``label``, ``structure``, ``record``);
    ``results``: ``{(row id, method): [result records over seeds]}``.  A
    row's matched reference is the row labelled ``matched`` with the same
    id prefix; a row without one gets no ``d_*`` values.
    """

    def prefix(row_id: str) -> str:
        return row_id.split("_", 1)[0]

    matched = {prefix(r["row"]): r["row"] for r in rows if r.get("label") == "matched"}
    methods = list(dict.fromkeys(m for _, m in results))
    stats = {}
    for key, res in results.items():
        if not res:
            raise ValueError(f"row '{key[0]}', method '{key[1]}' has no results")
        stats[key] = {
            "seeds": len(res),
            KEY.sigma_max_pct: mean_of(x.errors.sigma_max_pct for x in res),
            "sigma_mean_pct": mean_of(identifiable_mean(x) for x in res),
            KEY.c_pct: mean_of(x.errors.c_pct for x in res),
            "resim_chi2": mean_of(x.resimulation_chi2 for x in res),
            KEY.outcome: outcome_label(res),
            KEY.wall_s: mean_of(x.wall_s for x in res),
        }
    out = []
    for row in rows:
        ref = matched.get(prefix(row["row"]))
        for m in methods:
            if (row["row"], m) not in stats:
                continue
            st = dict(stats[(row["row"], m)])
            base = stats.get((ref, m)) if ref is not None else None
            for k in (KEY.sigma_max_pct, KEY.c_pct):
                ok = base is not None and st[k] is not None and base[k] is not None
                st[f"d_{k}"] = st[k] - base[k] if ok else None
            out.append(
                {"row": row["row"], "label": row.get("label", row["row"]), "structure": row["structure"]}
                | {"record": row["record"], "method": m}
                | st
            )
    return pd.DataFrame(out, columns=MODEL_FORM_METHOD_COLUMNS)
