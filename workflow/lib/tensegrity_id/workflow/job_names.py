"""Names of jobs and their path tags: variants, seed sets, batch rules.

A PINN row may carry ``settings`` (overrides of ``identify.pinn.settings``:
width, depth, w_eom, w_bar, identify_EA, ...) and a ``variant`` name; its
results go to ``..._steps{steps}_{variant}.json``.  Without a name the
variant is named after its settings (``{w_bar: 10}`` -> ``wbar10``), so the
path reads as what changed.  The runs that differ only in their seed are one
batch job, tagged with their seeds (``0-7``).
"""

from __future__ import annotations

import re

__all__ = ["PINN_KEYS", "GROUP_KEYS", "seeds_label", "variant_name", "seed_groups"]

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
"""What the runs of one batch share (they differ only in their seed)."""


def seed_groups(rows: list[dict]) -> list[dict]:
    """PINN rows grouped by everything but the seed: one batch job each, in first-seen order."""
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
        name = re.sub(r"\W", "_", "_".join(["identify_pinn", *filter(None, map(str, parts))]))
        base, k = name, 2
        while name in names:
            name, k = f"{base}_{k}", k + 1
        names.add(name)
        out.append({**g, "rule": name})
    return out
