"""Assembling identification problems from the workflow's files (tensegrity_id.identify.problems).

The files are made as the workflow makes them (generate_structure.py,
simulate_record.py, make_sensor_data.py), on short records.
"""

import numpy as np
import pytest
from tensegrity_id import build_structure, load_problem, structure_report
from tensegrity_id.data.records import forcing_from_spec, load_record, record_structure, save_record
from tensegrity_id.data.runio import write_json
from tensegrity_id.data.sensors import sensor_data
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.simulate import simulate

PROTOCOL = {"channels": [[1, 0], [1, 1]], "noise": 0.02, "noise_seed": 0}
T_END = 2.0
PRISM_ZG = {
    "generator": "prism",
    "params": {"n_bars": 3, "twist_deg": 30.0, "gravity": 0.0},
    "prestress": {"method": "selfstress", "scale": 1.0},
}


def _files(root, structure, records, protocol=None, *, prestress=None, t_end=T_END):
    """Structure report, records (and sensor data) under ``root``; returns the paths.

    ``prestress`` (the config's prestress entry) only documents the report.
    """
    root.mkdir(parents=True, exist_ok=True)
    paths = {"structure": root / f"{structure.name}.json", "npz": [], "json": [], "sensors": []}
    write_json(paths["structure"], structure_report(structure, prestress))
    for name, spec in records.items():
        st = record_structure(structure, spec)
        forcing = forcing_from_spec(st, spec, t_end=t_end)
        dyn = Dynamics(st)
        rec = simulate(dyn, forcing, t_end=t_end, dt_out=0.01)
        npz, js = root / f"{name}.npz", root / f"{name}.json"
        save_record(rec, dyn, npz, js, spec=spec, forcing=forcing)
        paths["npz"].append(npz)
        paths["json"].append(js)
        if protocol is not None:
            sens = root / f"{name}_sensors.npz"
            np.savez_compressed(sens, **sensor_data(st, load_record(npz), protocol))
            paths["sensors"].append(sens)
    return paths


def _harmonic(amplitude, drive=((1, 1),)):
    return {
        "forcing": "harmonic",
        "drive": [list(d) for d in drive],
        "amplitude": amplitude,
        "frequency": 1.0,
    }


@pytest.fixture(scope="module")
def x1_files(x1, tmp_path_factory):
    records = {"taut_a": _harmonic(10.0), "taut_b": _harmonic(6.0)}
    return _files(tmp_path_factory.mktemp("x1"), x1, records, PROTOCOL)


def test_single_paths_make_a_one_record_problem(x1, x1_files):
    f = x1_files
    p = load_problem(f["structure"], f["npz"][0], f["json"][0], f["sensors"][0])
    assert len(p.records) == 1
    rd = p.records[0]
    assert rd.name == "taut_a"  # default name: the metadata file's stem
    stored = load_record(f["npz"][0])
    np.testing.assert_array_equal(rd.states["q"], stored["q"])
    assert set(rd.states) == {"t", "q", "qd", "qdd", "taut"}
    assert rd.n_transitions == 0 and rd.states["t"][-1] == pytest.approx(T_END)
    # the forcing is rebuilt exactly from the metadata
    t = stored["t"]
    force = rd.forcing.at(t, x1.q0.size)[:, stored["forcing_coords"]]
    assert stored["forcing_coords"].tolist() == [3] and np.abs(stored["forcing"]).max() > 9.9
    np.testing.assert_allclose(force, stored["forcing"], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rd.sensors["channels"], [2, 3])
    # paths given as strings work the same
    again = load_problem(*(str(x) for x in (f["structure"], f["npz"][0], f["json"][0], f["sensors"][0])))
    assert [r.name for r in again.records] == ["taut_a"]
    np.testing.assert_array_equal(again.records[0].sensors["noisy"], rd.sensors["noisy"])


def test_truth_and_initial_guesses(x1, x1_files):
    f = x1_files
    p = load_problem(
        f["structure"], f["npz"][0], f["json"][0], sigma0=12.0, c0=0.5, seed=3, sim={"rtol": 1e-6}
    )
    assert p.structure.digest() == x1.digest()
    np.testing.assert_allclose(p.truth["sigma"], x1.sigma, rtol=1e-12)
    assert p.truth["c"] == pytest.approx(float(np.mean(x1.cable_damping)), rel=1e-12)
    assert p.truth["EA"] == pytest.approx(float(np.mean(x1.cable_EA)), rel=1e-12)
    np.testing.assert_allclose(p.lambda0, x1.bar_sigma, rtol=1e-12)
    assert (p.sigma0, p.c0, p.seed, p.sim, p.outcome_rule) == (12.0, 0.5, 3, {"rtol": 1e-6}, {})
    assert p.records[0].sensors == {}  # no sensor file: a full-state problem


