"""Writing tables: CSV for machines plus a Markdown rendering for people."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["TABLE_S3_COLUMNS", "table_s3", "write_table"]

TABLE_S3_COLUMNS = ["structure", "free", "members", "rank_A", "s", "m"]
"""Counts part of Table S3; later stages add resolvable, class and lambda_min."""


def table_s3(reports: list[dict]) -> pd.DataFrame:
    """Counts of Table S3 from structure reports, in the given order."""
    rows = [
        {
            "structure": r["name"],
            "free": r["counts"]["n_free"],
            "members": r["counts"]["n_members"],
            "rank_A": r["counts"]["rank_A"],
            "s": r["counts"]["s"],
            "m": r["counts"]["m"],
        }
        for r in reports
    ]
    return pd.DataFrame(rows, columns=TABLE_S3_COLUMNS)


def _markdown(df: pd.DataFrame, title: str) -> str:
    cols = list(df.columns)
    lines = [f"# {title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in df.iterrows():
        lines.append(
            "| "
            + " | ".join(f"{row[c]:.6g}" if isinstance(row[c], float) else str(row[c]) for c in cols)
            + " |"
        )
    return "\n".join(lines) + "\n"


def write_table(df: pd.DataFrame, csv_path, md_path, *, title: str) -> None:
    """Write ``df`` as CSV and as a Markdown table."""
    Path(csv_path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(csv_path, index=False)
    Path(md_path).write_text(_markdown(df, title))
