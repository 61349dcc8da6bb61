"""Writing tables: CSV for machines plus a Markdown rendering for people."""

from __future__ import annotations

import pandas as pd

from ..data.runio import write_csv, write_text
from ..identify.seeds import seed_stats

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
    "BENCH_COLUMNS",
    "SILENT_COLUMNS",
    "bench_table",
    "pinn_spec_table",
    "MODEL_FORM_METHOD_COLUMNS",
    "model_form_methods_table",
    "silent_failure_table",
    "seed_scatter_pct",
    "SILENT_FLAGS",
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

    ``resolvable`` is written as ``determined/cables`` like the paper's table;
    ``class`` and ``lambda_min`` (N/m, rigid bars) come from the assessment,
    with the published values alongside (``paper_class``, ``paper_lambda_min``).
    ``lambda_min`` is the paper's margin: the smallest eigenvalue of the
    reduced ``K_t`` on the free coordinates, the structure supported or (a
    free-standing form) minimally grounded as the paper does.  Where the
    assessments carry it (:func:`tensegrity_id.analysis.assess`),
    ``lambda_min_grounding_free`` (N/m) is a free-standing form's margin with
    every support removed (``lambda_min_invariant``: Euclidean metric,
    rigid-body motions projected out), which does not depend on which six
    coordinates the grounding holds; empty for a supported structure;
    ``connelly`` is Connelly's super-stability condition (``pass``,
    ``fail``, or ``n/a`` where the prestress carries a load, as on the
    frames under gravity: no self-stress, no verdict) and
    ``nullity_Omega`` the nullity of the ``n x n`` stress matrix (``d + 1``
    required).
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
        rigid = [a["rigid"] for a in assessments]
        df["class"] = [a["class"] for a in rigid]
        df["lambda_min"] = [a["lambda_min"] for a in rigid]
        if all("lambda_min_invariant" in a for a in rigid):  # absent from assessments written before it
            inv = [a["lambda_min_invariant"] for a in rigid]
            df["lambda_min_grounding_free"] = [float("nan") if v is None else v for v in inv]
        if all("connelly" in a for a in rigid):
            df["connelly"] = [
                ("pass" if a["connelly"]["super_stable"] else "fail")
                if a["connelly"]["self_stress"]
                else "n/a"
                for a in rigid
            ]
            df["nullity_Omega"] = [a["connelly"]["nullity_Omega"] for a in rigid]
        if published is not None:
            pub = published.set_index("structure")
            df["paper_class"] = [pub["class"].get(n, "") for n in df["structure"]]
            df["paper_lambda_min"] = [pub["lambda_min"].get(n, float("nan")) for n in df["structure"]]
    return df


def table2(
    modal_reports: list[dict],
    record_metas: list[dict],
    residual: dict | None = None,
    crosscheck: dict | None = None,
) -> pd.DataFrame:
    """Verification rows (Table 2 plus the paper's §2.5 checks).

    ``level`` is the worst value over the structures or records in ``scope``;
    ``residual`` is the summary of ``results/values/residual_checks.json``,
    ``crosscheck`` that of ``results/values/quaternion_crosscheck.json``.
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
                "scope": f"{n} records of the residual's own model, worst {residual['on_record_worst']}",
            }
        )
        if residual.get("flexible_bars_max") is not None:
            rows.append(
                {
                    "check": "Flexible-bar residual against the flexible-bar simulator (relative)",
                    "level": residual["flexible_bars_max"],
                    "paper_level": 1e-9,
                    "scope": f"{residual['flexible_bars_records']} elastic-bar records, "
                    f"worst {residual['flexible_bars_worst']}",
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
    if crosscheck:
        n = crosscheck["n_records"]
        dt = crosscheck["max_transition_time_diff_s"]
        seq = "same event sequences" if crosscheck["all_sequences_agree"] else "EVENT SEQUENCES DIFFER"
        rows.append(
            {
                "check": "Cartesian simulator against the independent quaternion model: "
                "state derivatives (relative)",
                "level": crosscheck["max_derivative_diff_rel"],
                "paper_level": 1e-14,
                "scope": f"{n} class-1 records (Cefalo and Mirats-Tur's model; the paper's level is "
                f"against STEDY), worst {crosscheck['max_derivative_diff_rel_at']}",
            }
        )
        rows.append(
            {
                "check": "Cartesian simulator against the independent quaternion model: "
                "node positions over the records (relative to the motion)",
                "level": crosscheck["max_position_diff_rel"],
                "paper_level": None,
                "scope": f"{n} class-1 records, worst {crosscheck['max_position_diff_rel_at']} "
                f"({crosscheck['max_position_diff_m']:.2g} m); {crosscheck['n_transitions']} transitions, "
                f"{seq}, times within {dt if dt is None else format(dt, '.2g')} s",
            }
        )
    # the elastic-bar generator has no length constraints: its bar "drift" is elastic stretch
    rigid = [m for m in record_metas if (m.get("generator") or {}).get("kind") != "elastic_bars"]
    if rigid:
        drift = max(rigid, key=lambda m: m["checks"]["max_length_error_m"])
        rows.append(
            {
                "check": "Worst bar-length drift along the records (m)",
                "level": drift["checks"]["max_length_error_m"],
                "paper_level": 0.33e-6,
                "scope": f"{len(rigid)} rigid-bar records, worst {drift['structure']}/{drift['record']}",
            }
        )
    if record_metas:
        energy = max(record_metas, key=lambda m: m["checks"]["max_energy_error_rel"])
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
"""One row per identification run (the Table 3 columns of the paper plus cost).

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


