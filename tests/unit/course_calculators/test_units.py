"""course_calculators/units (the package): every visible number on a page is formatted here, by a unit
looked up by name (built-in, SI, currency) or registered by a content package."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_calculators import units
from course_calculators.units import (
    GiB,
    KiB,
    MiB,
    TiB,
    format_bytes,
    format_count,
    format_fraction,
    format_ratio,
    format_raw,
    format_seconds,
    format_usd,
    sig,
)


def test_binary_prefixes():
    assert (KiB, MiB, GiB, TiB) == (2**10, 2**20, 2**30, 2**40)


@pytest.mark.parametrize(
    "value, text",
    [(68.625, "68.6"), (4.5, "4.5"), (128, "128"), (0, "0"), (1234.5, "1,234"), (12.34, "12.3"),
     (1.234, "1.23"), (0.01234, "0.0123"), (0.5, "0.5"), (-68.625, "-68.6"), (99.96, "100"), (9.996, "10")],
)
def test_sig(value, text):
    assert sig(value) == text


# ----------------------------------------------------------------------------------------------
# format_bytes
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, text",
    [
        (131072, "128 KiB"),  # Llama 3 8B, one token
        (70272, "68.6 KiB"),  # DeepSeek-V3 MLA, one token
        (4718592, "4.5 MiB"),  # GPT-3 MHA, one token
        (2**34, "16 GiB"),  # 8B at 128K context
        (2**30, "1 GiB"),  # 8B at 8K context
        (0, "0 B"),
        (1, "1 B"),
        (1.5, "1.5 B"),
        (1023, "1,023 B"),  # below 1 KiB: exact bytes, thousands separator
        (1024, "1 KiB"),
        (1536, "1.5 KiB"),
        (327680, "320 KiB"),
        (516096, "504 KiB"),
        (80 * GiB, "80 GiB"),
        (2**40, "1 TiB"),
        (2**50, "1 PiB"),
        (2**60, "1,024 PiB"),  # the largest prefix stays
        (16e9, "14.9 GiB"),  # 8B bf16 weights: 16 GB is 14.9 GiB
        (9210691584, "8.58 GiB"),  # DeepSeek-V3, 128K tokens
    ],
)
def test_format_bytes(n, text):
    assert format_bytes(n) == text


@pytest.mark.parametrize(
    "n, text",
    [
        (1023.9, "1 KiB"),
        (1024 * 1024 - 1, "1 MiB"),  # 1023.999 KiB would read '1,024 KiB'
        (1024**3 - 1, "1 GiB"),
        (1023.5 * MiB, "1 GiB"),
        (1023.4 * MiB, "1,023 MiB"),
        (-(1024 * 1024 - 1), "-1 MiB"),  # negative values are promoted too (fixed: was '-1,024 KiB')
    ],
)
def test_format_bytes_promotes_what_rounds_to_1024(n, text):
    assert format_bytes(n) == text


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-(2.0**58), max_value=2.0**58, allow_nan=False))
def test_format_bytes_never_shows_1024_of_a_unit(n):
    number, unit = format_bytes(n).split(" ")
    assert unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
    assert number.lstrip("-").replace(",", "") != "1024"
    # and it stays within 0.5% of the value (three significant figures)
    shown = float(number.replace(",", "")) * 1024 ** ("B", "KiB", "MiB", "GiB", "TiB", "PiB").index(unit)
    assert shown == pytest.approx(n, rel=5e-3, abs=0.5)


# ----------------------------------------------------------------------------------------------
# format_seconds, format_usd, format_fraction, format_count, the rest
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "s, text",
    [(0, "0 s"), (850e-6, "850 µs"), (12.5e-3, "12.5 ms"), (1.234, "1.23 s"), (0.5, "500 ms"),
     (1, "1 s"), (59.9, "59.9 s"), (150, "2.5 min"), (3600, "60 min"), (11160, "3.1 h"), (1e-9, "0.001 µs"),
     # what rounds to 1 of the next unit is shown in it (fixed: were '1,000 ms' and '1,000 µs')
     (0.99999, "1 s"), (0.0009999, "1 ms"), (0.9994, "999 ms")],
)
def test_format_seconds(s, text):
    assert format_seconds(s) == text


@pytest.mark.parametrize(
    "x, text",
    [(0, "$0.00"), (0.42, "$0.42"), (12.5, "$12.50"), (1234, "$1,234"), (1.23e6, "$1.23M"), (2e9, "$2B"),
     (0.001234, "$0.00123"), (-5, "−$5.00"), (99.999, "$100.00"), (100, "$100"),
     (999_999_999, "$1B"), (999_999.9, "$1M")],  # fixed: were '$1,000M' and '$1,000,000'
)
def test_format_usd(x, text):
    assert format_usd(x) == text


@pytest.mark.parametrize(
    "f, text", [(0.7, "70%"), (0.2043, "20.4%"), (1, "100%"), (0, "0%"), (0.005, "0.5%"), (0.12345, "12.3%")]
)
def test_format_fraction(f, text):
    assert format_fraction(f) == text


@pytest.mark.parametrize(
    "n, text", [(100000, "100,000"), (0, "0"), (11, "11"), (1048576, "1,048,576"), (467753.0, "467,753"),
                (11.12, "11.1"), (2.5, "2.5")]
)
def test_format_count(n, text):
    assert format_count(n) == text


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-9, max_value=1e17, allow_nan=False))
def test_no_prefixed_unit_shows_1000_of_itself(x):
    number, unit = format_seconds(x).split(" ")
    assert not (number == "1,000" and unit in ("µs", "ms")), format_seconds(x)
    assert not format_usd(x).endswith((",000M", "1,000,000"))


def test_other_formatters():
    assert format_ratio(2.5) == "2.5×"
    assert format_ratio(71.1) == "71.1×"
    assert format_count(8192) == "8,192"
    assert format_count(70.6) == "70.6"
    assert format_count(8.0) == "8"


# ----------------------------------------------------------------------------------------------
# format_raw: the data-value attribute
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, text",
    [(131072, "131072"), (131072.0, "131072"), (0, "0"), (0.0, "0"), (-3, "-3"), (2**34, "17179869184"),
     (2**60, "1152921504606846976"),  # ints exact, however large
     (0.1, "0.1"), (70.6, "70.6"), (1 / 3, "0.3333333333333333"), (1e20, "1e+20"), (2.0**60, "1.152921504606847e+18"),
     (16e9, "16000000000")],
)
def test_format_raw(x, text):
    assert format_raw(x) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_format_raw_round_trips_floats(x):
    assert float(format_raw(x)) == x


@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_format_raw_ints_are_exact(n):
    assert format_raw(n) == str(n)




# ----------------------------------------------------------------------------------------------
# Units by name: each kind
# ----------------------------------------------------------------------------------------------


def text(unit, value, precision=None):
    return units.get(unit).text(value, precision)


@pytest.mark.parametrize(
    "unit, value, shown",
    [
        # SI: the raw value is in the named unit, the text takes the prefix its magnitude suits
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
        # money by ISO code
        ("EUR", 12.5, "€12.50"), ("EUR", 1234, "€1,234"), ("EUR", 1.2e6, "€1.2M"), ("EUR", -5, "−€5.00"),
        ("USD", 0.42, "$0.42"), ("GBP", 3e9, "£3B"), ("JPY", 1234.4, "¥1,234"), ("JPY", 42, "¥42"),
        ("CHF", 12.5, "CHF 12.50"), ("SEK", 1500, "SEK 1,500"), ("usd", 61.95, "$61.95"),
        # dimensionless
        ("fraction", 0.561, "56.1%"), ("percent", 56.1, "56.1%"), ("ratio", 3.42, "3.42×"),
        ("count", 100000, "100,000"), ("number", 1234567, "1,230,000"), ("number", 0.012345, "0.0123"),
        ("number", 6.02214076e23, "6.02 × 10²³"), ("number", 1e-5, "1 × 10⁻⁵"), ("number", 9.996, "10"),
        ("bytes", 131072, "128 KiB"), ("seconds", 0.0453, "45.3 ms"), ("text", "memory", "memory"),
    ],
)
def test_each_kind_of_unit(unit, value, shown):
    assert text(unit, value) == shown


@pytest.mark.parametrize(
    "unit, value, shown",
    [("m", 1500, "1.50 km"), ("kWh", 0.35, "350.00 Wh"), ("EUR", 496, "€496.00"), ("EUR", -0.001, "€0.00"),
     ("CHF", 12.5, "CHF 12.50"), ("usd", 61.95, "$61.95"), ("fraction", 0.5, "50.00%"), ("percent", 7, "7.00%"),
     ("count", 1234.5, "1,234.50"), ("ratio", 2, "2.00×"), ("seconds", 0.0453, "45.30 ms"), ("number", 3.14159, "3.14")],
)
def test_precision_is_digits_after_the_point_in_the_unit_shown(unit, value, shown):
    assert text(unit, value, 2) == shown


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


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-11, max_value=1e17, allow_nan=False))
def test_no_si_unit_shows_1000_of_a_prefix_it_could_leave(x):
    for name in ("m", "J", "W", "Pa", "kWh", "kg"):
        number, unit = units.get(name).text(x).split(" ")
        top = {"m": "km", "J": "EJ", "W": "EW", "Pa": "EPa", "kWh": "TWh", "kg": "Gt"}[name]
        assert not (number.replace(",", "").startswith("1000") and unit != top), (name, x, number, unit)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=-1e15, max_value=1e15, allow_nan=False).filter(lambda v: abs(v) > 1e-9),
       st.integers(min_value=1, max_value=8))
def test_significant_digits_stay_within_their_rounding(x, digits):
    shown = units.sig_digits(x, digits)
    if "×" in shown:
        mantissa, power = shown.split(" × 10")
        exponent = int(power.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
        value = float(mantissa) * 10.0**exponent
    else:
        value = float(shown.replace(",", ""))
    assert value == pytest.approx(x, rel=0.5 * 10 ** (1 - digits) + 1e-12)
