"""Typed records of a measured record's screens and summary.

* :class:`RecordScreens`: the import's screens of a record against its
  design model (:func:`tensegrity_id.data.screening.screen_against_model`)
  and its corrupt samples (:class:`OutlierReport`,
  :func:`tensegrity_id.data.outliers.screen_outliers`).  Written into the
  record's metadata under :data:`RECORD_SCREENS` and copied into the screen;
* :class:`Screening`, ``results/measured/{structure}/{record}/screening.json``
  (rule screen_measured_record): the first-order screen of the record's
  channels before any inversion (:class:`ChannelScreen`,
  :func:`tensegrity_id.analysis.local_fisher.screen_channels`), with the
  record's screens;
* :class:`MeasuredSummary`, ``results/measured/{structure}/{record}/summary.json``
  (rule make_measured_summary): the screen, the identified values per
  method and their assessment (:mod:`tensegrity_id.report.measured_summary`).

Units: level ratios and agreements dimensionless; noise m/s^2; times s;
force densities N/m, damper N s/m; margins N/m.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .assessment import DesignVerdict, IdentifiedPrestress
from .fisher import LocalFisher
from .record import FieldNames, ResultPart, ResultRecord, field_values, optional

__all__ = [
    "DETERMINABLE",
    "WEAK",
    "UNDETERMINABLE",
    "RECORD_SCREENS",
    "ScreenTolerances",
    "NoiseCheck",
    "OutlierSample",
    "ExplainedSample",
    "OutlierReport",
    "RecordScreens",
    "ChannelScreen",
    "Screening",
    "ScreeningDigest",
    "MethodSummary",
    "MeasuredSummary",
]

DETERMINABLE, WEAK, UNDETERMINABLE = "determinable", "weak", "undeterminable"
"""A member's verdict in a channel screen (:attr:`ChannelScreen.members`)."""


@dataclass(frozen=True)
class ScreenTolerances(ResultPart):
    """The screens' tolerances (:mod:`tensegrity_id.data.screening`): factors and the agreement threshold."""

    level: float
    unit_band: float
    agreement: float
    noise_factor: float


@dataclass(frozen=True)
class NoiseCheck(ResultPart):
    """A channel's stated noise (m/s^2) against the record's own estimate (``reliable``: it is one)."""

    stated: float
    estimated: float
    ratio: float
    reliable: bool


@dataclass(frozen=True)
class OutlierSample(ResultPart):
    """A sample ``robust_std`` robust standard deviations from its neighbours' mean, at ``t`` (s, file time).

    ``kind`` is ``"force"`` or ``"acc"``, ``column`` the channel's column
    among its kind, ``index`` the sample among the kept ones; ``energy_pct``
    its share of the channel's energy (%).
    """

    channel: str
    kind: str
    column: int
    index: int
    t: float
    value: float
    robust_std: float
    energy_pct: float


@dataclass(frozen=True)
class ExplainedSample(OutlierSample):
    """A candidate an impact explains; ``verifiable``: an acceleration channel should have seen it."""

    verifiable: bool


@dataclass(frozen=True)
class OutlierReport(ResultPart):
    """Corrupt samples ``found`` (largest first), the candidates an impact explains, and the action taken."""

    threshold_robust_std: float
    action: str
    found: list[OutlierSample]
    impacts: list[ExplainedSample]


@dataclass(frozen=True)
class RecordScreens(ResultPart):
    """A record screened against its design model's prediction (:mod:`tensegrity_id.data.screening`).

    ``level_ratio`` (the median over channels of measured over predicted
    RMS), ``level_ratios`` and ``agreement`` (per channel; ``None`` where
    the model predicts nothing) and ``model_agrees`` are ``None`` where the
    structure has no prestress or the level is out of range; ``noise`` per
    channel whose noise the config states; ``outliers`` once the outlier
    screen's report is added.
    """

    model: str
    tolerances: ScreenTolerances
    warnings: list[str] = field(default_factory=list)
    level_ratio: float | None = optional()
    level_ratios: list[float | None] | None = optional()
    agreement: dict[str, float | None] | None = optional()
    model_agrees: bool | None = optional()
    noise: dict[str, NoiseCheck] = field(default_factory=dict)
    outliers: OutlierReport | None = optional()


@dataclass(frozen=True)
class ChannelScreen(LocalFisher):
    """The Fisher information of the channels at the nominal ``point``, and each member's verdict.

    ``members``: :data:`DETERMINABLE` (relative bound at most ``weak_pct`` %),
    :data:`WEAK`, or :data:`UNDETERMINABLE` (near-null in the information).
    """

    weak_pct: float
    members: dict[str, str]
    point: str

    @property
    def undeterminable(self) -> set[str]:
        """The parameters the channels cannot determine."""
        return {m for m, s in self.members.items() if s == UNDETERMINABLE}


@dataclass(frozen=True)
class Screening(ChannelScreen, ResultRecord):
    """A measured record's screen before any inversion (rule screen_measured_record).

    The :class:`ChannelScreen` fields, the cables a support makes invisible
    whatever the channels (``structurally_invisible``, indices), and the
    import's :class:`RecordScreens` (``None`` for a record imported without).
    """

    KIND = "screening"
    VERSION = 1

    structurally_invisible: list[int]
    structure: str
    record: str
    record_screens: RecordScreens | None

    @classmethod
    def of(cls, screen: ChannelScreen, **rest) -> Screening:
        """The file's record from the channel screen and the other fields."""
        return cls(**field_values(screen), **rest)


RECORD_SCREENS = FieldNames(Screening).record_screens
"""The key of the record's screens in its metadata file and in the screen: ``record_screens``."""


@dataclass(frozen=True)
class ScreeningDigest(ResultPart):
    """The screen as the summary states it: verdicts, relative bounds at the design point, condition."""

    members: dict[str, str]
    crlb_relative_nominal: dict[str, float]
    condition: float
    structurally_invisible: list[int]


@dataclass(frozen=True)
class MethodSummary(ResultPart):
    """One method's seeds pooled: mean values, bounds, scatter, misfit, and its assessment.

    ``sigma`` (N/m) and ``c`` (N s/m) are means over ``seeds``;
    ``crlb_relative`` the relative Cramér–Rao bounds at the identified point
    (first seed; ``None`` where the method reports none);
    ``seed_scatter_relative`` the seeds' relative standard deviation (two
    seeds or more); ``fit_failure``: the data are not fitted, and the
    ``assessment`` is of the fitted numbers, not of the structure.
    """

    method: str
    seeds: list[int]
    sigma: list[float]
    c: float
    force_scale: list[float] | None
    force_scale_channels: list | None
    crlb_relative: dict[str, float] | None
    seed_scatter_relative: dict[str, float] | None
    resimulation_chi2: float
    spurious_minimum: bool
    held_out_excess_pct: float | None
    fit_failure: bool
    design_value_kept: list[int]
    assessment: IdentifiedPrestress


@dataclass(frozen=True)
class MeasuredSummary(ResultRecord):
    """The summary of a measured record (rule make_measured_summary): source, screen, design, methods."""

    KIND = "measured_summary"
    VERSION = 1

    structure: str
    record: str
    source: dict
    channels: list[str]
    noise_std: list[float]
    noise_method: str
    screening: ScreeningDigest
    design: DesignVerdict
    methods: list[MethodSummary]
