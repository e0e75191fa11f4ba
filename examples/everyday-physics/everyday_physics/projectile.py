"""A thrown ball, without air: how far it goes, how high, how long it flies.

Launched at speed v and angle θ above the horizontal from height h, under gravity g, with no
drag, the ball moves at vx = v·cos θ across and vy = v·sin θ − g·t up. It lands when its height,
h + vy·t − g·t²/2, is zero again:

    time of flight  T = (v·sin θ + √((v·sin θ)² + 2·g·h)) / g
    range           R = v·cos θ · T
    highest point   H = h + (v·sin θ)² / (2·g)
    landing speed   u = √(v² + 2·g·h)     (energy: what the ball falls from h adds to v²)

From the ground (h = 0) the range v²·sin 2θ / g is largest at 45°, and any two angles that add up
to 90° land at the same spot. Real balls meet air: a football or a golf ball lands well short of
these figures; the calculator says how far a ball would go in a vacuum, which the Moon has.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from course_calculators import units
from course_calculators.spec import Calculator, Chart, Choice, Number, Output, Preset

from .constants import GRAVITY, WORLDS

#: Speeds read in metres per second, to three significant digits.
METRES_PER_SECOND = units.custom("m/s")
#: How many points the trajectory is drawn with.
POINTS = 41

PARAMS = (
    Number("speed", "Launch speed", 20, 1, 100, step=0.5, unit="m/s", integer=False),
    Number("angle", "Launch angle", 45, 1, 89, unit="°", help="Above the horizontal."),
    Number("height", "Launch height", 0, 0, 500, step=0.5, unit="m", integer=False,
           help="Above the ground where the ball lands."),
    Choice("world", "Where", "earth", WORLDS, scenario="world",
           help="Surface gravity, from NASA's planetary fact sheets (the Moon, Mars) and the standard value (Earth)."),
)

OUTPUTS = (
    Output("range", "Distance travelled", "m", primary=True),
    Output("max_height", "Highest point", "m", primary=True),
    Output("flight_time", "Time in the air", "s", primary=True),
    Output("landing_speed", "Speed on landing", METRES_PER_SECOND),
    Output("best_angle_range", "Distance at the best angle", "m",
           help="The longest throw at this speed and height (45° from the ground, less from a height)."),
    Output("best_angle", "Best angle", units.custom("°")),
)

PRESETS = (
    Preset("kick", "A goal kick", {"speed": 25, "angle": 40, "height": 0, "world": "earth"},
           "About 63 m without air, and 40° is not quite the longest kick: 45° is."),
    Preset("cliff", "Thrown from a cliff", {"speed": 15, "angle": 30, "height": 50, "world": "earth"},
           "From 50 m up, the best angle is no longer 45°: lower angles fly further."),
    Preset("moon-golf", "A golf drive on the Moon", {"speed": 50, "angle": 45, "height": 0, "world": "moon"},
           "Six times less gravity: six times the distance and six times the flight."),
)


def flight(speed: float, angle_deg: float, height: float, g: float) -> dict[str, float]:
    """The closed-form flight of a ball without drag (see the module's docstring)."""
    theta = math.radians(angle_deg)
    vx, vy = speed * math.cos(theta), speed * math.sin(theta)
    time = (vy + math.sqrt(vy * vy + 2 * g * height)) / g
    return {"vx": vx, "vy": vy, "time": time, "range": vx * time, "max_height": height + vy * vy / (2 * g),
            "landing_speed": math.sqrt(speed * speed + 2 * g * height)}


def best_angle(speed: float, height: float, g: float) -> float:
    """The launch angle of the longest flight from ``height``: tan θ = v / √(v² + 2·g·h)
    (45° from the ground)."""
    return math.degrees(math.atan(speed / math.sqrt(speed * speed + 2 * g * height)))


def compute(inputs: Mapping[str, Any]) -> dict[str, float]:
    g = GRAVITY[inputs["world"]]
    f = flight(inputs["speed"], inputs["angle"], inputs["height"], g)
    best = best_angle(inputs["speed"], inputs["height"], g)
    return {
        "range": f["range"],
        "max_height": f["max_height"],
        "flight_time": f["time"],
        "landing_speed": f["landing_speed"],
        "best_angle_range": flight(inputs["speed"], best, inputs["height"], g)["range"],
        "best_angle": best,
    }


def chart(inputs: Mapping[str, Any], values: Mapping[str, Any]) -> Chart:
    g = GRAVITY[inputs["world"]]
    f = flight(inputs["speed"], inputs["angle"], inputs["height"], g)
    ts = [f["time"] * i / (POINTS - 1) for i in range(POINTS)]
    xs = [round(f["vx"] * t, 3) for t in ts]
    ys = [round(max(0.0, inputs["height"] + f["vy"] * t - g * t * t / 2), 3) for t in ts]
    apex = min(range(POINTS), key=lambda i: abs(ts[i] - f["vy"] / g))
    rng, top = values["range"], values["max_height"]
    return Chart(
        kind="xy",
        title="The ball's path",
        x_label="Distance (m)",
        y_label="Height (m)",
        labels=[f"{t:.2f} s" for t in ts],
        series=[{"name": "Path", "kind": "line", "points": [[x, y] for x, y in zip(xs, ys)], "values": ys},
                {"name": "Highest point", "kind": "marker", "points": [[xs[apex], ys[apex]]], "values": [ys[apex]]}],
        summary=(f"The ball rises to {units.get('m').text(top)} and lands {units.get('m').text(rng)} away, "
                 f"{units.get('s').text(values['flight_time'])} after it was launched."),
    )


SPEC = Calculator(
    id="projectile",
    title="A thrown ball",
    summary="How far, how high and how long a ball flies without air, on Earth, the Moon or Mars.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
)
