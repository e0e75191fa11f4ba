"""SI units by name: a symbol with or without a prefix (``km``, ``kWh``, ``ms``), shown with the
prefix that suits the magnitude."""

from __future__ import annotations

from .numbers import _seconds_fixed, fixed, format_seconds, sig
from .unit import Unit, UnitError

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


def ladder(symbol: str) -> list[tuple[float, str]]:
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


def split(name: str) -> tuple[str, str] | None:
    """``(prefix, symbol)`` of an SI name (``kPa`` → ``("k", "Pa")``), or None for another name."""
    for symbol in sorted(SI_SYMBOLS, key=len, reverse=True):
        prefix = name[: -len(symbol)] if name.endswith(symbol) else None
        if prefix is not None and prefix in PREFIXES and (prefix == "" or symbol not in ("°C", "°F")):
            return prefix, symbol
    return None


def si(name: str) -> Unit:
    """An SI unit by its name: a symbol of :data:`SI_SYMBOLS`, with a prefix or none (``km``,
    ``kWh``, ``ms``, ``°C``). The raw value is in that unit; the text takes the prefix that suits
    its magnitude."""
    parts = split(name)
    if parts is None:
        raise UnitError(f"{name!r} is not an SI unit (a symbol of {', '.join(SI_SYMBOLS)}, with a prefix or none)")
    prefix, symbol = parts
    meaning = SI_SYMBOLS[symbol][0]
    scale = 10.0 ** PREFIXES[prefix]
    if prefix:
        meaning = f"{meaning}, the value in {name}"
    example = _EXAMPLES.get(name, _EXAMPLES.get(symbol, 1234.5))
    if symbol == "s":
        return Unit(name, lambda x: format_seconds(x * scale), lambda x, d: _seconds_fixed(x * scale, d),
                    meaning if prefix else f"{meaning}, shown up to minutes and hours", example)
    steps = ladder(symbol)
    return Unit(name, lambda x: _prefixed(x * scale, steps, None), lambda x, d: _prefixed(x * scale, steps, d),
                meaning, example)


#: A raw value for each SI name's example in the reference table (else its symbol's).
_EXAMPLES = {"m": 1500, "km": 0.25, "g": 250, "kg": 0.25, "s": 0.0453, "ms": 12, "K": 0.004, "°C": 21.5,
             "J": 4186, "Wh": 3500, "kWh": 0.35, "W": 2000, "Pa": 101325, "mol": 0.0025}
