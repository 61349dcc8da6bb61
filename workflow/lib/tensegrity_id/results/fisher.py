"""Typed records of the identifiability analysis: structural counts, Fisher summaries, the Fisher file.

``results/fisher/{structure}/{record}/{protocol}.json`` (rule
compute_fisher) is a :class:`FisherAnalysis`: the summary of the Fisher
information of a record's channels at the exact parameters
(:class:`FisherSummary`, :func:`tensegrity_id.analysis.identifiability.fisher_analysis`),
the structure's first-order identifiability (:class:`StructuralIdentifiability`)
and the channels.  :class:`LocalFisher` is the shorter summary at a point
that is not the exact one (an estimate, or the design prestress of a
measured record: :func:`tensegrity_id.analysis.local_fisher.local_fisher`;
an identification's ``fisher_at_start``).  :class:`IdentifiedBounds` are the
Cramér–Rao bounds an identification reports at its identified point (its
``bounds``: :func:`tensegrity_id.identify.misfit.shooting_fisher`).

:data:`FISHER_KEY` names every key of these kinds and their parts
(``FISHER_KEY.crlb_max_pct == "crlb_max_pct"``): a table column or a
summary entry named after one takes its name from here.

Units: ``theta`` and ``crlb`` in parameter units (sigma N/m, c N s/m, EA N);
``crlb_relative`` a fraction of the parameter's value; ``J`` and its
eigenvalues in the mixed units of ``1 / (parameter unit)^2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .record import FieldNames, ResultPart, ResultRecord, field_values, transient

__all__ = [
    "StructuralIdentifiability",
    "IdentifiabilityTotals",
    "NearNull",
    "FisherSummary",
    "FisherAnalysis",
    "LocalFisher",
    "IdentifiedBounds",
    "FISHER_KEY",
]


@dataclass(frozen=True)
class StructuralIdentifiability(ResultPart):
    """Which cables the free coordinates determine at first order (the paper §3.3, Table S3).

    ``resolvable`` is the rank of the cable block of the equilibrium matrix;
    ``invisible`` the cables with both ends restrained; ``combinations`` an
    orthonormal basis (one row per combination, over all cables) of the rest
    of its null space; ``n_cable_self_stresses`` the combinations that are
    self-stresses of the cables alone.
    """

    resolvable: int
    n_cables: int
    invisible: list[int]
    n_combinations: int
    combinations: list[list[float]]
    n_cable_self_stresses: int


@dataclass(frozen=True)
class IdentifiabilityTotals(ResultPart):
    """:class:`StructuralIdentifiability` summed over structures (``results/values/tableS3_resolvable.json``).

    ``determined`` cables (the sum of ``resolvable``) of ``cables``;
    ``invisible`` and ``combinations`` counted.  A values file: no schema.
    """

    determined: int
    cables: int
    invisible: int
    combinations: int

    @classmethod
    def of(cls, each: list[StructuralIdentifiability]) -> IdentifiabilityTotals:
        return cls(
            determined=sum(i.resolvable for i in each),
            cables=sum(i.n_cables for i in each),
            invisible=sum(len(i.invisible) for i in each),
            combinations=sum(i.n_combinations for i in each),
        )


@dataclass(frozen=True)
class NearNull(ResultPart):
    """A near-null eigen-direction of ``J``: its eigenvalue, vector and the members above 0.1 in it."""

    eigenvalue: float
    vector: list[float]
    members: list[str]


@dataclass(frozen=True)
class FisherSummary(ResultPart):
    """Spectrum, near-null directions, identifiable block, condition and Cramér–Rao bounds of ``J``.

    ``crlb`` and ``crlb_relative`` cover the identifiable block only
    (``identifiable``); ``null_members`` are the parameters dropped for the
    near-null directions; ``sensitivity_norms`` are ``sqrt(J_ii)``.
    """

    names: list[str]
    theta: list[float]
    J: list[list[float]]
    eigenvalues: list[float]
    eigenvectors: list[list[float]]
    near_null: list[NearNull]
    null_members: list[str]
    identifiable: list[str]
    condition_identifiable: float
    lambda_min_identifiable: float
    crlb: dict[str, float]
    crlb_relative: dict[str, float]
    sensitivity_norms: dict[str, float]

    @property
    def worst_crlb_parameter(self) -> str:
        """The identifiable parameter with the largest relative bound."""
        return max(self.crlb_relative, key=self.crlb_relative.get)


@dataclass(frozen=True)
class FisherAnalysis(FisherSummary, ResultRecord):
    """The Fisher file of one record and protocol (rule compute_fisher).

    The :class:`FisherSummary` fields, then the structure's
    :class:`StructuralIdentifiability`, the record's sensor ``channels``
    (global coordinates) and the ``active_channels`` among them (those with
    signal; a channel at a locked node carries none and is left out of ``J``).
    """

    KIND = "fisher"
    VERSION = 1

    structural: StructuralIdentifiability
    channels: list[int]
    active_channels: list[int]

    @classmethod
    def of(
        cls,
        summary: FisherSummary,
        *,
        structural: StructuralIdentifiability,
        channels,
        active_channels,
    ) -> FisherAnalysis:
        """The file's record from a summary and the rest."""
        return cls(
            **field_values(summary),
            structural=structural,
            channels=list(channels),
            active_channels=list(active_channels),
        )


