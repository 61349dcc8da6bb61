"""The reproduction scorecard: every number the paper prints, against the workflow's value.

Four modules, called in one direction: :mod:`.claims` loads and checks the claims file
(``resources/published/claims.yaml``; its format is in that module's docstring), :mod:`.bands`
turns a claim's tolerance into the band its value is judged by, :mod:`.score` reads each value
from the results and judges it, and :mod:`.summary` counts the statuses, writes the scorecard's
files and the documentation's generated blocks, and re-scores a published reference.
"""

from .bands import CAP, SEED_K, Band, band, judge, within
from .claims import (
    KINDS,
    PROVENANCE,
    TOLERANCES,
    ClaimError,
    claim_class,
    claim_files,
    claim_run,
    load_claims,
    published_tables,
    read_claims_file,
)
from .score import (
    COUNTED,
    NOT_A_NUMBER,
    SCORECARD_COLUMNS,
    STATUSES,
    change,
    lookup,
    mutation_survivors,
    rescore,
    scorecard,
    status_counts,
)
from .summary import (
    DOC_BLOCKS,
    PAPER_SCALE,
    SUMMARY_COLUMNS,
    doc_blocks,
    headline,
    main,
    rescore_reference,
    scorecard_values,
    summary,
    update_docs,
    update_page,
    write_scorecard,
)

__all__ = [
    "CAP",
    "SEED_K",
    "Band",
    "band",
    "judge",
    "within",
    "KINDS",
    "PROVENANCE",
    "TOLERANCES",
    "ClaimError",
    "claim_class",
    "claim_files",
    "claim_run",
    "load_claims",
    "published_tables",
    "read_claims_file",
    "COUNTED",
    "NOT_A_NUMBER",
    "SCORECARD_COLUMNS",
    "STATUSES",
    "change",
    "lookup",
    "mutation_survivors",
    "rescore",
    "scorecard",
    "status_counts",
    "DOC_BLOCKS",
    "PAPER_SCALE",
    "SUMMARY_COLUMNS",
    "doc_blocks",
    "headline",
    "main",
    "rescore_reference",
    "scorecard_values",
    "summary",
    "update_docs",
    "update_page",
    "write_scorecard",
]
