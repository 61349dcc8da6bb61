"""Names of jobs and their path tags: variants, seed sets, seed groups and their training jobs.

A PINN row may carry ``settings`` (overrides of ``identify.pinn.settings``:
width, depth, w_eom, w_bar, identify_EA, ...) and a ``variant`` name; its
results go to ``..._steps{steps}_{variant}.json``.  Without a name the
variant is named after its settings (``{w_bar: 10}`` -> ``wbar10``), so the
path reads as what changed.  The runs that differ only in their seed are a
seed group (:func:`seed_groups`); a group trains as one or more jobs of at
most ``seeds_per_job`` seeds each (:func:`seed_jobs`), each job one batch,
tagged with its seeds (``0-7`` in paths, ``seeds0to7`` in its rule name).
"""

from __future__ import annotations

import re

__all__ = [
    "PINN_KEYS",
    "GROUP_KEYS",
    "seeds_label",
    "seeds_rule_tag",
    "variant_name",
    "seed_groups",
    "seed_jobs",
]

PINN_KEYS = ("structure", "record", "protocol", "treatment", "steps", "seed", "variant")
"""The keys that name one physics-informed run."""


def seeds_label(seeds) -> str:
    """A path tag for a set of seeds: runs of consecutive seeds as ``a-b``, joined by dots.

    >>> seeds_label([0, 1, 2, 3]), seeds_label([0, 2, 5, 6]), seeds_label([4])
    ('0-3', '0.2.5-6', '4')
    """
    vals = sorted({int(s) for s in seeds})
    parts, start = [], None
    for k, v in enumerate(vals):
        start = v if start is None else start
        if k + 1 == len(vals) or vals[k + 1] != v + 1:
            parts.append(str(v) if start == v else f"{start}-{v}")
            start = None
    return ".".join(parts)


def _token(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return re.sub(r"[^a-z0-9.]", "", str(value).lower().replace("-", "m"))


def variant_name(settings: dict) -> str:
    """A readable path tag for a set of PINN setting overrides: ``{w_bar: 10}`` -> ``wbar10``."""
    return "_".join(f"{k.replace('_', '').lower()}{_token(v)}" for k, v in sorted(settings.items()))


GROUP_KEYS = tuple(k for k in PINN_KEYS if k != "seed")
"""What the runs of one seed group share (they differ only in their seed)."""


def seed_groups(rows: list[dict]) -> list[dict]:
    """PINN rows grouped by everything but their random seed, in first-seen order.

    Each group holds the shared keys (:data:`GROUP_KEYS`), ``settings``,
    ``seeds`` (sorted), ``label`` (:func:`seeds_label`) and ``name``: an
    identifier unique among the groups (``identify_pinn_smooth_x1_taut_1pt_top_node_steps300``),
    the stem of its jobs' rule names (:func:`seed_jobs`).
    """
    groups: dict = {}
    for r in rows:
        g = groups.setdefault(tuple(r[k] for k in GROUP_KEYS), {**{k: r[k] for k in GROUP_KEYS}, "seeds": []})
        g["settings"] = r["settings"]
        g["seeds"].append(int(r["seed"]))
    out, names = [], set()
    for g in groups.values():
        g["seeds"] = sorted(set(g["seeds"]))
        g["label"] = seeds_label(g["seeds"])
        parts = [
            g["treatment"],
            g["structure"],
            g["record"],
            g["protocol"],
            f"steps{g['steps']}",
            g["variant"],
        ]
        out.append({**g, "name": _unique_name(_identifier("identify_pinn", *parts), names)})
    return out


def seeds_rule_tag(seeds) -> str:
    """A rule-name tag for a set of seeds: :func:`seeds_label` with ``to`` for ``-`` and ``_`` for ``.``.

    >>> seeds_rule_tag([4]), seeds_rule_tag([0, 1, 2]), seeds_rule_tag([0, 2, 5, 6])
    ('seed4', 'seeds0to2', 'seeds0_2_5to6')
    """
    label = seeds_label(seeds)
    prefix = "seed" if len(set(seeds)) == 1 else "seeds"
    return prefix + label.replace("-", "to").replace(".", "_")


def seed_jobs(groups: list[dict], seeds_per_job: int) -> list[dict]:
    """The training jobs of seed groups: each group's sorted seeds in consecutive chunks of at most
    ``seeds_per_job``, one job (one batch) per chunk, in group order.

    A job is its group's row (:func:`seed_groups`) with ``seeds`` and ``label`` its own chunk's
    and ``rule``: its rule name, the group's ``name`` and
    :func:`seeds_rule_tag` of its seeds (``..._steps300_seed0``, ``..._steps300_seeds0to7``),
    unique among the jobs and a valid Python identifier.

    >>> g = seed_groups([{"structure": "x1", "record": "r", "protocol": "p", "treatment": "smooth",
    ...                   "steps": 300, "variant": "", "settings": {}, "seed": s} for s in range(5)])
    >>> [(j["seeds"], j["rule"]) for j in seed_jobs(g, 2)]  # doctest: +NORMALIZE_WHITESPACE
    [([0, 1], 'identify_pinn_smooth_x1_r_p_steps300_seeds0to1'),
     ([2, 3], 'identify_pinn_smooth_x1_r_p_steps300_seeds2to3'),
     ([4], 'identify_pinn_smooth_x1_r_p_steps300_seed4')]
    """
    if isinstance(seeds_per_job, bool) or not isinstance(seeds_per_job, int) or seeds_per_job < 1:
        raise ValueError(f"seeds_per_job must be an integer >= 1, not {seeds_per_job!r}")
    out, names = [], set()
    for g in groups:
        for k in range(0, len(g["seeds"]), seeds_per_job):
            chunk = g["seeds"][k : k + seeds_per_job]
            rule = _unique_name(f"{g['name']}_{seeds_rule_tag(chunk)}", names)
            out.append({**g, "seeds": chunk, "label": seeds_label(chunk), "rule": rule})
    return out


def _identifier(*parts) -> str:
    return re.sub(r"\W", "_", "_".join(filter(None, map(str, parts))))


def _unique_name(name: str, taken: set) -> str:
    """``name``, or ``name_2``, ``name_3``, ... if taken; recorded as taken."""
    base, k = name, 2
    while name in taken:
        name, k = f"{base}_{k}", k + 1
    taken.add(name)
    return name
