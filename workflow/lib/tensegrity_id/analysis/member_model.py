"""Adequacy of the nodal member model (the paper §2.2 and §5).

The identification treats cables as massless chords and bars as rigid links,
so a member's own dynamics is discarded.  This module measures how far that
idealisation is from a member-resolved description, per cable of a structure
and over its records:

* the crossover tension ``T* = E_c I_c (pi / L)^2`` below which bending, not
  tension, carries a cable's transverse stiffness (the taut-string model
  degenerates at slack, the beam-string does not);
* the cable's axial fundamental ``(1 / 2L) sqrt(EA / mu)`` and its transverse
  fundamental as a pinned beam-string, ``(1 / 2L) sqrt(T / mu + EI (pi/L)^2 / mu)``,
  at the static tension and at zero tension, against the mechanism modes;
* over the records, the smallest working (taut) tension and the share of
  cable-samples below ``T*``, slack ones included: where the nodal model is
  inaccurate, measured by ``T* / T``.

The cable section is solid and round of radius ``radius`` (the benchmarks'
1 mm, :data:`~tensegrity_id.mechanics.generators.CABLE_RADIUS`); the modulus
follows from the structure's ``cable_EA``; the linear density is the one the
cable-mass generator derives from the paper's 1.2 % of the structural mass
(:func:`~tensegrity_id.mechanics.model_form.cable_mass_matrix`).  Bar axial
fundamentals use the bars' modulus ``E_bar`` (the elastic-bar generator's
default) and their density from mass and section, as a free-free rod,
``(1 / 2L) sqrt(E / rho)``.
"""

from __future__ import annotations

import numpy as np

from ..mechanics.generators import CABLE_RADIUS
from ..mechanics.model_form import DEFAULT_E_BAR, cable_mass_matrix
from ..mechanics.structure import Structure

__all__ = ["cable_member_frequencies", "member_model_adequacy"]


def cable_member_frequencies(
    structure: Structure, *, radius: float = CABLE_RADIUS, mass_fraction: float = 0.012
):
    """Per cable: length (m), static tension (N), ``T*`` (N) and fundamentals (Hz).

    Returns a dict of per-cable arrays ``L_m``, ``tension_N``, ``T_star_N``,
    ``axial_hz``, ``transverse_hz`` (at the static tension), ``transverse_slack_hz``
    (at zero tension, bending only) and ``transverse_string_slack_hz`` (the
    taut-string model at zero tension: 0, the degeneracy), plus the scalars
    ``E_cable_Pa``, ``I_m4`` and ``linear_density_kg_m``.
    """
    L = structure.cable_lengths
    EA = np.broadcast_to(np.asarray(structure.cable_EA, float), L.shape)
    area = np.pi * radius**2
    E, I = EA / area, np.pi * radius**4 / 4
    mu = cable_mass_matrix(structure, mass_fraction=mass_fraction)[1]["linear_density_kg_m"]
    T = structure.cable_tension
    T_star = E * I * (np.pi / L) ** 2
    k1 = np.pi / L
    return {
        "L_m": L,
        "tension_N": T,
        "T_star_N": T_star,
        "axial_hz": np.sqrt(EA / mu) / (2 * L),
        "transverse_hz": k1 * np.sqrt((T + E * I * k1**2) / mu) / (2 * np.pi),
        "transverse_slack_hz": k1 * np.sqrt(E * I * k1**2 / mu) / (2 * np.pi),
        "transverse_string_slack_hz": np.zeros_like(L),
        "E_cable_Pa": E,
        "I_m4": I,
        "linear_density_kg_m": mu,
    }


def member_model_adequacy(
    structure: Structure,
    records: dict,
    mechanism_hz,
    *,
    radius: float = CABLE_RADIUS,
    mass_fraction: float = 0.012,
    E_bar: float = DEFAULT_E_BAR,
) -> dict:
    """The nodal model's adequacy for one structure (JSON-ready).

    Parameters
    ----------
    structure : Structure
        With its prestress (``sigma``).
    records : dict of name -> record arrays
        Stored records of the residual's own model (``tension`` and ``taut``
        arrays, as :func:`~tensegrity_id.data.records.load_record` gives them).
    mechanism_hz : array_like
        The structure's constrained (mechanism) natural frequencies, Hz.
    """
    c = cable_member_frequencies(structure, radius=radius, mass_fraction=mass_fraction)
    T_star = c["T_star_N"]
    per_record = {}
    below = total = 0
    min_working = np.inf
    for name, rec in records.items():
        ten = np.asarray(rec["tension"], float)
        taut = np.asarray(rec["taut"], bool) & (ten > 0)
        n_below = int((ten < T_star[None, :]).sum())  # slack samples count: T = 0 < T*
        working = float(ten[taut].min()) if taut.any() else float("nan")
        per_record[name] = {
            "min_working_tension_N": working,
            "fraction_below_T_star": n_below / ten.size,
            "fraction_slack": float((~taut).sum() / ten.size),
            "fraction_taut_below_T_star": float((taut & (ten < T_star[None, :])).sum() / ten.size),
            "max_T_star_over_working": float((T_star[None, :] / np.where(taut, ten, np.inf)).max()),
        }
        below, total = below + n_below, total + ten.size
        if taut.any():
            min_working = min(min_working, working)
    Lb = structure.bar_lengths
    rho = structure.bar_masses / (np.pi * np.asarray(structure.bar_radius, float) ** 2 * Lb)
    bar_axial = np.sqrt(E_bar / rho) / (2 * Lb)
    mech = np.asarray(mechanism_hz, float)
    mech = mech[mech > 0]
    return {
        "structure": structure.name,
        "cable_radius_m": radius,
        "E_cable_Pa": float(np.max(c["E_cable_Pa"])),
        "I_m4": c["I_m4"],
        "linear_density_kg_m": c["linear_density_kg_m"],
        "E_bar_Pa": E_bar,
        "T_star_N": {"min": float(T_star.min()), "max": float(T_star.max()), "per_cable": T_star.tolist()},
        "static_tension_N": {"min": float(c["tension_N"].min()), "max": float(c["tension_N"].max())},
        "static_T_star_over_T_max": float((T_star / c["tension_N"]).max()),
        "cable_axial_hz": {"min": float(c["axial_hz"].min()), "max": float(c["axial_hz"].max())},
        "cable_transverse_hz": {
            "min": float(c["transverse_hz"].min()),
            "max": float(c["transverse_hz"].max()),
        },
        "cable_transverse_slack_hz": {
            "beam_string_min": float(c["transverse_slack_hz"].min()),
            "taut_string": 0.0,
        },
        "bar_axial_hz": {"min": float(bar_axial.min()), "max": float(bar_axial.max())},
        "mechanism_hz": {"lowest": float(mech.min()), "highest": float(mech.max()), "all": mech.tolist()},
        "separation": {
            "cable_transverse_over_mechanism": float(c["transverse_hz"].min() / mech.max()),
            "cable_axial_over_mechanism": float(c["axial_hz"].min() / mech.max()),
            "bar_axial_over_mechanism": float(bar_axial.min() / mech.max()),
        },
        "records": per_record,
        "min_working_tension_N": float(min_working) if np.isfinite(min_working) else None,
        "fraction_below_T_star": below / total if total else None,
    }
