"""Figure 11: the simplex's mechanism law and prestress prediction (rule plot_fig11; the paper §4.12).

Outputs ``results/figures/fig11_simplex_law.{pdf,png}``: (a) f1^2 against
the transducer force with the measured law and the model lines at the
transducer and the static force, (b) the log-slope against the ideal 1/2,
(c) predicted against measured forces (Table 8), (d) errors per level beside
the paper's.
"""

import pandas as pd
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_measured import plot_fig11

setup_log(snakemake.log[0])
inp = snakemake.input
rows = pd.read_csv(inp.table).to_dict("records")
plot_fig11(read_json(inp.model), rows, read_json(inp.prestress), list(snakemake.output))
