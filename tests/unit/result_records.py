"""Result records for tests: the fields a test gives, every other one neutral.

Imported by the unit tests that hand tables, figures and studies small
results (``from result_records import make_result, make_fisher``; this
folder is on the import path of its tests).
"""

from __future__ import annotations

from tensegrity_id.results.fisher import FisherAnalysis, StructuralIdentifiability
from tensegrity_id.results.identification import Errors, IdentificationResult, Parameters

__all__ = ["make_result", "make_fisher"]

N_CABLES = 4


def make_result(*, identified=None, exact=..., errors=None, **fields) -> IdentificationResult:
    """An :class:`IdentificationResult` of ``fields``; ``identified``, ``exact`` and ``errors`` may be
    dicts of their parts' fields (merged over neutral values; ``exact=None`` for a measured record)."""
    ident = {"sigma": [25.0] * N_CABLES, "c": 1.0, **(identified or {})}
    n = len(ident["sigma"])
    if exact is ...:
        exact = {}
    err = {"sigma_pct": [None] * n, "sigma_max_pct": None, "sigma_median_pct": None, "c_pct": None}
    base = dict(
        method="pinn_smooth",
        structure="x1",
        record="taut_1pt",
        protocol="top_node",
        seed=0,
        steps=100,
        identified=Parameters(**ident),
        exact=None if exact is None else Parameters(**{"sigma": [25.0] * n, "c": 1.0, "EA": 220.0, **exact}),
        errors=Errors(**{**err, **(errors or {})}),
        inert_members=[],
        identifiable=list(range(n)),
        inert_values={},
        reconstruction_pct=None,
        held_out_ratio=None,
        held_out_misfit_pct=None,
        held_out_excess_pct=None,
        train_misfit_ratio=None,
        resimulation_pct=None,
        resimulation_chi2=None,
        per_record={},
        n_transitions=0,
        outcome=None,
        outcome_rule="",
        wall_s=0.0,
        n_forward_simulations=0,
        n_hyperparameters=0,
        options={},
    )
    return IdentificationResult(**{**base, **fields})


def make_fisher(**fields) -> FisherAnalysis:
    """A :class:`FisherAnalysis` of ``fields`` (an X1 record's names; the spectrum and channels empty)."""
    names = [f"sigma_{k}" for k in range(N_CABLES)] + ["c"]
    base = dict(
        names=names,
        theta=[1.0] * len(names),
        J=[],
        eigenvalues=[],
        eigenvectors=[],
        near_null=[],
        null_members=[],
        identifiable=names,
        condition_identifiable=1.0,
        lambda_min_identifiable=1.0,
        crlb={},
        crlb_relative={},
        sensitivity_norms={},
        structural=StructuralIdentifiability(
            resolvable=N_CABLES,
            n_cables=N_CABLES,
            invisible=[],
            n_combinations=0,
            combinations=[],
            n_cable_self_stresses=0,
        ),
        channels=[],
        active_channels=[],
    )
    return FisherAnalysis(**{**base, **fields})
