"""course_calculators/units/si_units.py: SI units by name (a symbol with or without a prefix), the
raw value in the named unit, the text with the prefix its magnitude suits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_calculators import units


@pytest.mark.parametrize(
    "unit, value, shown",
    [
        ("m", 1500, "1.5 km"), ("m", 0.003, "3 mm"), ("m", 42, "42 m"), ("m", 0, "0 m"), ("m", 40.8, "40.8 m"),
        ("m", 999.96, "1 km"),  # what rounds to 1 of the next prefix is shown in it
        ("m", -2500, "−2.5 km"), ("km", 0.25, "250 m"), ("km", 384_400, "384,400 km"),  # metres stop at km
        ("kg", 0.25, "250 g"), ("kg", 70, "70 kg"), ("kg", 1500, "1.5 t"), ("g", 0.002, "2 mg"),
        ("s", 0.0453, "45.3 ms"), ("s", 150, "2.5 min"), ("ms", 12, "12 ms"), ("ms", 4000, "4 s"),
        ("K", 300, "300 K"), ("K", 0.004, "4 mK"), ("K", 5778, "5,778 K"),
        ("°C", 21.53, "21.5 °C"), ("°C", -40, "−40 °C"), ("°F", 98.6, "98.6 °F"),
        ("J", 418_600, "419 kJ"), ("J", 1e-3, "1 mJ"), ("kJ", 4.186, "4.19 kJ"),
        ("kWh", 0.35, "350 Wh"), ("kWh", 1500, "1.5 MWh"), ("Wh", 12, "12 Wh"),
        ("W", 2000, "2 kW"), ("W", 0.05, "50 mW"), ("MW", 1.2, "1.2 MW"),
        ("Pa", 101_325, "101 kPa"), ("hPa", 1013.25, "101 kPa"), ("mol", 0.0025, "2.5 mmol"),
        ("N", 9.80665, "9.81 N"), ("Hz", 2.4e9, "2.4 GHz"), ("L", 0.25, "250 mL"), ("L", 1500, "1,500 L"),
        ("keV", 511, "511 keV"), ("uW", 5, "5 µW"),
    ],
)
def test_each_si_unit(unit, value, shown):
    assert units.get(unit).text(value) == shown


@pytest.mark.parametrize("unit, value, shown", [("m", 1500, "1.50 km"), ("kWh", 0.35, "350.00 Wh")])
def test_precision_is_digits_after_the_point_in_the_prefix_shown(unit, value, shown):
    assert units.get(unit).text(value, 2) == shown


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-11, max_value=1e17, allow_nan=False))
def test_no_si_unit_shows_1000_of_a_prefix_it_could_leave(x):
    for name in ("m", "J", "W", "Pa", "kWh", "kg"):
        number, unit = units.get(name).text(x).split(" ")
        top = {"m": "km", "J": "EJ", "W": "EW", "Pa": "EPa", "kWh": "TWh", "kg": "Gt"}[name]
        assert not (number.replace(",", "").startswith("1000") and unit != top), (name, x, number, unit)
