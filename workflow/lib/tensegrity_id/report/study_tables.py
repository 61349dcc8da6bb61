"""Tables 1, S2 and 9 of the paper, generated from the structures, the config and the runs.

Table 1 lists the benchmark structures (nodes, bars, cables, mechanism
degrees of freedom, prestress source); Table S2 the simulation, sensing and
training parameters with where each value is set; Table 9 the assessment
errors of the identified structures, one row per identification run.  None
types a number: every value is read from a structure record
(``results/structures/*.json``), the configuration that ran, or a run's
result and its assessment (``analysis.error_propagation``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..analysis.stability import MATERIALS
from ..mechanics.statics import RANK_TOL
from ..results.identification import KEY, IdentificationResult

__all__ = [
    "TABLE1_COLUMNS",
    "TABLE_S2_COLUMNS",
    "TABLE9_COLUMNS",
    "TABLE9_NOTE",
    "table1",
    "table_s2",
    "table9",
    "prestress_source",
]

TABLE1_COLUMNS = [
    "structure",
    "label",
    "nodes",
    "bars",
    "cables",
    "mech_dofs",
    "free_coords_less_bars",
    "prestress_source",
]
TABLE_S2_COLUMNS = ["group", "parameter", "value", "source"]
TABLE9_COLUMNS = [
    "method",
    "structure",
    "record",
    "sigma_max_all_pct",
    "sigma_max_identifiable_pct",
    "margin_exact",
    "margin_identified",
    "margin_err_pct",
    "U_c_err_pct",
    "class_exact",
    "class_identified",
    "n_undetermined",
]
TABLE9_NOTE = (
    "Cable sets. `sigma_max_all_pct`: the largest force-density error over all cables, "
    "those the record cannot determine included (the X1 base cable, both ends pinned), "
    "as the paper's Table 9 counts it; `sigma_max_identifiable_pct`: the same over the "
    "identifiable cables only (the convention of the identification tables). A cable a "
    "method leaves undetermined has no error in either column. The margin and `U_c` "
    "errors use every cable's identified value (an undetermined cable keeps its exact one)."
)
"""The Markdown note of Table 9: which cables each error column counts."""
TABLE_S2_PRESTRESS = ("x1", "x5_bridge", "prism45", "prism30_zg", "hexprism")
"""The structures whose prestress Table S2 states (planar frames, bridge, prisms, laboratory prism)."""


def prestress_source(report: dict, levels=None) -> str:
    """One line on how a structure's prestress was made (its ``prestress`` record)."""
    geo = report["structure"]
    text = _prestress_text(report["prestress"])
    if geo.get("gravity", 0.0) > 0:
        text += ", with gravity"
    if levels and sorted(levels) != [1.0]:
        text += "; scaled " + ", ".join(f"{v:g}" for v in sorted(levels)) + " x by the records"
    return text


def table1(reports: list[dict], labels: dict | None = None, levels: dict | None = None) -> pd.DataFrame:
    """Table 1: one row per structure record.

    ``free_coords_less_bars`` is the free coordinates less one length
    constraint per bar; ``mech_dofs`` prints it as the paper does, or
    ``free–free`` for a form without supports (it keeps its six rigid-body
    motions);
    ``levels`` maps a structure to the prestress scales its records use.
    """
    rows = []
    for r in reports:
        geo = r["structure"]
        n_nodes = len(geo["nodes"])
        n_bars, n_cables = len(geo["bars"]), len(geo["cables"])
        fixed = np.zeros((n_nodes, geo["dim"]), bool)
        for i, a in geo.get("fixed", []):
            fixed[i, a] = True
        dofs = int((~fixed).sum()) - n_bars
        rows.append(
            {
                "structure": r["name"],
                "label": (labels or {}).get(r["name"], r["name"]),
                "nodes": n_nodes,
                "bars": n_bars,
                "cables": n_cables,
                "mech_dofs": "free–free" if not fixed.any() else str(dofs),
                "free_coords_less_bars": dofs,
                "prestress_source": prestress_source(r, (levels or {}).get(r["name"])),
            }
        )
    return pd.DataFrame(rows, columns=TABLE1_COLUMNS)


