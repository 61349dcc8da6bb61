"""The band a claim is judged by, and the judgement: match, better than the paper, deviation.

Every counted numeric claim has a band ``[low, high]`` built from the paper's side only (the
paper's printed precision, its seed scatter, a stated tolerance or a family whose width the
claims file justifies from the paper's own scatter) and a ``rule`` naming where the band comes
from.  The reproduction's own seed scatter is reported beside the value, never added to the band:
a reproduction whose seeds scatter widely would otherwise match anything.

No band of a two-sided claim reaches beyond a factor of :data:`CAP` of the paper's value (a
band from the paper's scatter wider than that is cut there, and its rule says so), so a value
three times or a third of the paper's is never a match.  One-sided claims (``upper``,
``lower``, a printed ``<`` or ``>``) keep their form and ``order`` stays a factor of ten.

A claim whose smaller values are better (``better: lower``, on the claim or its family: the
errors) is *better than the paper* below its band, counted apart from the matches; above it,
a deviation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SEED_K", "CAP", "Band", "band", "judge", "within", "number", "half_unit"]

SEED_K = 2.0
"""Standard deviations of the paper's seed scatter a ``seeds`` claim's band spans either side."""
CAP = 2.0
"""No two-sided band reaches beyond this factor of the paper's value (either way)."""


def number(x):
    """(comparator, float) of a value: '>100' -> ('>', 100.0); a plain number -> ('=', x);
    ``None`` for text."""
    if isinstance(x, bool):
        return None
    if isinstance(x, int | float):
        return ("=", float(x))
    m = re.fullmatch(r"\s*([<>]?)\s*([-+0-9.eE]+)\s*%?\s*", str(x))
    if not m:
        return None
    try:
        return (m.group(1) or "=", float(m.group(2)))
    except ValueError:
        return None


def half_unit(paper) -> float:
    """Half a unit of the paper's last printed digit."""
    text = str(paper).strip().lstrip("<>").strip()
    if "e" in text.lower():
        mant, exp = text.lower().split("e")
        decimals = len(mant.split(".")[1]) if "." in mant else 0
        return 0.5 * 10.0 ** (int(exp) - decimals)
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0**-decimals


@dataclass(frozen=True)
class Band:
    """What a claim's value is judged by.

    ``side``: ``two`` (within ``[low, high]``), ``upper`` (at or below ``high``; strictly below
    where the paper prints ``<``), ``lower`` (at or above ``low``; strictly above for ``>``),
    ``order`` (within ``[low, high]``, a factor of ten either way) or ``label`` (equal text or
    number).  ``better``: ``lower`` or ``higher`` where a value beyond the band on that side is
    better than the paper, else ``None``.
    """

    side: str
    low: float | None
    high: float | None
    rule: str
    better: str | None = None
    strict: bool = False
    label: str | None = None

    def judge(self, here) -> str:
        """``match``, ``better than the paper`` or ``deviation`` for the value ``here``."""
        h = number(here)
        if self.side == "label":
            if self.low is not None and h is not None:
                return "match" if h[1] == self.low else "deviation"
            return "match" if str(here).strip().lower() == str(self.label).strip().lower() else "deviation"
        if h is None:
            return "deviation"
        v = h[1]
        if self.side == "upper":
            ok = v < self.high if self.strict else v <= self.high
            return "match" if ok else "deviation"
        if self.side == "lower":
            ok = v > self.low if self.strict else v >= self.low
            return "match" if ok else "deviation"
        if self.side == "order" and v <= 0:
            return "deviation"
        if self.low <= v <= self.high:
            return "match"
        if (v < self.low and self.better == "lower") or (v > self.high and self.better == "higher"):
            return "better than the paper"
        return "deviation"


def _capped(p: float, low: float, high: float) -> tuple[float, float, bool]:
    if p == 0:
        return low, high, False
    lo_cap, hi_cap = sorted((p / CAP, p * CAP))
    return max(low, lo_cap), min(high, hi_cap), low < lo_cap or high > hi_cap


