"""Where the workflow's results live: one template per kind of file (the path provider).

``workflow/rules/common.smk`` builds every result path through
:func:`result_path` (pypsa-eur's ``resources()`` style), so a path is
spelled once.  A template's fields are run-sheet keys
(:mod:`tensegrity_id.workflow.runsheet`); the fields that are not given stay
``{wildcards}``, so the same template serves a rule's outputs and the inputs
that request concrete rows.  A PINN settings variant is written
``..._steps{steps}_{variant}`` (no suffix for the base settings).  The runs
of a PINN seed group (trained in one or more jobs) keep their per-seed files
(``..._seed{seed}_steps{steps}...``) beside the group's summary
(``..._seeds_steps{steps}...json``); a training job's checkpoint is named
after its seeds (``label``, e.g. ``0-7``).
"""

from __future__ import annotations

__all__ = ["RESULTS", "PATHS", "result_path"]

RESULTS = "results"

PATHS = {
    "structure": "structures/{structure}.json",
    "prism_range": "values/prism_twist_range.json",
    "threshold": "thresholds/{structure}/{threshold}.json",
    "record": "records/{structure}/{record}",
    "sensors": "sensors/{structure}/{record}/{protocol}.npz",
    "modal": "modal/{structure}.json",
    "fisher": "fisher/{structure}/{record}/{protocol}.json",
    "tableS3_totals": "values/tableS3_resolvable.json",
    "series": "values/{structure}_series_modal.json",
    "series_figure": "figures/{structure}_series_logslope",
    "grouping": "values/grouping_{structure}.json",
    "regression": "identify/regression/{structure}/{record}/fullstate_seed{seed}.json",
    "pinn": "identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}{variant}",
    "pinn_group": (
        "identify/pinn_{treatment}/{structure}/{record}/{protocol}_seeds_steps{steps}{variant}.json"
    ),
    "pinn_checkpoint": (
        "checkpoints/pinn_{treatment}/{structure}/{record}/{protocol}_seeds{label}_steps{steps}{variant}.pt"
    ),
    "compile_cache": "checkpoints/torchinductor",
    "pinn_lm": (
        "identify/pinn_lm/{structure}/{record}/{protocol}_{treatment}_seed{seed}_steps{steps}{variant}"
    ),
    "residual_checks": "values/residual_checks.json",
    "seed_study": "values/seed_study_{row}.json",
    "flexible_bars": "values/flexible_bar_convergence.json",
    "member_model": "values/member_model_adequacy.json",
    "quaternion_crosscheck": "values/quaternion_crosscheck.json",
    "scorecard": "values/scorecard.json",
    "bar_stiffness": "values/bar_stiffness_sensitivity.json",
    "study_values": "values/{figure}.json",
    "baseline": "identify/{method}/{structure}/{record}/{protocol}_seed{seed}",
    "landscape": "values/lm_landscape/{structure}/{record}/{protocol}.json",
    "springrod": "identify/springrod/summary.json",
    "assess": "assess/{structure}.json",
    "assess_scan": "assess/scan/{structure}.json",
    "assess_record": "assess/records/{structure}/{record}.json",
    "assess_steel": "assess/steel/{structure}.json",
    "table": "tables/{table}",
    "figure": "figures/{figure}",
    "record_figure": "figures/records/{structure}/{record}",
    "energy_figure": "figures/figS4_energy/{structure}/{record}",
    "hexprism_modal": "values/hexprism_modal_id.json",
    "simplex_model": "values/simplex_model.json",
    "simplex_extraction": "values/simplex_frequency_extraction.json",
    "simplex_strikes": "values/simplex_strikes.npz",
    "simplex_prestress": "values/simplex_prestress_id.json",
    "damping_limit": "values/damping_limit.json",
    # a user's own records and peak lists: under measured/{structure}/, where no study output can collide
    "measured_screening": "measured/{structure}/{record}/screening.json",
    "measured_assessment": "measured/{structure}/{record}/assessment.json",
    "measured_summary": "measured/{structure}/{record}/summary",
    "measured_fit": "measured/{structure}/{record}/fit",
    "peaks": "measured/{structure}/peaks/{name}",
}
"""Kind -> template under ``results/`` (the extension, where a kind has several files, is the suffix)."""


class _KeepWildcards(dict):
    def __missing__(self, key):
        return f"{{{key}}}"


def result_path(kind: str, suffix: str = "", **keys) -> str:
    """The path of a result ``kind`` for ``keys`` (a run-sheet row works; other keys are ignored).

    Examples
    --------
    >>> result_path("fisher", structure="x1", record="taut_1pt", protocol="top_node")
    'results/fisher/x1/taut_1pt/top_node.json'
    >>> result_path("record", ".npz", structure="x1")
    'results/records/x1/{record}.npz'
    >>> result_path("pinn", ".json", structure="x1", record="r", protocol="p", treatment="smooth",
    ...             steps=300, seed=0, variant="wbar10")
    'results/identify/pinn_smooth/x1/r/p_seed0_steps300_wbar10.json'
    """
    if kind not in PATHS:
        raise KeyError(f"unknown result kind {kind!r} (known: {', '.join(sorted(PATHS))})")
    fill = {k: v for k, v in keys.items() if isinstance(v, str | int) and not isinstance(v, bool)}
    if "variant" in fill:
        fill["variant"] = f"_{str(fill['variant']).lstrip('_')}" if fill["variant"] else ""
    return f"{RESULTS}/{PATHS[kind].format_map(_KeepWildcards(fill))}{suffix}"