def _prestress_text(p: dict) -> str:
    """A prestress specification (config ``structures.*.prestress``) in words."""
    if p.get("method") == "lp":
        return f"LP, {p.get('sigma_min', 25.0):g} N/m min. force density"
    if p.get("tension") is not None:
        return f"self-stress mode, {p['tension']:g} N in cable {p.get('cable', 0)}"
    return f"self-stress mode, scale {p.get('scale', 1.0):g}"


def _fmt_list(values) -> str:
    return ", ".join(f"{v:g}" for v in values)


def table_s2(
    config: dict, benchmark: dict, hexprism: dict | None = None, *, run: tuple | None = None
) -> pd.DataFrame:
    """Table S2: the parameters of the study as this configuration sets them.

    Parameters
    ----------
    config : dict
        The workflow config (after schema defaults).
    benchmark : dict
        The structure record of a synthetic benchmark (X1): member properties.
    hexprism : dict, optional
        The hexagonal prism's structure record.
    run : (str, dict), optional
        A physics-informed run of the base settings: its result file and the
        ``options`` it used; the network and optimisation rows state those
        (source: the file), else the config's ``identify.pinn.settings``.
    """
    geo = benchmark["structure"]
    sim = config["records"]["simulation"]
    pinn = config["identify"]["pinn"]
    st = pinn["settings"] if run is None else run[1]
    src = "config identify.pinn.settings" if run is None else f"run {run[0]}"
    rows = []

    def add(group, parameter, value, source):
        rows.append({"group": group, "parameter": parameter, "value": value, "source": source})

    g = "Members, synthetic benchmarks"
    ea = float(np.mean(geo["cable_EA"]))
    add(g, "cable EA", f"{ea:.1f} N (1 mm radius, 70 MPa)", "mechanics.generators.BENCHMARK_MEMBERS")
    add(
        g, "cable damping c_k", f"{np.mean(geo['cable_damping']):g} N s/m, taut cables only", "structure file"
    )
    add(
        g,
        "bar radius, density",
        f"{np.mean(geo['bar_radius']) * 100:g} cm, {np.mean(geo['bar_density']):g} kg/m^3",
        "structure file",
    )
    add(g, "bar treatment", "rigid (length constraint)", "mechanics.dynamics")
    if hexprism is not None:
        hg = hexprism["structure"]
        add(
            g,
            "hexagonal prism",
            f"EA = {np.mean(hg['cable_EA']):g} N, bar mass {np.mean(hg['bar_mass']) * 1e3:g} g",
            "mechanics.generators.hexprism",
        )
    g = "Prestress"
    for name in TABLE_S2_PRESTRESS:
        if name in config.get("build", []):
            spec = config["structures"][name].get("prestress", {})
            add(g, name, _prestress_text(spec), f"config structures.{name}.prestress")
    g = "Members, structural assessment"
    for name, m in MATERIALS.items():
        text = ", ".join(f"{k} {v / 1e9:g} GPa" if k == "E" else f"{k} {v / 1e6:g} MPa" for k, v in m.items())
        add(g, name, text, "analysis.stability.MATERIALS")
    add(g, "rank tolerance", f"{RANK_TOL:g} relative singular value", "mechanics.statics.RANK_TOL")
    g = "Excitation and records"
    specs = [spec for recs in config["records"].get("suite", {}).values() for spec in recs.values() if spec]
    add(g, "classes", ", ".join(sorted({spec["forcing"] for spec in specs})), "config records.suite")
    freqs = sorted({float(spec["frequency"]) for spec in specs if "frequency" in spec})
    add(g, "harmonic frequencies", f"{_fmt_list(freqs)} Hz", "config records.suite")
    add(
        g,
        "record length, output step",
        f"{sim['t_end']:g} s, {sim['dt_out']:g} s",
        "config records.simulation",
    )
    add(
        g,
        "integration",
        f"{sim['method']}, rtol {sim['rtol']:g}, atol {sim['atol']:g}",
        "config records.simulation",
    )
    g = "Sensing"
    noise = sorted(
        {
            float(p["noise"]) * 100
            for prots in config["records"].get("protocols", {}).values()
            for p in prots.values()
        }
    )
    add(g, "measured signal", "nodal accelerations", "data.sensors")
    add(g, "noise model", "zero-mean Gaussian, scaled to per-channel RMS", "data.sensors")
    add(g, "noise levels", f"{_fmt_list(noise)} %", "config records.protocols")
    add(
        g,
        "sparse, intermittent record",
        "25 % of samples, three dropout windows",
        "data.sensors.intermittent_mask",
    )
    g = "Network"
    init = {"torch": "PyTorch default (uniform)", "glorot": "Glorot normal, zero biases"}[
        st.get("init", "torch")
    ]
    add(g, "trunk", f"{st['depth']} layers x {st['width']} units, tanh; initialisation {init}", src)
    spacing = {"geometric": "2^j pi", "linear": "2 pi (j + 1)", "linear_pi": "pi (j + 1)"}
    add(
        g,
        "input features",
        f"{st['n_fourier']} Fourier frequencies in scaled time, {spacing[st.get('fourier', 'geometric')]}",
        src,
    )
    add(g, "heads", "displacement, constraint multipliers", "identify.pinn")
    add(
        g,
        "hard initial condition",
        f"s(tau) = (1 - exp(-tau/{st['tau_ic']:g}))^2",
        src,
    )
    add(g, "displacement scale", f"{st['disp_scale']:g} m", src)
    add(g, "smoothing sharpness beta", f"{st['beta']:g}", src)
    g = "Optimization"
    add(
        g,
        "learning rates",
        f"{st['lr_net']:g} network, {st['lr_params']:g} parameters",
        src,
    )
    add(g, "loss", f"L_data + {st['w_eom']:g} L_EOM + {st['w_bar']:g} L_bar", src)
    add(g, "collocation points", f"{st['n_colloc']} fresh points per step", src)
    steps = sorted({int(s) for r in pinn.get("runs", []) for s in r.get("steps", [])})
    add(g, "training length", f"{_fmt_list(steps)} steps", "config identify.pinn.runs")
    add(
        g,
        "parameter initialization",
        f"sigma_k = {pinn['sigma0']:g} N/m, c = {pinn['c0']:g} N s/m",
        "config identify.pinn",
    )
    return pd.DataFrame(rows, columns=TABLE_S2_COLUMNS)


