"""course_calculators/units/money.py: money by ISO 4217 code, the symbol where English text has
one, the currency's minor unit, millions and billions as M and B."""

from __future__ import annotations

import pytest

from course_calculators import units
from course_calculators.units import format_usd


@pytest.mark.parametrize(
    "x, text",
    [(0, "$0.00"), (0.42, "$0.42"), (12.5, "$12.50"), (1234, "$1,234"), (1.23e6, "$1.23M"), (2e9, "$2B"),
     (0.001234, "$0.00123"), (-5, "−$5.00"), (99.999, "$100.00"), (100, "$100"),
     (999_999_999, "$1B"), (999_999.9, "$1M")],  # fixed: were '$1,000M' and '$1,000,000'
)
def test_format_usd(x, text):
    assert format_usd(x) == text


@pytest.mark.parametrize(
    "unit, value, shown",
    [
        ("EUR", 12.5, "€12.50"), ("EUR", 1234, "€1,234"), ("EUR", 1.2e6, "€1.2M"), ("EUR", -5, "−€5.00"),
        ("USD", 0.42, "$0.42"), ("GBP", 3e9, "£3B"), ("JPY", 1234.4, "¥1,234"), ("JPY", 42, "¥42"),
        ("CHF", 12.5, "CHF 12.50"), ("SEK", 1500, "SEK 1,500"),
        ("usd", 61.95, "$61.95"),  # the built-in name usd reads as USD
    ],
)
def test_each_currency(unit, value, shown):
    assert units.get(unit).text(value) == shown


@pytest.mark.parametrize(
    "unit, value, shown",
    [("EUR", 496, "€496.00"), ("EUR", -0.001, "€0.00"), ("CHF", 12.5, "CHF 12.50"), ("usd", 61.95, "$61.95")],
)
def test_precision_is_digits_after_the_point_in_the_currency(unit, value, shown):
    assert units.get(unit).text(value, 2) == shown
