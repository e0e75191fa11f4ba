"""What a calculator shows and offers: its :class:`Output` values (each with its unit from
:mod:`course_calculators.units`; None shows as "not computed") and its :class:`Preset` settings."""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass
from typing import Any, Mapping

from . import contract, units
from .params import SpecError, check_named, need_text

__all__ = ["Output", "Preset", "NOT_COMPUTED"]


#: What an output shows when ``compute()`` returns None for it: the inputs do not allow a value
#: (the calculator says why in a note) — never a number computed from other inputs.
NOT_COMPUTED = "not computed"


@dataclass(frozen=True)
class Output:
    """A computed value: shown formatted, its raw value (in the unit it names) in ``data-value``.

    ``unit`` names a unit of :mod:`course_calculators.units` — ``m``, ``kg``, ``kWh``, ``°C`` (SI,
    the prefix chosen by magnitude), ``EUR`` (a currency's ISO code), ``seconds``, ``bytes``,
    ``fraction``, ``percent``, ``count``, ``number``, ``ratio``, ``bool``, ``text``, or one a
    content package registers — or is a unit itself (``units.custom("m/s²")``).
    """

    name: str
    label: str
    unit: str | units.Unit
    help: str = ""
    #: For ``bool`` outputs: the words shown for False and True.
    words: tuple[str, str] = ("no", "yes")
    #: Outputs marked primary are shown large; the rest in the details list.
    primary: bool = False
    #: Digits after the decimal point (units that take it: money, SI, counts, ratios, percent):
    #: ``precision=2`` shows $496.00 beside $61.95. None: the unit's own rule.
    precision: int | None = None

    def __post_init__(self) -> None:
        check_named("output", self.name, self.label)
        try:
            unit = units.get(self.unit)
        except units.UnitError as exc:
            raise SpecError(f"output {self.name!r}: {exc}") from None
        if isinstance(self.unit, units.Unit) and unit.kind != "number":
            raise SpecError(f"output {self.name!r}: name the unit {unit.name!r} by its name")
        if self.precision is not None:
            if isinstance(self.precision, bool) or not isinstance(self.precision, int) or not 0 <= self.precision <= 6:
                raise SpecError(f"output {self.name!r}: precision must be an integer from 0 to 6")
            if unit.fixed is None:
                raise SpecError(f"output {self.name!r}: the unit {unit.name!r} takes no precision")
        if len(self.words) != 2 or not all(isinstance(w, str) and w for w in self.words):
            raise SpecError(f"output {self.name!r}: words must be two non-empty strings (false, true)")

    def raw(self, value: Any) -> str:
        """The ``data-value`` attribute: base units, booleans as 1/0, categories as their word; empty
        for a value that was not computed (None)."""
        if value is None:
            return ""
        if self.unit == "bool":
            return "1" if value else "0"
        if self.unit == "text":
            return str(value)
        return units.format_raw(value)

    def text(self, value: Any) -> str:
        if value is None:
            return NOT_COMPUTED
        if self.unit == "bool":
            return self.words[1] if value else self.words[0]
        return units.get(self.unit).text(value, self.precision)


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
