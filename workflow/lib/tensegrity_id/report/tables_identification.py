"""Tables of the physics-informed identification: Tables 3, 4, 5 and S1 and their relatives.

The run summary (one row per identification run), Table 5 (the transition
treatments on identical records, medians over seeds), the benchmark tables
(Tables 3, 4, S1 and the robustness rows S4-S6 share :func:`bench_table`:
one row per configured row, means over its seeds, published values
alongside) and the specification study (one line per run of a setting).
Each reads result records
(:class:`~tensegrity_id.results.identification.IdentificationResult`) and
returns a frame; :func:`tensegrity_id.report.tables.write_table` writes it.
A column named after a result key takes its name from
:data:`~tensegrity_id.results.identification.KEY`.
"""

from __future__ import annotations

import pandas as pd

from ..results.identification import KEY, IdentificationResult
from .table_stats import all_members_max, identifiable_mean, mean_of, outcome_label, sd_of

__all__ = [
    "TABLE5_COLUMNS",
    "RUN_COLUMNS",
    "TREATMENT_LABELS",
    "BENCH_COLUMNS",
    "SPEC_STUDY_COLUMNS",
    "run_summary",
    "table5",
    "bench_table",
    "pinn_spec_table",
]


TABLE5_COLUMNS = [
    "structure",
    "record",
    "treatment",
    "steps",
    "seeds",
    KEY.sigma_max_pct,
    "sigma_max_pct_range",
    KEY.c_pct,
    "recon_pct",
    KEY.held_out_ratio,
    "transitions",
    KEY.wall_s,
]
"""Table 5: medians over seeds (range of the largest force-density error)."""

