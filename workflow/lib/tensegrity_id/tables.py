"""Writing tables: CSV for machines plus a Markdown rendering for people."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["TABLE_S3_COLUMNS", "TABLE2_COLUMNS", "table_s3", "table2", "write_table"]

TABLE2_COLUMNS = ["check", "level", "paper_level", "scope"]
"""Verification table: one row per check with its measured level."""

TABLE_S3_COLUMNS = ["structure", "free", "members", "rank_A", "s", "m", "resolvable"]
"""Table S3 columns so far; the assessment stage adds class and lambda_min."""


def table_s3(reports: list[dict], identifiability: list[dict] | None = None) -> pd.DataFrame:
    """Table S3 from structure reports (and structural identifiability), in order.

    ``resolvable`` is written as ``determined/cables`` like the seed's table.
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
    return pd.DataFrame(rows, columns=cols)


def table2(modal_reports: list[dict], record_metas: list[dict]) -> pd.DataFrame:
    """Verification rows of the simulator (Table 2 plus the seed's §2.5 checks).

    ``level`` is the worst value over the structures or records in ``scope``.
    """
    rows = []
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
    Path(csv_path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(csv_path, index=False)
    Path(md_path).write_text(_markdown(df, title))