def _g(x: float) -> str:
    return f"{x:.4g}"


def band(c: dict) -> Band:
    """The band of a claim (``paper``, ``tolerance`` and, as they apply, ``family`` with its
    ``name``, ``paper_sd``, ``paper_range``, ``better``)."""
    paper, tol = c["paper"], str(c["tolerance"])
    family = c.get("family")
    kind, _, arg = tol.partition(":")
    better = c.get("better", (family or {}).get("better"))
    p = number(paper)
    if family is None and kind in ("exact", "qualitative"):
        if p is None:
            return Band("label", None, None, "exact: the paper's label", label=str(paper))
        return Band("label", p[1], p[1], "exact: the paper's count or value")
    if p is None:
        raise ValueError(f"claim '{c.get('id')}': tolerance {tol!r} needs a number, not {paper!r}")
    op, pv = p
    if op == "<" or (family is None and kind == "upper"):
        return Band("upper", None, pv, f"one-sided: at or below the paper's {paper}", strict=op == "<")
    if op == ">" or (family is None and kind == "lower"):
        return Band("lower", pv, None, f"one-sided: at or above the paper's {paper}", strict=op == ">")
    if family is None and kind == "order":
        return Band("order", abs(pv) / 10, abs(pv) * 10, "order: within a factor of ten")
    if family is not None:
        w_abs, w_rel = float(family.get("abs", 0.0)), float(family.get("rel", 0.0))
        w = max(w_abs, w_rel * abs(pv))
        if w_abs and w_rel:
            spread = f"max({_g(w_abs)}, {_g(w_rel)} x |paper|)"
        else:
            spread = _g(w_abs) if w_abs else f"{_g(w_rel)} x |paper|"
        rule = f"family {family.get('name', tol)}: ±{spread}"
        if family.get("cite") and w_abs and w == w_abs:
            rule += f" (floor stated by the paper: {family['cite']})"
        low, high = pv - w, pv + w
    elif kind == "precision":
        w = half_unit(paper) * (1 + 1e-9)
        low, high = pv - w, pv + w
        rule = f"precision: ±{_g(half_unit(paper))}, half a unit of the paper's last digit"
    elif kind == "rel":
        w = float(arg) * abs(pv)
        low, high, rule = pv - w, pv + w, f"stated tolerance: ±{arg} x |paper|"
    elif kind == "abs":
        low, high, rule = pv - float(arg), pv + float(arg), f"stated tolerance: ±{arg}"
    elif kind == "seeds" and c.get("paper_range") is not None:
        low, high = (float(x) for x in c["paper_range"])
        rule = f"the paper's seed range {_g(low)} to {_g(high)}"
    elif kind == "seeds":
        sd = float(c.get("paper_sd") or 0.0)
        low, high = pv - SEED_K * sd, pv + SEED_K * sd
        rule = f"the paper's seed scatter: ±{SEED_K:g} x its sd {_g(sd)}"
    else:
        raise ValueError(f"claim '{c.get('id')}': unknown tolerance {tol!r}")
    low, high, cut = _capped(pv, low, high)
    if cut:
        rule += f"; cut at a factor of {CAP:g}"
    return Band("two", low, high, rule, better)


def judge(c: dict, here) -> tuple[str, Band]:
    """The status of a claim's value ``here`` (match / better than the paper / deviation) and the
    band it was judged by."""
    b = band(c)
    return b.judge(here), b


def within(paper, here, tolerance: str, *, family=None, paper_sd=None, paper_range=None) -> bool:
    """Whether ``here`` matches ``paper`` under ``tolerance`` (a family's ``{abs?, rel?}`` where
    ``tolerance`` names one; ``seeds`` with ``paper_sd`` or ``paper_range``)."""
    c = {"paper": paper, "tolerance": tolerance, "paper_sd": paper_sd, "paper_range": paper_range}
    if family is not None:
        c["family"] = family
    return band(c).judge(here) == "match"
