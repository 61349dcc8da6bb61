"""Tables of the measured-data validation (the paper §4.10-§4.12): Tables 7 and 8 and the summary.

Every reproduced number sits beside the paper's; a number that rests on the
stand-in frequencies of the simplex says so in its ``basis`` column.

The summary's rows are data: ``resources/published/measured_validation_rows.yaml``
(an input of rule ``make_measured_validation``, so an edit re-runs it), a list
in table order, each entry::

    - section: "4.10"                    # text, quoted (4.10 is not 4.1)
      quantity: ring tension, one prestress scale
      here: hexprism.ring_tension_N      # the reproduced value
      paper: hexprism.ring_tension_N     # the paper's value
      unit: N                            # "" for none
      basis: measured peaks              # what the number rests on
      when: prestress.some_key           # optional: listed only where this holds a value

A **path** is dotted keys with list items as ``[0]`` and every item as
``[*]`` (``hexprism.bar_geometric_stiffness[*].ratio`` is the list of
ratios).  ``here`` paths start with the input they read (:data:`HERE_INPUTS`);
``paper`` paths read ``resources/published/measured_validation.yaml``
(``hexprism``, ``simplex``, ``damping_limit``).  ``here`` or ``paper`` is
either a path (the value as it is), ``{path: ..., as: TRANSFORM}`` (a value
computed from it), ``{value: ...}`` (a published number that file does not
hold) or, for ``paper`` only, ``null`` (an empty cell).

Transforms (:data:`TRANSFORMS`), each giving text:

``pm``
    ``{exponent | value, half_width}`` as ``"0.388 +- 0.022"`` (three decimals).
``span``
    a list as ``"lowest-highest"``; an optional ``format`` (a Python format
    spec, e.g. ``.3f``) formats both, otherwise as printed.
``pct_over_one_span``
    a list of ratios as ``"+4 to +73"``: the range of ``100 (x - 1)``, whole percent.
``reduction_at_factor``
    ``{residual_reduction_pct, EA_factor, EA_at_grid_bound}`` as
    ``"10.0 (1e+04, grid bound)"`` (one decimal; three significant figures).
``reduction_at_factor_as_printed``
    ``{residual_reduction_pct, EA_factor}`` as ``"9 (18)"``.

``basis`` may name placeholders (:data:`BASIS_PLACEHOLDERS`), filled with
:meth:`str.format`: ``{frequencies}`` (the frequencies Table 8 rests on:
the stand-in law at the measured forces, or the named source),
``{free_fit_note}`` (with the stand-in, that the free fit is the law itself)
and ``{cable_EA_N}`` (the damping limit's assumed cable EA, N; takes a format
spec, e.g. ``{cable_EA_N:.3g}``).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pandas as pd
import yaml

__all__ = [
    "TABLE8_COLUMNS",
    "VALIDATION_COLUMNS",
    "HERE_INPUTS",
    "TRANSFORMS",
    "BASIS_PLACEHOLDERS",
    "RowsError",
    "table8",
    "table7",
    "read_validation_rows",
    "measured_validation_table",
]

TABLE8_COLUMNS = [
    "level",
    "measured_N",
    "scatter_N",
    "first_frequency_hz",
    "frequency_source",
    "predicted_N",
    "error_N",
    "error_pct",
    "paper_predicted_N",
    "paper_error_N",
    "paper_error_pct",
]

TABLE7_NOTE = (
    "Published values only (the paper §4.11, Table 7): the leg's geometry, body properties and 18 chirp "
    "records are held by their authors (Wang et al.) and are not public; nothing of this table is "
    "reproduced here."
)


def table8(rows: list[dict], paper: pd.DataFrame) -> pd.DataFrame:
    """Table 8: measured, predicted (model slope, static force factor, joint stiffness leave-one-out)."""
    df = pd.DataFrame(rows)
    p = paper.set_index("level")
    df["paper_predicted_N"] = df["level"].map(p["predicted_N"])
    df["paper_error_N"] = df["level"].map(p["error_N"])
    df["paper_error_pct"] = df["level"].map(p["error_pct"])
    return df[TABLE8_COLUMNS]


def table7(published: pd.DataFrame) -> pd.DataFrame:
    """Table 7 as published, with the statement that it is not reproduced."""
    df = published.copy()
    df["status"] = "published; records private, not reproduced"
    return df


# ------------------------------------------------------------ the measured-data validation summary
VALIDATION_COLUMNS = ["section", "quantity", "here", "paper", "unit", "basis"]
HERE_INPUTS = ("hexprism", "model", "extraction", "prestress", "damping")
"""The inputs a ``here`` path may start with (the arguments of :func:`measured_validation_table`)."""


class RowsError(ValueError):
    """A malformed rows file (names the file, the row and the field)."""


def _pm(d: dict) -> str:
    centre = d["exponent"] if "exponent" in d else d["value"]
    return f"{centre:.3f} +- {d['half_width']:.3f}"


def _span(x: list, spec: str = "") -> str:
    return f"{min(x):{spec}}-{max(x):{spec}}"


def _pct_over_one_span(x: list) -> str:
    over = [100 * (r - 1) for r in x]
    return f"+{min(over):.0f} to +{max(over):.0f}"


def _reduction_at_factor(d: dict) -> str:
    bound = ", grid bound" if d["EA_at_grid_bound"] else ""
    return f"{d['residual_reduction_pct']:.1f} ({d['EA_factor']:.3g}{bound})"


def _reduction_at_factor_as_printed(d: dict) -> str:
    return f"{d['residual_reduction_pct']} ({d['EA_factor']})"


TRANSFORMS = {
    "pm": _pm,
    "span": _span,
    "pct_over_one_span": _pct_over_one_span,
    "reduction_at_factor": _reduction_at_factor,
    "reduction_at_factor_as_printed": _reduction_at_factor_as_printed,
}
"""The named transforms of a ``{path, as}`` value (module docstring)."""
_FORMATTED = {"span"}  # the transforms that take a ``format`` spec
BASIS_PLACEHOLDERS = ("frequencies", "free_fit_note", "cable_EA_N")
"""The names a ``basis`` may hold in braces (module docstring)."""

_REQUIRED = ("section", "quantity", "here", "paper", "unit", "basis")
_TEXT = ("section", "quantity", "unit", "basis")
_STEP = re.compile(r"(\.?)([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\*)\]")


def _steps(path: str) -> list:
    """``"a.b[0].c[*]"`` as ``["a", "b", 0, "c", "*"]``; ValueError for a malformed path."""
    steps, pos = [], 0
    while pos < len(path):
        m = _STEP.match(path, pos)
        if m is None or (m.group(2) is not None and bool(m.group(1)) == (pos == 0)):
            raise ValueError(f"malformed path {path!r} at character {pos + 1}")
        item = m.group(3)
        steps.append(m.group(2) if item is None else item if item == "*" else int(item))
        pos = m.end()
    if not steps or not isinstance(steps[0], str):
        raise ValueError(f"malformed path {path!r}: it must start with a key")
    return steps


def _get(node, steps: list):
    for i, step in enumerate(steps):
        if step == "*":
            return [_get(item, steps[i + 1 :]) for item in node]
        node = node[step]
    return node


def _check_value(where: str, field: str, spec) -> None:
    """Refuse a ``here``/``paper`` entry outside the grammar of the module docstring."""
    if spec is None:
        if field == "here":
            raise RowsError(f"{where}: 'here' is null; every row has a reproduced value")
        return
    if isinstance(spec, str):
        path = spec
    elif isinstance(spec, dict) and set(spec) == {"value"}:
        return
    elif isinstance(spec, dict) and {"path", "as"} <= set(spec) <= {"path", "as", "format"}:
        if spec["as"] not in TRANSFORMS:
            raise RowsError(
                f"{where}: '{field}' transform {spec['as']!r} is not one of {', '.join(TRANSFORMS)}"
            )
        if "format" in spec and spec["as"] not in _FORMATTED:
            raise RowsError(f"{where}: '{field}' transform {spec['as']!r} takes no 'format'")
        path = spec["path"]
    else:
        raise RowsError(
            f"{where}: '{field}' must be a path, {{path, as[, format]}} or {{value}}, not {spec!r}"
        )
    try:
        steps = _steps(str(path))
    except ValueError as exc:
        raise RowsError(f"{where}: '{field}': {exc}") from None
    if field in ("here", "when") and steps[0] not in HERE_INPUTS:
        raise RowsError(f"{where}: '{field}' path {path!r} must start with one of {', '.join(HERE_INPUTS)}")


def read_validation_rows(path) -> list[dict]:
    """The rows of the summary from ``path`` (the rows file), each checked against the grammar.

    Raises :class:`RowsError` naming the file, the row and the field: a missing
    or unknown field, a section, quantity, unit or basis that is not text, a
    quantity given twice, a malformed path, an unknown transform or placeholder.
    """
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    if not isinstance(raw, list) or not raw:
        raise RowsError(f"{path}: expected a non-empty list of rows")
    seen = set()
    for i, row in enumerate(raw, start=1):
        where = f"{path}: row {i}"
        if not isinstance(row, dict):
            raise RowsError(f"{where}: expected a mapping of fields, found {row!r}")
        where += f" ({row.get('quantity', 'no quantity')!r})"
        missing = [f for f in _REQUIRED if f not in row]
        unknown = sorted(set(row) - set(_REQUIRED) - {"when"})
        if missing or unknown:
            raise RowsError(
                f"{where}: "
                + "; ".join(
                    [f"missing field '{f}'" for f in missing] + [f"unknown field '{f}'" for f in unknown]
                )
            )
        for f in _TEXT:
            if not isinstance(row[f], str):
                raise RowsError(f"{where}: '{f}' must be text (quote it), found {row[f]!r}")
        if row["quantity"] in seen:
            raise RowsError(f"{where}: quantity given twice")
        seen.add(row["quantity"])
        for f in ("here", "paper"):
            _check_value(where, f, row[f])
        if "when" in row:
            _check_value(where, "when", str(row["when"]))
        names = {name for _, name, _, _ in string.Formatter().parse(row["basis"]) if name is not None}
        if names - set(BASIS_PLACEHOLDERS):
            raise RowsError(
                f"{where}: basis placeholder(s) {sorted(names - set(BASIS_PLACEHOLDERS))} not among "
                f"{', '.join(BASIS_PLACEHOLDERS)}"
            )
    return raw


def _value(where: str, spec, source: dict):
    if spec is None:
        return ""
    if isinstance(spec, dict) and "value" in spec:
        return spec["value"]
    path = spec if isinstance(spec, str) else spec["path"]
    try:
        value = _get(source, _steps(path))
    except (KeyError, IndexError, TypeError) as exc:
        raise KeyError(f"{where}: path {path!r} not found in its input ({exc!r})") from None
    if isinstance(spec, str):
        return value
    fn = TRANSFORMS[spec["as"]]
    return fn(value, spec["format"]) if "format" in spec else fn(value)


def _holds(path: str, source: dict) -> bool:
    try:
        return bool(_get(source, _steps(path)))
    except (KeyError, IndexError, TypeError):
        return False


def measured_validation_table(
    hexprism: dict,
    model: dict,
    extraction: dict,
    prestress: dict,
    damping: dict,
    paper: dict,
    *,
    rows,
) -> pd.DataFrame:
    """One row per reproduced number of §4.10-§4.12, beside the paper's, with what it rests on.

    Parameters
    ----------
    hexprism, model, extraction, prestress, damping : dict
        The results of rules ``identify_hexprism_modal``, ``compute_simplex_model``,
        ``validate_simplex_extraction``, ``make_table8`` and ``compute_damping_limit``.
    paper : dict
        The paper's values (``resources/published/measured_validation.yaml``).
    rows : path
        The rows file (``resources/published/measured_validation_rows.yaml``;
        grammar in the module docstring), read by :func:`read_validation_rows`.

    Returns
    -------
    DataFrame with columns :data:`VALIDATION_COLUMNS`, one row per entry of the
    rows file (those whose ``when`` holds no value left out), in its order.
    """
    here = dict(zip(HERE_INPUTS, (hexprism, model, extraction, prestress, damping), strict=True))
    src = prestress["frequency_source"]
    standin = src == "stand-in"
    basis = {
        "frequencies": (
            "stand-in frequencies (published law at the measured forces)" if standin else f"{src} frequencies"
        ),
        "free_fit_note": "; the free fit is the law itself: zero by construction" if standin else "",
        "cable_EA_N": damping["cable_EA_N"],
    }
    out = []
    for i, row in enumerate(read_validation_rows(rows), start=1):
        if "when" in row and not _holds(str(row["when"]), here):
            continue
        where = f"{rows}: row {i} ({row['quantity']!r})"
        out.append(
            {
                "section": row["section"],
                "quantity": row["quantity"],
                "here": _value(where, row["here"], here),
                "paper": _value(where, row["paper"], paper),
                "unit": row["unit"],
                "basis": row["basis"].format(**basis),
            }
        )
    return pd.DataFrame(out, columns=VALIDATION_COLUMNS)