def test_lists_of_paths_pool_records_with_default_and_given_names(x1_files):
    f = x1_files
    p = load_problem(f["structure"], f["npz"], f["json"], f["sensors"])
    assert [r.name for r in p.records] == ["taut_a", "taut_b"]
    q = [load_record(npz)["q"] for npz in f["npz"]]
    for r, qk in zip(p.records, q, strict=True):
        np.testing.assert_array_equal(r.states["q"], qk)
    p = load_problem(f["structure"], f["npz"], f["json"], f["sensors"], names=["p10", "p6"])
    assert [r.name for r in p.records] == ["p10", "p6"]
    # a single path and a one-element list give the same problem
    one = load_problem(f["structure"], [f["npz"][1]], [f["json"][1]], [f["sensors"][1]])
    assert [r.name for r in one.records] == ["taut_b"]
    np.testing.assert_array_equal(one.records[0].sensors["noisy"], p.records[1].sensors["noisy"])


def test_every_seed_draws_its_noise_in_one_place_and_the_file_holds_none(x1_files):
    from tensegrity_id.data.sensors import NOISE_SEED_TAG

    f = x1_files
    with np.load(f["sensors"][0]) as z:
        stored = {k: z[k] for k in z.files}
    assert "noisy" not in stored  # one noise path: no draw in the sensor file
    s0 = load_problem(f["structure"], f["npz"][0], f["json"][0], f["sensors"][0], seed=0).records[0].sensors
    s1 = load_problem(f["structure"], f["npz"][0], f["json"][0], f["sensors"][0], seed=1).records[0].sensors
    # seed 0: the protocol's stream SeedSequence([NOISE_SEED_TAG, noise_seed]), whose next draw is the split
    rng = np.random.default_rng(np.random.SeedSequence([NOISE_SEED_TAG, 0]))
    expect = stored["clean"] + rng.standard_normal(stored["clean"].shape) * stored["noise_std"]
    np.testing.assert_array_equal(s0["noisy"], expect)
    train = np.zeros(len(expect), bool)
    train[rng.permutation(len(expect))[: int(round(0.7 * len(expect)))]] = True
    np.testing.assert_array_equal(stored["train"], train)
    assert not np.allclose(s1["noisy"], s0["noisy"])
    # same clean signal, split and noise level; only the realisation differs
    for key in ("clean", "noise_std", "train", "keep", "t", "channels"):
        np.testing.assert_array_equal(s1[key], stored[key])
    z = (s1["noisy"] - s1["clean"]) / s1["noise_std"]  # 201 samples x 2 channels of unit normals
    assert abs(z.mean()) < 0.2 and 0.85 < z.std() < 1.15
    again = load_problem(f["structure"], f["npz"][0], f["json"][0], f["sensors"][0], seed=1).records[0]
    np.testing.assert_array_equal(again.sensors["noisy"], s1["noisy"])  # reproducible per seed


@pytest.mark.parametrize(
    "cut",
    [
        {"npz": 1},  # one record file for two metadata files
        {"sensors": 1},
        {"names": 1},
    ],
)
def test_mismatched_list_lengths_are_refused(x1_files, cut):
    f = x1_files
    args = {"npz": f["npz"], "json": f["json"], "sensors": f["sensors"], "names": ["a", "b"]}
    args = {k: (v[: cut[k]] if k in cut else v) for k, v in args.items()}
    with pytest.raises(ValueError, match="one record file, one metadata file, one sensor file and one name"):
        load_problem(f["structure"], args["npz"], args["json"], args["sensors"], names=args["names"])


def test_pooled_records_of_different_prestress_are_refused(tmp_path):
    """Two records of a zero-gravity prism at prestress scales 1 and 2 cannot share parameters."""
    s = build_structure("prism_zg", PRISM_ZG)
    drive = ((3, 0),)
    records = {"l1": _harmonic(0.1, drive), "l2": {**_harmonic(0.1, drive), "prestress_scale": 2.0}}
    f = _files(tmp_path, s, records, prestress=PRISM_ZG["prestress"], t_end=0.5)
    for k in range(2):  # each alone is fine and carries its own prestress
        p = load_problem(f["structure"], f["npz"][k], f["json"][k])
        np.testing.assert_allclose(p.truth["sigma"], (k + 1) * s.sigma, rtol=1e-12)
    with pytest.raises(ValueError, match=r"must share the structure and its prestress \('.*l2"):
        load_problem(f["structure"], f["npz"], f["json"])
