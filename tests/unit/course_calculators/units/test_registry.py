"""course_calculators/units/__init__.py: the registry (units looked up by name, a package's own
units registered) and the built-in units."""

from __future__ import annotations

import pytest

from course_calculators import units


@pytest.mark.parametrize(
    "unit, value, shown",
    [
        ("fraction", 0.561, "56.1%"), ("percent", 56.1, "56.1%"), ("ratio", 3.42, "3.42×"),
        ("count", 100000, "100,000"), ("number", 1234567, "1,230,000"), ("number", 0.012345, "0.0123"),
        ("number", 6.02214076e23, "6.02 × 10²³"), ("number", 1e-5, "1 × 10⁻⁵"), ("number", 9.996, "10"),
        ("bytes", 131072, "128 KiB"), ("seconds", 0.0453, "45.3 ms"), ("text", "memory", "memory"),
    ],
)
def test_each_builtin_unit(unit, value, shown):
    assert units.get(unit).text(value) == shown


@pytest.mark.parametrize(
    "unit, value, shown",
    [("fraction", 0.5, "50.00%"), ("percent", 7, "7.00%"), ("count", 1234.5, "1,234.50"), ("ratio", 2, "2.00×"),
     ("seconds", 0.0453, "45.30 ms"), ("number", 3.14159, "3.14")],
)
def test_precision_is_digits_after_the_point_in_the_unit_shown(unit, value, shown):
    assert units.get(unit).text(value, 2) == shown


@pytest.mark.parametrize("name", ["tokens_per_s_typo", "metres", "Km", "EUE", "k°C", "xyz", ""])
def test_an_unknown_unit_is_an_error_that_says_what_exists(name):
    with pytest.raises(units.UnitError) as err:
        units.get(name)
    message = str(err.value)
    assert repr(name) in message and "bytes" in message and "ISO code" in message and "units.custom" in message


def test_a_package_registers_its_own_units():
    unit = units.register("apples", lambda x: f"{units.format_count(x)} apples", owner="fruit_calcs.units")
    try:
        assert units.get("apples") is unit and unit.text(1200) == "1,200 apples"
        # the same package may register its names again (mkdocs serve re-imports it) …
        units.register("apples", lambda x: f"{x} 🍎", owner="fruit_calcs.units")
        assert units.get("apples").text(3) == "3 🍎"
        # … another may not, nor take the framework's names
        for name, owner in (("apples", "other.units"), ("bytes", "other.units"), ("km", "other.units"),
                            ("EUR", "other.units")):
            with pytest.raises(units.UnitError):
                units.register(name, lambda x: str(x), owner=owner)
        with pytest.raises(units.UnitError):
            units.register("two words", lambda x: str(x))
        assert "apples" not in units.registered(builtin_only=True) and "apples" in units.registered()
    finally:
        units._REGISTRY.pop("apples", None)
        units._OWNERS.pop("apples", None)


def test_the_framework_defines_no_subject_units():
    builtin = set(units.registered(builtin_only=True))
    assert builtin == {"bytes", "seconds", "usd", "fraction", "percent", "count", "ratio", "number", "text", "bool"}
    assert not builtin & {"tokens_per_s", "flops", "bandwidth"}


@pytest.mark.parametrize("name", sorted(units.registered(builtin_only=True)) + ["m", "kg", "kWh", "°C", "EUR", "JPY"])
def test_every_unit_returns_text_for_plain_numbers(name):
    for value in (0, 1, 0.5, 123456.789, 2**40, -3.5):
        shown = units.get(name).text(value)
        assert isinstance(shown, str) and shown
        assert "nan" not in shown.lower() and "inf" not in shown.lower()
