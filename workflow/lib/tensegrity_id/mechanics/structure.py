"""The validated, immutable tensegrity structure object.

A :class:`Structure` holds everything the mechanics needs to know about a
tensegrity before any prestress is chosen: node coordinates of the reference
(prestressed) configuration, bar and cable incidence, supports, member
properties and gravity.  Its constructor checks shapes, connectivity,
supports and units, so an invalid structure cannot exist; every error names
the structure, the field and the offending node or member.

Conventions
-----------
* Coordinates are ordered node by node: ``q = (x_0, y_0[, z_0], x_1, ...)``,
  so coordinate ``dim * i + a`` is axis ``a`` of node ``i``.  Planar
  structures (``dim = 2``) move in the x-y plane with gravity along -y;
  spatial ones (``dim = 3``) have gravity along -z.
* A support fixes individual coordinates (``fixed[i, a]``).  A free-standing
  form either carries a minimal grounding (six fixed coordinates in 3D) or
  none at all (free-free, e.g. the laboratory hexagonal prism); statics then
  counts on all coordinates (the paper §S3).
* Cable force densities ``sigma`` (N/m) are the prestress; they are attached
  with :meth:`Structure.with_prestress`, which also derives the member
  stiffness ``K = EA / L_ref + sigma`` and rest length
  ``L0 = L_ref (1 - sigma / K)`` (the paper §2.2), so that the reference
  configuration is an exact static equilibrium.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace

import numpy as np

__all__ = ["Structure", "StructureError", "GRAVITY"]

GRAVITY = 9.81
"""Standard gravitational acceleration used by the benchmarks (m/s^2)."""


class StructureError(ValueError):
    """An invalid structure definition; the message names the field."""


def _as_float_array(name, field_name, value, shape):
    arr = np.array(value, dtype=float)
    if arr.ndim == 0 and shape is not None:
        arr = np.full(shape, float(arr))
    if shape is not None and arr.shape != shape:
        raise StructureError(
            f"structure '{name}': field '{field_name}' has shape {arr.shape}, expected {shape}"
        )
    bad = np.flatnonzero(~np.isfinite(arr.ravel()))
    if bad.size:
        raise StructureError(
            f"structure '{name}': field '{field_name}' has a non-finite value at entry {int(bad[0])}"
        )
    arr.setflags(write=False)
    return arr


def _as_members(name, field_name, value, n_nodes):
    arr = np.array(value, dtype=int).reshape(-1, 2) if len(value) else np.zeros((0, 2), int)
    for k, (i, j) in enumerate(arr):
        for end in (i, j):
            if end < 0 or end >= n_nodes:
                raise StructureError(
                    f"structure '{name}': {field_name}[{k}] = ({i}, {j}) refers to "
                    f"node {end}, but nodes are numbered 0..{n_nodes - 1}"
                )
        if i == j:
            raise StructureError(f"structure '{name}': {field_name}[{k}] joins node {i} to itself")
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class Structure:
    """A tensegrity: geometry, incidence, supports and member properties.

    Parameters
    ----------
    name : str
        Identifier used in paths and tables (``[a-z0-9_]+``).
    nodes : array_like, shape (n_nodes, dim), metres
        Reference (prestressed) configuration; ``dim`` is 2 or 3.
    bars, cables : array_like of int, shape (n_bars, 2) / (n_cables, 2)
        Node pairs of the rigid bars and of the tension-only cables.
    fixed : array_like of bool, shape (n_nodes, dim)
        ``True`` where a coordinate is held by a support.
    bar_radius : float or array_like, shape (n_bars,), metres
    bar_density : float or array_like, shape (n_bars,), kg/m^3
    bar_mass : array_like, shape (n_bars,), kg, optional
        Measured bar masses; overrides ``density * pi r^2 L`` where given.
    cable_EA : float or array_like, shape (n_cables,), newtons
    cable_damping : float or array_like, shape (n_cables,), N s/m
        Axial viscous damper coefficient ``c_k`` (acts only while taut).
    gravity : float, m/s^2
        Magnitude of gravity along -y (2D) or -z (3D); 0 switches it off.
    free_standing : bool
        The form is self-equilibrated with no reactions: statics is counted on
        all coordinates and supports may be absent (free-free).
    sigma : array_like, shape (n_cables,), N/m, optional
        Cable force densities of the prestress (see :meth:`with_prestress`).
    bar_sigma : array_like, shape (n_bars,), N/m, optional
        Bar force densities balancing that prestress (negative = compression).
    description : str
        Free text, e.g. the published source of the geometry.
    """

    name: str
    nodes: np.ndarray
    bars: np.ndarray
    cables: np.ndarray
    fixed: np.ndarray
    bar_radius: np.ndarray = 0.05
    bar_density: np.ndarray = 500.0
    bar_mass: np.ndarray | None = None
    cable_EA: np.ndarray = 219.9114857512855
    cable_damping: np.ndarray = 1.0
    gravity: float = 0.0
    free_standing: bool = False
    sigma: np.ndarray | None = None
    bar_sigma: np.ndarray | None = None
    description: str = ""
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        set_ = object.__setattr__
        name = self.name
        if (
            not isinstance(name, str)
            or not name
            or not all(c.islower() or c.isdigit() or c == "_" for c in name)
        ):
            raise StructureError(
                f"structure name {name!r} must be non-empty lower-case letters, digits and underscores"
            )
        nodes = np.array(self.nodes, dtype=float)
        if nodes.ndim != 2 or nodes.shape[1] not in (2, 3) or nodes.shape[0] < 2:
            raise StructureError(
                f"structure '{name}': field 'nodes' must have shape (n_nodes >= 2, 2 or 3), got {nodes.shape}"
            )
        nodes = _as_float_array(name, "nodes", nodes, nodes.shape)
        set_(self, "nodes", nodes)
        n, dim = nodes.shape
        bars = _as_members(name, "bars", self.bars, n)
        cables = _as_members(name, "cables", self.cables, n)
        set_(self, "bars", bars)
        set_(self, "cables", cables)

        seen = {}
        for kind, arr in (("bars", bars), ("cables", cables)):
            for k, (i, j) in enumerate(arr):
                key = (min(i, j), max(i, j))
                if key in seen:
                    raise StructureError(
                        f"structure '{name}': {kind}[{k}] duplicates {seen[key]} "
                        f"(both join nodes {key[0]} and {key[1]})"
                    )
                seen[key] = f"{kind}[{k}]"
                length = np.linalg.norm(nodes[j] - nodes[i])
                if length < 1e-9 * max(1.0, np.abs(nodes).max()):
                    raise StructureError(
                        f"structure '{name}': {kind}[{k}] joins nodes {i} and {j}, "
                        "which coincide (zero-length member)"
                    )
        # coincident nodes that no member joins (a member between them is caught above): a duplicated
        # node row would otherwise surface as an infeasible prestress
        gap = np.linalg.norm(nodes[:, None, :] - nodes[None, :, :], axis=-1)
        i_c, j_c = np.nonzero(np.triu(gap < 1e-9 * max(1.0, np.abs(nodes).max()), k=1))
        if i_c.size:
            raise StructureError(
                f"structure '{name}': nodes {int(i_c[0])} and {int(j_c[0])} coincide (at "
                f"{np.round(nodes[i_c[0]], 9).tolist()}); merge them into one node or correct 'nodes'"
            )
        used = np.zeros(n, bool)
        used[bars.ravel()] = True
        used[cables.ravel()] = True
        if not used.all():
            raise StructureError(f"structure '{name}': node {int(np.flatnonzero(~used)[0])} has no members")

        fixed = np.array(self.fixed, dtype=bool)
        if fixed.shape != (n, dim):
            raise StructureError(
                f"structure '{name}': field 'fixed' has shape {fixed.shape}, expected {(n, dim)}"
            )
        fixed.setflags(write=False)
        set_(self, "fixed", fixed)
        if not fixed.any() and not self.free_standing:
            raise StructureError(
                f"structure '{name}': no coordinate is supported; fix coordinates in "
                "'fixed' (supports) or set 'free_standing: true' for a free-free form"
            )
        if fixed.all():
            raise StructureError(f"structure '{name}': every coordinate is fixed")

        nb, nc = len(bars), len(cables)
        for fname, shape in (
            ("bar_radius", (nb,)),
            ("bar_density", (nb,)),
            ("cable_EA", (nc,)),
            ("cable_damping", (nc,)),
        ):
            set_(self, fname, _as_float_array(name, fname, getattr(self, fname), shape))
        for fname in ("bar_radius", "cable_EA"):
            arr = getattr(self, fname)
            if (arr <= 0).any():
                k = int(np.flatnonzero(arr <= 0)[0])
                raise StructureError(f"structure '{name}': {fname}[{k}] must be > 0")
        for fname in ("bar_density", "cable_damping"):
            arr = getattr(self, fname)
            if (arr < 0).any():
                k = int(np.flatnonzero(arr < 0)[0])
                raise StructureError(f"structure '{name}': {fname}[{k}] must be >= 0")
        if self.bar_mass is not None:
            bm = _as_float_array(name, "bar_mass", self.bar_mass, (nb,))
            if (bm <= 0).any():
                k = int(np.flatnonzero(bm <= 0)[0])
                raise StructureError(f"structure '{name}': bar_mass[{k}] must be > 0 (kg)")
            set_(self, "bar_mass", bm)
        elif (self.bar_density <= 0).any():
            # the bars carry all the mass: a massless bar leaves its nodes without inertia
            k = int(np.flatnonzero(self.bar_density <= 0)[0])
            raise StructureError(
                f"structure '{name}': bar_density[{k}] must be > 0 (kg/m^3): the bars carry the "
                "structure's mass (or give the measured masses in 'bar_mass')"
            )
        if not np.isfinite(self.gravity) or self.gravity < 0:
            raise StructureError(f"structure '{name}': gravity must be a finite magnitude >= 0 (m/s^2)")
        set_(self, "gravity", float(self.gravity))
        set_(self, "free_standing", bool(self.free_standing))
        if self.sigma is not None:
            s = _as_float_array(name, "sigma", self.sigma, (nc,))
            if (s < 0).any():
                k = int(np.flatnonzero(s < 0)[0])
                raise StructureError(
                    f"structure '{name}': sigma[{k}] = {s[k]:.6g} N/m is negative; a "
                    "cable cannot carry compression"
                )
            set_(self, "sigma", s)
        if self.bar_sigma is not None:
            set_(self, "bar_sigma", _as_float_array(name, "bar_sigma", self.bar_sigma, (nb,)))

    # ------------------------------------------------------------------ sizes
    @property
    def dim(self) -> int:
        """Spatial dimension (2 or 3)."""
        return self.nodes.shape[1]

    @property
    def n_nodes(self) -> int:
        return self.nodes.shape[0]

    @property
    def n_bars(self) -> int:
        return len(self.bars)

    @property
    def n_cables(self) -> int:
        return len(self.cables)

    @property
    def n_members(self) -> int:
        return self.n_bars + self.n_cables

    @property
    def n_coords(self) -> int:
        return self.n_nodes * self.dim

    @property
    def free_mask(self) -> np.ndarray:
        """Boolean mask over the flattened coordinates, ``True`` where free."""
        return ~self.fixed.ravel()

    @property
    def n_free(self) -> int:
        return int(self.free_mask.sum())

    @property
    def q0(self) -> np.ndarray:
        """Reference configuration as a flat coordinate vector, metres."""
        return self.nodes.ravel().copy()

    # ------------------------------------------------------------- members
    @property
    def members(self) -> np.ndarray:
        """All members, bars first then cables, shape (n_members, 2)."""
        return np.vstack([self.bars, self.cables])

    @property
    def bar_lengths(self) -> np.ndarray:
        """Bar lengths in the reference configuration, metres."""
        return np.linalg.norm(self.nodes[self.bars[:, 1]] - self.nodes[self.bars[:, 0]], axis=1)

    @property
    def cable_lengths(self) -> np.ndarray:
        """Cable lengths L_ref in the reference configuration, metres."""
        return np.linalg.norm(self.nodes[self.cables[:, 1]] - self.nodes[self.cables[:, 0]], axis=1)

    @property
    def bar_masses(self) -> np.ndarray:
        """Bar masses, kg: measured where given, else rho * pi r^2 * L."""
        if self.bar_mass is not None:
            return np.array(self.bar_mass)
        return self.bar_density * np.pi * self.bar_radius**2 * self.bar_lengths

    @property
    def gravity_force(self) -> np.ndarray:
        """Generalised gravity force G on all coordinates, shape (n_coords,), N.

        A uniform rigid bar of mass m has its centre of mass at the midpoint
        of its end nodes, so its potential ``m g (z_i + z_j) / 2`` gives the
        generalised force ``-m g / 2`` on the vertical coordinate of each end.
        """
        G = np.zeros(self.n_coords)
        if self.gravity == 0.0:
            return G
        up = self.dim - 1
        half = 0.5 * self.bar_masses * self.gravity
        np.add.at(G, self.dim * self.bars[:, 0] + up, -half)
        np.add.at(G, self.dim * self.bars[:, 1] + up, -half)
        return G

    # ------------------------------------------------------------ prestress
    @property
    def has_prestress(self) -> bool:
        return self.sigma is not None

    def _require_prestress(self):
        if self.sigma is None:
            raise StructureError(f"structure '{self.name}' carries no prestress (sigma)")

    @property
    def cable_K(self) -> np.ndarray:
        """Cable stiffness K = EA / L_ref + sigma, N/m (the paper §2.2)."""
        self._require_prestress()
        return self.cable_EA / self.cable_lengths + self.sigma

    @property
    def cable_L0(self) -> np.ndarray:
        """Unstressed rest length L0 = L_ref (1 - sigma / K), metres."""
        return self.cable_lengths * (1.0 - self.sigma / self.cable_K)

    @property
    def cable_tension(self) -> np.ndarray:
        """Cable tensions T = sigma * L_ref at the reference configuration, N."""
        self._require_prestress()
        return self.sigma * self.cable_lengths

    def with_prestress(self, sigma, bar_sigma=None, **meta) -> Structure:
        """A copy carrying cable force densities ``sigma`` (N/m)."""
        return replace(self, sigma=sigma, bar_sigma=bar_sigma, meta={**self.meta, **meta})

    def with_changes(self, **changes) -> Structure:
        """A validated copy with some fields replaced."""
        return replace(self, **changes)

    # ------------------------------------------------------------- identity
    def geometry_dict(self) -> dict:
        """Plain-data form of the definition (what a structure file holds)."""
        d = {
            "name": self.name,
            "dim": self.dim,
            "nodes": self.nodes.tolist(),
            "bars": self.bars.tolist(),
            "cables": self.cables.tolist(),
            "fixed": [[int(i), int(a)] for i, a in zip(*np.nonzero(self.fixed), strict=False)],
            "bar_radius": self.bar_radius.tolist(),
            "bar_density": self.bar_density.tolist(),
            "cable_EA": self.cable_EA.tolist(),
            "cable_damping": self.cable_damping.tolist(),
            "gravity": self.gravity,
            "free_standing": self.free_standing,
            "description": self.description,
        }
        if self.bar_mass is not None:
            d["bar_mass"] = self.bar_mass.tolist()
        if self.sigma is not None:
            d["sigma"] = self.sigma.tolist()
        if self.bar_sigma is not None:
            d["bar_sigma"] = self.bar_sigma.tolist()
        return d

    def digest(self) -> str:
        """SHA-256 of the definition: records name the structure they came from."""
        payload = json.dumps(self.geometry_dict(), sort_keys=True).encode()
        return hashlib.sha256(payload).hexdigest()

    def __eq__(self, other):
        if not isinstance(other, Structure):
            return NotImplemented
        return self.geometry_dict() == other.geometry_dict()

    def __hash__(self):
        return hash(self.digest())

    def __repr__(self):
        return (
            f"Structure({self.name!r}, dim={self.dim}, nodes={self.n_nodes}, "
            f"bars={self.n_bars}, cables={self.n_cables}, free={self.n_free})"
        )
