"""Adequacy of the nodal member model (rule compute_member_model_adequacy; the paper §2.2, §5).

Outputs ``results/values/member_model_adequacy.json``: ``structures`` (per
structure, :func:`~tensegrity_id.analysis.member_model.member_model_adequacy`:
the crossover tension ``T_star_N`` = EI (pi/L)^2, cable axial and transverse
fundamentals, bar axial fundamentals, the mechanism modes, and over its
records of the residual's own model the smallest working tension and the share
of cable-samples below T*), and ``summary`` (ranges over the structures, the
form the paper quotes: T* about 5e-4 N, cable axial fundamentals near 47 Hz,
transverse 10-36 Hz, mechanism modes near 1.4 Hz).
"""

from collections import defaultdict

from tensegrity_id import structure_from_report
from tensegrity_id.analysis.member_model import member_model_adequacy
from tensegrity_id.data.records import load_record
from tensegrity_id.data.runio import read_json, setup_log, write_json
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.modal import constrained_modes
from tensegrity_id.results.provenance import job_provenance

log = setup_log(snakemake.log[0])
inp, par = snakemake.input, snakemake.params
records = defaultdict(dict)
for p, ref in zip(inp.records, par.records, strict=True):
    records[ref["structure"]][ref["record"]] = load_record(p)
out = {}
for name, p in zip(par.structures, inp.structures, strict=True):
    structure = structure_from_report(read_json(p))
    freq, _ = constrained_modes(Dynamics(structure))
    out[name] = member_model_adequacy(structure, records[name], freq)
    r = out[name]
    log.info(
        "%s: T* %.3g N; cable axial %.1f-%.1f Hz, transverse %.1f-%.1f Hz; mechanism %.2f-%.2f Hz; "
        "smallest working tension %s N; %.2f %% of cable-samples below T* (%d records)",
        name,
        r["T_star_N"]["max"],
        r["cable_axial_hz"]["min"],
        r["cable_axial_hz"]["max"],
        r["cable_transverse_hz"]["min"],
        r["cable_transverse_hz"]["max"],
        r["mechanism_hz"]["lowest"],
        r["mechanism_hz"]["highest"],
        r["min_working_tension_N"],
        100 * (r["fraction_below_T_star"] or 0.0),
        len(records[name]),
    )


def span(key, lo="min", hi="max"):
    vals = [v[key] for v in out.values()]
    return {"min": min(v[lo] for v in vals), "max": max(v[hi] for v in vals)} if vals else None


working = [v["min_working_tension_N"] for v in out.values() if v["min_working_tension_N"] is not None]
summary = {
    "T_star_N": span("T_star_N"),
    "cable_axial_hz": span("cable_axial_hz"),
    "cable_transverse_hz": span("cable_transverse_hz"),
    "bar_axial_hz": span("bar_axial_hz"),
    "mechanism_hz": span("mechanism_hz", "lowest", "highest"),
    "static_tension_N": span("static_tension_N"),
    "min_working_tension_N": min(working) if working else None,
    "max_taut_fraction_below_T_star": max(
        (rec["fraction_taut_below_T_star"] for v in out.values() for rec in v["records"].values()),
        default=None,
    ),
    "paper": {
        "T_star_N": 5e-4,
        "cable_axial_hz": 47.0,
        "cable_transverse_hz": [10.0, 36.0],
        "mechanism_hz": 1.4,
    },
}
log.info("summary %s", summary)
write_json(
    snakemake.output.json, {"summary": summary, "structures": out}, provenance=job_provenance(snakemake)
)
