"""everyday_physics/projectile.py against a numerical integration of the flight, and the figures
its presets' notices state."""

from __future__ import annotations

import math

import pytest

from everyday_physics import projectile
from everyday_physics.constants import GRAVITY

SPEC = projectile.SPEC


def integrate(speed, angle, height, g, dt=1e-5):
    """Step the ball through the air (velocity Verlet, exact for constant gravity up to the last step)."""
    x, y = 0.0, height
    vx, vy = speed * math.cos(math.radians(angle)), speed * math.sin(math.radians(angle))
    t, top = 0.0, y
    while True:
        nx, ny, nvy = x + vx * dt, y + vy * dt - g * dt * dt / 2, vy - g * dt
        if ny < 0:  # landed within this step: interpolate to the ground
            f = y / (y - ny)
            return {"range": x + f * vx * dt, "time": t + f * dt, "max_height": top,
                    "landing_speed": math.hypot(vx, vy - g * f * dt)}
        x, y, vy, t = nx, ny, nvy, t + dt
        top = max(top, y)


@pytest.mark.parametrize("speed, angle, height, world", [
    (20, 45, 0, "earth"), (25, 40, 0, "earth"), (15, 30, 50, "earth"), (50, 45, 0, "moon"), (8, 75, 2, "mars"),
])
def test_the_closed_form_is_the_integrated_flight(speed, angle, height, world):
    got = SPEC.run({"speed": speed, "angle": angle, "height": height, "world": world}).values
    want = integrate(speed, angle, height, GRAVITY[world], dt=1e-4 if world == "moon" else 1e-5)
    assert got["range"] == pytest.approx(want["range"], rel=1e-4)
    assert got["flight_time"] == pytest.approx(want["time"], rel=1e-4)
    assert got["max_height"] == pytest.approx(want["max_height"], rel=1e-4)
    assert got["landing_speed"] == pytest.approx(want["landing_speed"], rel=1e-4)


def test_complementary_angles_land_together_and_45_goes_furthest_from_the_ground():
    at = {a: SPEC.run({"angle": a}).values["range"] for a in range(1, 90)}
    assert at[30] == pytest.approx(at[60]) and at[20] == pytest.approx(at[70])
    assert max(at, key=at.get) == 45 == SPEC.run({}).values["best_angle"]


@pytest.mark.parametrize("height", [5, 50, 500])
def test_the_best_angle_from_a_height_is_the_longest_flight(height):
    values = SPEC.run({"speed": 15, "height": height}).values
    scan = max((SPEC.run({"speed": 15, "height": height, "angle": a}).values["range"], a) for a in range(1, 90))
    assert scan[0] <= values["best_angle_range"] * (1 + 1e-12)
    assert abs(scan[1] - values["best_angle"]) < 1 and values["best_angle"] < 45


def test_the_presets_say_what_they_show():
    kick = SPEC.run(SPEC.preset("kick").values).values
    assert round(kick["range"]) == 63 and kick["best_angle"] == 45 and kick["best_angle_range"] > kick["range"]
    cliff = SPEC.run(SPEC.preset("cliff").values).values
    assert cliff["best_angle"] < 45
    moon = SPEC.run(SPEC.preset("moon-golf").values).values
    earth = SPEC.run({**SPEC.preset("moon-golf").values, "world": "earth"}).values
    assert moon["range"] / earth["range"] == pytest.approx(6, rel=0.02)  # "six times the distance"
    assert moon["flight_time"] / earth["flight_time"] == pytest.approx(6, rel=0.02)


def test_the_chart_is_the_path_from_launch_to_landing():
    result = SPEC.run({"height": 10})
    chart = result.charts[0]
    path = chart["series"][0]["points"]
    assert path[0] == [0.0, 10.0] and path[-1][1] == 0
    assert path[-1][0] == pytest.approx(result.values["range"], abs=1e-3)
    assert max(y for _, y in path) == pytest.approx(result.values["max_height"], rel=1e-3)
    assert "lands 45" in chart["summary"] or "lands" in chart["summary"]


def test_units_are_the_frameworks():
    text = SPEC.run({"speed": 50, "world": "moon"}).text
    assert text["range"] == "1.54 km" and text["flight_time"] == "43.6 s" and text["landing_speed"] == "50 m/s"
