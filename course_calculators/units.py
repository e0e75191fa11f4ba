"""How every number on a page reads: one :class:`Unit` per kind of value, looked up by name.

An output names its unit (``Output("range", "Range", "m")``) and the unit formats its value, at
build time and in the browser alike (the raw value always goes to ``data-value``, in the unit the
output names). The names:

- **SI units with a prefix chosen by magnitude**: a symbol (``m``, ``g``, ``s``, ``K``, ``J``,
  ``Wh``, ``W``, ``Pa``, ``mol``, ``N``, ``Hz``, …) with or without a prefix: the prefix says what
  the raw value is in (``km``: the value is in kilometres; ``kWh``: in kilowatt-hours), and the
  text takes the prefix that suits the magnitude (``m``: 1500 → "1.5 km"; ``kg``: 0.25 → "250 g").
  ``°C`` and ``°F`` take no prefix;
- ``seconds`` (and ``s``, ``ms``, ``µs``, ``ns``): durations, up to minutes and hours;
- ``bytes``: IEC binary prefixes (128 KiB, 16 GiB), as memory is sized;
- **money by ISO 4217 code** (``EUR``, ``USD``, ``JPY``, …; ``usd`` is ``USD``): the symbol where
  English text has one (€12.50, ¥1,235, CHF 12.50), cents below 100, millions and billions as M, B;
- ``fraction`` (0.25 → "25%"), ``percent`` (25 → "25%"), ``ratio`` (2.5 → "2.5×"), ``count``
  (thousands separators, integers exact), ``number`` (three significant digits), ``text``, ``bool``;
- :func:`custom`: a unit string of your own ("m/s²", "people"), with significant digits;
  :func:`number` with other significant digits.

A content package defines units of its own with :func:`register` (a cookery course might
register ``servings`` or ``cups`` in its own ``units.py``): its
outputs then name them like any other.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable

__all__ = [
    "Unit",
    "UnitError",
    "register",
    "get",
    "registered",
    "custom",
    "number",
    "si",
    "currency",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "sig",
    "sig_digits",
    "format_bytes",
    "format_seconds",
    "format_usd",
    "format_fraction",
    "format_percent",
    "format_count",
    "format_ratio",
    "format_text",
    "format_raw",
    "fixed",
    "SI_SYMBOLS",
    "CURRENCIES",
]

KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4

_IEC = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


class UnitError(ValueError):
    """An output names a unit that does not exist, or a unit is defined twice."""


# -- numbers -------------------------------------------------------------------------------------


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


def format_usd(x: float) -> str:
    """US dollars: '$0.42', '$12.50', '$1,234', '$1.23M'."""
    return _money(x, "$", "", 2)


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


# -- units ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """How one kind of value reads: ``format(value)`` makes the text a reader sees.

    ``fixed(value, digits)``, when given, is the text with ``digits`` after the decimal point (an
    output's ``precision=``); a unit without it refuses a precision. ``meaning`` and ``example``
    (a raw value) document the unit in the authors' reference table. ``kind`` is ``number``,
    ``text`` (shown as it is) or ``bool`` (an output's ``words``).
    """

    name: str
    format: Callable[[float], str]
    fixed: Callable[[float, int], str] | None = None
    meaning: str = ""
    example: Any = 1
    kind: str = "number"

    def text(self, value: Any, precision: int | None = None) -> str:
        if precision is not None:
            if self.fixed is None:
                raise UnitError(f"unit {self.name!r} takes no precision")
            return self.fixed(value, precision)
        return self.format(value)


#: Symbols written against the number, as style guides write them: 45°, 12%.
_UNSPACED = ("°", "%", "‰", "′", "″")


def custom(symbol: str, digits: int = 3, *, meaning: str = "") -> Unit:
    """A unit of your own: the value to ``digits`` significant digits, then ``symbol``:
    ``custom("m/s²")``: 9.80665 → '9.81 m/s²'; ``custom("people", 2)``: 1234 → '1,200 people';
    ``custom("°")``: 23.4 → '23.4°' (°, %, ‰, ′ and ″ follow the number without a space)."""
    if not isinstance(symbol, str) or not symbol.strip() or symbol != symbol.strip():
        raise UnitError(f"a custom unit needs a symbol (non-empty, no outer spaces), got {symbol!r}")
    _check_digits(digits)
    gap = "" if symbol in _UNSPACED else " "
    return Unit(symbol, lambda x: f"{sig_digits(x, digits)}{gap}{symbol}", lambda x, d: f"{fixed(x, d)}{gap}{symbol}",
                meaning or f"your own unit, {digits} significant digits", 9.80665)


def number(digits: int = 3) -> Unit:
    """A dimensionless number to ``digits`` significant digits: 1234567 → '1,230,000'."""
    _check_digits(digits)
    name = "number" if digits == 3 else f"number({digits})"
    return Unit(name, lambda x: sig_digits(x, digits), fixed, f"a number, {digits} significant digits", 1234567)


def _check_digits(digits: Any) -> None:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise UnitError(f"significant digits must be an integer from 1 to 15, got {digits!r}")


# -- SI units ------------------------------------------------------------------------------------

#: The SI prefixes a unit's name may carry, by power of ten ("µ" may be typed "u"). A value is
#: shown with the engineering ones only (steps of 1000: 1.5 km, never 15 hm).
PREFIXES = {"p": -12, "n": -9, "µ": -6, "u": -6, "m": -3, "c": -2, "d": -1, "": 0, "da": 1, "h": 2, "k": 3,
            "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

#: Each symbol the SI names accept, what it measures, and the prefixes its text may take (by
#: default every engineering prefix from pico to exa). Grams go to tonnes above 1,000 kg.
SI_SYMBOLS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "m": ("metres", ("n", "µ", "m", "", "k")),
    "g": ("grams (kg: kilograms)", ("µ", "m", "", "k")),
    "s": ("seconds", None),
    "K": ("kelvin", ("n", "µ", "m", "")),
    "J": ("joules", None),
    "Wh": ("watt-hours", ("m", "", "k", "M", "G", "T")),
    "W": ("watts", None),
    "Pa": ("pascals", None),
    "bar": ("bars", ("m", "")),
    "mol": ("moles", ("p", "n", "µ", "m", "", "k")),
    "N": ("newtons", None),
    "Hz": ("hertz", None),
    "V": ("volts", None),
    "A": ("amperes", None),
    "C": ("coulombs", None),
    "Ω": ("ohms", None),
    "F": ("farads", None),
    "L": ("litres", ("µ", "m", "")),
    "eV": ("electronvolts", None),
    "°C": ("degrees Celsius", ("",)),
    "°F": ("degrees Fahrenheit", ("",)),
}
_ENGINEERING = ("p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E")
#: Above the largest prefix of grams: tonnes.
_TONNES = ((1e6, "t"), (1e9, "kt"), (1e12, "Mt"), (1e15, "Gt"))


def _ladder(symbol: str) -> list[tuple[float, str]]:
    """The steps a value of ``symbol`` may be shown in: (size in the bare symbol, label), ascending."""
    allowed = SI_SYMBOLS[symbol][1] or _ENGINEERING
    steps = [(10.0 ** PREFIXES[p], p + symbol) for p in allowed]
    if symbol == "g":
        steps += list(_TONNES)
    return steps


def _prefixed(value: float, steps: list[tuple[float, str]], digits: int | None) -> str:
    """The value (in the bare symbol) in the largest step it reaches; what rounds to 1 of the
    next step is shown in it (999.96 m → '1 km', not '1,000 m')."""
    magnitude = abs(value)
    index = next((i for i in range(len(steps) - 1, -1, -1) if magnitude >= steps[i][0]), 0)
    if magnitude == 0:
        index = next((i for i, (size, _) in enumerate(steps) if size == 1), 0)
    if index + 1 < len(steps) and sig(magnitude / steps[index + 1][0]) == "1":
        index += 1
    size, label = steps[index]
    text = sig(value / size).replace("-", "−") if digits is None else fixed(value / size, digits)
    return f"{text} {label}"


def si(name: str) -> Unit:
    """An SI unit by its name: a symbol of :data:`SI_SYMBOLS`, with a prefix or none (``km``,
    ``kWh``, ``ms``, ``°C``). The raw value is in that unit; the text takes the prefix that suits
    its magnitude."""
    for symbol in sorted(SI_SYMBOLS, key=len, reverse=True):
        prefix = name[: -len(symbol)] if name.endswith(symbol) else None
        if prefix is not None and prefix in PREFIXES and (prefix == "" or symbol not in ("°C", "°F")):
            break
    else:
        raise UnitError(f"{name!r} is not an SI unit (a symbol of {', '.join(SI_SYMBOLS)}, with a prefix or none)")
    meaning = SI_SYMBOLS[symbol][0]
    scale = 10.0 ** PREFIXES[prefix]
    if prefix:
        meaning = f"{meaning}, the value in {name}"
    example = _EXAMPLES.get(name, _EXAMPLES.get(symbol, 1234.5))
    if symbol == "s":
        return Unit(name, lambda x: format_seconds(x * scale), lambda x, d: _seconds_fixed(x * scale, d),
                    meaning if prefix else f"{meaning}, shown up to minutes and hours", example)
    steps = _ladder(symbol)
    return Unit(name, lambda x: _prefixed(x * scale, steps, None), lambda x, d: _prefixed(x * scale, steps, d),
                meaning, example)


#: A raw value for each SI name's example in the reference table (else its symbol's).
_EXAMPLES = {"m": 1500, "km": 0.25, "g": 250, "kg": 0.25, "s": 0.0453, "ms": 12, "K": 0.004, "°C": 21.5,
             "J": 4186, "Wh": 3500, "kWh": 0.35, "W": 2000, "Pa": 101325, "mol": 0.0025}


# -- money ---------------------------------------------------------------------------------------

#: The active ISO 4217 codes (Debian's iso-codes 4.15.0, ``/usr/share/iso-codes/json/iso_4217.json``).
CURRENCIES = frozenset(
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD "
    "CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL "
    "GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD "
    "KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK "
    "NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP "
    "STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF "
    "XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWL".split()
)
#: The symbols English text writes before an amount (CLDR's English names); other codes are written
#: as the code: 'CHF 12.50'.
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩", "CNY": "CN¥",
           "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "HKD": "HK$", "MXN": "MX$", "BRL": "R$", "ILS": "₪",
           "TWD": "NT$", "VND": "₫", "PHP": "₱"}
#: Digits after the point where ISO 4217's minor unit is not 2 (its table of active codes).
MINOR_UNITS = {**dict.fromkeys("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF".split(), 0),
               **dict.fromkeys("BHD IQD JOD KWD LYD OMR TND".split(), 3), "CLF": 4, "UYW": 4}


def _money(x: float, symbol: str, code: str, minor: int) -> str:
    """'$0.42', '$12.50', '$1,234', '$1.23M', '$2B', '−$5.00' (or 'CHF 12.50' with a code)."""
    sign = "−" if x < 0 else ""
    x = abs(x)
    head = f"{sign}{symbol}" if symbol else f"{sign}{code} "
    if x >= 1e9 or sig(x / 1e9) == "1":
        return f"{head}{sig(x / 1e9)}B"
    if x >= 1e6 or sig(x / 1e6) == "1":
        return f"{head}{sig(x / 1e6)}M"
    if x >= 100 or minor == 0:
        return f"{head}{x:,.0f}"
    if x >= 0.01 or x == 0:
        return f"{head}{x:,.{minor}f}"
    return f"{head}{sig(x)}"


def currency(code: str) -> Unit:
    """Money in the currency with this ISO 4217 code (``EUR``, ``USD``, ``JPY``)."""
    if code not in CURRENCIES:
        raise UnitError(f"{code!r} is not an ISO 4217 currency code")
    symbol = SYMBOLS.get(code, "")
    minor = MINOR_UNITS.get(code, 2)

    def precise(x: float, digits: int) -> str:
        text = fixed(x, digits)
        sign, text = ("−", text[1:]) if text.startswith("−") else ("", text)
        return f"{sign}{symbol}{text}" if symbol else f"{sign}{code} {text}"

    return Unit(code, lambda x: _money(x, symbol, code, minor), precise, f"money, {code}", 61.95)


# -- the registry --------------------------------------------------------------------------------

#: Units by name: the built-in ones and those content packages register. SI names and currency
#: codes are made on first use (:func:`get`) and kept in ``_MADE``.
_REGISTRY: dict[str, Unit] = {}
#: Who registered each name (a module name): a package may register its names again (``mkdocs
#: serve`` re-imports it), never one another module registered.
_OWNERS: dict[str, str] = {}
_MADE: dict[str, Unit] = {}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def register(name: str, unit: Unit | Callable[[float], str], *, owner: str | None = None) -> Unit:
    """Define the unit ``name`` (snake_case), for every output that names it.

    ``unit`` is a :class:`Unit` or a formatting function. ``owner`` is the registering module
    (default: the caller's): registering a name again from the same module replaces it, from
    another module is an error, and so is a name the framework defines or an SI or currency name.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise UnitError(f"a unit's name is a word such as servings, got {name!r}")
    owner = owner or sys._getframe(1).f_globals.get("__name__", "?")
    taken = _OWNERS.get(name)
    if taken is not None and taken != owner:
        raise UnitError(f"unit {name!r} is already defined by {taken}")
    if taken is None and (name in _MADE or _derived(name) is not None):
        raise UnitError(f"unit {name!r} is a name the framework gives (an SI unit or a currency code)")
    if not isinstance(unit, Unit):
        if not callable(unit):
            raise UnitError(f"unit {name!r}: give a Unit or a function of the value")
        unit = Unit(name, unit)
    elif unit.name != name:
        unit = Unit(name, unit.format, unit.fixed, unit.meaning, unit.example, unit.kind)
    _REGISTRY[name] = unit
    _OWNERS[name] = owner
    return unit


def _derived(name: str) -> Unit | None:
    if re.fullmatch(r"[A-Z]{3}", name) and name in CURRENCIES:
        return currency(name)
    try:
        return si(name)
    except UnitError:
        return None


def get(unit: str | Unit) -> Unit:
    """The unit an output names: a :class:`Unit` as it is, else a registered name, an SI name or
    a currency code; anything else is a :class:`UnitError` listing what exists."""
    if isinstance(unit, Unit):
        return unit
    if not isinstance(unit, str):
        raise UnitError(f"a unit is a name or a Unit, got {unit!r}")
    found = _REGISTRY.get(unit) or _MADE.get(unit)
    if found is None:
        found = _derived(unit)
        if found is None:
            raise UnitError(
                f"unknown unit {unit!r}; known: {', '.join(sorted(_REGISTRY))}; an SI unit with or without "
                f"a prefix ({', '.join(SI_SYMBOLS)}: m, km, kg, ms, kWh, …); a currency's ISO code (EUR, USD, …); "
                "or units.custom('…') for a unit of your own")
        _MADE[unit] = found
    return found


def registered(builtin_only: bool = False) -> dict[str, Unit]:
    """The registered units by name (with ``builtin_only``, the framework's own)."""
    return {k: v for k, v in _REGISTRY.items() if not builtin_only or _OWNERS[k] == __name__}


for _unit in (
    Unit("bytes", format_bytes, None, "bytes, shown with binary prefixes", 131072),
    Unit("seconds", format_seconds, _seconds_fixed, "seconds, shown up to minutes and hours", 0.0453),
    Unit("usd", format_usd, currency("USD").fixed, "US dollars (the same as USD)", 61.95),
    Unit("fraction", format_fraction, lambda x, d: fixed(x * 100, d) + "%", "a plain fraction, shown in percent", 0.561),
    Unit("percent", format_percent, lambda x, d: fixed(x, d) + "%", "a value in percent", 56.1),
    Unit("count", format_count, fixed, "a count, thousands separated", 100000),
    Unit("ratio", format_ratio, lambda x, d: fixed(x, d) + "×", "a multiplier", 3.42),
    number(),
    Unit("text", format_text, None, "a word (shown as it is)", "memory", kind="text"),
    Unit("bool", format_text, None, "1 or 0, shown as the output's words", True, kind="bool"),
):
    register(_unit.name, _unit, owner=__name__)
del _unit
