"""course_calculators/units/numbers.py: numbers as text, the formatters the built-in units use
(significant digits, binary prefixes, durations, percentages, counts, the data-value attribute)."""

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
# format_seconds, format_fraction, format_count, the rest
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


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-9, max_value=1e17, allow_nan=False))
def test_no_prefixed_unit_shows_1000_of_itself(x):
    # The same rule for durations here and for money (format_usd, in money.py; its cases are in
    # test_money.py): what rounds to 1 of the next step is shown in it.
    number, unit = format_seconds(x).split(" ")
    assert not (number == "1,000" and unit in ("µs", "ms")), format_seconds(x)
    assert not format_usd(x).endswith((",000M", "1,000,000"))


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
