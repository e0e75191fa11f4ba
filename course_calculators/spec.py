"""Declarative calculator specs: parameters, outputs, presets — and the one place inputs are checked.

Every value that reaches a ``compute()`` function passes through :meth:`Number.convert` or
:meth:`Choice.convert`, whatever its path (a fence override at build time, a number field, a
slider, a URL key or an embed message in the browser). Each conversion returns the value to use
and, when the raw input was changed or refused, a note the widget shows in ``[data-message]``.

Modelled on click's parameter types: ``convert()`` coerces and validates; the widget's HTML
carries whatever the browser needs of the spec.
"""

from __future__ import annotations

import inspect
import math
import re
from collections import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from . import contract, units

__all__ = [
    "SpecError",
    "Number",
    "Choice",
    "Text",
    "Computed",
    "Output",
    "Preset",
    "Calculator",
    "Result",
    "Chart",
    "NOT_COMPUTED",
]

#: A plain decimal number: no hex, no ``inf``/``nan``, no markup, an exponent of at most three digits.
_DECIMAL = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$")
#: The longest raw string echoed back in a note; longer input is cut so a note stays readable.
_ECHO_MAX = 24


class SpecError(ValueError):
    """A calculator spec, a preset or a build-time override is invalid."""


def _need_text(owner: str, attr: str, value: Any) -> None:
    """Labels and titles are shown on the page: a non-empty string each."""
    if not isinstance(value, str) or not value.strip():
        raise SpecError(f"{owner}: {attr} must be a non-empty string, got {value!r}")


def _check_named(what: str, name: Any, label: Any) -> None:
    """A parameter's or output's name (snake_case: it is a URL key and a DOM name) and label."""
    if not contract.is_name(name):
        raise SpecError(f"{what} name {name!r} must be snake_case")
    if what == "parameter" and name in contract.RESERVED_NAMES:
        raise SpecError(f"parameter name {name!r} is reserved (fences, figures and links use it); "
                        f"reserved: {', '.join(contract.RESERVED_NAMES)}")
    _need_text(f"{what} {name!r}", "label", label)


def _check_param(param: Any) -> None:
    """What every parameter kind checks: its name and label, and a help text that is a string."""
    _check_named("parameter", param.name, param.label)
    if not isinstance(param.help, str):
        raise SpecError(f"parameter {param.name!r}: help must be a string")


