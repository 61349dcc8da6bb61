"""Table S3 of the paper: the structures' counts, identifiability and stability.

Per structure: free coordinates, members, the rank of the equilibrium
matrix, self-stress states and mechanisms (Maxwell's counts), the cables
whose force density the records can resolve, and, from the assessment
stage, the stability class and margin ``lambda_min`` with Connelly's
super-stability verdict, the published values alongside.
"""

from __future__ import annotations

import pandas as pd

from ..results.assessment import CLASS, Assessment, Connelly, StructureAssessment
from ..results.fisher import FISHER_KEY, StructuralIdentifiability
from ..results.record import FieldNames

__all__ = [
    "TABLE_S3_COLUMNS",
    "table_s3",
]

_ASSESS, _CONNELLY = FieldNames(Assessment), FieldNames(Connelly)

TABLE_S3_COLUMNS = [
    "structure",
    "free",
    "members",
    "rank_A",
    "s",
    "m",
    FISHER_KEY.resolvable,
]
"""Table S3 columns so far; the assessment stage adds class and lambda_min."""


def _connelly_verdict(c: Connelly) -> str:
    if not c.self_stress:
        return "n/a"
    return "pass" if c.super_stable else "fail"


def table_s3(
    reports: list[dict],
    identifiability: list[StructuralIdentifiability] | None = None,
    assessments: list[StructureAssessment] | None = None,
    published: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Table S3 from structure reports (and structural identifiability, assessments), in order.

    ``resolvable`` is written as ``determined/cables`` like the paper's table;
    ``class`` and ``lambda_min`` (N/m, rigid bars) come from the assessment,
    with the published values alongside (``paper_class``, ``paper_lambda_min``).
    ``lambda_min`` is the paper's margin: the smallest eigenvalue of the
    reduced ``K_t`` on the free coordinates, the structure supported or (a
    free-standing form) minimally grounded as the paper does.
    ``lambda_min_grounding_free`` (N/m) is a free-standing form's margin with
    every support removed (``lambda_min_invariant`` of
    :func:`tensegrity_id.analysis.assess`: Euclidean metric, rigid-body
    motions projected out), which does not depend on which six coordinates
    the grounding holds; empty for a supported structure; ``connelly`` is
    Connelly's super-stability condition (``pass``, ``fail``, or ``n/a``
    where the prestress carries a load, as on the frames under gravity: no
    self-stress, no verdict) and ``nullity_Omega`` the nullity of the
    ``n x n`` stress matrix (``d + 1`` required).
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
            row[TABLE_S3_COLUMNS[-1]] = f"{ident.resolvable}/{ident.n_cables}"
        rows.append(row)
    cols = TABLE_S3_COLUMNS if identifiability is not None else TABLE_S3_COLUMNS[:-1]
    df = pd.DataFrame(rows, columns=cols)
    if assessments is not None:
        rigid = [a.rigid for a in assessments]
        df[CLASS] = [a.class_ for a in rigid]
        df[_ASSESS.lambda_min] = [a.lambda_min for a in rigid]
        df["lambda_min_grounding_free"] = [
            float("nan") if a.lambda_min_invariant is None else a.lambda_min_invariant for a in rigid
        ]
        df[_ASSESS.connelly] = [_connelly_verdict(a.connelly) for a in rigid]
        df[_CONNELLY.nullity_Omega] = [a.connelly.nullity_Omega for a in rigid]
        if published is not None:
            pub = published.set_index("structure")
            df["paper_class"] = [pub[CLASS].get(n, "") for n in df["structure"]]
            df["paper_lambda_min"] = [pub[_ASSESS.lambda_min].get(n, float("nan")) for n in df["structure"]]
    return df
