"""Formatting of the values calculators produce: one formatter per unit, used on every page.

Bytes use IEC binary prefixes (128 KiB, 16 GiB): KV caches and HBM stacks come in powers of two,
and the reference figures of the chapter are stated that way. Every visible number on a page is
formatted here, at build time and in the browser alike; the raw value always goes to ``data-value``.
"""

from __future__ import annotations

import math
from typing import Any, Callable

__all__ = [
    "FORMATTERS",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "format_bytes",
    "format_seconds",
    "format_tokens_per_s",
    "format_usd",
    "format_fraction",
    "format_count",
    "format_ratio",
    "format_flops",
    "format_bandwidth",
    "format_text",
    "format_raw",
    "sig",
    "PRECISE",
]

KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4

_IEC = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def sig(value: float) -> str:
    """Three significant figures, trailing zeros dropped: 68.625 → '68.6', 4.5 → '4.5', 128 → '128'."""
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


def format_seconds(s: float) -> str:
    """Durations: '850 µs', '12.5 ms', '1.23 s', '2.5 min', '3.1 h'."""
    if s == 0:
        return "0 s"
    # A value that rounds to 1 of the next unit is shown in it: '1 ms', not '1,000 µs'.
    if s < 1e-3 and sig(s * 1e3) != "1":
        return f"{sig(s * 1e6)} µs"
    if s < 1 and sig(s) != "1":
        return f"{sig(s * 1e3)} ms"
    if s < 120:
        return f"{sig(s)} s"
    if s < 7200:
        return f"{sig(s / 60)} min"
    return f"{sig(s / 3600)} h"


def format_tokens_per_s(r: float) -> str:
    return f"{sig(r)} tokens/s"


def format_usd(x: float) -> str:
    """US dollars: '$0.42', '$12.50', '$1,234', '$1.23M'."""
    sign = "−" if x < 0 else ""
    x = abs(x)
    if x >= 1e9 or sig(x / 1e9) == "1":
        return f"{sign}${sig(x / 1e9)}B"
    if x >= 1e6 or sig(x / 1e6) == "1":
        return f"{sign}${sig(x / 1e6)}M"
    if x >= 100:
        return f"{sign}${x:,.0f}"
    if x >= 0.01 or x == 0:
        return f"{sign}${x:.2f}"
    return f"{sign}${sig(x)}"


def format_fraction(f: float) -> str:
    """A plain fraction as a percentage: 0.7 → '70%', 0.2043 → '20.4%'."""
    return f"{sig(f * 100)}%"


def format_count(n: float) -> str:
    """Counts (and parameter values as typed) with thousands separators: 100000 → '100,000';
    non-integers to 3 significant figures."""
    if float(n).is_integer():
        return f"{int(n):,}"
    return sig(n)


def format_ratio(x: float) -> str:
    """A multiplier: 2.5 → '2.5×'."""
    return f"{sig(x)}×"


def format_flops(x: float) -> str:
    """FLOP/s with SI prefixes: 9.89e14 → '989 TFLOP/s'."""
    for factor, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M")):
        if x >= factor or sig(x / factor) == "1":  # 999.9e12 → '1 PFLOP/s', not '1,000 TFLOP/s'
            return f"{sig(x / factor)} {prefix}FLOP/s"
    return f"{sig(x)} FLOP/s"


def format_bandwidth(x: float) -> str:
    """Bytes per second, decimal as on datasheets: 3.35e12 → '3.35 TB/s'."""
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M")):
        if x >= factor or sig(x / factor) == "1":
            return f"{sig(x / factor)} {prefix}B/s"
    return f"{sig(x)} B/s"


def format_raw(x: Any) -> str:
    """The ``data-value`` of a numeric output: integers exactly, floats by ``repr`` (round-trips)."""
    if isinstance(x, int) or (float(x).is_integer() and abs(x) < 2**53):
        return str(int(x))
    return repr(float(x))


def format_text(x: Any) -> str:
    return str(x)


def _fixed(x: float, decimals: int) -> str:
    text = f"{abs(x):,.{decimals}f}"
    return ("−" if x < 0 and float(text.replace(",", "")) != 0 else "") + text


#: Formatters that take a per-output precision (digits after the decimal point), by unit:
#: money, counts, ratios and fractions (as percentages) read best with the same digits throughout.
PRECISE: dict[str, Callable[[Any, int], str]] = {
    "usd": lambda x, d: ("−" if x < 0 else "") + "$" + _fixed(abs(x), d),
    "count": _fixed,
    "ratio": lambda x, d: _fixed(x, d) + "×",
    "fraction": lambda x, d: _fixed(x * 100, d) + "%",
}


FORMATTERS: dict[str, Callable[[Any], str]] = {
    "bytes": format_bytes,
    "seconds": format_seconds,
    "tokens_per_s": format_tokens_per_s,
    "usd": format_usd,
    "fraction": format_fraction,
    "count": format_count,
    "ratio": format_ratio,
    "flops": format_flops,
    "bandwidth": format_bandwidth,
    "text": format_text,
    "bool": format_text,
}
