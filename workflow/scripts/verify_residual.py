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

from tensegrity_id import structure_from_report
from tensegrity_id.data.records import forcing_from_meta, load_record, record_structure
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.identify.pinn.settings import PINNSettings
from tensegrity_id.identify.residual_checks import check_record, summarise
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
beta = PINNSettings().beta if par.beta is None else par.beta  # the PINN's smoothing, Table S2 by default
bases = {
    name: structure_from_report(read_json(p)) for name, p in zip(par.structures, inp.structures, strict=True)
}
rows = []
for npz, js, ref in zip(inp.records, inp.metas, par.records, strict=True):
    meta = read_json(js)
    name, rec_name = ref["structure"], ref["record"]
    dyn = Dynamics(record_structure(bases[name], meta["spec"]))
    row = {"structure": name, "record": rec_name}
    row |= check_record(dyn, meta, load_record(npz), forcing_from_meta(meta), beta)
    if "elastic_against_simulator" in row:
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
summary, model_form = summarise(rows, beta, par.bias_structures)
log.info("summary %s", summary)
log.info("model-form residual at exact parameters: %s", model_form)
write_json(
    snakemake.output.json,
    {"summary": summary, "model_form": model_form, "records": rows},
    provenance=job_provenance(snakemake),
)
