"""Units of one quantity converted into each other (``units/conversions.py``): SI prefixes, the
units defined against them, a package's own, and what is refused."""

from __future__ import annotations

import math

import pytest

from course_calculators import units


@pytest.mark.parametrize("value, source, target, expected", [
    (101.325, "kPa", "atm", 1.0),
    (1, "bar", "kPa", 100.0),
    (760, "mmHg", "atm", 1.0),
    (1, "m³", "L", 1000.0),
    (250, "mL", "L", 0.25),
    (1, "cm³", "mL", 1.0),
    (0, "°C", "K", 273.15),
    (100, "°C", "°F", 212.0),
    (-40, "°F", "°C", -40.0),
    (300, "K", "°C", 26.85),
    (1.5, "km", "m", 1500.0),
    (2, "kWh", "Wh", 2000.0),
])
def test_a_value_in_one_unit_in_another(value, source, target, expected):
    assert math.isclose(units.convert(value, source, target), expected, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("source, target", [("kPa", "atm"), ("°C", "°F"), ("L", "m³"), ("K", "°C")])
def test_there_and_back_is_the_value(source, target):
    for value in (-12.5, 0, 1, 273.15, 1e5):
        assert math.isclose(units.convert(units.convert(value, source, target), target, source), value,
                            rel_tol=1e-12, abs_tol=1e-9)


def test_units_of_different_quantities_are_refused():
    with pytest.raises(units.UnitError, match="not units of one quantity"):
        units.convert(1, "L", "kPa")
    with pytest.raises(units.UnitError, match="converts to no other unit"):
        units.conversion("furlong")
    assert units.same_quantity(["kPa", "atm", "bar"]) == "Pa"
    assert units.same_quantity(["°C", "K", "°F"]) == "K"
    assert units.same_quantity(["L", "m³"]) == "m³"
    assert units.same_quantity(["L", "kPa"]) is None and units.same_quantity(["furlong"]) is None


def test_a_package_defines_a_unit_of_its_own():
    units.define("cup", 236.5882365, "mL", owner="my_calcs.units")
    assert math.isclose(units.convert(2, "cup", "L"), 0.473176473)
    units.define("cup", 236.5882365, "mL", owner="my_calcs.units")  # serve imports it again
    with pytest.raises(units.UnitError, match="already defined"):
        units.define("cup", 250, "mL", owner="other_calcs")
    with pytest.raises(units.UnitError, match="already defined"):
        units.define("atm", 1, "Pa", owner="my_calcs.units")  # the framework's
    with pytest.raises(units.UnitError, match="already defined"):
        units.define("kPa", 1, "Pa", owner="my_calcs.units")  # an SI name
    with pytest.raises(units.UnitError, match="positive"):
        units.define("nothing", 0, "L", owner="my_calcs.units")


def test_follow_names_the_choice():
    unit = units.follow("volume_unit")
    assert unit.choice == "volume_unit" and not unit and str(unit) == ""  # no fixed unit beside a label
    with pytest.raises(units.UnitError):
        units.follow("not a name")
    with pytest.raises(units.UnitError):
        units.follow("volume_unit", digits=0)
