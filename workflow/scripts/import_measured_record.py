"""A measured record file as the workflow's record and sensor data (rule import_measured_record).

Outputs ``results/records/{structure}/{record}.npz`` (``t`` re-zeroed, s;
``forcing`` N and ``forcing_coords``; ``acc`` m/s^2 and ``acc_coords``;
``disp`` where recorded; ``free``), its ``.json`` metadata (``measured``,
source (with the CSV dialect it was read in), noise and its method, the
start-at-rest check, the screens against the design model
(``record_screens``: tensegrity_id.data.screening), ``exact_parameters``
``None``) and ``results/sensors/{structure}/{record}/measured.npz`` (every
acceleration channel; the sensor-data layout of tensegrity_id.data.sensors).
The file is read and checked first (tensegrity_id.data.record_csv); nothing
is written when a check fails.
"""

from tensegrity_id import structure_from_report
from tensegrity_id.data.measured import measured_record, save_measured
from tensegrity_id.data.record_csv import read_record
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.results.screening import RECORD_SCREENS, RecordScreens

log = setup_log(snakemake.log[0])
inp, out, entry = snakemake.input, snakemake.output, dict(snakemake.params.entry)
structure = structure_from_report(read_json(inp.structure))
rec = read_record(inp.file, structure, require_force=entry.get("require_force", True))
log.info(
    "%s: %d samples at %.6g s, channels %s",
    inp.file,
    len(rec.t),
    rec.dt,
    {k: sorted(v) for k, v in rec.channels.items()},
)
result = measured_record(structure, rec, entry, name=snakemake.wildcards.record)
meta = result["meta"]
log.info("read as %s", meta["source"]["dialect"] or "UFF-58")
log.info("noise std per channel %s m/s^2 (%s)", meta["noise_std"], meta["noise_method"])
screens = RecordScreens.from_json(meta[RECORD_SCREENS])
log.info(
    "against the design model: level %s x, agreement %s, outliers %s (%s)",
    screens.level_ratio,
    screens.agreement,
    len(screens.outliers.found),
    screens.outliers.action,
)
log.info(
    "starts at rest: %s over %d samples (gap %s, limit %s)",
    meta["at_rest"]["passed"],
    meta["at_rest"]["samples"],
    meta["at_rest"]["gap"],
    meta["at_rest"]["limit"],
)
save_measured(result, out.npz, out.json, out.sensors, provenance=job_provenance(snakemake))
