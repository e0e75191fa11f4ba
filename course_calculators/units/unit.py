"""A :class:`Unit`: how one kind of value reads; units of an author's own (:func:`custom`) and
numbers to other significant digits (:func:`number`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .numbers import fixed, sig_digits


class UnitError(ValueError):
    """An output names a unit that does not exist, or a unit is defined twice."""


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
