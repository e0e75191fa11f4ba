"""A pendulum: how long one swing takes, and how much a wide swing slows it.

A bob on a light rod of length L swings with the period T₀ = 2π·√(L / g) when its swing is small.
A wide swing takes longer; the exact period of a swing of amplitude θ₀ is

    T = T₀ / M(1, cos(θ₀ / 2))

with M the arithmetic–geometric mean (the closed form of the complete elliptic integral the
pendulum's equation gives): 0.2 % longer at 10°, 18 % at 90°. At the bottom the bob moves at
√(2·g·L·(1 − cos θ₀)): it has fallen L·(1 − cos θ₀).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from course_calculators import units
from course_calculators.spec import Calculator, Choice, Number, Output, Preset

from .constants import GRAVITY, WORLDS

PARAMS = (
    Number("length", "Length", 1, 0.05, 100, step=0.01, unit="m", integer=False, scale="log"),
    Number("amplitude", "Swing, each side", 10, 1, 90, unit="°"),
    Choice("world", "Where", "earth", WORLDS, scenario="world"),
)

OUTPUTS = (
    Output("period", "One swing there and back", "s", primary=True),
    # Hz to three significant digits, not "497 mHz": a custom unit keeps the one prefix the course uses.
    Output("frequency", "Swings a second", units.custom("Hz"), primary=True),
    Output("slowdown", "Longer than a small swing", "percent", primary=True, precision=2),
    Output("small_angle_period", "Period of a small swing", "s"),
    Output("bottom_speed", "Speed at the bottom", units.custom("m/s")),
    Output("per_day", "Swings a day", "count"),
)

PRESETS = (
    Preset("seconds-pendulum", "A clock's seconds pendulum", {"length": 0.994, "amplitude": 4, "world": "earth"},
           "99.4 cm beats seconds: each swing one way takes one second."),
    # The Panthéon's pendulum hangs from a 67 m wire (https://en.wikipedia.org/wiki/Foucault_pendulum).
    Preset("foucault", "Foucault's pendulum, Panthéon", {"length": 67, "amplitude": 3, "world": "earth"},
           "67 m of wire: one swing there and back takes over 16 seconds."),
    Preset("moon-clock", "The same clock on the Moon", {"length": 0.994, "amplitude": 4, "world": "moon"},
           "Under a sixth of Earth's gravity the clock runs 2.5 times slow."),
)


def agm(a: float, b: float) -> float:
    """The arithmetic–geometric mean of ``a`` and ``b`` (converges quadratically)."""
    for _ in range(60):
        if abs(a - b) <= 1e-15 * a:
            break
        a, b = (a + b) / 2, math.sqrt(a * b)
    return a


def period(length: float, amplitude_deg: float, g: float) -> float:
    """The exact period of a swing of ``amplitude_deg`` each side."""
    small = 2 * math.pi * math.sqrt(length / g)
    return small / agm(1.0, math.cos(math.radians(amplitude_deg) / 2))


def compute(inputs: Mapping[str, Any]) -> dict[str, float]:
    g = GRAVITY[inputs["world"]]
    length, amplitude = inputs["length"], inputs["amplitude"]
    small = 2 * math.pi * math.sqrt(length / g)
    t = period(length, amplitude, g)
    return {
        "period": t,
        "frequency": 1 / t,
        "slowdown": (t / small - 1) * 100,
        "small_angle_period": small,
        "bottom_speed": math.sqrt(2 * g * length * (1 - math.cos(math.radians(amplitude)))),
        "per_day": round(86400 / t),
    }


SPEC = Calculator(
    id="pendulum",
    title="A pendulum",
    summary="The period of a pendulum, small swings and wide, on Earth, the Moon or Mars.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
)
