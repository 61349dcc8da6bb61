"""The identification result kinds: one run, a seed group's summary, a method under option variants.

:class:`IdentificationResult` is the file of one identification run
(``results/identify/{method}/{structure}/{record}/...json``), built by
:func:`tensegrity_id.identify.scoring.score_result` from a method's fit and
read by every table and figure.  Its parts:

* :class:`Parameters`: identified or exact parameters: ``sigma`` (N/m per
  cable; ``None`` where a method left a cable undetermined), ``c`` (N s/m),
  ``EA`` (N), ``force_scale`` (-, per driven coordinate) and its
  ``force_scale_channels``;
* :class:`Errors`: relative errors (%) over the identifiable cables only
  (``sigma_pct`` has ``None`` at inert and undetermined cables; every error
  ``None`` without exact parameters);
* :class:`RecordMetrics`: the fit metrics of each record of the problem;
* the method's own fields (all :func:`~.record.optional`: absent where a
  method does not produce them): the physics-informed training (``treatment``,
  ``train_wall_s``, ``steps_per_s``, ``step_mode``, :class:`Batch`,
  ``diverged``, ``final_losses``, ``detected_transitions``), the filters
  (``n_model_evaluations``, :class:`ParticleEss`, ``n_resample``, ``passes``),
  the regression (``iterations``, ``rms_residual_N``), the shooting
  (``chi2``, ``spurious_minimum``, :class:`Start` per start), the bounds of
  every method where no exact values exist or a force scale was fitted
  (:class:`~.fisher.IdentifiedBounds`, or ``bounds_failure``), the hybrid
  (``start_source``, ``fisher_at_start`` a :class:`~.fisher.LocalFisher`,
  :class:`StartedFrom`) and what the rules add (``records``, ``variant``,
  ``settings_overrides``).  A key no field declares is kept in ``extra``.

The metrics are defined in :mod:`tensegrity_id.identify.scoring`.  The
re-simulated series and the training history travel with a fresh record
(``series``, ``history``: :func:`~.record.transient`) to the files that keep
them; they are not in its JSON.

:class:`SeedGroupSummary` is a physics-informed seed group's summary
(``..._seeds_steps{steps}.json``, :mod:`tensegrity_id.identify.seeds`) and
:class:`VariantsResult` one method under several option sets
(``..._variants_{study}.json``, :func:`tensegrity_id.identify.base.run_variants`).

:data:`KEY` names every stored field of these kinds and their parts
(``KEY.sigma_max_pct == "sigma_max_pct"``): code that needs a key as a
string (a table column named after a result key) takes it from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fisher import IdentifiedBounds, LocalFisher
from .record import FieldNames, ResultPart, ResultRecord, optional, transient

__all__ = [
    "Parameters",
    "Errors",
    "RecordMetrics",
    "Batch",
    "ParticleEss",
    "Start",
    "StartedFrom",
    "IdentificationResult",
    "SeedStats",
    "SeedGroupSummary",
    "VariantRun",
    "VariantsResult",
    "KEY",
    "FIT_METRICS",
    "ERROR_SUMMARIES",
]


@dataclass(frozen=True, kw_only=True)
class Parameters(ResultPart):
    """Identified or exact parameters of a run."""

    sigma: list
    """Force density per cable, N/m (``None`` where undetermined)."""
    c: float | None
    """Damper coefficient, N s/m."""
    EA: float | None = optional()
    """Cable axial stiffness, N (identified only where asked; always in the exact parameters)."""
    force_scale: list | None = optional()
    """Factor on the recorded force per driven coordinate, - (where fitted or miscalibrated)."""
    force_scale_channels: list | None = optional()
    """``record:coordinate`` label of each force-scale factor (identified only)."""


@dataclass(frozen=True, kw_only=True)
class Errors(ResultPart):
    """Relative parameter errors (%) over the identifiable cables; ``None`` without exact values."""

    sigma_pct: list
    """Per cable; ``None`` at inert cables and where a cable was left undetermined."""
    sigma_max_pct: float | None
    sigma_median_pct: float | None
    c_pct: float | None
    EA_pct: float | None = optional()
    """Where the axial stiffness was identified and exact values exist."""
    force_scale_pct: list | None = optional()
    """Per factor, where the force scale was fitted and exact values exist."""


@dataclass(frozen=True, kw_only=True)
class RecordMetrics(ResultPart):
    """The fit metrics of one record of a problem (:mod:`tensegrity_id.identify.scoring`)."""

    held_out_ratio: float | None
    held_out_misfit_pct: float | None
    held_out_excess_pct: float | None
    train_misfit_ratio: float | None
    reconstruction_pct: float | None
    resimulation_pct: float | None
    resimulation_chi2: float | None
    n_transitions: int


@dataclass(frozen=True, kw_only=True)
class Batch(ResultPart):
    """The seeds trained together with a physics-informed run."""

    seeds: list
    size: int
    train_wall_s: float
    """The batch's training time, s."""


