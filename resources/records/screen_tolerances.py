"""The simulated records behind the tolerances of the record screens (tensegrity_id.data.screening).

Run from the repository root (about a minute on one core):
``python resources/records/screen_tolerances.py``.

The X1 frame and the 3-bar prism (LP prestress, cables at least 25 N/m;
every free coordinate a channel) are simulated at 0.7, 1 and 1.4 times their
design prestress and 0.2, 1 and 5 times their design damping under four
forces on one coordinate (10 N at 1 Hz; 5 N RMS broadband to 10 Hz; a
20 N, 0.05 s half sine; a 100 N, 0.02 s half sine): 72 records of 5 s at
100 Hz with 2 % noise.  Each is screened as recorded and with one fault
added (a force in daN, accelerations in g, one channel in g or in mm/s^2,
one channel reversed, two exchanged, one stuck from 3 s on, a sample of
1e6, a force sample of 1e4, a noise level stated 4 times too high), against
the design structure, and the script prints, per fault, how many records
were refused, warned of and passed, with the ranges of the level ratio and
the agreement on the records without a fault.  docs/own-records.md quotes
them.  The records are simulated: nothing here is a measurement.
"""

import warnings

import numpy as np
from tensegrity_id.data.measured import estimate_noise_std
from tensegrity_id.data.outliers import screen_outliers
from tensegrity_id.data.record_csv import RecordFileError
from tensegrity_id.data.screening import screen_against_model
from tensegrity_id.mechanics.catalog import build_structure
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.excitation import make_forcing
from tensegrity_id.mechanics.simulate import simulate_from_rest

LP = {"method": "lp", "sigma_min": 25.0}
STRUCTURES = {
    "x1": {"generator": "xframe", "params": {"n_modules": 1}, "prestress": LP},
    "prism": {"generator": "prism", "params": {}, "prestress": LP},
}
FORCES = (
    ("harmonic", {"amplitude": 10.0, "frequency": 1.0}),
    ("noise", {"amplitude": 5.0, "seed": 1, "cutoff": 10.0}),
    ("half_sine", {"amplitude": 20.0, "duration": 0.05, "start": 0.1}),
    ("half_sine", {"amplitude": 100.0, "duration": 0.02, "start": 0.3}),
)
FAULTS = (
    "none",
    "daN",
    "g",
    "one_g",
    "one_mm",
    "reversed",
    "swapped",
    "stuck",
    "spike",
    "force_spike",
    "noise_x4",
)


def faulty(fault, F, A, noise):
    """The record with one fault added; ``stated``: the channels whose noise the entry states."""
    F, A, noise, stated = F.copy(), A.copy(), noise.copy(), np.zeros(A.shape[1], bool)
    if fault == "daN":
        F /= 10.0
    elif fault == "g":
        A /= 9.81
    elif fault == "one_g":
        A[:, 0] /= 9.81
    elif fault == "one_mm":
        A[:, 0] *= 1000.0
    elif fault == "reversed":
        A[:, 0] *= -1.0
    elif fault == "swapped":
        A[:, [0, 2]] = A[:, [2, 0]]
    elif fault == "stuck":
        A[300:, 1] = A[300, 1]
    elif fault == "spike":
        A[200, 1] = 1e6
    elif fault == "force_spike":
        F[200, 0] = 1e4
    elif fault == "noise_x4":
        noise, stated = 4.0 * noise, np.ones(A.shape[1], bool)
    return F, A, noise, stated


def screen(st, t, drive, chans, labels, F, A, noise, stated):
    """``(outcome, the screens' numbers)``: outcome ``refused``, ``warned`` or ``passed``."""
    f_ext = np.zeros((t.size, st.n_coords))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            o = screen_outliers(
                st, t, F, A, force_coords=[drive], acc_coords=chans, force_labels=["f"], acc_labels=labels
            )
            f_ext[:, drive] = o["F"][:, 0]
            out = screen_against_model(
                st, t, f_ext, o["A"], chans, noise, labels=labels, force_labels=["f"], stated=stated
            )
        except RecordFileError:
            return "refused", None
    return ("warned" if caught else "passed"), out


def main():
    rng = np.random.default_rng(0)
    counts = {f: {"refused": 0, "warned": 0, "passed": 0} for f in FAULTS}
    levels, relative, agreement = [], [], []
    for name, spec in STRUCTURES.items():
        st = build_structure(name, spec)
        chans = np.flatnonzero(st.free_mask)
        drive = int(chans[1])
        labels = [f"acc:{c // st.dim}:{'xyz'[c % st.dim]}" for c in chans]
        for scale in (0.7, 1.0, 1.4):
            for damping in (0.2, 1.0, 5.0):
                for kind, force in FORCES:
                    forcing = make_forcing(kind, [drive], t_end=5.0, **force)
                    dyn = Dynamics(st, sigma=scale * np.asarray(st.sigma), c=damping)
                    rec = simulate_from_rest(dyn, forcing, t_end=5.0, dt_out=0.01, rtol=1e-8, atol=1e-8)
                    t, f_ext = rec.t, forcing.at(rec.t, st.n_coords)
                    A = rec.qdd[:, chans]
                    A = A + rng.standard_normal(A.shape) * 0.02 * np.sqrt(np.mean(A**2, axis=0))
                    f = f_ext[:, drive]
                    F = (f + rng.standard_normal(f.shape) * 0.002 * np.sqrt(np.mean(f**2)))[:, None]
                    noise = estimate_noise_std(A)
                    for fault in FAULTS:
                        outcome, out = screen(st, t, drive, chans, labels, *faulty(fault, F, A, noise))
                        counts[fault][outcome] += 1
                        if fault == "none":
                            ratio = np.array(out["level_ratios"], float)
                            levels.append(out["level_ratio"])
                            relative += [ratio[k] / np.median(np.delete(ratio, k)) for k in range(ratio.size)]
                            agreement += [a for a in out["agreement"].values() if a is not None]
    print(
        f"{len(levels)} records; without a fault: level ratio (median over channels) "
        f"{min(levels):.2f}-{max(levels):.2f}, one channel over the others' {min(relative):.2f}-"
        f"{max(relative):.2f}, agreement >= {min(agreement):.2f}"
    )
    for fault, c in counts.items():
        print(f"{fault:12s} refused {c['refused']:3d}  warned {c['warned']:3d}  passed {c['passed']:3d}")


if __name__ == "__main__":
    main()
