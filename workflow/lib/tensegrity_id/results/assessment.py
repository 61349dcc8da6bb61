"""Typed records of the structural assessment (the paper §3.5, §S5): class, margin, utilisations.

One record per file the assessment rules write:

* :class:`StructureAssessment`, ``results/assess/{structure}.json`` (rule
  assess_structure): an :class:`Assessment` for rigid and for flexible bars,
  the margin ratio and the lowest frequency two ways;
* :class:`PrestressScan`, ``results/assess/scan/{structure}.json``: the
  class as the prestress is scaled (:class:`ScanPoint`);
* :class:`RecordAssessment`, ``results/assess/records/{structure}/{record}.json``:
  the instantaneous class along a record;
* :class:`SteelDesign`, ``results/assess/steel/{structure}.json``: the
  structure rebuilt in steel, its utilisation curves and the self-stress
  family about its design self-stress;
* :class:`MeasuredAssessment`, ``results/measured/{structure}/{record}/assessment.json``:
  the identified prestress of a measured record, per method, and the design.

The definitions (tangent stiffness, tolerance, classes, utilisations) are in
:mod:`tensegrity_id.analysis.assessment`.  ``class`` is a Python keyword:
the field is ``class_``, the key on disk ``class`` (:data:`CLASS`,
:func:`~.record.json_key`).  Units:
margins and eigenvalues N/m, force densities N/m, tensions N, areas m^2,
radii m, frequencies Hz; utilisations dimensionless.
"""

from __future__ import annotations

from dataclasses import dataclass

from .record import FieldNames, ResultPart, ResultRecord, optional

__all__ = [
    "CLASS",
    "CLASSES",
    "ClassPoint",
    "Classification",
    "Connelly",
    "Assessment",
    "StructureAssessment",
    "ScanPoint",
    "PrestressScan",
    "RecordAssessment",
    "ENERGY_ARRAYS",
    "DesignUtilisation",
    "SteelSections",
    "DesignPoint",
    "TensionPoint",
    "FamilyPoint",
    "FamilyDirection",
    "SelfStressFamily",
    "SteelDesign",
    "Verdict",
    "DesignVerdict",
    "PrestressVerdict",
    "IdentifiedPrestress",
    "MethodAssessment",
    "MeasuredAssessment",
]

CLASSES = ("super-stable", "stable", "unstable")
"""The stability classes, strongest first (values of every ``class_`` field)."""


@dataclass(frozen=True)
class ClassPoint(ResultPart):
    """Class and margins of one prestress: ``lambda_min`` of the reduced ``K_t``, of ``K_G`` (N/m)."""

    class_: str
    lambda_min: float
    lambda_min_KG: float


CLASS = FieldNames(ClassPoint).class_
"""The key of the stability class on disk (and its column in tables): ``class``."""


@dataclass(frozen=True)
class Classification(ClassPoint):
    """:class:`ClassPoint` with the tolerance it was classed against (N/m, ``tol_rel ||K_G||``)."""

    tol: float


@dataclass(frozen=True)
class Connelly(ResultPart):
    """Connelly's sufficient condition for super stability, of
    :func:`~tensegrity_id.analysis.stability.connelly_conditions`.

    ``force_densities`` (N/m, bars then cables) is the stress tested, after
    ``ground_members_adjusted`` members took up the reactions;
    ``out_of_balance`` the largest nodal force over the largest member force.
    """

    self_stress: bool
    proper: bool
    ground_members_adjusted: int
    out_of_balance: float
    lambda_min_Omega: float
    nullity_Omega: int
    nullity_required: int
    psd: bool
    conic: bool
    force_densities: list[float]
    super_stable: bool


@dataclass(frozen=True)
class Assessment(Classification):
    """Class, margins, prestress-stability checks and utilisations of one prestress (one bar model).

    ``lambda_min_invariant``: the grounding-free margin of a free-standing
    form (``None`` for a supported structure); ``lambda_min_mechanisms``
    (``U_m^T S U_m``) and ``lambda_min_KM_null`` (``K_G`` on the null space
    of ``K_M``): ``None`` where there is no such space.
    """

    lambda_min_invariant: float | None
    connelly: Connelly
    n_mechanisms: int
    lambda_min_mechanisms: float | None
    lambda_min_KM_null: float | None
    bars: str
    U_c_max: float
    U_b_max: float
    U_c: list[float]
    U_b: list[float]
    bar_sigma: list[float]
    eigenvalues_Kt: list[float]
    eigenvalues_KG: list[float]


@dataclass(frozen=True)
class StructureAssessment(ResultRecord):
    """A structure at its prestress, with rigid and with flexible bars (rule assess_structure)."""

    KIND = "assessment"
    VERSION = 1

    structure: str
    tol_rel: float
    rigid: Assessment
    flexible: Assessment
    margin_ratio_flexible: float
    f1_tangent_hz: float
    f1_modal_hz: float


@dataclass(frozen=True)
class ScanPoint(Classification):
    """The class at one ``scale`` (-) of the cable force densities (negative: reversed)."""

    scale: float


@dataclass(frozen=True)
class PrestressScan(ResultRecord):
    """Class and margins as the prestress is scaled and reversed (rule assess_prestress_scan)."""

    KIND = "prestress_scan"
    VERSION = 1

    structure: str
    bars: str
    scan: list[ScanPoint]


