"""Writing tables: CSV for machines plus a Markdown rendering for people.

:func:`write_table` writes every table of the study.  The tables themselves
are assembled by stage, in modules this one re-exports so that
``from tensegrity_id.report.tables import ...`` reaches every builder:
``tables_verification`` (Table 2), ``tables_assessment`` (Table S3),
``tables_identification`` (the run summary, Tables 3, 4, 5, S1, S4-S6 and
the specification study), ``tables_baselines`` (Table 6 and Table S5's
every-method companion) and ``tables_robustness`` (silent failures, the
uncalibrated force); ``table_stats`` holds their shared summaries over seeds.
"""

from __future__ import annotations

import pandas as pd

from ..data.runio import write_csv, write_text
from .tables_assessment import TABLE_S3_COLUMNS, table_s3
from .tables_baselines import MODEL_FORM_METHOD_COLUMNS, TABLE6_LABELS, model_form_methods_table, table6
from .tables_identification import (
    BENCH_COLUMNS,
    RUN_COLUMNS,
    SPEC_STUDY_COLUMNS,
    TABLE5_COLUMNS,
    TREATMENT_LABELS,
    bench_table,
    pinn_spec_table,
    run_summary,
    table5,
)
from .tables_robustness import (
    FORCE_SCALE_COLUMNS,
    SILENT_COLUMNS,
    SILENT_FLAGS,
    force_scale_table,
    seed_scatter_pct,
    silent_failure_table,
)
from .tables_verification import TABLE2_COLUMNS, table2

__all__ = [
    # writing
    "write_table",
    # Table 2 (verification)
    "TABLE2_COLUMNS",
    "table2",
    # Table S3 (structures and their assessment)
    "TABLE_S3_COLUMNS",
    "table_s3",
    # identification: run summary, Tables 3, 4, 5, S1, S4-S6, specification study
    "RUN_COLUMNS",
    "TABLE5_COLUMNS",
    "TREATMENT_LABELS",
    "BENCH_COLUMNS",
    "SPEC_STUDY_COLUMNS",
    "run_summary",
    "table5",
    "bench_table",
    "pinn_spec_table",
    # method comparison: Table 6, Table S5's every-method companion
    "TABLE6_LABELS",
    "MODEL_FORM_METHOD_COLUMNS",
    "table6",
    "model_form_methods_table",
    # diagnostics without exact parameters: silent failures, uncalibrated force
    "SILENT_COLUMNS",
    "SILENT_FLAGS",
    "FORCE_SCALE_COLUMNS",
    "seed_scatter_pct",
    "silent_failure_table",
    "force_scale_table",
]


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
