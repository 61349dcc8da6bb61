"""Residual verification over every record (rule verify_residual; Table 2 rows 1-3).

Output ``results/values/residual_checks.json``:

* ``records``: per record, ``against_simulator`` (residual on the simulator's
  own state derivatives at every stored state, slack included) and
  ``on_record`` (stored accelerations, multipliers and taut flags at the exact
  parameters, exact law): largest residual (N), force scale (N), relative
  level, samples and slack samples; ``smoothing`` (peak bias of the smoothed
  law at beta per cable, N/m and relative to sigma); ``generator`` (the
  record's generator kind, ``matched`` when it has none).
* ``summary``: worst relative levels over the records of the residual's own
  model (generator ``matched`` or ``tolerance``), slack samples covered, and
  the smoothed-law bias for ``bias_structures`` and overall.
* ``model_form``: per model-form record (another generator), the residual at
  the exact parameters on its record: the size of the model-form error the
  identification sees, which is the point of those records (no inverse crime);
  and, for elastic-bar records, ``elastic_against_simulator``: the flexible-bar
  residual on the elastic generator's own state derivatives (Table 2 row 6,
  summary ``flexible_bars_max``).
  An elastic-bar record stores its bar forces where the rigid records store
  the multipliers, so its momentum balance closes at round-off here; its
  model-form error is the bar stretch the rigid constraints forbid.
"""

import numpy as np
from tensegrity_id import structure_from_report
from tensegrity_id.data.records import forcing_from_meta, load_record, record_structure
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.identify.flexible_residual import verify_elastic_against_simulator
from tensegrity_id.identify.pinn.settings import PINNSettings
from tensegrity_id.identify.residual import smoothing_bias, verify_against_simulator, verify_on_record
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.elastic_bars import ElasticBarModel
from tensegrity_id.mechanics.model_form import OWN_MODEL

log = setup_log(snakemake.log[0])  # noqa: F821
inp, par = snakemake.input, snakemake.params  # noqa: F821
beta = PINNSettings().beta if par.beta is None else par.beta  # the PINN's smoothing, Table S2 by default
bases = {
    name: structure_from_report(read_json(p)) for name, p in zip(par.structures, inp.structures, strict=True)
}
rows = []
for npz, js, ref in zip(inp.records, inp.metas, par.records, strict=True):
    meta = read_json(js)
    name, rec_name = ref["structure"], ref["record"]
    dyn = Dynamics(record_structure(bases[name], meta["spec"]))
    rec, forcing = load_record(npz), forcing_from_meta(meta)
    row = {
        "structure": name,
        "record": rec_name,
        "generator": (meta.get("generator") or {}).get("kind", "matched"),
        "against_simulator": verify_against_simulator(dyn, rec, forcing),
        "on_record": verify_on_record(dyn, rec, forcing),
        "smoothing": smoothing_bias(dyn, beta),
    }
    if row["generator"] == "elastic_bars":  # the flexible-bar residual on its own generator (Table 2 row 6)
        model = ElasticBarModel(dyn.structure, EA_bar=np.asarray(meta["generator"]["EA_bar"]))
        row["elastic_against_simulator"] = verify_elastic_against_simulator(dyn, model, rec, forcing)
        log.info(
            "%s/%s: flexible-bar residual %.2e", name, rec_name, row["elastic_against_simulator"]["relative"]
        )
    log.info(
        "%s/%s: relative residual %.2e (simulator), %.2e (record); %d slack samples; bias %.3g %%",
        name,
        rec_name,
        row["against_simulator"]["relative"],
        row["on_record"]["relative"],
        row["on_record"]["n_slack_samples"],
        100 * row["smoothing"]["max_relative"],
    )
    rows.append(row)


def worst(key, sel):
    return max(sel, key=lambda r: r[key]["relative"]) if sel else None


own = [r for r in rows if r["generator"] in OWN_MODEL]  # the residual's own physics


scope = [r for r in rows if r["structure"] in par.bias_structures]
bias_scope = max(scope, key=lambda r: r["smoothing"]["max_relative"]) if scope else None
bias_all = max(rows, key=lambda r: r["smoothing"]["max_relative"]) if rows else None
sim_w, rec_w = worst("against_simulator", rows), worst("on_record", own)
flex_w = worst("elastic_against_simulator", [r for r in rows if "elastic_against_simulator" in r])
summary = {
    "beta": beta,
    "n_records": len(own),
    "n_model_form_records": len(rows) - len(own),
    "n_slack_samples": sum(r["on_record"]["n_slack_samples"] for r in own),
    "against_simulator_max": sim_w and sim_w["against_simulator"]["relative"],
    "against_simulator_worst": sim_w and f"{sim_w['structure']}/{sim_w['record']}",
    "on_record_max": rec_w and rec_w["on_record"]["relative"],
    "on_record_worst": rec_w and f"{rec_w['structure']}/{rec_w['record']}",
    "flexible_bars_max": flex_w and flex_w["elastic_against_simulator"]["relative"],
    "flexible_bars_worst": flex_w and f"{flex_w['structure']}/{flex_w['record']}",
    "flexible_bars_records": sum("elastic_against_simulator" in r for r in rows),
    "bias_structures": list(par.bias_structures),
    "bias_max_in_scope": bias_scope and bias_scope["smoothing"]["max_relative"],
    "bias_max_overall": bias_all and bias_all["smoothing"]["max_relative"],
    "bias_worst_overall": bias_all and f"{bias_all['structure']}/{bias_all['record']}",
}
log.info("summary %s", summary)
model_form = {
    f"{r['structure']}/{r['record']}": {"generator": r["generator"], "on_record": r["on_record"]["relative"]}
    for r in rows
    if r["generator"] not in OWN_MODEL
}
log.info("model-form residual at exact parameters: %s", model_form)
write_json(snakemake.output.json, {"summary": summary, "model_form": model_form, "records": rows})  # noqa: F821
