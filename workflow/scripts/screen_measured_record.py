"""First-order screening of a measured record's channels, before any inversion (rule screen_measured_record).

Output ``results/measured/{structure}/{record}/screening.json``: the Fisher
information of the record's acceleration channels at the structure's design
prestress and damping (tensegrity_id.analysis.local_fisher:
screen_channels): per member ``determinable`` / ``weak`` / ``undeterminable``,
the relative Cramér–Rao bounds there, the condition number, and the members
a support makes invisible whatever the channels; and ``record_screens``, the
import's screens of the record against its design model
(tensegrity_id.data.screening: level per channel, agreement per channel,
stated against carried noise, outliers, and every warning, also in the log).
A Screening record (tensegrity_id.results.screening).
"""

from tensegrity_id.analysis.identifiability import first_order_identifiability
from tensegrity_id.analysis.local_fisher import screen_channels
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.identify.problems import load_problem
from tensegrity_id.results.provenance import job_provenance
from tensegrity_id.results.screening import RECORD_SCREENS, RecordScreens, Screening

log = setup_log(snakemake.log[0])
inp, par, wc = snakemake.input, snakemake.params, snakemake.wildcards
problem = load_problem(
    inp.structure, inp.record_npz, inp.record_json, inp.sensors, names=[wc.record], **par.problem
)
st = problem.structure
screens = read_json(inp.record_json).get(RECORD_SCREENS)
out = Screening.of(
    screen_channels(problem, st.sigma, float(st.cable_damping.mean()), **par.fisher),
    structurally_invisible=[int(k) for k in first_order_identifiability(st).invisible],
    structure=wc.structure,
    record=wc.record,
    record_screens=None if screens is None else RecordScreens.from_json(screens),
)
for message in out.record_screens.warnings if out.record_screens else []:
    log.warning("%s", message)
log.info("members: %s", out.members)
log.info(
    "condition %.4g, worst relative bound %.3g %% (%s) at the design prestress",
    out.condition_identifiable,
    out.crlb_max_pct,
    out.crlb_max_parameter,
)
out.write(snakemake.output.json, provenance=job_provenance(snakemake))