RUN_COLUMNS = [
    "method",
    "structure",
    "record",
    "protocol",
    "seed",
    "steps",
    KEY.sigma_max_pct,
    KEY.c_pct,
    "recon_pct",
    KEY.held_out_ratio,
    KEY.held_out_misfit_pct,
    "resim_pct",
    "transitions",
    KEY.outcome,
    KEY.wall_s,
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


def _row(columns: list[str], *values) -> dict:
    """A table row: ``values`` named by ``columns``, in order."""
    return dict(zip(columns, values, strict=True))


def run_summary(results: list[IdentificationResult]) -> pd.DataFrame:
    """One row per identification result record, in the given order."""
    rows = [
        _row(
            RUN_COLUMNS,
            r.method,
            r.structure,
            r.record,
            r.protocol,
            r.seed,
            r.steps,
            r.errors.sigma_max_pct,
            r.errors.c_pct,
            r.reconstruction_pct,
            r.held_out_ratio,
            r.held_out_misfit_pct,
            r.resimulation_pct,
            r.n_transitions,
            r.outcome,
            r.wall_s,
            None if r.batch is None else r.batch.size,
        )
        for r in results
    ]
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def table5(results: list[IdentificationResult]) -> pd.DataFrame:
    """Transition treatments on identical records: medians over seeds per (case, treatment, steps).

    ``wall_s`` is the median cost of one seed: a run's job time over the
    seeds of its batch.
    """
    df = run_summary(results)
    df[KEY.wall_s] = df[KEY.wall_s] / df["batch_size"].fillna(1)
    rows = []
    for (s, rec, m, n), g in df.groupby(["structure", "record", "method", "steps"], sort=False):
        sig = g[KEY.sigma_max_pct]
        rows.append(
            _row(
                TABLE5_COLUMNS,
                s,
                rec,
                TREATMENT_LABELS.get(m, m),
                int(n),
                len(g),
                float(sig.median()),
                f"{sig.min():.3g}-{sig.max():.3g}",
                float(g[KEY.c_pct].median()),
                float(g["recon_pct"].median()),
                float(g[KEY.held_out_ratio].median()),
                int(g["transitions"].iloc[0]),
                float(g[KEY.wall_s].median()),
            )
        )
    return pd.DataFrame(rows, columns=TABLE5_COLUMNS)


BENCH_COLUMNS = [
    "row",
    "structure",
    "record",
    "protocol",
    "steps",
    "seeds",
    "transitions",
    KEY.sigma_max_pct,
    "sigma_max_sd",
    "sigma_max_all_pct",
    "sigma_mean_pct",
    KEY.c_pct,
    "c_sd",
    KEY.EA_pct,
    "recon_pct",
    KEY.held_out_ratio,
    KEY.held_out_misfit_pct,
    KEY.held_out_excess_pct,
    "resim_chi2",
    KEY.outcome,
]
"""Benchmark tables (3, 4, S1, S4-S6): one row per configured row, over its seeds (mean, and the
standard deviation of the largest force-density error and of the damper error); ``sigma_max_all_pct``
counts the inert members too (the X1 base cable); ``sigma_mean_pct`` is the mean over the
identifiable members; ``EA_pct`` only where the axial stiffness was identified."""


def bench_table(
    rows: list[dict], results: list[list[IdentificationResult]], published: pd.DataFrame | None = None
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
            "transitions": int(res[0].n_transitions or 0),
            KEY.sigma_max_pct: mean_of(x.errors.sigma_max_pct for x in res),
            "sigma_max_sd": sd_of(x.errors.sigma_max_pct for x in res),
            "sigma_max_all_pct": mean_of(all_members_max(x) for x in res),
            "sigma_mean_pct": mean_of(identifiable_mean(x) for x in res),
            KEY.c_pct: mean_of(x.errors.c_pct for x in res),
            "c_sd": sd_of(x.errors.c_pct for x in res),
            KEY.EA_pct: mean_of(x.errors.EA_pct for x in res),
            "recon_pct": mean_of(x.reconstruction_pct for x in res),
            KEY.held_out_ratio: mean_of(x.held_out_ratio for x in res),
            KEY.held_out_misfit_pct: mean_of(x.held_out_misfit_pct for x in res),
            KEY.held_out_excess_pct: mean_of(x.held_out_excess_pct for x in res),
            "resim_chi2": mean_of(x.resimulation_chi2 for x in res),
            KEY.outcome: outcome_label(res),
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
    KEY.sigma_max_pct,
    KEY.c_pct,
    "recon_pct",
    KEY.held_out_ratio,
    KEY.train_misfit_ratio,
    KEY.outcome,
    KEY.wall_s,
]
"""The specification study, one line per run: the setting's name and its overrides of the default
settings, the case, the seed, the largest force-density error over identifiable cables (%), the
damper error (%), the reconstruction error (%), the held-out ratio, the training misfit over the
noise variance, the outcome label and the run's training time (s; for a batch, the batch's)."""


def pinn_spec_table(rows: list[dict], results: list[list[IdentificationResult]]) -> pd.DataFrame:
    """The specification study (:data:`SPEC_STUDY_COLUMNS`): per row (a setting on a record, with its
    ``label`` and ``overrides``) the result records of its seeds, one line each."""
    out = []
    for row, res in zip(rows, results, strict=True):
        if not res:
            raise ValueError(f"row '{row['row']}' has no results")
        over = ", ".join(f"{k}={v}" for k, v in sorted((row.get("overrides") or {}).items()))
        for x in res:
            out.append(
                _row(
                    SPEC_STUDY_COLUMNS,
                    row["label"],
                    over or "(default)",
                    *(row[k] for k in ("structure", "record", "protocol")),
                    int(x.seed),
                    int(row["steps"]),
                    x.errors.sigma_max_pct,
                    x.errors.c_pct,
                    x.reconstruction_pct,
                    x.held_out_ratio,
                    x.train_misfit_ratio,
                    x.outcome,
                    x.wall_s if x.train_wall_s is None else x.train_wall_s,
                )
            )
    return pd.DataFrame(out, columns=SPEC_STUDY_COLUMNS)
