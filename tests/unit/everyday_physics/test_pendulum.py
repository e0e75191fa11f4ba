"""everyday_physics/pendulum.py against the pendulum's equation integrated step by step, and the
figures its presets' notices state."""

from __future__ import annotations

import math

import pytest

from everyday_physics import pendulum
from everyday_physics.constants import GRAVITY

SPEC = pendulum.SPEC


def integrated_period(length, amplitude_deg, g, steps=20000):
    """θ'' = −(g/L)·sin θ from rest at the amplitude (RK4): the time to reach the bottom is a
    quarter period."""
    w2 = g / length
    theta, omega, t = math.radians(amplitude_deg), 0.0, 0.0
    quarter_guess = 2 * math.pi * math.sqrt(length / g) / 4 * 1.5
    dt = quarter_guess / steps

    def acc(th):
        return -w2 * math.sin(th)

    while theta > 0:
        k1t, k1w = omega, acc(theta)
        k2t, k2w = omega + dt / 2 * k1w, acc(theta + dt / 2 * k1t)
        k3t, k3w = omega + dt / 2 * k2w, acc(theta + dt / 2 * k2t)
        k4t, k4w = omega + dt * k3w, acc(theta + dt * k3t)
        new_theta = theta + dt / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
        new_omega = omega + dt / 6 * (k1w + 2 * k2w + 2 * k3w + k4w)
        if new_theta <= 0:  # crossed the bottom within this step
            return 4 * (t + dt * theta / (theta - new_theta))
        theta, omega, t = new_theta, new_omega, t + dt
    return 4 * t


@pytest.mark.parametrize("length, amplitude, world", [(1, 10, "earth"), (1, 45, "earth"), (1, 90, "earth"),
                                                      (0.25, 60, "mars"), (67, 3, "earth"), (2, 80, "moon")])
def test_the_exact_period_is_the_integrated_one(length, amplitude, world):
    got = SPEC.run({"length": length, "amplitude": amplitude, "world": world}).values["period"]
    assert got == pytest.approx(integrated_period(length, amplitude, GRAVITY[world]), rel=1e-6)


def test_known_slowdowns_of_wide_swings():
    # T / T₀ = 1 + θ²/16 + 11θ⁴/3072 + …: 0.19 % at 10°; 18.0 % at 90° (K(1/√2)·2/π = 1.18034)
    at = {a: SPEC.run({"amplitude": a}).values["slowdown"] for a in (10, 90)}
    theta = math.radians(10)
    assert at[10] == pytest.approx((theta**2 / 16 + 11 * theta**4 / 3072) * 100, rel=1e-3)
    assert at[90] == pytest.approx(18.034, abs=1e-3)


def test_the_presets_say_what_they_show():
    seconds = SPEC.run(SPEC.preset("seconds-pendulum").values).values
    assert round(seconds["period"], 2) == 2.00  # one second each way
    assert SPEC.run(SPEC.preset("foucault").values).values["period"] > 16
    moon = SPEC.run(SPEC.preset("moon-clock").values).values
    assert round(moon["period"] / seconds["period"], 1) == 2.5  # "runs 2.5 times slow"
    assert GRAVITY["moon"] / GRAVITY["earth"] < 1 / 6  # "under a sixth of Earth's gravity"
    assert SPEC.run({}).text["frequency"] == "0.497 Hz"
