"""The own-record fit figure draws what it is given (tensegrity_id.report.plot_own_records)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from tensegrity_id.report import plot_own_records as por


def _channels(model_ok=True):
    t = np.linspace(0, 2, 201)
    rng = np.random.default_rng(0)
    out = []
    for k, name in enumerate(["acc:1:x", "acc:3:x"]):
        clean = np.sin(2 * np.pi * (1 + k) * t)
        held = np.zeros_like(t, bool)
        held[::10] = True
        out.append(
            por.ChannelFit(
                name, t, clean + 0.05 * rng.standard_normal(t.size), clean if model_ok else None, 0.05, held
            )
        )
    return out


def test_fit_figure_panels_and_intervals(tmp_path, monkeypatch):
    seen = {}
    real_close = plt.close

    def keep(fig):
        seen["fig"] = fig
        real_close(fig)

    monkeypatch.setattr(por.plt, "close", keep)
    params = [
        por.ParameterInterval("σ1", 52.23, 0.02, 52.24),
        por.ParameterInterval("σ2", 25.01, None, 25.0),
        por.ParameterInterval("c", 0.997, 0.001, 1.0, "N s/m"),
    ]
    path = tmp_path / "fit.png"
    por.plot_own_record_fit(_channels(), params, [path], title="x1_shaker")
    assert path.stat().st_size > 10_000
    axes = seen["fig"].axes
    assert len(axes) == 5  # two channels x (record, residual) + the parameters
    # the residual of a model that is the clean signal stays inside the ±2σ band for ~95 % of samples
    share = float(axes[1].get_title().split(":")[1].split("%")[0])
    assert 90 <= share <= 99
    params_ax = axes[-1]
    assert [t.get_text() for t in params_ax.get_xticklabels()] == ["σ1\n52.23 N/m", "σ2\n25.01 N/m"]
    assert "c = 0.997 ± 0.002 N s/m" in params_ax.get_title()
    (bars,) = [c for c in params_ax.containers]  # the one errorbar: σ1 only (σ2 has no bound)
    segs = bars.lines[2][0].get_segments()  # in % of the design value
    lo, hi = (100 * (52.23 - 0.04) / 52.24 - 100, 100 * (52.23 + 0.04) / 52.24 - 100)
    assert len(segs) == 1 and np.allclose(segs[0][:, 1], [lo, hi])


def test_failed_resimulation_is_said_and_no_channel_refused(tmp_path):
    por.plot_own_record_fit(_channels(model_ok=False), [], [tmp_path / "f.png"])
    with pytest.raises(ValueError, match="no measured channel"):
        por.plot_own_record_fit([], [], [tmp_path / "g.png"])
