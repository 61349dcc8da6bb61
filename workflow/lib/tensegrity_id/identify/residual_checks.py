"""Residual verification over a set of records (the paper's Table 2 rows 1-3 and 6; rule verify_residual).

:func:`check_record` runs the residual checks of one stored record;
:func:`summarise` reduces the rows to the worst levels that Table 2 quotes.
Only records of the residual's own model (generator ``matched`` or
``tolerance``, :data:`~tensegrity_id.mechanics.model_form.OWN_MODEL`) enter the
"on the records" level; the model-form records are reported apart, and an
elastic-bar record also gets the flexible-bar residual on its own generator.
"""

from __future__ import annotations

import numpy as np

from ..mechanics.dynamics import Dynamics
from ..mechanics.elastic_bars import ElasticBarModel
from ..mechanics.model_form import OWN_MODEL
from .flexible_residual import verify_elastic_against_simulator
from .residual import smoothing_bias, verify_against_simulator, verify_on_record

__all__ = ["check_record", "summarise"]


def check_record(dyn: Dynamics, meta: dict, record: dict, forcing, beta: float) -> dict:
    """The residual checks of one record: against the simulator, on the record, smoothing bias."""
    gen = meta.get("generator") or {}
    row = {
        "generator": gen.get("kind", "matched"),
        "against_simulator": verify_against_simulator(dyn, record, forcing),
        "on_record": verify_on_record(dyn, record, forcing),
        "smoothing": smoothing_bias(dyn, beta),
    }
    if row["generator"] == "elastic_bars":  # the flexible-bar residual on its own generator (Table 2 row 6)
        model = ElasticBarModel(dyn.structure, EA_bar=np.asarray(gen["EA_bar"]))
        row["elastic_against_simulator"] = verify_elastic_against_simulator(dyn, model, record, forcing)
    return row


def _worst(key, sel):
    return max(sel, key=lambda r: r[key]["relative"]) if sel else None


def _label(row):
    return row and f"{row['structure']}/{row['record']}"


def summarise(rows: list[dict], beta: float, bias_structures) -> tuple[dict, dict]:
    """``(summary, model_form)`` of the rows (each with ``structure`` and ``record``)."""
    own = [r for r in rows if r["generator"] in OWN_MODEL]  # the residual's own physics
    scope = [r for r in rows if r["structure"] in bias_structures]
    bias_scope = max(scope, key=lambda r: r["smoothing"]["max_relative"]) if scope else None
    bias_all = max(rows, key=lambda r: r["smoothing"]["max_relative"]) if rows else None
    sim_w, rec_w = _worst("against_simulator", rows), _worst("on_record", own)
    flex = [r for r in rows if "elastic_against_simulator" in r]
    flex_w = _worst("elastic_against_simulator", flex)
    summary = {
        "beta": beta,
        "n_records": len(own),
        "n_model_form_records": len(rows) - len(own),
        "n_slack_samples": sum(r["on_record"]["n_slack_samples"] for r in own),
        "against_simulator_max": sim_w and sim_w["against_simulator"]["relative"],
        "against_simulator_worst": _label(sim_w),
        "on_record_max": rec_w and rec_w["on_record"]["relative"],
        "on_record_worst": _label(rec_w),
        "flexible_bars_max": flex_w and flex_w["elastic_against_simulator"]["relative"],
        "flexible_bars_worst": _label(flex_w),
        "flexible_bars_records": len(flex),
        "bias_structures": list(bias_structures),
        "bias_max_in_scope": bias_scope and bias_scope["smoothing"]["max_relative"],
        "bias_max_overall": bias_all and bias_all["smoothing"]["max_relative"],
        "bias_worst_overall": _label(bias_all),
    }
    model_form = {
        _label(r): {"generator": r["generator"], "on_record": r["on_record"]["relative"]}
        for r in rows
        if r["generator"] not in OWN_MODEL
    }
    return summary, model_form
