"""Numbers as text, the formatters the built-in units use (and calculators may call):
significant digits, fixed decimals, binary prefixes, durations, percentages, counts."""

from __future__ import annotations

import math
from typing import Any

#: Binary prefixes, for sizes in bytes.
KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4

_IEC = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def sig(value: float) -> str:
    """Three significant figures, trailing zeros dropped: 68.625 → '68.6', 4.5 → '4.5', 128 → '128'
    (from 100 up, every integer digit: 1234.5 → '1,234')."""
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 100:
        text = f"{value:,.0f}"
    elif magnitude >= 10:
        text = f"{value:.1f}"
    elif magnitude >= 1:
        text = f"{value:.2f}"
    else:
        digits = 2 - int(math.floor(math.log10(magnitude)))
        text = f"{value:.{min(digits, 12)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sig_digits(value: float, digits: int = 3) -> str:
    """``digits`` significant digits, thousands separators, trailing zeros dropped:
    1234567 → '1,230,000', 0.012345 → '0.0123'; beyond 10⁹ or below 10⁻⁴ as a power of ten
    (6.02214076e23 → '6.02 × 10²³')."""
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    rounded = float(f"{value:.{digits - 1}e}")
    if rounded and math.floor(math.log10(abs(rounded))) != exponent:  # 9.996 → 10.0: one digit more
        exponent += 1
    if exponent >= 9 or exponent < -4:
        mantissa = f"{rounded / 10**exponent:.{digits - 1}f}"
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa} × 10{str(exponent).translate(_SUPERSCRIPT)}"
    decimals = max(0, digits - 1 - exponent)
    text = f"{rounded:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def fixed(x: float, decimals: int) -> str:
    """``decimals`` digits after the point, thousands separators, a true minus sign (never '−0.00')."""
    text = f"{abs(x):,.{decimals}f}"
    return ("−" if x < 0 and float(text.replace(",", "")) != 0 else "") + text


def format_raw(x: Any) -> str:
    """The ``data-value`` of a numeric output: integers exactly, floats by ``repr`` (round-trips)."""
    if isinstance(x, int) or (float(x).is_integer() and abs(x) < 2**53):
        return str(int(x))
    return repr(float(x))


def format_text(x: Any) -> str:
    return str(x)


# -- the built-in formatters ---------------------------------------------------------------------


def format_bytes(n: float) -> str:
    """IEC binary prefixes: 131072 → '128 KiB', 70272 → '68.6 KiB', 2**34 → '16 GiB'."""
    value = float(n)
    index = 0
    while abs(value) >= 1024 and index < len(_IEC) - 1:
        value /= 1024
        index += 1
    text = sig(value)
    # 1023.9 KiB would print as "1,024 KiB": promote to the next prefix instead.
    if text.lstrip("-").replace(",", "") == "1024" and index < len(_IEC) - 1:
        text, index = text[: text.index("1")] + "1", index + 1
    return f"{text} {_IEC[index]}"


def _duration(s: float) -> tuple[float, str]:
    """The step a duration reads in: µs, ms, s (below 2 min), min (below 2 h), h."""
    # A value that rounds to 1 of the next unit is shown in it: '1 ms', not '1,000 µs'.
    if s < 1e-3 and sig(s * 1e3) != "1":
        return s * 1e6, "µs"
    if s < 1 and sig(s) != "1":
        return s * 1e3, "ms"
    if s < 120:
        return s, "s"
    if s < 7200:
        return s / 60, "min"
    return s / 3600, "h"


def format_seconds(s: float) -> str:
    """Durations: '850 µs', '12.5 ms', '1.23 s', '2.5 min', '3.1 h'."""
    if s == 0:
        return "0 s"
    value, label = _duration(s)
    return f"{sig(value)} {label}"


def _seconds_fixed(s: float, digits: int) -> str:
    value, label = _duration(s) if s else (0.0, "s")
    return f"{fixed(value, digits)} {label}"

def format_fraction(f: float) -> str:
    """A plain fraction as a percentage: 0.7 → '70%', 0.2043 → '20.4%'."""
    return f"{sig(f * 100)}%"


def format_percent(p: float) -> str:
    """A value already in percent: 20.43 → '20.4%'."""
    return f"{sig(p)}%"


def format_count(n: float) -> str:
    """Counts (and parameter values as typed) with thousands separators: 100000 → '100,000';
    non-integers to 3 significant figures."""
    if float(n).is_integer():
        return f"{int(n):,}"
    return sig(n)


def format_ratio(x: float) -> str:
    """A multiplier: 2.5 → '2.5×'."""
    return f"{sig(x)}×"
