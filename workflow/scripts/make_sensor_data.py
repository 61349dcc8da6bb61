"""Sensor data of one record under one protocol (rule make_sensor_data).

Output ``results/sensors/{structure}/{record}/{protocol}.npz``: ``t`` (s),
``channels`` (global coordinate indices), ``clean`` accelerations (n_t x
n_ch, m/s^2), ``noise_std`` (m/s^2, the protocol's fraction of each
channel's RMS), ``train`` (the 70 % training samples) and ``keep`` (samples
retained by an intermittent protocol).  No noise draw: every seed's is drawn
when the problem is loaded (tensegrity_id.data.sensors.noise_realization).
"""

import numpy as np
from tensegrity_id import structure_from_report
from tensegrity_id.data.records import load_record
from tensegrity_id.data.runio import read_json, setup_log, write_npz
from tensegrity_id.data.sensors import sensor_data

log = setup_log(snakemake.log[0])
structure = structure_from_report(read_json(snakemake.input.structure))
data = sensor_data(structure, load_record(snakemake.input.record), snakemake.params.protocol)
write_npz(snakemake.output.npz, **data)
log.info(
    "channels %s, noise std %s m/s^2, %d train / %d samples, %d kept",
    data["channels"].tolist(),
    np.round(data["noise_std"], 6).tolist(),
    data["train"].sum(),
    data["train"].size,
    data["keep"].sum(),
)
