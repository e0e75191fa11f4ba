"""What a calculator shows and offers: its :class:`Output` values (each with its unit from
:mod:`course_calculators.units`; None shows as "not computed") and its :class:`Preset` settings."""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from . import contract, units
from .params import SpecError, check_named, need_text

__all__ = ["Output", "Preset", "Bar", "NOT_COMPUTED"]


#: What an output shows when ``compute()`` returns None for it: the inputs do not allow a value
#: (the calculator says why in a note) — never a number computed from other inputs.
NOT_COMPUTED = "not computed"


@dataclass(frozen=True)
class Output:
    """A computed value: shown formatted, its raw value (in the unit it names) in ``data-value``.

    ``unit`` names a unit of :mod:`course_calculators.units` — ``m``, ``kg``, ``kWh``, ``°C`` (SI,
    the prefix chosen by magnitude), ``EUR`` (a currency's ISO code), ``seconds``, ``bytes``,
    ``fraction``, ``percent``, ``count``, ``number``, ``ratio``, ``bool``, ``text``, or one a
    content package registers — or is a unit itself (``units.custom("m/s²")``), or follows a
    choice (``units.follow("volume_unit")``: ``compute()`` returns the value in the choice's
    default unit, ``data-value`` keeps it so, and the text is in the unit the reader chose).
    """

    name: str
    label: str
    unit: str | units.Unit | units.Follow
    help: str = ""
    #: For ``bool`` outputs: the words shown for False and True.
    words: tuple[str, str] = ("no", "yes")
    #: Outputs marked primary are shown large; the rest in the details list.
    primary: bool = False
    #: Digits after the decimal point (units that take it: money, SI, counts, ratios, percent):
    #: ``precision=2`` shows $496.00 beside $61.95. None: the unit's own rule.
    precision: int | None = None
    #: A short heading the widget lists this output under ("Energy", "Cost"): outputs
    #: of one group are shown together, in the order the groups first appear. "": no heading.
    group: str = ""

    def __post_init__(self) -> None:
        check_named("output", self.name, self.label)
        if not isinstance(self.group, str) or len(self.group) > 60:
            raise SpecError(f"output {self.name!r}: group must be a short heading (a string of at most 60 characters)")
        if isinstance(self.unit, units.Follow):  # the calculator checks the choice it names
            unit = units.custom("x")
        else:
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

    def text(self, value: Any, chosen: tuple[str, str] | None = None) -> str:
        """The value as the reader reads it. For a unit that follows a choice, ``chosen`` is
        ``(the unit the reader chose, compute's unit)`` (the calculator knows both); without it the
        value is shown in compute's unit, unnamed."""
        if value is None:
            return NOT_COMPUTED
        if self.unit == "bool":
            return self.words[1] if value else self.words[0]
        if isinstance(self.unit, units.Follow):
            if chosen is None:
                return units.number(self.unit.digits).text(value, self.precision)
            target, base = chosen
            return units.custom(target, self.unit.digits).text(units.convert(value, base, target), self.precision)
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


@dataclass(frozen=True)
class Bar:
    """One stacked bar over outputs of one unit: each part's share of their sum, drawn under the
    heading of ``group`` (an :attr:`Output.group`) and redrawn with every result. The shares are
    computed in Python (:meth:`shares`); the page only sets widths. A part that is None ("not
    computed") leaves the whole bar not computed; a negative part counts as 0."""

    group: str
    parts: Sequence[str]
    label: str = ""
    #: Short words for the parts in the bar's legend ("weights", "KV pool"); the outputs' labels
    #: when empty.
    names: Sequence[str] = ()
    #: Parts whose legend entry is hidden while they are 0: a part most readers never use (an
    #: option that is off by default) then takes no room in the legend.
    optional: Sequence[str] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.group, str) or not self.group:
            raise SpecError("bar: group must name an output group")
        if isinstance(self.parts, str) or not isinstance(self.parts, abc.Sequence) or len(self.parts) < 2:
            raise SpecError(f"bar {self.group!r}: parts must be a sequence of at least two output names")
        for name in self.parts:
            if not contract.is_name(name):
                raise SpecError(f"bar {self.group!r}: {name!r} is not an output name")
        if self.names and (len(self.names) != len(self.parts) or not all(isinstance(n, str) and n for n in self.names)):
            raise SpecError(f"bar {self.group!r}: names must give one word per part")
        if isinstance(self.optional, str) or not set(self.optional) <= set(self.parts):
            raise SpecError(f"bar {self.group!r}: optional must be a sequence of its parts")

    def name_of(self, part: str, outputs: Mapping[str, "Output"]) -> str:
        """The legend's word for ``part``."""
        return self.names[list(self.parts).index(part)] if self.names else outputs[part].label

    @property
    def title(self) -> str:
        return self.label or self.group

    def shares(self, outputs: Mapping[str, "Output"], values: Mapping[str, Any]) -> dict[str, Any]:
        """The bar for these values: ``parts`` (each part's name, label, text, share of the whole, a
        percentage rounded to 0.1, and whether its legend entry is ``shown``: not for an optional
        part at 0), and ``summary``, one line saying all of it (without the hidden parts); no parts
        when a value is not computed or every part is 0."""
        raw = [values.get(name) for name in self.parts]
        if any(v is None for v in raw):
            return {"parts": [], "summary": f"{self.title}: {NOT_COMPUTED}."}
        sizes = [max(0.0, float(v)) for v in raw]
        total = sum(sizes)
        if total <= 0:
            return {"parts": [], "summary": f"{self.title}: nothing to draw."}
        parts = [{"name": name, "label": self.name_of(name, outputs), "text": outputs[name].text(v),
                  "share": round(100 * size / total, 1), "shown": not (name in self.optional and size == 0)}
                 for name, v, size in zip(self.parts, raw, sizes)]
        summary = f"{self.title}: " + ", ".join(f"{p['label']} {p['text']} ({p['share']:g} %)"
                                                for p in parts if p["shown"]) + "."
        return {"parts": parts, "summary": summary}
