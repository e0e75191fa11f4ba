"""The parameter types of a calculator spec — :class:`Number`, :class:`Choice`, :class:`Text` — and
the one place an input value is checked.

Every value that reaches a ``compute()`` function passes through a parameter's ``convert()``,
whatever its path (a fence override at build time, a number field, a slider, a URL key or an
embed message in the browser). Each conversion returns the value to use and, when the raw input
was changed or refused, a note the widget shows in ``[data-message]``. ``encode()`` is the
inverse: the canonical text of a value, as a link, a pin or a fence line writes it.

Modelled on click's parameter types: ``convert()`` coerces and validates; the widget's HTML
carries whatever the browser needs of the spec.
"""

from __future__ import annotations

import math
import re
from collections import abc
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Sequence

from . import contract, units

__all__ = ["SpecError", "Number", "Choice", "Text", "Param"]

#: A plain decimal number: no hex, no ``inf``/``nan``, no markup, an exponent of at most three digits.
_DECIMAL = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$")
#: The longest raw string echoed back in a note; longer input is cut so a note stays readable.
_ECHO_MAX = 24
#: Steps per doubling of a log slider over a non-integer parameter.
LOG_STEPS_PER_OCTAVE = 20


class SpecError(ValueError):
    """A calculator spec, a preset or a build-time override is invalid."""


def need_text(owner: str, attr: str, value: Any) -> None:
    """Labels and titles are shown on the page: a non-empty string each."""
    if not isinstance(value, str) or not value.strip():
        raise SpecError(f"{owner}: {attr} must be a non-empty string, got {value!r}")


def check_named(what: str, name: Any, label: Any) -> None:
    """A parameter's or output's name (snake_case: it is a URL key and a DOM name) and label."""
    if not contract.is_name(name):
        raise SpecError(f"{what} name {name!r} must be snake_case")
    if what == "parameter" and name in contract.RESERVED_NAMES:
        raise SpecError(f"parameter name {name!r} is reserved (fences, figures and links use it); "
                        f"reserved: {', '.join(contract.RESERVED_NAMES)}")
    need_text(f"{what} {name!r}", "label", label)


def _check_param(param: Any) -> None:
    """What every parameter kind checks: its name and label, and a help text that is a string."""
    check_named("parameter", param.name, param.label)
    if not isinstance(param.help, str):
        raise SpecError(f"parameter {param.name!r}: help must be a string")


def echo(raw: Any) -> str:
    """A short, quoted rendering of a raw input for a note (plain text; the page never parses it as HTML)."""
    text = str(raw)
    if len(text) > _ECHO_MAX:
        text = text[: _ECHO_MAX - 1] + "…"
    return repr(text) if isinstance(raw, str) else text


