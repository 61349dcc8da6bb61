"""Named structures: build from a generator or a file, attach prestress, report.

The workflow's config names every structure and how to make it::

    x1:
      generator: xframe            # a key of GENERATORS, or
      params: {n_modules: 1}
      # file: resources/structures/my_frame.yaml
      prestress: {method: lp, sigma_min: 25.0}

:func:`build_structure` turns one such entry into a prestressed
:class:`~tensegrity_id.mechanics.structure.Structure`; :func:`structure_report` gives
the plain-data record written to ``results/structures/{structure}.json``.
"""

from __future__ import annotations

import numpy as np

from . import generators
from .statics import PrestressError, apply_prestress, counts, static_residual
from .structure import Structure
from .structure_io import load_structure, structure_from_dict

__all__ = ["GENERATORS", "CatalogError", "build_structure", "structure_report", "structure_from_report"]

GENERATORS = {
    "xframe": generators.xframe,
    "x5_bridge": generators.x5_bridge,
    "prism": generators.prism,
    "hexprism": generators.hexprism,
    "expanded_octahedron": generators.expanded_octahedron,
    "truncated_tetrahedron": generators.truncated_tetrahedron,
    "class1_cell": generators.class1_cell,
    "octahedral_cell": generators.octahedral_cell,
    "dome": generators.dome,
    "two_stage_tower": generators.two_stage_tower,
}
"""Structure generators by the name used in the config's ``generator`` key."""


class CatalogError(ValueError):
    """A structure entry of the config that cannot be built."""


def build_geometry(name: str, spec: dict) -> Structure:
    """The structure of one config entry, without prestress."""
    if "file" in spec:
        s = load_structure(spec["file"])
        if s.name != name:
            s = s.with_changes(name=name)
        return s
    gen = spec.get("generator")
    if gen not in GENERATORS:
        raise CatalogError(
            f"structures.{name}.generator: unknown generator {gen!r}; choose one of "
            f"{', '.join(sorted(GENERATORS))} or give 'file'"
        )
    try:
        return GENERATORS[gen](name=name, **spec.get("params", {}))
    except TypeError as exc:
        raise CatalogError(f"structures.{name}.params: {exc}") from None


def build_structure(name: str, spec: dict) -> Structure:
    """Build and prestress the structure of one config entry."""
    return apply_prestress(
        build_geometry(name, spec), spec.get("prestress", {"method": "lp", "sigma_min": 25.0})
    )


def structure_report(structure: Structure, prestress_spec: dict | None = None) -> dict:
    """Plain-data record of a prestressed structure (the results-file contract).

    Keys: ``structure`` (the structure-file document, reloadable), ``members``
    (one row per member: kind, nodes, L_ref, EA, c, sigma, K, L0 for cables;
    kind, nodes, L_ref, sigma, mass for bars), ``masses``, ``counts``
    ``{n_free, n_members, rank_A, s, m}``, ``prestress`` and ``digest``.
    """
    if not structure.has_prestress:
        raise PrestressError(f"structure '{structure.name}' carries no prestress")
    rows = []
    Lb, mb = structure.bar_lengths, structure.bar_masses
    for k, (i, j) in enumerate(structure.bars):
        rows.append(
            {
                "kind": "bar",
                "index": k,
                "nodes": [int(i), int(j)],
                "L_ref": float(Lb[k]),
                "sigma": float(structure.bar_sigma[k]),
                "force": float(structure.bar_sigma[k] * Lb[k]),
                "mass": float(mb[k]),
                "radius": float(structure.bar_radius[k]),
            }
        )
    Lc, K, L0 = structure.cable_lengths, structure.cable_K, structure.cable_L0
    for k, (i, j) in enumerate(structure.cables):
        rows.append(
            {
                "kind": "cable",
                "index": k,
                "nodes": [int(i), int(j)],
                "L_ref": float(Lc[k]),
                "EA": float(structure.cable_EA[k]),
                "c": float(structure.cable_damping[k]),
                "sigma": float(structure.sigma[k]),
                "tension": float(structure.sigma[k] * Lc[k]),
                "K": float(K[k]),
                "L0": float(L0[k]),
            }
        )
    res = static_residual(structure, structure.sigma, structure.bar_sigma)
    return {
        "name": structure.name,
        "digest": structure.digest(),
        "structure": structure.geometry_dict(),
        "members": rows,
        "masses": {"bars_kg": mb.tolist(), "total_kg": float(mb.sum())},
        "counts": counts(structure).as_dict(),
        "prestress": {
            **(prestress_spec or {}),
            "all_bars_compressed": bool((structure.bar_sigma < 0).all()),
            "max_static_residual_N": float(np.abs(res).max()) if res.size else 0.0,
            "total_cable_force_density": float(structure.sigma.sum()),
        },
    }


def structure_from_report(report: dict) -> Structure:
    """Rebuild the prestressed structure from its results record."""
    return structure_from_dict(report["structure"], source=f"results record of {report.get('name')}")
