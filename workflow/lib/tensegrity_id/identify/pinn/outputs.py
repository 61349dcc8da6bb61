"""The files of a physics-informed identification run: result record, training history, re-simulated series.

Per seed (``results/identify/pinn_{treatment}/{structure}/{record}/{protocol}_seed{seed}_steps{steps}``):

* ``.json``: the result record
  (:class:`~tensegrity_id.results.identification.IdentificationResult`);
* ``_history.csv``: step, loss terms (normalised, -), learning rates,
  sigma_k (N/m), c (N s/m)[, EA (N)] every ``history_every`` steps;
* ``_series.npz``: ``t`` (s), ``true``, ``resim`` and ``network``
  accelerations (m/s^2) at the re-simulated unmeasured coordinate
  ``coord`` (``coord = -1`` when nothing was re-simulated).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...data.runio import write_csv, write_npz
from ...results.identification import IdentificationResult

__all__ = ["write_run"]

SERIES_KEYS = ("t", "true", "resim", "network")


def _g(v) -> str:
    return "None" if v is None else f"{v:.3g}"


def write_run(
    result: IdentificationResult, json_path, history_path, series_path, log=None, *, provenance=None
) -> None:
    """Write one run's three files: the record (with ``provenance``: what made it,
    :mod:`tensegrity_id.results.provenance`), its ``history`` and its ``series``."""
    write_csv(pd.DataFrame(result.history), history_path, index=False)
    series = result.series
    if series is not None:
        arrays = {k: np.asarray(v) for k, v in series.items() if k in SERIES_KEYS}
        write_npz(series_path, coord=series["coord"], record=series["record"], **arrays)
    else:
        write_npz(series_path, coord=-1, record="")
    if log is not None:
        e = result.errors
        log.info(
            "seed %d: max sigma error %s %%, c error %s %% (None: no exact values), held-out ratio %s, "
            "reconstruction %s %%, re-simulation %s %%, outcome %s",
            result.seed,
            _g(e.sigma_max_pct),
            _g(e.c_pct),
            result.held_out_ratio,
            result.reconstruction_pct,
            result.resimulation_pct,
            result.outcome,
        )
    result.write(json_path, provenance=provenance)
