"""Repeated identifications against the Cramér–Rao bound: bias and scatter, separately (the paper §4.8).

Each seed of a physics-informed run draws a new noise realisation and a new
network initialisation.  Over the seeds of one record this module reports,
per identifiable parameter, the seed mean, its bias from the exact value
(absolute and %), the seed-to-seed standard deviation (ddof 1), the
Cramér–Rao bound of the record's Fisher information at the exact values,
their ratio (the efficiency gap; 1 for an efficient estimator) and the bias
in units of the scatter.  The paper's reading: scatter 2.7–8.3 × CRLB, bias
2–4 %, each bias about an order above its own scatter, i.e. the error is
mostly bias, which an interval built from repeated fits would not capture.
"""

from __future__ import annotations

import numpy as np

from ..results.fisher import FISHER_KEY, FisherAnalysis
from ..results.identification import KEY, IdentificationResult

__all__ = ["seed_study"]


def _param_values(result: IdentificationResult, name: str) -> float | None:
    if name == "c":  # the Fisher analysis names its parameters sigma_k and c
        return result.identified.c
    return result.identified.sigma[int(name.split("_")[1])]


def _exact(result: IdentificationResult, name: str) -> float:
    return float(result.exact.c if name == "c" else result.exact.sigma[int(name.split("_")[1])])


def seed_study(results: list[IdentificationResult], fisher: FisherAnalysis) -> dict:
    """Bias, scatter and scatter over the CRLB of repeated runs of one record.

    Parameters
    ----------
    results : list of IdentificationResult
        Result records of the runs (one per seed) of the same record,
        protocol, method and length.
    fisher : FisherAnalysis
        The record's Fisher analysis (``results/fisher/...json``): its
        ``crlb`` (absolute, parameter units) over the identifiable block.

    Returns
    -------
    dict
        ``seeds``, ``n_seeds``, ``parameters`` (per identifiable parameter:
        ``exact``, ``mean``, ``bias``, ``bias_pct``, ``std``, ``crlb``,
        ``std_over_crlb``, ``bias_over_std``, ``values``), the ranges
        ``std_over_crlb_range`` and ``sigma_bias_pct_range`` (force
        densities), the seed means of ``held_out_ratio``,
        ``sigma_max_pct`` and ``c_pct`` with the outcomes, and the Fisher
        analysis's ``null_members``.  An entry named after a result key
        takes its name from the record module (``KEY``, ``FISHER_KEY``).
    """
    if len(results) < 2:
        raise ValueError(f"a seed study needs two or more seeds; got {len(results)}")
    keys = {(r.structure, r.record, r.protocol, r.method, r.steps) for r in results}
    if len(keys) > 1:
        raise ValueError(f"a seed study repeats one run; these differ: {sorted(keys)}")
    crlb = fisher.crlb
    names = [n for n in fisher.names if n in crlb]
    params = {}
    for n in names:
        vals = [_param_values(r, n) for r in results]
        vals = np.array([v for v in vals if v is not None], float)
        exact = _exact(results[0], n)
        mean, std = float(vals.mean()), float(vals.std(ddof=1))
        bias = mean - exact
        params[n] = {
            "exact": exact,
            "mean": mean,
            "bias": bias,
            "bias_pct": 100.0 * bias / abs(exact),
            "std": std,
            "std_pct": 100.0 * std / abs(exact),
            FISHER_KEY.crlb: float(crlb[n]),
            "std_over_crlb": std / float(crlb[n]),
            "bias_over_std": abs(bias) / std if std > 0 else None,
            "values": vals.tolist(),
        }
    ratios = [p["std_over_crlb"] for p in params.values()]
    sig_bias = [abs(p["bias_pct"]) for n, p in params.items() if n.startswith("sigma_")]

    held = [r.held_out_ratio for r in results if r.held_out_ratio is not None]
    outcomes: dict[str, int] = {}
    for r in results:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
    r0 = results[0]
    return {
        "structure": r0.structure,
        "record": r0.record,
        "protocol": r0.protocol,
        "method": r0.method,
        "steps": r0.steps,
        "seeds": sorted(int(r.seed) for r in results),
        "n_seeds": len(results),
        "parameters": params,
        "std_over_crlb_range": [float(min(ratios)), float(max(ratios))],
        "sigma_bias_pct_range": [float(min(sig_bias)), float(max(sig_bias))] if sig_bias else None,
        KEY.held_out_ratio: float(np.mean(held)) if held else None,
        KEY.sigma_max_pct: float(np.mean([r.errors.sigma_max_pct for r in results])),
        KEY.c_pct: float(np.mean([r.errors.c_pct for r in results])),
        KEY.outcomes: outcomes,
        FISHER_KEY.null_members: fisher.null_members,
    }
