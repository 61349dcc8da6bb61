"""The reproduction scorecard: every number the paper prints, against the workflow's value.

Four modules, called in one direction: :mod:`.claims` loads and checks the claims file
(``resources/published/claims.yaml``; its format is in that module's docstring), :mod:`.bands`
turns a claim's tolerance into the band its value is judged by, :mod:`.score` reads each value
from the results and judges it, and :mod:`.overview` counts the statuses, writes the scorecard's
files and the documentation's generated blocks, and re-scores a published reference.
"""

from ..._lazy import attach

_EXPORTS = {
    "CAP": "bands",
    "SEED_K": "bands",
    "Band": "bands",
    "band": "bands",
    "judge": "bands",
    "within": "bands",
    "KINDS": "claims",
    "PROVENANCE": "claims",
    "TOLERANCES": "claims",
    "ClaimError": "claims",
    "claim_class": "claims",
    "claim_files": "claims",
    "claim_run": "claims",
    "load_claims": "claims",
    "published_tables": "claims",
    "read_claims_file": "claims",
    "COUNTED": "score",
    "NOT_A_NUMBER": "score",
    "SCORECARD_COLUMNS": "score",
    "STATUSES": "score",
    "change": "score",
    "lookup": "score",
    "mutation_survivors": "score",
    "rescore": "score",
    "scorecard": "score",
    "status_counts": "score",
    "DOC_BLOCKS": "overview",
    "PAPER_SCALE": "overview",
    "SUMMARY_COLUMNS": "overview",
    "doc_blocks": "overview",
    "headline": "overview",
    "main": "overview",
    "rescore_reference": "overview",
    "scorecard_values": "overview",
    "summary": "overview",
    "update_docs": "overview",
    "update_page": "overview",
    "write_scorecard": "overview",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