@dataclass(frozen=True)
class Number:
    """A numeric parameter: a number field with a slider beside it.

    ``scale="log"`` makes the slider move in powers of two (context lengths, batch sizes); the
    number field always takes any value in ``[min, max]``.

    ``unit`` is the label's unit, or ``units.follow("<choice>")``: the reader types the value in
    the unit that choice holds (no slider, whose scale would be one unit's), and ``compute()``
    receives it in the choice's default unit, the unit ``default``, ``min``, ``max`` and ``step``
    are given in (the calculator converts and checks the range: :meth:`Calculator.prepare`).
    """

    name: str
    label: str
    default: float
    min: float
    max: float
    step: float = 1
    unit: str | units.Follow = ""
    help: str = ""
    integer: bool = True
    scale: str = "linear"
    #: Shown under "More parameters", folded by default: keeps the common controls in view.
    advanced: bool = False
    #: A name shared by parameters of several calculators that describe the same thing (the
    #: planet, the loan's rate): the reader's choice in one widget becomes every widget's, on
    #: every page.
    scenario: str = ""

    kind = "number"

    def __post_init__(self) -> None:
        _check_param(self)
        for attr in ("default", "min", "max", "step"):
            v = getattr(self, attr)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise SpecError(f"parameter {self.name!r}: {attr} must be a finite number, got {v!r}")
        if not self.min < self.max:
            raise SpecError(f"parameter {self.name!r}: min {self.min} must be below max {self.max}")
        if not self.min <= self.default <= self.max:
            raise SpecError(
                f"parameter {self.name!r}: default {self.default} is outside [{self.min}, {self.max}]"
            )
        if self.step <= 0:
            raise SpecError(f"parameter {self.name!r}: step must be positive")
        if self.scale not in ("linear", "log"):
            raise SpecError(f"parameter {self.name!r}: scale must be 'linear' or 'log'")
        if isinstance(self.unit, units.Follow) and (self.scale != "linear" or self.integer):
            raise SpecError(f"parameter {self.name!r}: a unit that follows a choice needs integer=False and a "
                            "linear scale (a converted value is seldom whole, and a slider has one unit)")
        if not isinstance(self.unit, (str, units.Follow)):
            raise SpecError(f"parameter {self.name!r}: unit must be a string or units.follow(...)")
        if self.scale == "log" and self.min <= 0:
            raise SpecError(f"parameter {self.name!r}: a log slider needs min > 0")
        if self.integer and any(float(getattr(self, a)) != int(getattr(self, a)) for a in ("default", "min", "max")):
            raise SpecError(f"parameter {self.name!r}: an integer parameter needs integer default/min/max")
        if self.integer and self.step != int(self.step):
            raise SpecError(f"parameter {self.name!r}: an integer parameter needs an integer step, got {self.step}")

    def _typed(self, value: float) -> float | int:
        return int(round(value)) if self.integer else float(value)

    def _read(self, raw: Any) -> tuple[float | int, str | None]:
        """The value to use and why it differs from ``raw``: None (taken as given), "not a number",
        "not finite", "below", "above" or "rounded"."""
        fallback = self._typed(self.default)
        if isinstance(raw, bool):
            return fallback, "not a number"
        if isinstance(raw, (int, float)):
            try:
                value = float(raw)
            except OverflowError:  # an int beyond the float range (10**400) is out of range, not an error
                value = 1e308 if raw > 0 else -1e308
        elif isinstance(raw, str) and _DECIMAL.match(raw.strip()):
            value = float(raw.strip())
        else:
            return fallback, "not a number"
        if not math.isfinite(value):
            return fallback, "not finite"
        if self.follows:  # typed in the chosen unit: the calculator checks the range, converted
            return self._typed(value), None
        if value < self.min:
            return self._typed(self.min), "below"
        if value > self.max:
            return self._typed(self.max), "above"
        typed = self._typed(value)
        return typed, ("rounded" if self.integer and typed != value else None)

    def convert(self, raw: Any) -> tuple[float | int, str | None]:
        """Coerce ``raw`` to a value in range: ``(value, note)``; ``note`` is None when taken as given."""
        value, why = self._read(raw)
        if why is None:
            return value, None
        if why == "not a number" and ((isinstance(raw, str) and not raw.strip()) or raw is None):
            return value, f"{self.label}: an empty value is not a number; using {self.display(value)}."
        if why == "rounded":
            return value, f"{self.label}: {echo(raw)} rounded to {self.display(value)}."
        what = {"not a number": "is not a number", "not finite": "is not a finite number",
                "below": "is below the minimum", "above": "is above the maximum"}[why]
        return value, f"{self.label}: {echo(raw)} {what}; using {self.display(value)}."

    def refusal(self, raw: Any) -> str | None:
        """Why ``raw`` is an error where nothing is corrected (a preset, a fence, a figure: the
        build stops), with the range allowed; None when it is taken as given."""
        _, why = self._read(raw)
        if why is None:
            return None
        span = f"from {self.display(self._typed(self.min))} to {self.display(self._typed(self.max))}"
        if why == "rounded":
            return f"{self.label}: {echo(raw)} is an error: a whole number is needed ({span})."
        what = {"not a number": "is not a number", "not finite": "is not a finite number",
                "below": "is below the minimum", "above": "is above the maximum"}[why]
        return f"{self.label}: {echo(raw)} {what}, an error: the range is {span}."

    @property
    def follows(self) -> str:
        """The choice parameter whose value is this number's unit, or ""."""
        return self.unit.choice if isinstance(self.unit, units.Follow) else ""

    def display(self, value: float) -> str:
        text = units.format_count(value)
        return f"{text} {self.unit}".strip()

    def encode(self, value: float) -> str:
        """The canonical text of a converted value (``131072``, ``0.92``): what a link, a pin or
        a fence line writes, and what :meth:`convert` reads back to the same value."""
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)

    # -- the log slider: its stops are defined here only; the widget's HTML carries them --------

    @cached_property
    def stops(self) -> tuple[float | int, ...]:
        """The values a log slider stops at, low to high (empty for a linear slider): powers of two
        for an integer parameter, twenty steps per doubling (three significant figures) otherwise."""
        if self.scale != "log":
            return ()
        low, high = math.log2(self.min), math.log2(self.max)
        if self.integer:
            first = math.ceil(low - 1e-9)
            candidates = [2.0**e for e in range(first, math.floor(high + 1e-9) + 1)]
            if not candidates or candidates[0] > self.min:
                candidates.insert(0, float(self.min))
        else:
            count = math.floor((high - low) * LOG_STEPS_PER_OCTAVE + 1e-9)
            candidates = [float(f"{2 ** (low + k / LOG_STEPS_PER_OCTAVE):.3g}") for k in range(count + 1)]
        out: list[float | int] = []
        for s in candidates:
            s = min(max(s, self.min), self.max)
            if not out or s > out[-1]:
                out.append(int(s) if self.integer else s)
        return tuple(out)

    def stop_of(self, value: float) -> int:
        """The position of a log slider (the index into :attr:`stops`) nearest to ``value`` on the
        log scale; a value at or below ``min`` is the first. The browser never computes this: the
        build writes it into the HTML and each result carries it (``Result.slider``)."""
        stops = self.stops
        target = math.log2(max(value, self.min))
        return min(range(len(stops)), key=lambda i: abs(math.log2(stops[i]) - target))



