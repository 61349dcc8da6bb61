"""Generate the example "measured" files of resources/records/ (they are SIMULATED, not measured).

Run from the repository root: ``python resources/records/generate_examples.py``.
It writes

* ``x1_shaker_simulated.csv``: a shaker test of the X1 frame
  (``resources/structures/example_x1.yaml``, LP prestress with cables at
  least 25 N/m): 0.5 s at rest, then 10 N at 1 Hz on node 1 along y for 5 s;
  accelerometers on node 1 (x, y) and node 3 (x), 100 Hz; Gaussian noise of
  2 % of each acceleration channel's RMS and 0.2 % of the force's RMS
  (noise seed 2026).
* ``x1_shaker_miscalibrated_simulated.csv``: the same test with the force
  channel reading 1/1.2 of the applied force (a transducer sensitivity 20 %
  off), for ``force_scale: fit``.
* ``x1_peaks_simulated.csv``: the two natural frequencies of the same
  frame at 1.25 times its design prestress, rounded to 4 significant digits
  (a list of measured peaks, for the modal path).

Nothing here is a real measurement: the files show the formats and let the
workflow's measured-record path run end to end.  Replace them with your own.
"""

from pathlib import Path

import numpy as np
from tensegrity_id.mechanics.catalog import build_structure
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.excitation import make_forcing
from tensegrity_id.mechanics.simulate import simulate_from_rest
from tensegrity_id.validation.modal_fit import ModalFamily, distinct_lines

HERE = Path(__file__).parent
SPEC = {"file": "resources/structures/example_x1.yaml", "prestress": {"method": "lp", "sigma_min": 25.0}}
LEAD_IN, T_END, DT = 0.5, 5.0, 0.01
CHANNELS = [(1, 0), (1, 1), (3, 0)]
DRIVE = (1, 1)
HEADER = (
    "# SIMULATED example record (resources/records/generate_examples.py), not a measurement:\n"
    "# X1 frame (resources/structures/example_x1.yaml), 10 N at 1 Hz on node 1 along y after 0.5 s at rest;\n"
    "# 2 % acceleration noise, 0.2 % force noise. Columns: time (s), force (N), acc (m/s^2).\n"
)


def write(path, t, force, acc, note=""):
    labels = ["time", f"force:{DRIVE[0]}:{'xyz'[DRIVE[1]]}"] + [f"acc:{n}:{'xyz'[a]}" for n, a in CHANNELS]
    with open(path, "w") as fh:
        fh.write(HEADER + note + ",".join(labels) + "\n")
        np.savetxt(fh, np.column_stack([t, force, acc]), delimiter=",", fmt="%.9g")


def main():
    st = build_structure("example_x1", SPEC)
    dyn = Dynamics(st)
    drive = st.dim * DRIVE[0] + DRIVE[1]
    forcing = make_forcing("harmonic", [drive], amplitude=10.0, frequency=1.0)
    rec = simulate_from_rest(dyn, forcing, t_end=T_END, dt_out=DT, rtol=1e-10, atol=1e-10)
    n0 = int(round(LEAD_IN / DT))
    t = np.r_[np.arange(n0) * DT, LEAD_IN + rec.t]
    cols = [st.dim * n + a for n, a in CHANNELS]
    acc = np.r_[np.zeros((n0, len(cols))), rec.qdd[:, cols]]
    force = np.r_[np.zeros(n0), forcing.at(rec.t, st.n_coords)[:, drive]]
    rng = np.random.default_rng(2026)
    acc_noisy = acc + rng.standard_normal(acc.shape) * 0.02 * np.sqrt(np.mean(acc**2, axis=0))
    force_noisy = force + rng.standard_normal(force.shape) * 0.002 * np.sqrt(np.mean(force**2))
    write(HERE / "x1_shaker_simulated.csv", t, force_noisy, acc_noisy)
    write(
        HERE / "x1_shaker_miscalibrated_simulated.csv",
        t,
        force_noisy / 1.2,
        acc_noisy,
        "# The force channel reads 1/1.2 of the applied force (sensitivity 20 % off): fit the scale.\n",
    )
    lines, _ = distinct_lines(ModalFamily(dyn).frequencies(1.25))
    with open(HERE / "x1_peaks_simulated.csv", "w") as fh:
        fh.write(
            "# SIMULATED peak list (resources/records/generate_examples.py), not a measurement: the X1\n"
            "# frame's natural frequencies at 1.25 x its design prestress, 4 significant digits.\n"
            "# mode: the 1-based model line each peak is matched to.\n"
            "frequency_hz,mode\n"
        )
        for k, f in enumerate(lines, start=1):
            fh.write(f"{float(f'{f:.4g}')},{k}\n")


if __name__ == "__main__":
    main()
