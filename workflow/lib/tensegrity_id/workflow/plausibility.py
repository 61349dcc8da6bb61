"""Physical constants of a config or structure file checked for plausibility at start-up."""

from __future__ import annotations

__all__ = ["GRAVITY_RANGE", "gravity_error"]

GRAVITY_RANGE = (9.7, 9.9)
"""Plausible gravity (m/s^2): its value anywhere on the Earth's surface; 0 is a zero-gravity structure."""

_GRAVITY_UNITS = ((9806.65, "mm/s^2"), (980.665, "cm/s^2"), (32.174, "ft/s^2"), (1.0, "g"))
"""Standard gravity in units a value may have been given in by mistake."""


def gravity_error(where: str, g, source: str, fix: str) -> str | None:
    """``None`` for a gravity of 0 or within :data:`GRAVITY_RANGE`; otherwise the error line naming the
    field (and the unit the value reads as, where it is standard gravity in another one)."""
    lo, hi = GRAVITY_RANGE
    if isinstance(g, bool) or not isinstance(g, int | float):
        return f"config field '{where}': gravity {g!r}{source} is not a number (m/s^2)"
    if g == 0 or lo <= g <= hi:
        return None
    unit = next((u for v, u in _GRAVITY_UNITS if abs(g / v - 1) < 0.02), None)
    hint = f" (it reads as standard gravity in {unit})" if unit else ""
    return (
        f"config field '{where}': gravity {g:g} m/s^2{source} is not plausible{hint}; give 0 (a zero-gravity "
        f"structure) or a value within {lo:g}-{hi:g} m/s^2 (9.81 at sea level)" + (f": {fix}" if fix else "")
    )