def _echo(raw: Any) -> str:
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
    """

    name: str
    label: str
    default: float
    min: float
    max: float
    step: float = 1
    unit: str = ""
    help: str = ""
    integer: bool = True
    scale: str = "linear"
    #: Shown under "More parameters", folded by default: keeps the common controls in view.
    advanced: bool = False
    #: A name shared by parameters of several calculators that describe the same thing (the GPU,
    #: the model): the reader's choice in one widget becomes every widget's, on every page.
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
        if self.scale == "log" and self.min <= 0:
            raise SpecError(f"parameter {self.name!r}: a log slider needs min > 0")
        if self.integer and any(float(getattr(self, a)) != int(getattr(self, a)) for a in ("default", "min", "max")):
            raise SpecError(f"parameter {self.name!r}: an integer parameter needs integer default/min/max")
        if self.integer and self.step != int(self.step):
            raise SpecError(f"parameter {self.name!r}: an integer parameter needs an integer step, got {self.step}")

    def _typed(self, value: float) -> float | int:
        return int(round(value)) if self.integer else float(value)

    def convert(self, raw: Any) -> tuple[float | int, str | None]:
        """Coerce ``raw`` to a value in range: ``(value, note)``; ``note`` is None when taken as given."""
        fallback = self._typed(self.default)
        if isinstance(raw, bool):
            return fallback, f"{self.label}: {_echo(raw)} is not a number; using {self.display(fallback)}."
        if isinstance(raw, (int, float)):
            try:
                value = float(raw)
            except OverflowError:  # an int beyond the float range (10**400) is out of range, not an error
                value = 1e308 if raw > 0 else -1e308
        elif isinstance(raw, str) and _DECIMAL.match(raw.strip()):
            value = float(raw.strip())
        else:
            what = "an empty value" if (isinstance(raw, str) and not raw.strip()) or raw is None else _echo(raw)
            return fallback, f"{self.label}: {what} is not a number; using {self.display(fallback)}."
        if not math.isfinite(value):
            return fallback, f"{self.label}: {_echo(raw)} is not a finite number; using {self.display(fallback)}."
        if value < self.min:
            v = self._typed(self.min)
            return v, f"{self.label}: {_echo(raw)} is below the minimum; using {self.display(v)}."
        if value > self.max:
            v = self._typed(self.max)
            return v, f"{self.label}: {_echo(raw)} is above the maximum; using {self.display(v)}."
        typed = self._typed(value)
        if self.integer and typed != value:
            return typed, f"{self.label}: {_echo(raw)} rounded to {self.display(typed)}."
        return typed, None

    def display(self, value: float) -> str:
        text = units.format_count(value)
        return f"{text} {self.unit}".strip()



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
            _need_text(f"parameter {self.name!r}", f"the label of choice {value!r}", label)
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
        return self.default, f"{self.label}: {_echo(raw)} is not a known choice; using {self.default}."

    def display(self, value: str) -> str:
        return dict(self.choices).get(value, value)



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
    scenario = ""

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
            return self.default, f"{self.label}: {_echo(raw)} is not text; using the default."
        if len(raw) > self.max_length:
            return raw[: self.max_length], f"{self.label}: longer than {self.max_length:,} characters; cut there."
        return raw, None

    def display(self, value: str) -> str:
        return value


Param = Number | Choice | Text


def _repeated(names: Sequence[str]) -> str:
    return ", ".join(sorted({n for n in names if names.count(n) > 1}))


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
        _check_named("output", self.name, self.label)
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
        _need_text(f"preset {self.id!r}", "label", self.label)
        if not isinstance(self.values, abc.Mapping):
            raise SpecError(f"preset {self.id!r}: values must be a mapping of parameter names to values")



@dataclass(frozen=True)
class Chart:
    """Data for one chart, in display units; the browser draws it, Python decides every number.

    ``labels`` are the x-axis category labels; each series is ``{"name", "values", "kind"}`` with
    ``kind`` ``line`` (default), ``bar`` or ``rule`` (a horizontal reference line such as GPU memory).
    ``marker`` optionally highlights one label index (the current setting).

    Chart kinds: ``line`` and ``bar`` (x categories ``labels``, one value per label per series) and
    ``grid`` (a picture of a table such as PagedAttention's block table: each series is a row,
    ``name`` its label, ``values`` one cell each — an integer owner id, or None for a free cell),
    and ``xy`` (numeric axes, ``x_log``/``y_log`` for log scales; each series holds ``points``,
    ``[[x, y], …]``, drawn as a ``line``, as separate ``points`` such as measurements, or as one
    ``marker`` point; an optional ``point_labels`` names each point, for tooltips and the table).
    ``summary`` is the text alternative read by screen readers and shown without JavaScript.

    ``frames`` makes the chart a simulation a reader can step through: a bounded list of steps,
    each a mapping with ``label`` ("Step 120") and ``summary`` (the text alternative at that step),
    and optionally ``series`` (the chart's series at that step, same shapes), ``marker``, ``stats``
    (``[[label, text], …]``, Python's formatted figures of the step) and ``panels`` (more pictures
    of the step: ``{"kind": "grid", "title", "rows": [{"name", "values"}]}`` with the grid's cells,
    or ``{"kind": "tokens", "title", "tokens": [{"text", "state"}]}``, a row of labelled tokens).
    ``frame`` is the step the chart's own series show (what the page shows first, without
    JavaScript and in print). ``timeline`` (``{"title", "y_label", "series": [{"name", "values"}]}``,
    one value per frame) is drawn as a line over the steps with the current one marked. The
    browser only shows frame ``i``: it never steps a simulation itself.
    """

    kind: str
    title: str
    x_label: str
    y_label: str
    labels: Sequence[str]
    series: Sequence[Mapping[str, Any]]
    marker: int | None = None
    summary: str = ""
    y_log: bool = False
    x_log: bool = False
    frames: Sequence[Mapping[str, Any]] = ()
    frame: int = 0
    timeline: Mapping[str, Any] | None = None

    KINDS = ("line", "bar", "grid", "xy")
    #: The most steps one chart may carry (they travel with every result).
    MAX_FRAMES = 120
    PANELS = ("grid", "tokens")

    def to_dict(self) -> dict[str, Any]:
        if self.kind not in self.KINDS:
            raise ValueError(f"chart {self.title!r}: kind {self.kind!r} is not one of {self.KINDS}")
        series = []
        for s in self.series:
            if self.kind == "xy":
                points = [[x, y] for x, y in s["points"]]
                numbers = [v for point in points for v in point]
                out = dict(s, points=points)
            else:
                numbers = list(s["values"])
                out = dict(s, values=numbers)
            if any(v is not None and not math.isfinite(v) for v in numbers):
                raise ValueError(f"chart {self.title!r}: series {s['name']!r} holds a non-finite value")
            series.append(out)
        out = {
            "kind": self.kind,
            "title": self.title,
            "x_label": self.x_label,
            "y_label": self.y_label,
            "labels": list(self.labels),
            "series": series,
            "marker": self.marker,
            "summary": self.summary,
            "y_log": self.y_log,
            "x_log": self.x_log,
        }
        if self.frames:
            out.update(self._frames_dict())
        return out

    def _frames_dict(self) -> dict[str, Any]:
        """``frames``, ``frame`` and ``timeline`` as plain data, each checked."""
        where = f"chart {self.title!r}"
        frames = [dict(f) for f in self.frames]
        if len(frames) > self.MAX_FRAMES:
            raise ValueError(f"{where}: {len(frames)} frames; at most {self.MAX_FRAMES}")
        if not (isinstance(self.frame, int) and 0 <= self.frame < len(frames)):
            raise ValueError(f"{where}: frame {self.frame!r} is not one of its {len(frames)} frames")
        for i, f in enumerate(frames):
            if not isinstance(f.get("label"), str) or not isinstance(f.get("summary"), str):
                raise ValueError(f"{where}: frame {i} needs a label and a summary (text)")
            if "series" in f:
                f["series"] = [dict(s, values=list(s["values"])) for s in f["series"]]
                if any(v is not None and not math.isfinite(v) for s in f["series"] for v in s["values"]):
                    raise ValueError(f"{where}: frame {i} holds a non-finite value")
            f["stats"] = [[str(a), str(b)] for a, b in f.get("stats", ())]
            panels = [dict(panel) for panel in f.get("panels", ())]
            for panel in panels:
                if panel.get("kind") not in self.PANELS:
                    raise ValueError(f"{where}: frame {i}: a panel's kind is one of {self.PANELS}")
                if panel["kind"] == "grid":
                    panel["rows"] = [dict(r, values=list(r["values"])) for r in panel["rows"]]
                else:
                    panel["tokens"] = [{"text": str(t["text"]), "state": str(t["state"])} for t in panel["tokens"]]
            f["panels"] = panels
        out: dict[str, Any] = {"frames": frames, "frame": self.frame, "timeline": None}
        if self.timeline is not None:
            series = [dict(s, values=list(s["values"])) for s in self.timeline["series"]]
            if any(len(s["values"]) != len(frames) for s in series):
                raise ValueError(f"{where}: the timeline needs one value per frame")
            out["timeline"] = {"title": str(self.timeline["title"]), "y_label": str(self.timeline["y_label"]),
                               "labels": [f["label"] for f in frames], "series": series}
        return out


@dataclass
class Result:
    """What a run returns: the inputs used, raw outputs, their text, notes and an optional chart."""

    inputs: dict[str, Any]
    values: dict[str, Any]
    text: dict[str, str]
    raw: dict[str, str]
    notes: list[str] = field(default_factory=list)
    charts: list[dict[str, Any]] = field(default_factory=list)
    #: Each input as the reader reads it ("131,072 tokens", a choice's label): the printed table.
    inputs_text: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "inputs_text": self.inputs_text,
            "raw": self.raw,
            "text": self.text,
            "notes": self.notes,
            "charts": self.charts,
        }


@dataclass
class Computed:
    """What ``compute()`` may return: the outputs' values, notes for the reader, and ``details``:
    data that is not an output but that ``chart()`` draws (a simulation's recorded steps, a
    distribution). ``chart(inputs, values, details)`` receives it when it takes three arguments."""

    values: Mapping[str, Any]
    notes: Sequence[str] = ()
    details: Mapping[str, Any] = field(default_factory=dict)


Compute = Callable[[Mapping[str, Any]], Any]


def _takes_details(chart: Callable[..., Any]) -> bool:
    """Whether a chart function takes the ``details`` argument (a third positional parameter)."""
    try:
        params = list(inspect.signature(chart).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


class _UnknownName(KeyError):
    """A name read from the inputs or outputs that the calculator does not have."""


class _Names(dict):
    """The inputs (and outputs) handed to ``compute()`` and ``chart()``.

    Reading a missing name raises :class:`_UnknownName` rather than a bare KeyError, so that a
    compute or chart function naming a parameter or output the spec lacks fails the first run (the
    build) with that name — and a KeyError from any other table is left as it is.
    """

    def __missing__(self, key: Any) -> Any:
        raise _UnknownName(key)


@dataclass(frozen=True)
class Calculator:
    """A calculator: its spec and its pure ``compute`` function.

    ``compute(inputs)`` takes the converted inputs and returns a dict of output values, a pair
    ``(values, notes)`` when it has something to say (for example "weights do not fit"), or a
    :class:`Computed` when its chart needs more than the outputs.
    ``chart(inputs, values[, details])`` optionally returns a :class:`Chart` or a list of them.
    ``resolve(inputs)``, if given, runs between the conversion and ``compute``: it returns the
    inputs with the parameters that others determine filled in (a model's shape from the chosen
    model, a pasted config's shape), or ``(inputs, notes)``. Its values are checked again like a
    reader's, and the widget shows them.
    """

    id: str
    title: str
    params: Sequence[Param]
    outputs: Sequence[Output]
    compute: Compute
    presets: Sequence[Preset] = ()
    chart: Callable[[Mapping[str, Any], Mapping[str, Any]], Chart | Sequence[Chart]] | None = None
    summary: str = ""
    resolve: Callable[[Mapping[str, Any]], Any] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not contract.is_id(self.id):
            raise SpecError(f"calculator id {self.id!r} must be kebab-case")
        _need_text(self.id, "title", self.title)
        for attr, kinds, what in (("params", (Number, Choice, Text), "a Number, Choice or Text"),
                                  ("outputs", (Output,), "an Output"), ("presets", (Preset,), "a Preset")):
            items = getattr(self, attr)
            if isinstance(items, (str, abc.Mapping)) or not isinstance(items, abc.Sequence):
                raise SpecError(f"{self.id}: {attr} must be a sequence (a tuple or a list)")
            for item in items:
                if not isinstance(item, kinds):
                    raise SpecError(f"{self.id}: {attr} holds a {type(item).__name__} ({_echo(item)}), not {what}")
        if not self.outputs:
            raise SpecError(f"{self.id}: a calculator needs at least one output")
        if not callable(self.compute):
            raise SpecError(f"{self.id}: compute must be a function of the inputs")
        if self.chart is not None and not callable(self.chart):
            raise SpecError(f"{self.id}: chart must be a function of the inputs and outputs, or None")
        if self.resolve is not None and not callable(self.resolve):
            raise SpecError(f"{self.id}: resolve must be a function of the inputs, or None")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise SpecError(f"{self.id}: duplicate parameter names: {_repeated(names)}")
        for param in self.params:
            if isinstance(param, (Choice, Text)) and param.fills:
                unknown = [n for n in param.fills if n not in names or n == param.name]
                if unknown:
                    raise SpecError(f"{self.id}: parameter {param.name!r} fills {unknown}, which are not "
                                    "other parameters of this calculator")
                if self.resolve is None:
                    raise SpecError(f"{self.id}: parameter {param.name!r} fills others, so the calculator "
                                    "needs a resolve function")
        outs = [o.name for o in self.outputs]
        if len(set(outs)) != len(outs):
            raise SpecError(f"{self.id}: duplicate output names: {_repeated(outs)}")
        preset_ids = [p.id for p in self.presets]
        if len(set(preset_ids)) != len(preset_ids):
            raise SpecError(f"{self.id}: duplicate preset ids: {_repeated(preset_ids)}")
        for preset in self.presets:
            try:
                self.check_overrides(preset.values)
            except SpecError as exc:
                raise SpecError(f"{self.id}: preset {preset.id!r}: {exc}") from None

    # -- parameters ---------------------------------------------------------------------------

    @property
    def module(self) -> str:
        """The module that holds the compute function: what "Show the Python" shows."""
        return self.compute.__module__

    @property
    def param_map(self) -> dict[str, Param]:
        return {p.name: p for p in self.params}

    @property
    def output_map(self) -> dict[str, Output]:
        return {o.name: o for o in self.outputs}

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.convert(p.default)[0] for p in self.params}

    def preset(self, preset_id: str) -> Preset:
        for preset in self.presets:
            if preset.id == preset_id:
                return preset
        raise SpecError(f"{self.id}: unknown preset {preset_id!r}")

    def convert(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """Defaults overlaid with ``raw``, each value converted; unknown names are ignored with a note."""
        values = self.defaults()
        notes: list[str] = []
        params = self.param_map
        for name, value in raw.items():
            param = params.get(name)
            if param is None:
                notes.append(f"Unknown parameter {_echo(name)} ignored.")
                continue
            values[name], note = param.convert(value)
            if note:
                notes.append(note)
        return values, notes

    def check_overrides(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Strict conversion for build time and presets: any note is an error.

        An unknown name is reported with the names that exist (and the closest, when one is close):
        at build time nothing is "ignored", the build stops.
        """
        params = self.param_map
        problems = []
        for name in overrides:
            if name not in params:
                import difflib  # only on this error path: keeps it out of the browser's boot

                close = difflib.get_close_matches(str(name), list(params), n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                problems.append(f"Unknown parameter {_echo(name)}: {hint}known: {', '.join(params)}.")
        values, notes = self.convert({k: v for k, v in overrides.items() if k in params})
        problems.extend(notes)
        if problems:
            raise SpecError(" ".join(problems))
        return values

    # -- running ------------------------------------------------------------------------------

    def _resolved(self, inputs: dict[str, Any], notes: list[str]) -> tuple[dict[str, Any], list[str]]:
        """Apply ``resolve`` and check what it set as a reader's input would be checked."""
        try:
            returned = self.resolve(_Names(inputs))
        except _UnknownName as exc:
            raise SpecError(f"{self.id}: resolve() reads {exc.args[0]!r}, which is not a parameter") from None
        changed, extra = returned if isinstance(returned, tuple) else (returned, ())
        params = self.param_map
        resolved = dict(inputs)
        for name, value in changed.items():
            if name not in params:
                raise SpecError(f"{self.id}: resolve() set {name!r}, which is not a parameter")
            resolved[name], note = params[name].convert(value)
            if note:
                notes.append(note)
        return resolved, [*notes, *extra]

    def prepare(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The inputs ``compute`` receives for ``raw``: converted, then resolved; with the notes."""
        inputs, notes = self.convert(raw)
        if self.resolve is not None:
            inputs, notes = self._resolved(inputs, notes)
        return inputs, notes

    def run(self, raw: Mapping[str, Any] | None = None) -> Result:
        """Convert ``raw``, compute, check and format every output."""
        inputs, notes = self.prepare(raw or {})
        try:
            returned = self.compute(_Names(inputs))
        except _UnknownName as exc:
            raise SpecError(f"{self.id}: compute() reads {exc.args[0]!r}, which is not a parameter; "
                            f"parameters: {', '.join(inputs)}") from None
        details: Mapping[str, Any] = {}
        if isinstance(returned, Computed):
            values, details = returned.values, returned.details
            notes.extend(returned.notes)
        elif isinstance(returned, tuple):
            values, extra = returned
            notes.extend(extra)
        else:
            values = returned
        missing = [o.name for o in self.outputs if o.name not in values]
        if missing:
            raise ValueError(f"{self.id}: compute() returned no value for {missing}")
        for out in self.outputs:
            value = values[out.name]
            if out.unit in ("bool", "text") or value is None:  # None: not computed (the notes say why)
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{self.id}: output {out.name!r} is not a finite number ({value!r})")
        try:
            if not self.chart:
                drawn = []
            elif _takes_details(self.chart):
                drawn = self.chart(_Names(inputs), _Names(values), details)
            else:
                drawn = self.chart(_Names(inputs), _Names(values))
        except _UnknownName as exc:
            raise SpecError(f"{self.id}: chart() reads {exc.args[0]!r}, which is neither a parameter nor an "
                            f"output; outputs: {', '.join(values)}") from None
        charts = [c.to_dict() for c in ([drawn] if isinstance(drawn, Chart) else drawn)]
        return Result(
            inputs=inputs,
            values={o.name: values[o.name] for o in self.outputs},
            text={o.name: o.text(values[o.name]) for o in self.outputs},
            raw={o.name: o.raw(values[o.name]) for o in self.outputs},
            notes=notes,
            charts=charts,
            inputs_text={p.name: p.display(inputs[p.name]) for p in self.params},
        )

