"""The config's layout by stage, and the conversion of a config file written for the flat layout.

The config has ten top-level keys, one per stage of the study::

    structures   the structure definitions (generator or structure file), by name
    build        the structures this config builds: the whole truth (every other
                 section's rows of structures not listed here are out of scope)
    records      simulation (integrator), thresholds, suite (each structure's
                 records), omit (suite records left out), protocols (sensors)
    analysis     fisher, modal, prestress_series, grouping
    identify     regression, outcome, pinn, baselines
    studies      one entry per table and figure of the paper (rows, steps, seeds)
    assessment   the structural assessment
    validation   measured-data validation from published values
    measured     your own records (records) and peak lists (peaks)
    report       scorecard

Before this layout every study sat at the top level (``table9``, ``fig1``,
``figures.fig4``, ``table_s3``, ...).  A config file in that form is refused
with one line per old key naming its new place, or converted::

    python -m tensegrity_id.workflow.config_layout OLD.yaml > NEW.yaml

(the conversion keeps values, not comments).
"""

from __future__ import annotations

import argparse
import copy
import sys

import yaml

__all__ = ["TOP_LEVEL", "MOVES", "old_keys", "old_layout_message", "convert", "main"]

TOP_LEVEL = (
    "structures",
    "build",
    "records",
    "analysis",
    "identify",
    "studies",
    "assessment",
    "validation",
    "measured",
    "report",
)
"""The config's top-level keys, in the order the files write them."""

MOVES = (
    ("simulation", "records.simulation"),
    ("thresholds", "records.thresholds"),
    ("records", "records.suite"),
    ("protocols", "records.protocols"),
    ("modal", "analysis.modal"),
    ("fisher", "analysis.fisher"),
    ("prestress_series", "analysis.prestress_series"),
    ("grouping", "analysis.grouping"),
    ("table1", "studies.table1"),
    ("table_s2", "studies.tableS2"),
    ("table_s3", "studies.tableS3"),
    ("fig1", "studies.fig1"),
    ("fig2", "studies.fig2"),
    ("prism_feasibility", "studies.prism_feasibility"),
    ("figures.figS1", "studies.figS1"),
    ("figures.records", "studies.record_figures"),
    ("figures.energy_balance", "studies.figS4"),
    ("figures.fig3", "studies.fig3"),
    ("figures.fig4", "studies.fig4"),
    ("figures.fig6", "studies.fig6"),
    ("figures.fig7", "studies.fig7"),
    ("table3", "studies.table3"),
    ("table4", "studies.table4"),
    ("table5", "studies.table5"),
    ("table6", "studies.table6"),
    ("table9", "studies.table9"),
    ("table_s1", "studies.tableS1"),
    ("table_s4", "studies.tableS4"),
    ("table_s5", "studies.tableS5"),
    ("table_s5_baselines", "studies.tableS5.baselines"),
    ("table_s6", "studies.tableS6"),
    ("seed_study", "studies.seed_study"),
    ("silent_failures", "studies.silent_failures"),
    ("verify_residual", "studies.table2"),
    ("quaternion_crosscheck", "studies.crosscheck"),
    ("springrod", "studies.springrod"),
    ("force_scale", "studies.force_scale"),
    ("robustness", "studies.robustness"),
    ("measured", "measured.records"),
    ("measured_peaks", "measured.peaks"),
    ("scorecard", "report.scorecard"),
)
"""(old dotted key, new dotted key): every key of the flat layout that moved."""

RECORDS_KEYS = frozenset({"simulation", "thresholds", "suite", "omit", "protocols"})
MEASURED_KEYS = frozenset({"records", "peaks"})


def _get(d: dict, dotted: str):
    for part in dotted.split("."):
        if not isinstance(d, dict) or part not in d:
            return None, False
        d = d[part]
    return d, True


def old_keys(config: dict) -> list[tuple[str, str]]:
    """The (old, new) pairs of ``MOVES`` that ``config`` holds at their old place."""
    records = config.get("records")
    flat_records = isinstance(records, dict) and bool(set(records) - RECORDS_KEYS)
    measured = config.get("measured")
    flat_measured = isinstance(measured, dict) and bool(set(measured) - MEASURED_KEYS)
    out = []
    for old, new in MOVES:
        top = old.split(".")[0]
        if (top == "records" and not flat_records) or (top == "measured" and not flat_measured):
            continue
        if _get(config, old)[1]:
            out.append((old, new))
    if out and measured == {}:
        out.append(("measured", "measured.records"))  # an empty one moves with the rest
    return out


def old_layout_message(config: dict) -> str | None:
    """One line per key of the flat layout in ``config``, naming its new place; ``None`` if none."""
    moved = old_keys(config)
    if not moved:
        return None
    lines = [f"  '{old}' is now '{new}'" for old, new in moved]
    return (
        "the config uses the flat layout of earlier versions; the keys moved by stage:\n"
        + "\n".join(lines)
        + "\nconvert a file with: python -m tensegrity_id.workflow.config_layout OLD.yaml > NEW.yaml"
    )


def _set(d: dict, dotted: str, value) -> None:
    *parents, last = dotted.split(".")
    for p in parents:
        d = d.setdefault(p, {})
    if isinstance(d.get(last), dict) and isinstance(value, dict):
        d[last] = {**value, **d[last]}
    else:
        d[last] = value


def convert(config: dict) -> dict:
    """A flat-layout config in the layout by stage (values kept; keys already in place left alone).

    A null record (the flat layout's way of dropping a record inherited from
    the default) becomes an entry of ``records.omit``.
    """
    old = copy.deepcopy(config)
    out: dict = {}
    moved = old_keys(old)
    for key in (
        "structures",
        "build",
        "identify",
        "assessment",
        "validation",
        "report",
        "studies",
        "analysis",
    ):
        if key in old:
            out[key] = old.pop(key)
    for o, n in moved:
        value, _ = _get(old, o)
        if o == "records":
            omit = {s: [r for r, spec in recs.items() if spec is None] for s, recs in value.items()}
            value = {
                s: {r: spec for r, spec in recs.items() if spec is not None} for s, recs in value.items()
            }
            value = {s: recs for s, recs in value.items() if recs}
            if any(omit.values()):
                _set(out, "records.omit", {s: v for s, v in omit.items() if v})
            if not value:
                continue
        _set(out, n, value)
    figures = old.get("figures")
    if isinstance(figures, dict):
        for k in [k for k in figures if f"figures.{k}" not in dict(MOVES)]:
            raise ValueError(f"config field 'figures.{k}': unknown key; nothing to convert it to")
    for key in old:
        top = key.split(".")[0]
        if top not in out and top not in {o.split(".")[0] for o, _ in moved}:
            out[key] = old[key]  # unknown keys pass through: the schema names them
    return {k: out[k] for k in (*TOP_LEVEL, *out) if k in out}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", help="a config file in the flat layout")
    args = parser.parse_args(argv)
    with open(args.config) as f:
        config = yaml.safe_load(f) or {}
    if not old_keys(config):
        print(f"{args.config}: already in the layout by stage; nothing to convert", file=sys.stderr)
    yaml.safe_dump(convert(config), sys.stdout, sort_keys=False, width=110, default_flow_style=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
