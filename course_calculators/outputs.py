"""What a calculator shows and offers: its :class:`Output` values (each with its formatter from
:mod:`course_calculators.units`) and its :class:`Preset` settings."""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass
from typing import Any, Mapping

from . import contract, units
from .params import SpecError, check_named, need_text

__all__ = ["Output", "Preset"]


@dataclass(frozen=True)
class Output:
    """A computed value: shown formatted, its raw value in base units in ``data-value``.

    ``unit`` names a formatter in :mod:`course_calculators.units` (``bytes``, ``seconds``, ``tokens_per_s``,
    ``usd``, ``fraction``, ``count``, ``ratio``, ``flops``, ``bool``, ``text``).
    """

    name: str
    label: str
    unit: str
    help: str = ""
    #: For ``bool`` outputs: the words shown for False and True.
    words: tuple[str, str] = ("no", "yes")
    #: Outputs marked primary are shown large; the rest in the details list.
    primary: bool = False
    #: Digits after the decimal point, for ``usd``, ``count``, ``ratio`` and ``fraction`` (as a
    #: percentage): ``precision=2`` shows $496.00 beside $61.95. None: the unit's own rule.
    precision: int | None = None

    def __post_init__(self) -> None:
        check_named("output", self.name, self.label)
        if self.precision is not None:
            if isinstance(self.precision, bool) or not isinstance(self.precision, int) or not 0 <= self.precision <= 6:
                raise SpecError(f"output {self.name!r}: precision must be an integer from 0 to 6")
            if self.unit not in units.PRECISE:
                raise SpecError(f"output {self.name!r}: precision applies to the units {sorted(units.PRECISE)}, "
                                f"not {self.unit!r}")
        if not isinstance(self.unit, str) or self.unit not in units.FORMATTERS:
            raise SpecError(f"output {self.name!r}: unknown unit {self.unit!r}; known: {sorted(units.FORMATTERS)}")
        if len(self.words) != 2 or not all(isinstance(w, str) and w for w in self.words):
            raise SpecError(f"output {self.name!r}: words must be two non-empty strings (false, true)")

    def raw(self, value: Any) -> str:
        """The ``data-value`` attribute: base units, booleans as 1/0, categories as their word."""
        if self.unit == "bool":
            return "1" if value else "0"
        if self.unit == "text":
            return str(value)
        return units.format_raw(value)

    def text(self, value: Any) -> str:
        if self.unit == "bool":
            return self.words[1] if value else self.words[0]
        if self.precision is not None:
            return units.PRECISE[self.unit](value, self.precision)
        return units.FORMATTERS[self.unit](value)


@dataclass(frozen=True)
class Preset:
    """A one-click setting of some parameters, with a sentence on what to notice."""

    id: str
    label: str
    values: Mapping[str, Any]
    notice: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not contract.is_id(self.id):
            raise SpecError(f"preset id {self.id!r} must be kebab-case")
        need_text(f"preset {self.id!r}", "label", self.label)
        if not isinstance(self.values, abc.Mapping):
            raise SpecError(f"preset {self.id!r}: values must be a mapping of parameter names to values")