@dataclass(frozen=True, kw_only=True)
class ParticleEss(ResultPart):
    """The particle filter's effective sample size before each resampling decision."""

    t: list
    """Sample times, s."""
    value: list
    median: float
    min: float
    fraction_below_2: float
    n_particles: int


@dataclass(frozen=True, kw_only=True)
class Start(ResultPart):
    """One start of a Levenberg-Marquardt search: its guess, its end point and misfit."""

    start: list
    """``[sigma0, c0]`` (``sigma0`` one value or one per cable)."""
    sigma: list
    c: float
    force_scale: list | None = optional()
    chi2: float
    """Final mean squared misfit in noise variances (infinite for a failed start)."""
    spurious: bool
    status: int
    message: str
    failed: bool | None = optional()
    """``True`` for a start stopped by a linear-algebra failure."""
    n_simulations: int
    sigma_max_pct: float | None = optional()
    """Scored after the search, where exact values exist."""
    c_pct: float | None = optional()


@dataclass(frozen=True, kw_only=True)
class StartedFrom(ResultPart):
    """The physics-informed run a hybrid search started from (``pinn_lm``'s ``start``)."""

    file: str
    method: str
    steps: int | None
    identified: Parameters
    errors: Errors
    outcome: str | None
    resimulation_chi2: float | None


@dataclass(frozen=True, kw_only=True)
class IdentificationResult(ResultRecord):
    """One identification run (module docstring; the metrics in :mod:`tensegrity_id.identify.scoring`)."""

    KIND = "identification"
    VERSION = 1

    method: str
    structure: str
    record: str
    """The record's name (``+``-joined for several records fitted together)."""
    protocol: str | None
    seed: int
    steps: int | None
    """Training steps of an iterative method, else ``None``."""
    identified: Parameters
    exact: Parameters | None
    """``None`` for a measured record."""
    errors: Errors
    inert_members: list
    """Cables with both ends restrained (never counted)."""
    identifiable: list
    inert_values: dict
    """Identified force density (N/m) of each inert cable, by its index (a string key)."""
    reconstruction_pct: float | None
    held_out_ratio: float | None
    held_out_misfit_pct: float | None
    held_out_excess_pct: float | None
    train_misfit_ratio: float | None
    resimulation_pct: float | None
    resimulation_chi2: float | None
    per_record: dict[str, RecordMetrics]
    n_transitions: int
    outcome: str | None
    outcome_rule: str
    wall_s: float
    """The fit's wall time, s (a physics-informed batch's, shared by its seeds)."""
    n_forward_simulations: int
    n_hyperparameters: int
    options: dict
    # the physics-informed training
    treatment: str | None = optional()
    train_wall_s: float | None = optional()
    steps_per_s: float | None = optional()
    step_mode: str | None = optional()
    batch: Batch | None = optional()
    # the filters and the regression
    n_model_evaluations: int | None = optional()
    ess: ParticleEss | None = optional()
    n_resample: int | None = optional()
    passes: list | None = optional()
    iterations: int | None = optional()
    rms_residual_N: float | None = optional()
    # the shooting
    chi2: float | None = optional()
    spurious_minimum: bool | None = optional()
    starts: list[Start] | None = optional()
    diverged: Any = optional()
    """Truthy for a run stopped without an estimate (``False`` for a finished training)."""
    final_losses: dict | None = optional()
    detected_transitions: list | None = optional()
    bounds: IdentifiedBounds | None = optional()
    """Cramér-Rao bounds at the identified parameters (no exact values, or a force scale fitted)."""
    bounds_failure: str | None = optional()
    """Why the bounds are missing where they were due (the Fisher information could not be computed)."""
    # the hybrid and what the rules add
    start_source: str | None = optional()
    fisher_at_start: LocalFisher | None = optional()
    """The Fisher information of the record's channels at the start (``pinn_lm``)."""
    records: list | None = optional()
    start: StartedFrom | None = optional()
    variant: str | None = optional()
    settings_overrides: dict | None = optional()
    extra: dict = field(default_factory=dict)
    """Keys that no field declares (a method's new output)."""
    series: dict | None = transient()
    """The re-simulated series of the first record that has one (arrays; ``_series.npz``)."""
    history: list | None = transient()
    """The training history (rows; ``_history.csv``)."""


