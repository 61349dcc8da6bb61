"""Writing tables: CSV for machines plus a Markdown rendering for people."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = [
    "TABLE_S3_COLUMNS",
    "TABLE2_COLUMNS",
    "TABLE5_COLUMNS",
    "RUN_COLUMNS",
    "table_s3",
    "table2",
    "table5",
    "run_summary",
    "write_table",
]

TABLE2_COLUMNS = ["check", "level", "paper_level", "scope"]
"""Verification table: one row per check with its measured level."""

TABLE_S3_COLUMNS = ["structure", "free", "members", "rank_A", "s", "m", "resolvable"]
"""Table S3 columns so far; the assessment stage adds class and lambda_min."""


def table_s3(
    reports: list[dict],
    identifiability: list[dict] | None = None,
    assessments: list[dict] | None = None,
    published: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Table S3 from structure reports (and structural identifiability, assessments), in order.

    ``resolvable`` is written as ``determined/cables`` like the seed's table;
    ``class`` and ``lambda_min`` (N/m, rigid bars) come from the assessment,
    with the published values alongside (``paper_class``, ``paper_lambda_min``).
    """
    rows = []
    for k, r in enumerate(reports):
        row = {
            "structure": r["name"],
            "free": r["counts"]["n_free"],
            "members": r["counts"]["n_members"],
            "rank_A": r["counts"]["rank_A"],
            "s": r["counts"]["s"],
            "m": r["counts"]["m"],
        }
        if identifiability is not None:
            ident = identifiability[k]
            row["resolvable"] = f"{ident['resolvable']}/{ident['n_cables']}"
        rows.append(row)
    cols = TABLE_S3_COLUMNS if identifiability is not None else TABLE_S3_COLUMNS[:-1]
    df = pd.DataFrame(rows, columns=cols)
    if assessments is not None:
        df["class"] = [a["rigid"]["class"] for a in assessments]
        df["lambda_min"] = [a["rigid"]["lambda_min"] for a in assessments]
        if published is not None:
            pub = published.set_index("structure")
            df["paper_class"] = [pub["class"].get(n, "") for n in df["structure"]]
            df["paper_lambda_min"] = [pub["lambda_min"].get(n, float("nan")) for n in df["structure"]]
    return df


def table2(modal_reports: list[dict], record_metas: list[dict], residual: dict | None = None) -> pd.DataFrame:
    """Verification rows (Table 2 plus the seed's §2.5 checks).

    ``level`` is the worst value over the structures or records in ``scope``;
    ``residual`` is the summary of ``results/values/residual_checks.json``.
    """
    rows = []
    if residual:
        n, slack = residual["n_records"], residual["n_slack_samples"]
        rows.append(
            {
                "check": "Residual against simulator state derivatives, slack included (relative)",
                "level": residual["against_simulator_max"],
                "paper_level": 1e-15,
                "scope": f"{n} records, {slack} slack samples, worst {residual['against_simulator_worst']}",
            }
        )
        rows.append(
            {
                "check": "Residual at exact parameters on the records, exact cable law (relative)",
                "level": residual["on_record_max"],
                "paper_level": 1e-15,
                "scope": f"{n} records, worst {residual['on_record_worst']}",
            }
        )
        scope = ", ".join(residual["bias_structures"])
        rows.append(
            {
                "check": "Smoothed-cable-law peak force-density bias at beta = "
                f"{residual['beta']:g} (relative)",
                "level": residual["bias_max_in_scope"],
                "paper_level": 0.01,
                "scope": f"{scope}; worst over all records {residual['bias_max_overall']:.3g} "
                f"({residual['bias_worst_overall']})",
            }
        )
    if modal_reports:
        worst = max(modal_reports, key=lambda r: r["max_rel_difference"])
        rows.append(
            {
                "check": "Simulator against classical-limit truss frequencies (relative)",
                "level": worst["max_rel_difference"],
                "paper_level": 3e-9,
                "scope": f"{len(modal_reports)} structures, worst {worst['structure']}",
            }
        )
    if record_metas:
        drift = max(record_metas, key=lambda m: m["checks"]["max_length_error_m"])
        energy = max(record_metas, key=lambda m: m["checks"]["max_energy_error_rel"])
        rows.append(
            {
                "check": "Worst bar-length drift along the records (m)",
                "level": drift["checks"]["max_length_error_m"],
                "paper_level": 0.33e-6,
                "scope": f"{len(record_metas)} records, worst {drift['structure']}/{drift['record']}",
            }
        )
        rows.append(
            {
                "check": "Worst relative energy-balance error |E - W - E(0)|",
                "level": energy["checks"]["max_energy_error_rel"],
                "paper_level": 5e-6,
                "scope": f"{len(record_metas)} records, worst {energy['structure']}/{energy['record']}",
            }
        )
    return pd.DataFrame(rows, columns=TABLE2_COLUMNS)


TABLE5_COLUMNS = [
    "structure",
    "record",
    "treatment",
    "steps",
    "seeds",
    "sigma_max_pct",
    "sigma_max_pct_range",
    "c_pct",
    "recon_pct",
    "held_out_ratio",
    "transitions",
    "wall_s",
]
"""Table 5: medians over seeds (range of the largest force-density error)."""

