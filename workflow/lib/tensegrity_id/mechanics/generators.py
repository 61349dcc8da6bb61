"""Generators of the benchmark and classic tensegrity structures.

Every generator returns a :class:`~tensegrity_id.mechanics.structure.Structure` without
prestress; :func:`tensegrity_id.mechanics.statics.apply_prestress` attaches it.  Member
properties default to the synthetic benchmarks of Table S2: cables of radius
1 mm and modulus 70 MPa (``EA = 70e6 * pi * 1e-6 = 219.9 N``) with
``c = 1 N s/m``; rigid bars of radius 5 cm and density 500 kg/m^3.

Where the paper gives no geometry, the choice made here is stated in the
generator's docstring together with its source; the Maxwell counts of every
form are those of Table S3 (checked by the tests).
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.optimize import brentq

from .formfinding import find_superstable_form
from .statics import minimal_grounding
from .structure import GRAVITY, Structure

__all__ = [
    "BENCHMARK_MEMBERS",
    "xframe",
    "x5_bridge",
    "prism",
    "hexprism",
    "expanded_octahedron",
    "truncated_tetrahedron",
    "class1_cell",
    "octahedral_cell",
    "dome",
    "two_stage_tower",
]

CABLE_RADIUS = 1e-3
CABLE_MODULUS = 70e6
BENCHMARK_MEMBERS = {
    "cable_EA": CABLE_MODULUS * np.pi * CABLE_RADIUS**2,
    "cable_damping": 1.0,
    "bar_radius": 0.05,
    "bar_density": 500.0,
}
"""Member properties of the synthetic benchmarks (Table S2)."""


def _members(overrides: dict | None) -> dict:
    props = dict(BENCHMARK_MEMBERS)
    props.update(overrides or {})
    return props


# --------------------------------------------------------------------- frames
def xframe(
    n_modules: int,
    *,
    name: str | None = None,
    module_width: float = 1.0,
    module_height: float = 1.0,
    gravity: float = GRAVITY,
    extra_pinned_columns=(),
    members: dict | None = None,
) -> Structure:
    """Planar X_n frame: ``n`` Snelson X-modules chained along x (the paper §2.3).

    Columns ``j = 0..n`` stand at ``x = j * width``; node ``2j`` is the base
    node and ``2j + 1`` the top node of column ``j`` (so the top node of the
    middle column of X2 is node 3, locked by its two bars to the pinned
    supports, as in the paper).  Module ``j`` has the two diagonals as bars,
    ``(2j, 2j+3)`` and ``(2j+1, 2j+2)``.  Cables are listed as the base chord
    ``(2j, 2j+2)``, then the top chord ``(2j+1, 2j+3)``, then the verticals
    ``(2j, 2j+1)``: ``2(n+1)`` nodes, ``2n`` bars, ``3n + 1`` cables.  The two
    end base nodes are pinned; motion is confined to the plane.

    The paper calls the frames "staircases" of X-modules without giving
    coordinates beyond the 1 m x 1 m module (bars are the 1.414 m
    diagonals); modules are chained here on one level, which gives the
    node, bar, cable and DOF counts of Table 1 and the Maxwell counts of
    Table S3.
    """
    n = int(n_modules)
    if n < 1:
        raise ValueError("n_modules must be >= 1")
    nodes = []
    for j in range(n + 1):
        nodes += [(j * module_width, 0.0), (j * module_width, module_height)]
    bars = []
    for j in range(n):
        bars += [(2 * j, 2 * j + 3), (2 * j + 1, 2 * j + 2)]
    cables = [(2 * j, 2 * j + 2) for j in range(n)]
    cables += [(2 * j + 1, 2 * j + 3) for j in range(n)]
    cables += [(2 * j, 2 * j + 1) for j in range(n + 1)]
    fixed = np.zeros((2 * (n + 1), 2), bool)
    for col in (0, n, *extra_pinned_columns):
        if not 0 <= col <= n:
            raise ValueError(f"pinned column {col} outside 0..{n}")
        fixed[2 * col] = True
    return Structure(
        name or f"x{n}",
        np.array(nodes),
        bars,
        cables,
        fixed,
        gravity=gravity,
        description=f"planar X{n} frame of Snelson X-modules, end base nodes pinned",
        **_members(members),
    )


def x5_bridge(*, interior_column: int = 2, name: str = "x5_bridge", **kwargs) -> Structure:
    """Two-span bridge: the X5 frame with one intermediate base node pinned.

    The paper pins "one intermediate base node" and notes that the top-chord
    node next to that support is held by its two bars to pinned base nodes.
    With the module layout of :func:`xframe` this holds for the base node of
    column 2 (or, mirrored, 3); column 2 is used: spans of two and three
    modules, 18 free coordinates and 8 DOFs.
    """
    s = xframe(5, name=name, extra_pinned_columns=(interior_column,), **kwargs)
    return s.with_changes(description=f"X5 two-span bridge, base node of column {interior_column} pinned")


# --------------------------------------------------------------------- prisms
def prism(
    n_bars: int = 3,
    *,
    twist_deg: float | None = None,
    radius: float = 1.0,
    height: float = 1.0,
    gravity: float = 0.0,
    pinned_base: bool = True,
    name: str | None = None,
    members: dict | None = None,
) -> Structure:
    """Regular tensegrity prism T_n (triplex for n = 3).

    Base nodes ``0..n-1`` at angles ``2 pi i / n`` on a circle of ``radius``
    at ``z = 0``; top nodes ``n..2n-1`` at ``z = height`` rotated by the twist
    angle.  Cables are the base polygon, the top polygon and the cross
    (vertical) cables base ``i`` to top ``i``, in that order; bars join base
    ``i`` to top ``i + 1``, so they span ``twist + 360/n`` degrees and are the
    long diagonals.  With this connectivity the free-floating
    prism has its pure self-stress at the classical twist
    ``90 - 180 / n`` degrees (Kenner 1976; Tibert & Pellegrino 2003), the
    default.  ``pinned_base`` fixes the base polygon (Table S3 counts the
    prisms on their free coordinates).  The paper gives no proportions: the
    Table S3 prisms are built at ``height = 2 * radius`` (config), read off
    the paper's own margins of T3, T4 and T6 (with the smallest cable at
    10 N/m), and the defaults here are the benchmark prism's ``h = R``.
    """
    n = int(n_bars)
    if twist_deg is None:
        twist_deg = 90.0 - 180.0 / n
    a = np.radians(twist_deg)
    th = 2 * np.pi * np.arange(n) / n
    base = np.c_[radius * np.cos(th), radius * np.sin(th), np.zeros(n)]
    top = np.c_[radius * np.cos(th + a), radius * np.sin(th + a), np.full(n, height)]
    bars = [(i, n + (i + 1) % n) for i in range(n)]
    cables = [(i, (i + 1) % n) for i in range(n)]
    cables += [(n + i, n + (i + 1) % n) for i in range(n)]
    cables += [(i, n + i) for i in range(n)]
    fixed = np.zeros((2 * n, 3), bool)
    if pinned_base:
        fixed[:n] = True
    return Structure(
        name or f"t{n}_prism",
        np.vstack([base, top]),
        bars,
        cables,
        fixed,
        gravity=gravity,
        free_standing=not pinned_base,
        description=f"T{n} tensegrity prism, twist {twist_deg:g} deg, "
        + ("base pinned" if pinned_base else "free-free"),
        **_members(members),
    )


def hexprism(
    *,
    ring_tension: float = 10.0,
    vertical_tension: float = 11.88,
    ring_prestretch: float = 14.4e-3,
    cable_EA: float = 379.0,
    bar_mass: float = 0.0423,
    name: str = "hexprism",
) -> Structure:
    """Hexagonal laboratory prism of Huang et al. (the paper §4.10), free-free.

    Published values used: ``EA = 379 N``, bar mass 42.3 g, design ring
    tension 10 N, vertical-cable tension 11.88 N under the single
    self-stress mode.  The paper does not reprint the coordinates, so the
    two lengths are recovered from two further published statements:

    * the shortest (ring) cable has 14.4 mm of prestretch at 10 N:
      ``L - L0 = T L / (EA + T)`` gives the ring length, which for a
      regular hexagon equals its circumradius;
    * the height is the one at which the self-stress mode of the T6 prism
      at its 60 deg twist has vertical : ring tension = 11.88 : 10.
    """
    L_ring = ring_prestretch * (cable_EA + ring_tension) / ring_tension
    radius = L_ring  # side of a regular hexagon = circumradius

    def ratio(h):
        s = prism(6, radius=radius, height=h, pinned_base=False)
        from .statics import prestress_selfstress

        sig, _ = prestress_selfstress(s, scale=1.0)
        T = sig * s.cable_lengths
        return T[12:].mean() / T[:6].mean() - vertical_tension / ring_tension

    height = brentq(ratio, 0.05 * radius, 20 * radius, xtol=1e-12)
    s = prism(6, radius=radius, height=height, pinned_base=False, name=name, members={"cable_EA": cable_EA})
    return s.with_changes(
        bar_mass=np.full(6, bar_mass),
        description=(
            "hexagonal laboratory prism of Huang et al. (free-free): ring "
            f"{L_ring:.4f} m, height {height:.4f} m, EA {cable_EA:g} N, bar mass {bar_mass * 1e3:g} g"
        ),
    )


# ------------------------------------------------------- free-standing forms
def _free_standing(name, nodes, bars, cables, description, bar_length, members):
    nodes = np.asarray(nodes, float)
    nodes = nodes - nodes.mean(axis=0)
    lengths = np.linalg.norm(nodes[np.asarray(bars)[:, 1]] - nodes[np.asarray(bars)[:, 0]], axis=1)
    nodes = nodes * (bar_length / lengths.mean())
    return Structure(
        name,
        nodes,
        bars,
        cables,
        minimal_grounding(nodes),
        free_standing=True,
        description=description + "; minimally grounded (3-2-1)",
        **_members(members),
    )


def expanded_octahedron(*, bar_length: float = 1.0, members=None, name="expanded_octahedron"):
    """Expanded octahedron, the six-strut tensegrity icosahedron (Pugh 1976).

    Three pairs of parallel struts along x, y and z; the 24 cables are the
    edges of the eight octant triangles.  Nodes ``(+-a, 0, +-b)`` and their
    cyclic permutations with ``b = a / 2``, the classical self-stressed
    geometry (Tibert & Pellegrino 2003), exact to machine precision.
    """
    a, b = 1.0, 0.5
    idx, nodes = {}, []
    for s1, s2 in itertools.product((1, -1), repeat=2):
        idx[("x", s1, s2)] = len(nodes)
        nodes.append((s1 * a, 0.0, s2 * b))  # strut along x at z = s2 b
    for s1, s2 in itertools.product((1, -1), repeat=2):
        idx[("y", s1, s2)] = len(nodes)
        nodes.append((s2 * b, s1 * a, 0.0))  # strut along y at x = s2 b
    for s1, s2 in itertools.product((1, -1), repeat=2):
        idx[("z", s1, s2)] = len(nodes)
        nodes.append((0.0, s2 * b, s1 * a))  # strut along z at y = s2 b
    bars = [(idx[(ax, 1, s)], idx[(ax, -1, s)]) for ax in "xyz" for s in (1, -1)]
    cables = set()
    for sx, sy, sz in itertools.product((1, -1), repeat=3):
        tri = [idx[("x", sx, sz)], idx[("y", sy, sx)], idx[("z", sz, sy)]]
        for i in range(3):
            cables.add(tuple(sorted((tri[i], tri[(i + 1) % 3]))))
    return _free_standing(
        name,
        nodes,
        bars,
        sorted(cables),
        "expanded octahedron (six-strut icosahedron)",
        bar_length,
        members,
    )


def truncated_tetrahedron(*, bar_length: float = 1.0, members=None, name="truncated_tetrahedron"):
    """Truncated-tetrahedron tensegrity (Pugh 1976): 6 struts, 18 cables.

    Node ``(a, b)`` sits on the corner triangle of tetrahedron vertex ``a``,
    towards vertex ``b``.  Cables: the four corner triangles and the six
    edges ``(a, b)-(b, a)``, i.e. the 18 edges of the truncated
    tetrahedron.  Struts join ``(a, b)`` to ``(c, d)`` with ``(a, b, c, d)``
    an even permutation.  The geometry is form-found here by the force
    density method with all cable force densities equal (super-stable).
    """
    pairs = [(a, b) for a in range(4) for b in range(4) if a != b]
    idx = {p: i for i, p in enumerate(pairs)}
    cables = []
    for a in range(4):
        others = [b for b in range(4) if b != a]
        cables += [(idx[(a, b)], idx[(a, c)]) for b, c in itertools.combinations(others, 2)]
    cables += [(idx[(a, b)], idx[(b, a)]) for a in range(4) for b in range(a + 1, 4)]

    def even(p):
        return sum(p[i] > p[j] for i in range(4) for j in range(i + 1, 4)) % 2 == 0

    bars = set()
    for a, b in pairs:
        c, d = [x for x in range(4) if x not in (a, b)]
        if not even((a, b, c, d)):
            c, d = d, c
        bars.add(tuple(sorted((idx[(a, b)], idx[(c, d)]))))
    bars = sorted(bars)
    nodes, _ = find_superstable_form(12, cables, np.ones(len(cables)), bars)
    return _free_standing(name, nodes, bars, cables, "truncated-tetrahedron tensegrity", bar_length, members)


def class1_cell(*, bar_length: float = 1.0, members=None, name="class1_cell"):
    """A class-1 six-strut cell with tetrahedral (not octahedral) symmetry.

    The expanded-octahedron topology form-found by the force density method
    with the eight octant triangles in two tetrahedral groups (alternate
    octants at force density 1 and 2).  The paper names a "class-1 cell"
    without geometry; this choice is a distinct class-1 form with the Table
    S3 counts (one self-stress, one mechanism).
    """
    eo = expanded_octahedron()
    nodes = eo.nodes
    q = []
    for i, j in eo.cables:
        c = (nodes[i] + nodes[j]) / 2 + 1e-12
        octant_sign = np.sign(c).prod()
        q.append(2.0 if octant_sign > 0 else 1.0)
    # each cable belongs to exactly one octant triangle; the centroid of a
    # triangle edge lies in that octant for the expanded octahedron
    form, _ = find_superstable_form(12, eo.cables, np.array(q), eo.bars)
    return _free_standing(
        name, form, eo.bars, eo.cables, "class-1 six-strut cell (tetrahedral)", bar_length, members
    )


def octahedral_cell(*, bar_length: float = 1.0, members=None, name="octahedral_cell"):
    """A six-strut, 24-cable cell with two self-stress states.

    Topology: a hexagonal prism (bars base ``i`` to top ``i``) with base and
    top rings, cross cables base ``i`` to top ``i + 1`` and diametral
    cables base ``i`` to top ``i + 3``; form-found by the force density
    method (rings 1, cross 3, diametral 1).  The paper names an "octahedral
    cell" with 30 members, two self-stress states and two mechanisms
    (Table S3) and a published geometry it neither prints nor cites; this
    super-stable form has those counts (rank A = 28, s = 2, m = 2).

    Its second self-stress is carried by the cables alone: every cable at
    ``+-1/sqrt(24)``, the sign alternating around each family of six (odd
    under the 60 deg turn that maps the form onto itself), exact to machine
    precision (relative singular value 2.6e-16 of the cable block, the next
    0.19).  That combination of all 24 cables loads no node, so the free
    coordinates determine 23 of the 24 cables (no single cable is
    undetermined), where the paper's form determines 24.  It is a property
    of this geometry, not of the rank tolerance or the prestress.  Among the
    hexagonal six-strut cells of this kind (bars base ``i`` to top
    ``i + k``, rings, two families of cross cables; seven force-density
    groupings tried), every one that form-finds with two self-stresses is
    this one relabelled, and force densities alternating around the rings
    or the cross cables (six-fold symmetry broken to three-fold) give no
    super-stable form.
    """
    n = 6
    cables = [(i, (i + 1) % n) for i in range(n)] + [(n + i, n + (i + 1) % n) for i in range(n)]
    cables += [(i, n + (i + 1) % n) for i in range(n)] + [(i, n + (i + 3) % n) for i in range(n)]
    q = np.array([1.0] * 12 + [3.0] * 6 + [1.0] * 6)
    bars = [(i, n + i) for i in range(n)]
    nodes, _ = find_superstable_form(12, cables, q, bars)
    return _free_standing(
        name, nodes, bars, cables, "six-strut cell with two self-stresses", bar_length, members
    )


def dome(*, bar_length: float = 1.0, members=None, name="dome"):
    """Three-fold class-2 tensegrity cap: 9 nodes, 6 struts, 12 cables.

    Node orbits A (apex triangle), B (joints) and C (rim); struts ``A_i-B_i``
    and ``B_i-C_i`` meet at the class-2 joints B.  Cables: the apex triangle,
    ``A_i-C_i``, and ``B_i-C_{i+1}``, ``B_i-C_{i+2}``.  Form-found by the
    force density method (apex triangle and ``A-C`` at 1, ``B-C`` at 2).  The
    paper names a "dome" without geometry; this super-stable form has the
    Table S3 counts (one self-stress, four mechanisms).
    """
    A, B, C = [0, 1, 2], [3, 4, 5], [6, 7, 8]
    cables = [(A[i], A[(i + 1) % 3]) for i in range(3)]
    cables += [(A[i], C[i]) for i in range(3)]
    cables += [(B[i], C[(i + 1) % 3]) for i in range(3)]
    cables += [(B[i], C[(i + 2) % 3]) for i in range(3)]
    q = np.array([1.0] * 6 + [2.0] * 6)
    bars = [(A[i], B[i]) for i in range(3)] + [(B[i], C[i]) for i in range(3)]
    nodes, _ = find_superstable_form(9, cables, q, bars)
    # orient the apex triangle up
    centroid_a = nodes[A].mean(axis=0) - nodes.mean(axis=0)
    if np.linalg.norm(centroid_a) > 0:
        e = centroid_a / np.linalg.norm(centroid_a)
        ref = np.array([0.0, 0.0, 1.0])
        v = np.cross(e, ref)
        c = float(e @ ref)
        if np.linalg.norm(v) > 1e-12:
            K = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
            Rm = np.eye(3) + K + K @ K / (1 + c)
            nodes = nodes @ Rm.T
        elif c < 0:
            nodes = nodes * np.array([1.0, -1.0, -1.0])
    return _free_standing(name, nodes, bars, cables, "three-fold class-2 tensegrity cap", bar_length, members)


def two_stage_tower(
    *,
    radius: float = 1.0,
    stage_height: float = 1.0,
    twist_deg: float = 165.0,
    members=None,
    name: str = "two_stage_tower",
) -> Structure:
    """Two-stage class-2 tower of triplex stages, base triangle pinned.

    Levels B (base, pinned), M and T, each an equilateral triangle of
    ``radius`` rotated by ``twist_deg`` per stage.  Bars ``B_i-M_i`` and
    ``M_i-T_i`` (class-2 joints at M); cables: the three level triangles and,
    from every lower-level node, one cable to each of the two neighbouring
    upper-level nodes (``B_i-M_{i+1}``, ``B_i-M_{i-1}``, likewise M to T):
    9 nodes, 6 bars, 21 cables, no mechanism (Table S3).  Geometry chosen
    here, since the paper gives none: the default twist of 165 deg per stage
    makes the bars the long near-diametral members; a prestress with every
    cable in tension exists for stage twists above about 151 deg.
    """
    a = np.radians(twist_deg)
    th = 2 * np.pi * np.arange(3) / 3
    levels = [
        np.c_[radius * np.cos(th + k * a), radius * np.sin(th + k * a), np.full(3, k * stage_height)]
        for k in range(3)
    ]
    B, M, T = [0, 1, 2], [3, 4, 5], [6, 7, 8]
    bars = [(B[i], M[i]) for i in range(3)] + [(M[i], T[i]) for i in range(3)]
    cables = []
    for lv in (B, M, T):
        cables += [(lv[i], lv[(i + 1) % 3]) for i in range(3)]
    for lo, up in ((B, M), (M, T)):
        cables += [(lo[i], up[(i + 1) % 3]) for i in range(3)]
        cables += [(lo[i], up[(i - 1) % 3]) for i in range(3)]
    fixed = np.zeros((9, 3), bool)
    fixed[B] = True
    return Structure(
        name,
        np.vstack(levels),
        bars,
        cables,
        fixed,
        description=f"two-stage class-2 tower, twist {twist_deg:g} deg per stage, base pinned",
        **_members(members),
    )