@dataclass(frozen=True, kw_only=True)
class SeedStats(ResultPart):
    """Statistics of one quantity over the finished seeds of a group (``None`` and ``n = 0`` for none)."""

    mean: float | None
    std: float | None
    """Sample standard deviation (ddof 1); ``None`` for one seed."""
    min: float | None
    max: float | None
    n: int


@dataclass(frozen=True, kw_only=True)
class SeedGroupSummary(ResultRecord):
    """A physics-informed seed group: every parameter, error and fit metric over its seeds.

    ``parameters`` by ``sigma_{k}``, ``c`` and ``EA`` (N/m, N s/m, N);
    ``errors`` by :data:`ERROR_SUMMARIES`, ``sigma_pct_{k}`` and ``EA_pct``
    (%); ``fit`` by :data:`FIT_METRICS`.  Diverged seeds are listed and left
    out of the statistics.
    """

    KIND = "identification_seed_group"
    VERSION = 1

    method: str
    structure: str
    record: str
    protocol: str | None
    steps: int | None
    variant: str | None
    seeds: list
    n_seeds: int
    diverged: list
    outcomes: dict
    """Label -> count."""
    parameters: dict[str, SeedStats]
    errors: dict[str, SeedStats]
    fit: dict[str, SeedStats]
    exact: Parameters | None
    wall_s: float
    """The wall times of the jobs that trained the group, summed, each batch once, s (its cost in
    job-seconds; with the group as one job, that job's wall time)."""


@dataclass(frozen=True, kw_only=True)
class VariantRun(ResultPart):
    """What a sensitivity study keeps of one option variant's run (every field written but a missing
    ``bounds_failure``)."""

    options: dict
    """The variant's options (merged over the study's)."""
    identified: Parameters
    errors: Errors
    chi2: float | None = None
    spurious_minimum: bool | None = None
    n_forward_simulations: int | None = None
    wall_s: float | None = None
    outcome: str | None = None
    resimulation_chi2: float | None = None
    bounds: IdentifiedBounds | None = None
    bounds_failure: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class VariantsResult(ResultRecord):
    """One method on one problem under several option sets (rule ``baseline_variants``)."""

    KIND = "identification_variants"
    VERSION = 1

    method: str
    structure: str
    record: str
    seed: int
    exact: Parameters | None
    inert_members: list
    variants: list[VariantRun]
    protocol: str | None = None


KEY = FieldNames(IdentificationResult, SeedGroupSummary, VariantsResult)
"""Every stored field name of the identification kinds and their parts, as an attribute."""

FIT_METRICS = (
    KEY.reconstruction_pct,
    KEY.held_out_ratio,
    KEY.held_out_misfit_pct,
    KEY.held_out_excess_pct,
    KEY.resimulation_pct,
)
"""The fit metrics a seed group summarises (attributes of :class:`IdentificationResult`)."""

ERROR_SUMMARIES = (KEY.sigma_max_pct, KEY.sigma_median_pct, KEY.c_pct)
"""The scalar errors a seed group summarises (attributes of :class:`Errors`)."""