def write_table(df: pd.DataFrame, csv_path, md_path, *, title: str, note: str | None = None) -> None:
    """Write ``df`` as CSV and as a Markdown table (``note``: a paragraph after the table), atomically."""
    write_csv(df, csv_path, index=False)
    write_text(md_path, _markdown(df, title) + ("" if note is None else "\n" + note + "\n"))


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


# ------------------------------------------------------- Tables 3 and 4
BENCH_COLUMNS = [
    "row",
    "structure",
    "record",
    "protocol",
    "steps",
    "seeds",
    "transitions",
    "sigma_max_pct",
    "sigma_max_sd",
    "sigma_max_all_pct",
    "sigma_mean_pct",
    "c_pct",
    "c_sd",
    "EA_pct",
    "recon_pct",
    "held_out_ratio",
    "held_out_misfit_pct",
    "held_out_excess_pct",
    "resim_chi2",
    "outcome",
]
"""Benchmark tables (3, 4, S1, S4-S6): one row per configured row, over its seeds (mean, and the
standard deviation of the largest force-density error and of the damper error); ``sigma_max_all_pct``
counts the inert members too (the X1 base cable); ``sigma_mean_pct`` is the mean over the
identifiable members; ``EA_pct`` only where the axial stiffness was identified."""


def _excess(res: dict) -> float | None:
    """Held-out misfit beyond the noise floor; the raw misfit for results scored before it existed."""
    return res.get("held_out_excess_pct", res.get("held_out_misfit_pct"))


def _all_members_max(res: dict) -> float | None:
    sig, true = res["identified"]["sigma"], res["exact"]["sigma"]
    vals = [100.0 * abs(s - t) / abs(t) for s, t in zip(sig, true, strict=True) if s is not None]
    return max(vals) if vals else None


def _identifiable_mean(res: dict) -> float | None:
    err = res["errors"].get("sigma_pct")
    if err is None:
        return None
    keep = res.get("identifiable", range(len(err)))
    vals = [abs(err[k]) for k in keep if err[k] is not None]
    return float(sum(vals) / len(vals)) if vals else None


def _mean(values) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return float(sum(vals) / len(vals)) if vals else None


def _sd(values) -> float | None:
    return seed_stats(values)["std"]


def _outcomes(results: list[dict]) -> str:
    counts: dict = {}
    for r in results:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{k} x{n}" for k, n in counts.items())


