"""Adequacy of the nodal member model (the paper's §2.2, §5): closed forms checked independently."""

import numpy as np
from scipy.linalg import eigh_tridiagonal
from tensegrity_id.analysis.member_model import cable_member_frequencies, member_model_adequacy
from tensegrity_id.mechanics.dynamics import Dynamics
from tensegrity_id.mechanics.modal import constrained_modes


def _beam_string_fundamental_fd(T, EI, mu, L, n=400):
    """Lowest frequency (Hz) of a pinned-pinned beam-string, -T w'' + EI w'''' = mu w^2 w, by finite
    differences: with pinned ends D4 = D2 @ D2 exactly, so the eigenvalues follow from D2's."""
    h = L / (n + 1)
    d2 = eigh_tridiagonal(np.full(n, 2.0 / h**2), np.full(n - 1, -1.0 / h**2), eigvals_only=True)
    w2 = (T * d2 + EI * d2**2) / mu
    return np.sqrt(w2.min()) / (2 * np.pi)


def test_crossover_tension_and_fundamentals_match_independent_forms(x1):
    c = cable_member_frequencies(x1)
    L, mu = c["L_m"], c["linear_density_kg_m"]
    E, I = 70e6, np.pi * 1e-3**4 / 4  # the benchmarks' 1 mm, 70 MPa cables
    assert np.allclose(c["E_cable_Pa"], E, rtol=1e-3)
    assert np.allclose(c["T_star_N"], E * I * np.pi**2 / L**2, rtol=1e-3)
    assert 3e-4 < c["T_star_N"].max() < 8e-4  # the paper: about 5e-4 N
    for k in range(len(L)):
        fd = _beam_string_fundamental_fd(c["tension_N"][k], E * I, mu, L[k])
        assert abs(c["transverse_hz"][k] / fd - 1) < 1e-4
        fd0 = _beam_string_fundamental_fd(0.0, E * I, mu, L[k])
        assert abs(c["transverse_slack_hz"][k] / fd0 - 1) < 1e-4 and fd0 > 0  # finite at slack
    # axial: a fixed-fixed rod, c = sqrt(EA / mu)
    assert np.allclose(c["axial_hz"], np.sqrt(E * np.pi * 1e-6 / mu) / (2 * L), rtol=1e-3)


def test_adequacy_counts_samples_below_the_crossover(x1):
    freq, _ = constrained_modes(Dynamics(x1))
    nc, nt = x1.n_cables, 10
    ten = np.full((nt, nc), 20.0)
    ten[:3, 0] = 0.0  # slack
    ten[3, 1] = 1e-4  # taut but below T*
    rec = {"tension": ten, "taut": ten > 0}
    out = member_model_adequacy(x1, {"r": rec}, freq)
    r = out["records"]["r"]
    assert r["fraction_slack"] == 3 / ten.size and r["fraction_taut_below_T_star"] == 1 / ten.size
    assert r["fraction_below_T_star"] == 4 / ten.size and out["min_working_tension_N"] == 1e-4
    # the member modes lie above the mechanism modes, bar axial modes far above
    sep = out["separation"]
    assert sep["cable_transverse_over_mechanism"] > 3 and sep["bar_axial_over_mechanism"] > 100