RUN_COLUMNS = [
    "method",
    "structure",
    "record",
    "protocol",
    "seed",
    "steps",
    "sigma_max_pct",
    "c_pct",
    "recon_pct",
    "held_out_ratio",
    "held_out_misfit_pct",
    "resim_pct",
    "transitions",
    "outcome",
    "wall_s",
    "batch_size",
]
"""One row per identification run (the Table 3 columns of the seed plus cost).

``wall_s`` is the run's job time; for physics-informed runs trained as a
batch of seeds it is the batch's, shared by its ``batch_size`` seeds."""

TREATMENT_LABELS = {
    "pinn_smooth": "smoothed cable law",
    "pinn_fb": "Fischer-Burmeister NCP",
    "pinn_event": "event-aware collocation",
}


def run_summary(results: list[dict]) -> pd.DataFrame:
    """One row per identification result record, in the given order."""
    rows = [
        {
            "method": r["method"],
            "structure": r["structure"],
            "record": r["record"],
            "protocol": r.get("protocol"),
            "seed": r["seed"],
            "steps": r.get("steps"),
            "sigma_max_pct": r["errors"]["sigma_max_pct"],
            "c_pct": r["errors"]["c_pct"],
            "recon_pct": r.get("reconstruction_pct"),
            "held_out_ratio": r.get("held_out_ratio"),
            "held_out_misfit_pct": r.get("held_out_misfit_pct"),
            "resim_pct": r.get("resimulation_pct"),
            "transitions": r.get("n_transitions"),
            "outcome": r.get("outcome"),
            "wall_s": r["wall_s"],
            "batch_size": (r.get("batch") or {}).get("size"),
        }
        for r in results
    ]
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def table5(results: list[dict]) -> pd.DataFrame:
    """Transition treatments on identical records: medians over seeds per (case, treatment, steps).

    ``wall_s`` is the median cost of one seed: a run's job time over the
    seeds of its batch.
    """
    df = run_summary(results)
    df["wall_s"] = df["wall_s"] / df["batch_size"].fillna(1)
    rows = []
    for (s, rec, m, n), g in df.groupby(["structure", "record", "method", "steps"], sort=False):
        rows.append(
            {
                "structure": s,
                "record": rec,
                "treatment": TREATMENT_LABELS.get(m, m),
                "steps": int(n),
                "seeds": len(g),
                "sigma_max_pct": float(g["sigma_max_pct"].median()),
                "sigma_max_pct_range": f"{g['sigma_max_pct'].min():.3g}-{g['sigma_max_pct'].max():.3g}",
                "c_pct": float(g["c_pct"].median()),
                "recon_pct": float(g["recon_pct"].median()),
                "held_out_ratio": float(g["held_out_ratio"].median()),
                "transitions": int(g["transitions"].iloc[0]),
                "wall_s": float(g["wall_s"].median()),
            }
        )
    return pd.DataFrame(rows, columns=TABLE5_COLUMNS)


def _cell(v) -> str:
    text = f"{v:.6g}" if isinstance(v, float) else str(v)
    return text.replace("|", "\\|")


def _markdown(df: pd.DataFrame, title: str) -> str:
    cols = list(df.columns)
    lines = [f"# {title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in df.iterrows():
        lines.append("| " + " | ".join(_cell(row[c]) for c in cols) + " |")
    return "\n".join(lines) + "\n"


def write_table(df: pd.DataFrame, csv_path, md_path, *, title: str) -> None:
    """Write ``df`` as CSV and as a Markdown table."""
    for path in (csv_path, md_path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(csv_path, index=False)
    Path(md_path).write_text(_markdown(df, title))


TABLE6_LABELS = {
    "pinn": "Physics-informed identification",
    "lm_shooting": "Levenberg-Marquardt shooting",
    "ukf": "Unscented Kalman filter",
    "pf_enkf": "Particle filter with EnKF",
    "regression": "Full-state regression (upper bound)",
}


def _note(res: dict) -> str:
    if res.get("spurious_minimum") is not None:
        return f"chi2 {res['chi2']:.3g}" + (" (spurious minimum)" if res["spurious_minimum"] else "")
    if res.get("ess"):
        return f"median ESS {res['ess']['median']:.3g} of {res['ess']['n_particles']}"
    if res.get("steps"):
        return f"{res['steps']} steps"
    return ""


def table6(runs: dict, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """Method comparison on a taut and a slack-transition record (seed Table 6).

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
            "taut_sigma_max_pct": t["errors"]["sigma_max_pct"],
            "taut_c_pct": t["errors"]["c_pct"],
            "slack_sigma_max_pct": s["errors"]["sigma_max_pct"],
            "slack_c_pct": s["errors"]["c_pct"],
            "wall_taut_s": t["wall_s"],
            "wall_slack_s": s["wall_s"],
            "hyperparameters": t["n_hyperparameters"],
            "taut_outcome": t["outcome"],
            "slack_outcome": s["outcome"],
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