def bench_table(
    rows: list[dict], results: list[list[dict]], published: pd.DataFrame | None = None
) -> pd.DataFrame:
    """A benchmark identification table (the paper's Tables 3 and 4).

    ``rows``: the configured rows (``row`` id and labels such as ``forcing``
    or ``intervention``, ``structure, record, protocol, steps``);
    ``results``: per row, the result records of its seeds.  Values are
    means over the seeds; ``outcome`` the seeds' labels.  ``published``
    (indexed by ``row``) adds ``paper_*`` columns beside each value.
    """
    pub = published.set_index("row") if published is not None else None
    out = []
    for row, res in zip(rows, results, strict=True):
        if not res:
            raise ValueError(f"row '{row['row']}' has no results")
        labels = {k: v for k, v in row.items() if k not in BENCH_COLUMNS and k != "runs"}
        r = {
            "row": row["row"],
            **labels,
            "structure": row["structure"],
            "record": row["record"],
            "protocol": row["protocol"],
            "steps": int(row["steps"]),
            "seeds": len(res),
            "transitions": int(res[0].get("n_transitions") or 0),
            "sigma_max_pct": _mean(x["errors"]["sigma_max_pct"] for x in res),
            "sigma_max_sd": _sd(x["errors"]["sigma_max_pct"] for x in res),
            "sigma_max_all_pct": _mean(_all_members_max(x) for x in res),
            "sigma_mean_pct": _mean(_identifiable_mean(x) for x in res),
            "c_pct": _mean(x["errors"]["c_pct"] for x in res),
            "c_sd": _sd(x["errors"]["c_pct"] for x in res),
            "EA_pct": _mean(x["errors"].get("EA_pct") for x in res),
            "recon_pct": _mean(x.get("reconstruction_pct") for x in res),
            "held_out_ratio": _mean(x.get("held_out_ratio") for x in res),
            "held_out_misfit_pct": _mean(x.get("held_out_misfit_pct") for x in res),
            "held_out_excess_pct": _mean(_excess(x) for x in res),
            "resim_chi2": _mean(x.get("resimulation_chi2") for x in res),
            "outcome": _outcomes(res),
        }
        if pub is not None and row["row"] in pub.index:
            for c in pub.columns:
                r[f"paper_{c}"] = pub.loc[row["row"], c]
        out.append(r)
    df = pd.DataFrame(out)
    paper = [c for c in df.columns if c.startswith("paper_")]
    lead = [c for c in df.columns if c not in BENCH_COLUMNS and c not in paper]
    return df[["row", *lead, *(c for c in BENCH_COLUMNS if c != "row"), *paper]]


SPEC_STUDY_COLUMNS = [
    "setting",
    "overrides",
    "structure",
    "record",
    "protocol",
    "seed",
    "steps",
    "sigma_max_pct",
    "c_pct",
    "recon_pct",
    "held_out_ratio",
    "train_misfit_ratio",
    "outcome",
    "wall_s",
]
"""The specification study, one line per run: the setting's name and its overrides of the default
settings, the case, the seed, the largest force-density error over identifiable cables (%), the
damper error (%), the reconstruction error (%), the held-out ratio, the training misfit over the
noise variance, the outcome label and the run's training time (s; for a batch, the batch's)."""


def pinn_spec_table(rows: list[dict], results: list[list[dict]]) -> pd.DataFrame:
    """The specification study (:data:`SPEC_STUDY_COLUMNS`): per row (a setting on a record, with its
    ``label`` and ``overrides``) the result records of its seeds, one line each."""
    out = []
    for row, res in zip(rows, results, strict=True):
        if not res:
            raise ValueError(f"row '{row['row']}' has no results")
        over = ", ".join(f"{k}={v}" for k, v in sorted((row.get("overrides") or {}).items()))
        for x in res:
            out.append(
                {
                    "setting": row["label"],
                    "overrides": over or "(default)",
                    **{k: row[k] for k in ("structure", "record", "protocol")},
                    "seed": int(x["seed"]),
                    "steps": int(row["steps"]),
                    "sigma_max_pct": x["errors"]["sigma_max_pct"],
                    "c_pct": x["errors"]["c_pct"],
                    "recon_pct": x.get("reconstruction_pct"),
                    "held_out_ratio": x.get("held_out_ratio"),
                    "train_misfit_ratio": x.get("train_misfit_ratio"),
                    "outcome": x["outcome"],
                    "wall_s": x.get("train_wall_s", x.get("wall_s")),
                }
            )
    return pd.DataFrame(out, columns=SPEC_STUDY_COLUMNS)