def _max_error_all_cables(result: IdentificationResult) -> float | None:
    """Largest relative force-density error (%) over every cable with an identified value."""
    sig, true = result.identified.sigma, result.exact.sigma
    vals = [100.0 * abs(v - t) / abs(t) for v, t in zip(sig, true, strict=True) if v is not None]
    return max(vals) if vals else None


def table9(assessed: list[dict], results: list[IdentificationResult]) -> pd.DataFrame:
    """Table 9: assessment errors when identified force densities replace the exact ones.

    ``assessed``: one :func:`tensegrity_id.analysis.error_propagation` row per
    run, ``results`` the identification results in the same order.  The
    largest force-density error is given over two cable sets
    (:data:`TABLE9_NOTE`): ``sigma_max_all_pct`` over all cables, as the
    paper's Table 9 (its 87 % on the X1 slack-transition record includes the
    base cable that joins the two pinned nodes), and
    ``sigma_max_identifiable_pct`` over the identifiable cables only (the
    run's ``errors.sigma_max_pct``).
    """
    if len(assessed) != len(results):
        raise ValueError(f"table9: {len(assessed)} assessed rows for {len(results)} results")
    rows = []
    for row, res in zip(assessed, results, strict=True):
        key = (row["method"], row["structure"], row["record"])
        if key != (res.method, res.structure, res.record):
            other = (res.method, res.structure, res.record)
            raise ValueError(f"table9: assessed row {key} does not belong to result {other}")
        out = {k: v for k, v in row.items() if k != KEY.sigma_max_pct}
        out["sigma_max_all_pct"] = _max_error_all_cables(res)
        out["sigma_max_identifiable_pct"] = res.errors.sigma_max_pct
        rows.append(out)
    return pd.DataFrame(rows, columns=TABLE9_COLUMNS)
