"""Units of one quantity converted into each other, and a unit that follows a choice.

A course that lets its reader pick the unit (litres or m³; kPa, atm or bar; °C or K) declares a
:class:`~course_calculators.params.Choice` whose values are unit names, and names it with
:func:`follow` as the unit of a ``Number`` (the reader types the value in the chosen unit) or of an
``Output`` (its text is in the chosen unit). ``compute()`` never sees the choice: it works in the
choice's default unit, always; the framework converts on the way in and out.

:func:`conversion` says what a name is in its quantity's base unit: every SI name with its prefix
(``kPa`` is 1000 Pa, ``mL`` 0.001 L), and the units defined here against them (``bar``, ``atm``,
``L`` and ``m³``, ``°C`` and ``°F`` against ``K``), or by a content package with :func:`define`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .si_units import PREFIXES, split
from .unit import UnitError

#: name → (the base unit of its quantity, how many base units one of it is, the offset added
#: after scaling: kelvin = °C + 273.15). Exact by definition, each of them.
_DEFINED: dict[str, tuple[str, float, float]] = {
    "bar": ("Pa", 1e5, 0.0),  # SI Brochure, 9th ed., table 8
    "atm": ("Pa", 101_325.0, 0.0),  # the standard atmosphere, by definition
    "mmHg": ("Pa", 101_325.0 / 760, 0.0),  # 1/760 of the standard atmosphere (the torr)
    "L": ("m³", 1e-3, 0.0),  # SI Brochure, table 8: 1 L = 1 dm³
    "m³": ("m³", 1.0, 0.0),
    "dm³": ("m³", 1e-3, 0.0),
    "cm³": ("m³", 1e-6, 0.0),
    "°C": ("K", 1.0, 273.15),  # t/°C = T/K − 273.15
    "°F": ("K", 5 / 9, 273.15 - 32 * 5 / 9),  # t/°F = 1.8 t/°C + 32
}
_OWNERS: dict[str, str] = {}


def define(name: str, factor: float, of: str, *, offset: float = 0.0, owner: str | None = None) -> None:
    """Define ``name`` as ``factor`` × ``of`` (+ ``offset``, in ``of``'s base unit): ``define("cup",
    236.5882365, "mL")``. A package may define its names again (``mkdocs serve`` re-imports it), never
    one the framework or another module defines."""
    owner = owner or sys._getframe(1).f_globals.get("__name__", "?")
    if not isinstance(name, str) or not name or name != name.strip():
        raise UnitError(f"a unit's name is a non-empty word, got {name!r}")
    taken = _OWNERS.get(name)
    if (name in _DEFINED and taken is None) or (taken is not None and taken != owner) or split(name) is not None:
        raise UnitError(f"unit {name!r} is already defined ({taken or 'by the framework'})")
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not factor > 0:
        raise UnitError(f"unit {name!r}: the factor must be a positive number, got {factor!r}")
    base, scale, shift = conversion(of)
    _DEFINED[name] = (base, factor * scale, offset * scale + shift)
    _OWNERS[name] = owner


def conversion(name: str) -> tuple[str, float, float]:
    """``(base, factor, offset)``: a value in ``name`` is ``value × factor + offset`` in ``base``;
    UnitError for a name no quantity holds."""
    if name in _DEFINED:
        return _DEFINED[name]
    parts = split(name)
    if parts is None:
        raise UnitError(f"{name!r} converts to no other unit: an SI name ({name!r} is none), or one of "
                        f"{', '.join(_DEFINED)}, or a unit a package defines (units.define)")
    prefix, symbol = parts
    scale = 10.0 ** PREFIXES[prefix]
    if symbol in _DEFINED:
        base, factor, offset = _DEFINED[symbol]
        return base, factor * scale, offset
    return symbol, scale, 0.0


def convert(value: float, source: str, target: str) -> float:
    """``value`` in ``source`` expressed in ``target`` (of the same quantity, else UnitError)."""
    if source == target:
        return value
    base, factor, offset = conversion(source)
    other, factor_to, offset_to = conversion(target)
    if base != other:
        raise UnitError(f"{source!r} ({base}) and {target!r} ({other}) are not units of one quantity")
    return (value * factor + offset - offset_to) / factor_to


def same_quantity(names: list[str]) -> str | None:
    """The base unit all ``names`` convert to, or None when they are not units of one quantity."""
    try:
        bases = {conversion(name)[0] for name in names}
    except UnitError:
        return None
    return bases.pop() if len(bases) == 1 else None


@dataclass(frozen=True)
class Follow:
    """The unit of a ``Number`` or an ``Output``: whichever unit the parameter ``choice`` holds
    (a ``Choice`` whose values are unit names of one quantity). ``compute()`` works in the
    choice's default unit; a number's default, minimum, maximum and step are in it too."""

    choice: str
    digits: int = 3

    def __str__(self) -> str:  # no fixed unit beside a label: the choice says it
        return ""

    def __bool__(self) -> bool:
        return False


def follow(choice: str, digits: int = 3) -> Follow:
    """A unit that follows the parameter ``choice``: ``Output("p", "Pressure", units.follow("p_unit"))``;
    the text takes ``digits`` significant digits."""
    if not isinstance(choice, str) or not choice.isidentifier():
        raise UnitError(f"follow() names the parameter that holds the unit, got {choice!r}")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise UnitError(f"significant digits must be an integer from 1 to 15, got {digits!r}")
    return Follow(choice, digits)