MODEL_FORM_METHOD_COLUMNS = [
    "row",
    "label",
    "structure",
    "record",
    "method",
    "seeds",
    "sigma_max_pct",
    "sigma_mean_pct",
    "c_pct",
    "d_sigma_max_pct",
    "d_c_pct",
    "resim_chi2",
    "outcome",
    "wall_s",
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
            "sigma_max_pct": _mean(x["errors"]["sigma_max_pct"] for x in res),
            "sigma_mean_pct": _mean(_identifiable_mean(x) for x in res),
            "c_pct": _mean(x["errors"]["c_pct"] for x in res),
            "resim_chi2": _mean(x.get("resimulation_chi2") for x in res),
            "outcome": _outcomes(res),
            "wall_s": _mean(x.get("wall_s") for x in res),
        }
    out = []
    for row in rows:
        ref = matched.get(prefix(row["row"]))
        for m in methods:
            if (row["row"], m) not in stats:
                continue
            st = dict(stats[(row["row"], m)])
            base = stats.get((ref, m)) if ref is not None else None
            for k in ("sigma_max_pct", "c_pct"):
                ok = base is not None and st[k] is not None and base[k] is not None
                st[f"d_{k}"] = st[k] - base[k] if ok else None
            out.append(
                {"row": row["row"], "label": row.get("label", row["row"]), "structure": row["structure"]}
                | {"record": row["record"], "method": m}
                | st
            )
    return pd.DataFrame(out, columns=MODEL_FORM_METHOD_COLUMNS)


SILENT_COLUMNS = [
    "row",
    "structure",
    "record",
    "protocol",
    "seeds",
    "outcome",
    "sigma_max_pct",
    "held_out_ratio",
    "held_out_misfit_pct",
    "held_out_excess_pct",
    "resim_chi2",
    "seed_scatter_pct",
    "fisher_cond",
    "crlb_max_pct",
    "flag_chi2",
    "flag_scatter",
    "flag_fit",
    "flag_crlb",
    "flagged_by",
    "pinn_lm_sigma_max_pct",
    "pinn_lm_c_pct",
    "pinn_lm_chi2",
    "pinn_lm_outcome",
    "pinn_lm_removes",
]
"""The silent-failure table: per row, the signals that need no exact parameters, and the hybrid."""


def seed_scatter_pct(results: list[dict]) -> float | None:
    """Largest seed-to-seed standard deviation of an identifiable force density, % of its seed mean."""
    if len(results) < 2:
        return None
    ident = results[0]["identifiable"]
    worst = None
    for k in ident:
        vals = [x["identified"]["sigma"][k] for x in results if x["identified"]["sigma"][k] is not None]
        m, sd = _mean(vals), _sd(vals)
        if m and sd is not None:
            worst = max(worst or 0.0, 100.0 * sd / abs(m))
    return worst


SILENT_FLAGS = {"chi2": 2.0, "scatter_pct": 5.0, "misfit_pct": 10.0, "crlb_pct": 5.0}
"""Default thresholds of the silent-failure flags (config ``silent_failures.flags`` overrides them)."""


