"""A calculator — its spec and its pure ``compute()`` — and the one pipeline every run takes:
convert each input, resolve what other parameters fill, compute, check and format every output,
draw the charts."""

from __future__ import annotations

import inspect
import math
from collections import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from . import contract
from .charts import Chart
from .outputs import Output, Preset
from .params import Choice, Number, Param, SpecError, Text, echo, need_text

__all__ = ["Calculator", "Result", "Computed"]


def _repeated(names: Sequence[str]) -> str:
    return ", ".join(sorted({n for n in names if names.count(n) > 1}))


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
        need_text(self.id, "title", self.title)
        for attr, kinds, what in (("params", (Number, Choice, Text), "a Number, Choice or Text"),
                                  ("outputs", (Output,), "an Output"), ("presets", (Preset,), "a Preset")):
            items = getattr(self, attr)
            if isinstance(items, (str, abc.Mapping)) or not isinstance(items, abc.Sequence):
                raise SpecError(f"{self.id}: {attr} must be a sequence (a tuple or a list)")
            for item in items:
                if not isinstance(item, kinds):
                    raise SpecError(f"{self.id}: {attr} holds a {type(item).__name__} ({echo(item)}), not {what}")
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
                notes.append(f"Unknown parameter {echo(name)} ignored.")
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
                problems.append(f"Unknown parameter {echo(name)}: {hint}known: {', '.join(params)}.")
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
            if out.unit in ("bool", "text"):
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
