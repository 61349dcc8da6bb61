"""Figure 10: the rebuilt simplex and the projection isolating its rotational mode (rule plot_fig10; §4.12).

Outputs ``results/figures/fig10_simplex.{pdf,png}``: (a) the rebuilt
simplex, (b) a simulated strike at the lowest simulated level, projected on
the upper triangle's rotation and one raw channel, (c) their spectra with
the model's rotational frequency.
"""

import numpy as np
import yaml
from tensegrity_id.data.runio import read_json, setup_log
from tensegrity_id.report.plot_measured import plot_fig10
from tensegrity_id.validation.simplex import simplex_structure
from tensegrity_id.validation.simplex_study import hardware_from_measured

setup_log(snakemake.log[0])
inp = snakemake.input
with open(inp.measured) as fh:
    hw = hardware_from_measured(yaml.safe_load(fh), snakemake.params.cable_EA)
with np.load(inp.strikes) as z:
    strikes = dict(z)
plot_fig10(simplex_structure(hw), read_json(inp.extraction), strikes, list(snakemake.output))
