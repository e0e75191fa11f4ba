"""A setting of a calculator: a preset, then ``name=value`` overrides, in order.

One setting, several spellings, all parsed and written here:

- **text form**, words separated by spaces: ``preset=one-cup litres=0.5`` — a fence's
  ``pin:`` line, an inline figure's arguments (``{calc kettle cost preset=… litres=0.5}``);
  a value holding a space, ``%`` or ``&`` is percent-encoded (``%20``);
- **query form**, ``preset=one-cup&litres=0.5`` — a pin (``?kettle.pin=…``) and the
  ``base`` of a run: they travel in URLs;
- **pairs** — a fence's body (``preset: <id>`` and ``name: value`` lines), parsed by the fence with
  the line of each, handed to :meth:`Setting.from_pairs`;
- :data:`DEFAULT` (``default``) in either form: the calculator's own defaults (an empty query
  would vanish from a URL).

What a setting means is the calculator's business (:meth:`Calculator.prepare
<course_calculators.calculator.Calculator.prepare>`): the preset's values apply over the defaults,
then each override in order, as a sequence of assignments — which matters for parameters that
fill others (a model set after its shape fields fills them; a shape field set after its model
makes the model custom). :meth:`Setting.inputs` gives that sequence; :meth:`Setting.of` the canonical setting of some converted inputs: the
parameters that differ from a base, in the order of the spec, leaving out those a filling
parameter fills (they follow from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping
from urllib.parse import parse_qsl, quote, unquote, urlencode

from .params import SpecError, echo

__all__ = ["DEFAULT", "PRESET", "Setting", "carried", "filled_now"]

#: A calculator's own defaults, as a setting (its query form would be empty).
DEFAULT = "default"
#: The name that picks a preset in every form (a reserved word: no parameter is called so).
PRESET = "preset"
#: Characters a value keeps as they are in the text form (everything else is percent-encoded).
_TEXT_SAFE = "".join(chr(c) for c in range(33, 127) if chr(c) not in "%&")


@dataclass(frozen=True)
class Setting:
    """A preset (or None), then overrides: ``(name, raw text)`` pairs in the order given."""

    preset: str | None = None
    values: tuple[tuple[str, str], ...] = ()

    # -- reading --------------------------------------------------------------------------------

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, Any]]) -> Setting:
        """From ``(name, value)`` pairs; ``preset`` picks the preset (a later one wins), the rest
        override in order."""
        preset: str | None = None
        values: list[tuple[str, str]] = []
        for name, value in pairs:
            if name == PRESET:
                preset = str(value)
            else:
                values.append((str(name), value if isinstance(value, str) else str(value)))
        return cls(preset, tuple(values))

    @classmethod
    def from_text(cls, text: str) -> Setting:
        """The text form, strictly: each word is ``name=value`` with a name and a value, or the
        whole text is :data:`DEFAULT`. Raises :class:`SpecError` naming the bad words."""
        words = text.split()
        if words == [DEFAULT]:
            return cls()
        pairs = [word.partition("=") for word in words]
        bad = [word for word, (name, sep, value) in zip(words, pairs) if not sep or not name or not value]
        if not words or bad:
            raise SpecError(f"expected 'preset=<id>' and '<parameter>=<value>' words (or {DEFAULT!r}), "
                            f"got {echo(' '.join(bad) or text)}")
        return cls.from_pairs((name, unquote(value)) for name, _, value in pairs)

    @classmethod
    def from_query(cls, query: str) -> Setting:
        """The query form, leniently (it may come from a link edited by hand): what cannot be
        read as ``name=value`` pairs is left out; :data:`DEFAULT` or nothing is the defaults."""
        query = query.strip()
        if query in ("", DEFAULT):
            return cls()
        return cls.from_pairs(parse_qsl(query, keep_blank_values=True))

    # -- writing --------------------------------------------------------------------------------

    def pairs(self) -> list[tuple[str, str]]:
        return ([(PRESET, self.preset)] if self.preset is not None else []) + list(self.values)

    def text(self) -> str:
        """The text form (``preset=… name=value``), or :data:`DEFAULT`."""
        return " ".join(f"{name}={quote(value, safe=_TEXT_SAFE)}" for name, value in self.pairs()) or DEFAULT

    def query(self) -> str:
        """The query form (``preset=…&name=value``), or :data:`DEFAULT`."""
        return urlencode(self.pairs()) or DEFAULT

    def __str__(self) -> str:
        return self.text()

    @property
    def is_default(self) -> bool:
        return self.preset is None and not self.values

    # -- meaning, for one calculator ------------------------------------------------------------

    def inputs(self, calc: Any) -> tuple[list[tuple[str, Any]], list[str]]:
        """The raw inputs this setting gives ``calc``: ``(name, value)`` assignments in order — the
        preset's values, then the overrides — and a note when the preset does not exist (its
        overrides still apply). :meth:`strict_inputs` is the build's version, where that is an error."""
        base: Mapping[str, Any] = {}
        notes: list[str] = []
        if self.preset is not None:
            try:
                base = calc.preset(self.preset).values
            except SpecError:
                notes.append(f"There is no preset {echo(self.preset)}; the other values apply.")
        return [*base.items(), *self.values], notes

    def strict_inputs(self, calc: Any) -> list[tuple[str, Any]]:
        """:meth:`inputs` for the build: an unknown preset raises :class:`SpecError`."""
        base = calc.preset(self.preset).values if self.preset is not None else {}
        return [*base.items(), *self.values]

    @classmethod
    def of(cls, calc: Any, inputs: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> Setting:
        """The canonical setting of converted ``inputs`` relative to ``base`` (converted inputs too;
        the calculator's defaults when None): the parameters whose value differs, in the order of
        the spec, each as its canonical text (``param.encode``). A parameter that a filling one
        fills (a model's shape while a model is chosen) is left out: it follows from its filler,
        which comes first in the spec or is itself in the setting."""
        base = calc.defaults() if base is None else base
        filled = filled_now(calc, inputs)
        return cls(None, tuple((p.name, p.encode(inputs[p.name])) for p in calc.params
                               if p.name in inputs and p.name not in filled and inputs[p.name] != base.get(p.name)))


def filled_now(calc: Any, inputs: Mapping[str, Any]) -> set[str]:
    """The parameters that a filling parameter (a :class:`Choice` or a :class:`Text` with
    ``fills``) fills with the values ``inputs`` give them."""
    out: set[str] = set()
    for p in calc.params:
        if getattr(p, "fills", ()) and p.name in inputs and p.fills_now(inputs[p.name]):
            out.update(p.fills)
    return out


def carried(calc: Any, inputs: Mapping[str, Any]) -> dict[str, str | None]:
    """What each shared parameter (``scenario=``) carries to the reader's other calculators when
    ``inputs`` are the ones computed, by scenario name: its canonical text, or None where it
    carries nothing and a value stored before would undo it — a filling parameter that fills
    nothing now (a model turned ``custom``, an emptied text: the shape is then in the parameters it
    filled, which carry it), and a parameter that a filling one fills now (the filler carries it).
    The page shares what the reader's edit touched from this, after the run (page/widget.js)."""
    filled = filled_now(calc, inputs)
    out: dict[str, str | None] = {}
    for p in calc.params:
        if not p.scenario or p.name not in inputs:
            continue
        value = inputs[p.name]
        own = p.name not in filled and (not getattr(p, "fills", ()) or p.fills_now(value))
        out[p.scenario] = p.encode(value) if own else None
    return out
