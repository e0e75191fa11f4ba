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

**A unit that follows a choice** (litres or m³; kPa, atm or bar; °C or K): :func:`follow` names a
``Choice`` parameter whose values are unit names of one quantity; a ``Number`` or an ``Output``
with that unit is typed or shown in the chosen unit, and ``compute()`` works in the choice's
default unit (:mod:`.conversions`: :func:`convert`, and :func:`define` for a unit of your own).

A content package defines units of its own with :func:`register` (a cookery course might
register ``servings`` or ``cups`` in its own ``units.py``): its
outputs then name them like any other.

The formatters are in :mod:`.numbers`, :class:`Unit` and :func:`custom` in :mod:`.unit`, the SI
names in :mod:`.si_units` and the currencies in :mod:`.money`; this module keeps the registry.
"""

from __future__ import annotations

import re
import sys
from typing import Callable

from .conversions import Follow, conversion, convert, define, follow, same_quantity
from .money import CURRENCIES, currency, format_usd
from .numbers import (GiB, KiB, MiB, TiB, _seconds_fixed, fixed, format_bytes, format_count, format_fraction,
                      format_percent, format_ratio, format_raw, format_seconds, format_text, sig, sig_digits)
from .si_units import SI_SYMBOLS, si
from .unit import Unit, UnitError, custom, number

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
    "Follow",
    "follow",
    "convert",
    "conversion",
    "define",
    "same_quantity",
]


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