def silent_failure_table(
    rows: list[dict], pinn: list[list[dict]], hybrid: list[list[dict]], flags: dict
) -> pd.DataFrame:
    """Which no-truth signals flag each run, and whether ``pinn_lm`` removes a failure.

    ``flags``: ``chi2`` (re-simulation misfit per sample above which a run is
    flagged; 1 is the noise floor), ``scatter_pct`` (seed scatter above
    which a group is flagged) and ``misfit_pct`` (the outcome rule's
    held-out misfit beyond the noise floor) and ``crlb_pct`` (worst relative Cramér–Rao bound of the
    Fisher information at the identified parameters, ``fisher_at_start`` of
    the hybrid's record: above it the record cannot determine a parameter to
    that precision around the estimate).  The same thresholds for every row:
    nothing is tuned per case.  ``pinn_lm_removes``: the PINN run was not ``identified`` and
    the hybrid's is.
    """
    out = []
    for row, p, h in zip(rows, pinn, hybrid, strict=True):
        chi2 = _mean(x.get("resimulation_chi2") for x in p)
        scatter = seed_scatter_pct(p)
        misfit = _mean(x.get("held_out_misfit_pct") for x in p)
        excess = _mean(_excess(x) for x in p)
        f_chi2 = chi2 is not None and chi2 > flags["chi2"]
        f_scatter = scatter is not None and scatter > flags["scatter_pct"]
        f_fit = excess is not None and excess > flags["misfit_pct"]
        fish = [x["fisher_at_start"] for x in h if x.get("fisher_at_start")]
        cond = _mean(f["condition_identifiable"] for f in fish)
        crlb = _mean(f["crlb_max_pct"] for f in fish)
        f_crlb = crlb is not None and crlb > flags["crlb_pct"]
        outcome = _outcomes(p)
        h_outcome = _outcomes(h) if h else None
        out.append(
            {
                "row": row["row"],
                "structure": row["structure"],
                "record": row["record"],
                "protocol": row["protocol"],
                "seeds": len(p),
                "outcome": outcome,
                "sigma_max_pct": _mean(x["errors"]["sigma_max_pct"] for x in p),
                "held_out_ratio": _mean(x.get("held_out_ratio") for x in p),
                "held_out_misfit_pct": misfit,
                "held_out_excess_pct": excess,
                "resim_chi2": chi2,
                "seed_scatter_pct": scatter,
                "fisher_cond": cond,
                "crlb_max_pct": crlb,
                "flag_chi2": f_chi2,
                "flag_scatter": f_scatter if scatter is not None else None,
                "flag_fit": f_fit,
                "flag_crlb": f_crlb if crlb is not None else None,
                "flagged_by": ", ".join(
                    n
                    for n, f in (("chi2", f_chi2), ("scatter", f_scatter), ("fit", f_fit), ("crlb", f_crlb))
                    if f
                )
                or "none",
                "pinn_lm_sigma_max_pct": _mean(x["errors"]["sigma_max_pct"] for x in h) if h else None,
                "pinn_lm_c_pct": _mean(x["errors"]["c_pct"] for x in h) if h else None,
                "pinn_lm_chi2": _mean(x.get("chi2") for x in h) if h else None,
                "pinn_lm_outcome": h_outcome,
                "pinn_lm_removes": bool(outcome != "identified" and h_outcome == "identified") if h else None,
            }
        )
    return pd.DataFrame(out, columns=SILENT_COLUMNS)


FORCE_SCALE_COLUMNS = [
    "row",
    "label",
    "method",
    "force_scale",
    "force_scale_true",
    "force_scale_pct",
    "force_scale_crlb_pct",
    "sigma_max_pct",
    "c_pct",
    "resim_chi2",
    "outcome",
]
"""The uncalibrated-force table: identified and true force factor, its error and bound (%), the
largest force-density error over identifiable cables (%), the damper error (%), the re-simulation
chi2 (noise variances per sample) and the outcome."""


def _force_row(row: dict, method: str, runs: list[dict], true_scale) -> dict:
    fs = [r["identified"].get("force_scale") for r in runs]
    fitted = all(f is not None for f in fs)
    crlb = [((r.get("bounds") or {}).get("crlb_relative") or {}).get("f_0") for r in runs]
    return {
        "row": row["row"],
        "label": row.get("label", ""),
        "method": method,
        "force_scale": _mean(f[0] for f in fs) if fitted else None,
        "force_scale_true": true_scale,
        "force_scale_pct": _mean(r["errors"]["force_scale_pct"][0] for r in runs) if fitted else None,
        "force_scale_crlb_pct": _mean(100 * c for c in crlb if c is not None),
        "sigma_max_pct": _mean(r["errors"]["sigma_max_pct"] for r in runs),
        "c_pct": _mean(r["errors"]["c_pct"] for r in runs),
        "resim_chi2": _mean(r.get("resimulation_chi2") for r in runs),
        "outcome": _outcomes(runs),
    }


def force_scale_table(
    rows: list[dict], pinn: list[list[dict]], lm: dict | None, true_scale: float
) -> pd.DataFrame:
    """PINN rows (each with its seeds' results) and the LM variants (force taken as recorded, fitted)."""
    out = [_force_row(row, "pinn", res, true_scale) for row, res in zip(rows, pinn, strict=True)]
    for v in (lm or {}).get("variants", []):
        mode = v["options"].get("force_scale") or "known"
        run = {**v, "seed": lm["seed"]}
        label = "force scale fitted" if mode == "fit" else "force taken as recorded"
        out.append(_force_row({"row": f"lm_{mode}", "label": label}, "lm_shooting", [run], true_scale))
    return pd.DataFrame(out, columns=FORCE_SCALE_COLUMNS)