@dataclass(frozen=True)
class LocalFisher(ResultPart):
    """The Fisher information of a record's channels at a point (an estimate, the design prestress).

    ``theta`` is the point (``names``); ``crlb_relative`` per identifiable
    parameter relative to its value there; ``crlb_max_pct`` (%) the largest,
    at ``crlb_max_parameter``.
    """

    theta: list[float]
    names: list[str]
    condition_identifiable: float
    lambda_min_identifiable: float
    null_members: list[str]
    crlb_relative: dict[str, float]
    crlb_max_pct: float
    crlb_max_parameter: str


@dataclass(frozen=True)
class IdentifiedBounds(ResultPart):
    """Cramér–Rao bounds at an identified point: the shooting Fisher information of the sensor data.

    The :class:`FisherSummary` fields but ``J`` and its eigenvectors, the
    largest relative bound ``crlb_max_pct`` (%) at ``crlb_max_parameter``,
    the finite-difference step ``rel_step`` (of the log-parameters) and the
    ``samples`` used.  Parameters are ``sigma_k``, ``c`` and, where a force
    scale was fitted, ``f_k`` (one per factor).  ``n_simulations`` (the
    forward simulations the sensitivities took) is counted into the run's, not
    written.
    """

    names: list[str]
    theta: list[float]
    eigenvalues: list[float]
    near_null: list[NearNull]
    null_members: list[str]
    identifiable: list[str]
    condition_identifiable: float
    lambda_min_identifiable: float
    crlb: dict[str, float]
    crlb_relative: dict[str, float]
    sensitivity_norms: dict[str, float]
    crlb_max_pct: float
    crlb_max_parameter: str
    rel_step: float
    samples: str
    n_simulations: int | None = transient()

    @classmethod
    def of(
        cls, summary: FisherSummary, *, rel_step: float, samples: str, n_simulations: int
    ) -> IdentifiedBounds:
        """The bounds from the summary of the information at the point (``J``, eigenvectors dropped)."""
        worst = summary.worst_crlb_parameter
        kept = {k: v for k, v in field_values(summary).items() if k not in ("J", "eigenvectors")}
        return cls(
            **kept,
            crlb_max_pct=100.0 * summary.crlb_relative[worst],
            crlb_max_parameter=worst,
            rel_step=rel_step,
            samples=samples,
            n_simulations=n_simulations,
        )


FISHER_KEY = FieldNames(FisherAnalysis, LocalFisher, IdentifiedBounds)
"""Every key of the Fisher kinds and their parts, as an attribute."""