@dataclass(frozen=True)
class RecordAssessment(ResultRecord):
    """The instantaneous class of the frozen shape at the samples ``t`` (s) of a record (rule assess_record).

    Per sample: ``n_slack`` cables and, with the paper's convention (slack
    cables out of the stress matrix), ``class_``, ``lambda_min``,
    ``lambda_min_KG``; the same with suffix ``_tangent`` (slack cables out
    of ``K_M`` too); the energies (J) where the record has them.
    ``counts``: samples per class (:data:`CLASSES`).
    """

    KIND = "record_assessment"
    VERSION = 1

    t: list[float]
    n_slack: list[int]
    class_: list[str]
    lambda_min: list[float]
    lambda_min_KG: list[float]
    class_tangent: list[str]
    lambda_min_tangent: list[float]
    lambda_min_KG_tangent: list[float]
    counts: dict[str, int]
    counts_tangent: dict[str, int]
    structure: str
    record: str
    E_T: list[float] | None = optional()
    E_Vg: list[float] | None = optional()
    E_Vs: list[float] | None = optional()


_RECORD_KEYS = FieldNames(RecordAssessment)
ENERGY_ARRAYS = (_RECORD_KEYS.E_T, _RECORD_KEYS.E_Vg, _RECORD_KEYS.E_Vs)
"""The energies a record assessment copies from its record (J; the record file's arrays of these names)."""


@dataclass(frozen=True)
class DesignUtilisation(ResultPart):
    """The utilisations the sections were sized for (governing cable, governing strut)."""

    U_c: float
    U_b: float


@dataclass(frozen=True)
class SteelSections(ResultPart):
    """Sections of the steel design: one cable area (m^2), one solid bar radius (m).

    ``sized_for`` is ``None`` where both were given; ``cable_EA`` (N), the
    bars' masses (kg) and whether Euler buckling governs each bar.
    """

    cable_area: float
    bar_radius: float
    sized_for: DesignUtilisation | None
    cable_EA: float
    bar_mass: list[float]
    buckling_governs: list[bool]


@dataclass(frozen=True)
class DesignPoint(ClassPoint):
    """The steel design at its design tension: class, margins, utilisations, lowest frequency two ways."""

    U_c_max: float
    U_b_max: float
    f1_tangent_hz: float
    f1_modal_hz: float


@dataclass(frozen=True)
class TensionPoint(ResultPart):
    """One point of the utilisation curves: the largest cable tension ``max_tension`` (N)."""

    max_tension: float
    rigid: ClassPoint
    flexible: ClassPoint
    U_c_max: float
    U_b_max: float
    margin_ratio_flexible: float


@dataclass(frozen=True)
class FamilyPoint(ClassPoint):
    """The class of ``v + theta d``; ``sign_consistent``: cables in tension and bars in compression."""

    theta: float
    sign_consistent: bool


@dataclass(frozen=True)
class FamilyDirection(ResultPart):
    """A self-stress ``d`` orthogonal to the design one (N/m, ``cables``, ``bars``), scanned in ``theta``."""

    cables: list[float]
    bars: list[float]
    scan: list[FamilyPoint]


@dataclass(frozen=True)
class SelfStressFamily(ResultPart):
    """The class of the self-stresses about the zero-gravity design self-stress (``sigma``, ``bar_sigma``)."""

    structure: str
    sigma: list[float]
    bar_sigma: list[float]
    directions: list[FamilyDirection]


@dataclass(frozen=True)
class SteelDesign(ResultRecord):
    """A structure rebuilt with steel members at its design prestress (rule assess_steel_design, §S5).

    ``sigma``/``bar_sigma`` (N/m) the design prestress at ``max_tension``
    (N); ``tension_at_U_c_1``, ``tension_at_U_b_1`` (N) where the
    utilisations reach 1; ``family`` once the self-stress family is traced.
    """

    KIND = "steel_design"
    VERSION = 1

    structure: str
    max_tension: float
    sections: SteelSections
    sigma: list[float]
    bar_sigma: list[float]
    design: DesignPoint
    tension_at_U_c_1: float
    tension_at_U_b_1: float
    curves: list[TensionPoint]
    family: SelfStressFamily | None = optional()


@dataclass(frozen=True)
class Verdict(ResultPart):
    """Class and margin (N/m, ``lambda_min`` of the reduced ``K_t``, rigid bars) of one prestress."""

    class_: str
    margin: float


@dataclass(frozen=True)
class DesignVerdict(Verdict):
    """The design prestress ``sigma`` (N/m) with its class and margin."""

    sigma: list[float]


@dataclass(frozen=True)
class PrestressVerdict(Verdict):
    """Class, margin and the largest cable and strut utilisations of one prestress."""

    U_c_max: float
    U_b_max: float


@dataclass(frozen=True)
class IdentifiedPrestress(PrestressVerdict):
    """:class:`PrestressVerdict` of an identified prestress ``sigma_used`` (N/m)."""

    sigma_used: list[float]


@dataclass(frozen=True)
class MethodAssessment(IdentifiedPrestress):
    """One method's seeds pooled: ``design_value_kept`` lists the members at their design value."""

    design_value_kept: list[int]


@dataclass(frozen=True)
class MeasuredAssessment(ResultRecord):
    """A measured record's identified prestress per method, and the design (rule assess_measured_record)."""

    KIND = "measured_assessment"
    VERSION = 1

    design: DesignVerdict
    methods: dict[str, MethodAssessment]
