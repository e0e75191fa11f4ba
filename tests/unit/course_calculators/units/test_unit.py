"""course_calculators/units/unit.py: units of an author's own (custom) and numbers to other
significant digits (number)."""

from __future__ import annotations

import pytest

from course_calculators import units


def test_custom_units_and_significant_digits():
    assert units.custom("m/s²").text(9.80665) == "9.81 m/s²"
    assert units.custom("people", 2).text(1234) == "1,200 people"
    assert units.custom("m/s").text(12.345, 1) == "12.3 m/s"
    assert units.number(5).text(3.14159265) == "3.1416"
    assert units.number(1).text(0.96) == "1"
    for bad in ("", " m", 3):
        with pytest.raises(units.UnitError):
            units.custom(bad)
    for digits in (0, 16, 2.5, True):
        with pytest.raises(units.UnitError):
            units.number(digits)
