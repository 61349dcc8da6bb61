"""Table S3 of the paper: the structures' counts, identifiability and stability.

Per structure: free coordinates, members, the rank of the equilibrium
matrix, self-stress states and mechanisms (Maxwell's counts), the cables
whose force density the records can resolve, and, from the assessment
stage, the stability class and margin ``lambda_min`` with Connelly's
super-stability verdict, the published values alongside.
"""

from __future__ import annotations

import pandas as pd

__all__ = [
    "TABLE_S3_COLUMNS",
    "table_s3",
]


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