@dataclass(frozen=True)
class Choice:
    """A parameter chosen from a fixed list of words: a ``<select>``."""

    name: str
    label: str
    default: str
    choices: Sequence[tuple[str, str]]
    help: str = ""
    #: Shown under "More parameters", folded by default.
    advanced: bool = False
    #: See :attr:`Number.scenario`.
    scenario: str = ""
    #: Parameters this choice sets (a model sets its shape): the calculator's ``resolve`` fills
    #: them from the choice, and a reader's edit of any of them turns the choice to ``custom``.
    fills: Sequence[str] = ()
    #: The choice that means "none of the listed ones": the filled parameters are the reader's.
    custom: str = ""

    kind = "choice"

    def __post_init__(self) -> None:
        _check_param(self)
        if isinstance(self.choices, (str, abc.Mapping)) or not isinstance(self.choices, abc.Sequence) or not self.choices:
            raise SpecError(f"parameter {self.name!r}: choices must be a non-empty sequence of (value, label) pairs")
        for choice in self.choices:
            if isinstance(choice, str) or not isinstance(choice, abc.Sequence) or len(choice) != 2:
                raise SpecError(f"parameter {self.name!r}: choice {choice!r} is not a (value, label) pair")
            value, label = choice
            # The value travels in URLs and is stripped on input: a plain word without outer spaces.
            if not isinstance(value, str) or not value or value != value.strip():
                raise SpecError(f"parameter {self.name!r}: choice value {value!r} must be a non-empty word")
            need_text(f"parameter {self.name!r}", f"the label of choice {value!r}", label)
        values = [value for value, _ in self.choices]
        if len(set(values)) != len(values):
            raise SpecError(f"parameter {self.name!r}: duplicate choices")
        if self.default not in values:
            raise SpecError(f"parameter {self.name!r}: default {self.default!r} is not one of {values}")
        if isinstance(self.fills, str) or not all(contract.is_name(n) for n in self.fills):
            raise SpecError(f"parameter {self.name!r}: fills must be a sequence of parameter names")
        if self.fills and self.custom not in values:
            raise SpecError(f"parameter {self.name!r}: a choice that fills parameters needs custom= one of {values}")

    @property
    def values(self) -> list[str]:
        return [value for value, _ in self.choices]

    def convert(self, raw: Any) -> tuple[str, str | None]:
        if isinstance(raw, str) and raw.strip() in self.values:
            return raw.strip(), None
        return self.default, f"{self.label}: {echo(raw)} is not a known choice; using {self.default}."

    def refusal(self, raw: Any) -> str | None:
        """See :meth:`Number.refusal`: an unknown choice, with the choices."""
        if self.convert(raw)[1] is None:
            return None
        return f"{self.label}: {echo(raw)} is not a known choice, an error: the choices are {', '.join(self.values)}."

    def display(self, value: str) -> str:
        return dict(self.choices).get(value, value)

    def encode(self, value: str) -> str:
        return value

    def fills_now(self, value: str) -> bool:
        """Whether this choice, holding ``value``, fills its ``fills`` (any value but ``custom``)."""
        return bool(self.fills) and value != self.custom

    @property
    def unfilled(self) -> str:
        """The value that fills nothing: ``custom``."""
        return self.custom



@dataclass(frozen=True)
class Text:
    """Free text the calculator reads itself (a pasted ``config.json``): a ``<textarea>``.

    An empty text means "none". Longer text than ``max_length`` is cut, with a note. ``fills``
    names the parameters the text sets through the calculator's ``resolve`` (a pasted config sets
    the model's shape): a reader's edit of any of them empties the text, as it turns a filling
    :class:`Choice` to its ``custom`` value.
    """

    name: str
    label: str
    default: str = ""
    help: str = ""
    max_length: int = 20_000
    rows: int = 6
    placeholder: str = ""
    #: Shown under "More parameters", folded by default.
    advanced: bool = False
    #: Parameters this text sets through ``resolve``; editing one of them empties the text.
    fills: Sequence[str] = ()
    #: See :attr:`Number.scenario` (a pasted text the reader carries from page to page).
    scenario: str = ""

    kind = "text"

    def __post_init__(self) -> None:
        _check_param(self)
        if not isinstance(self.default, str):
            raise SpecError(f"parameter {self.name!r}: the default text must be a string")
        if isinstance(self.max_length, bool) or not isinstance(self.max_length, int) or self.max_length < 1:
            raise SpecError(f"parameter {self.name!r}: max_length must be a positive integer")
        if len(self.default) > self.max_length:
            raise SpecError(f"parameter {self.name!r}: the default is longer than max_length")
        if isinstance(self.rows, bool) or not isinstance(self.rows, int) or not 1 <= self.rows <= 60:
            raise SpecError(f"parameter {self.name!r}: rows must be an integer from 1 to 60")
        if isinstance(self.fills, str) or not all(contract.is_name(n) for n in self.fills):
            raise SpecError(f"parameter {self.name!r}: fills must be a sequence of parameter names")

    def convert(self, raw: Any) -> tuple[str, str | None]:
        if raw is None:
            return "", None
        if not isinstance(raw, str):
            return self.default, f"{self.label}: {echo(raw)} is not text; using the default."
        if len(raw) > self.max_length:
            return raw[: self.max_length], f"{self.label}: longer than {self.max_length:,} characters; cut there."
        return raw, None

    def refusal(self, raw: Any) -> str | None:
        """See :meth:`Number.refusal`: not text, or too long."""
        if self.convert(raw)[1] is None:
            return None
        if not isinstance(raw, str):
            return f"{self.label}: {echo(raw)} is not text, an error."
        return f"{self.label}: longer than {self.max_length:,} characters, an error."

    def display(self, value: str) -> str:
        return value

    def encode(self, value: str) -> str:
        return value

    def fills_now(self, value: str) -> bool:
        """Whether this text, holding ``value``, fills its ``fills`` (any text but an empty one)."""
        return bool(self.fills) and bool(value.strip())

    @property
    def unfilled(self) -> str:
        """The value that fills nothing: the empty text."""
        return ""


Param = Number | Choice | Text
