"""A calculator — its spec and its pure ``compute()`` — and the one pipeline every run takes:
convert each input, resolve what other parameters fill, compute, check and format every output,
draw the charts."""

from __future__ import annotations

import inspect
import math
from collections import abc
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from . import units
from .charts import Chart
from .outputs import Bar, Output, Preset
from .params import Choice, Number, Param, SpecError, Text, echo
from .result import Computed, Result
from .setting import Setting, carried
from .spec_checks import check_returned, check_spec

__all__ = ["Calculator", "Result", "Computed"]


def _pairs(raw: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> list[tuple[str, Any]]:
    if raw is None:
        return []
    return list(raw.items()) if isinstance(raw, abc.Mapping) else [(k, v) for k, v in raw]


def _unfill_note(param: Param, value: Any, filler: Choice | Text, filler_value: Any, filled: Any) -> str:
    """The reader's note when setting ``param`` beside ``filler`` stopped the filler filling it."""
    if isinstance(filler, Choice):
        return (f"{param.label}: {param.display(value)} set beside {filler.label} “{filler.display(filler_value)}”, "
                f"which has {param.display(filled)}; {filler.label} is now “{filler.display(filler.custom)}”.")
    return (f"{param.label}: {param.display(value)} set beside {filler.label}, which gave "
            f"{param.display(filled)}; that text is now empty.")


class FilledConflict(SpecError):
    """At build time: a parameter set beside the one that fills it, to a value the filler does not
    give (``gravity: 9`` beside ``world: moon``, which gives 1.62). Names both, and carries
    them (``filled``, ``filler``) so that the fence can point at the lines."""

    def __init__(self, calc: "Calculator", filled: str, value: Any, filler: Choice | Text, filler_value: Any,
                 fills_with: Any, *, before: bool = False) -> None:
        param = calc.param_map[filled]
        where = "before" if before else "beside"
        shown = filler.encode(filler_value) if isinstance(filler, Choice) else "<its text>"
        instead = (f"set {filler.name}: {filler.custom}" if isinstance(filler, Choice) else f"leave {filler.name} empty")
        super().__init__(
            f"{filled}: {param.encode(value)} is set {where} {filler.name}: {shown}, which fills it with "
            f"{param.encode(fills_with)}; {instead} to give {filled} yourself, or leave {filled} out.")
        self.filled, self.filler = filled, filler.name


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

    ``answer(inputs, values, text)``, if given, returns the calculator's answer in one sentence
    (``text`` holds each output as the widget shows it); where an output it speaks of is None it
    says what could not be computed, never a number. ``answers`` names the outputs shown with it,
    first and in view while any control is used (without it: the ``primary`` outputs). ``bars``
    draws stacked bars over outputs of a group (:class:`Bar`). ``neighbours``: how many states past
    each control's nearest stops the build computes for the page's answers before Python (None:
    the build's default, ``plugin.neighbourhood.BUDGET``); a slow compute takes fewer.
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
    answer: Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, str]], str] | None = None
    answers: Sequence[str] = ()
    bars: Sequence[Bar] = ()
    neighbours: int | None = None

    def __post_init__(self) -> None:
        check_spec(self)
        for preset in self.presets:
            try:
                self._check_values(preset.values)
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
        """Every parameter's default, converted (a new dict each time; computed once)."""
        cached = self.__dict__.get("_defaults")
        if cached is None:
            cached = {p.name: p.convert(p.default)[0] for p in self.params}
            self.__dict__["_defaults"] = cached  # a frozen dataclass may still keep a cache
        return dict(cached)

    @property
    def answer_outputs(self) -> list[Output]:
        """The outputs shown first, with the answer sentence: ``answers`` in their order, else the
        primary outputs."""
        if self.answers:
            return [self.output_map[n] for n in self.answers]
        return [o for o in self.outputs if o.primary]

    def output_groups(self) -> list[tuple[str, list[Output]]]:
        """The other outputs by :attr:`Output.group`, in the order the groups first appear (the
        ungrouped ones under "")."""
        shown = {o.name for o in self.answer_outputs}
        groups: dict[str, list[Output]] = {}
        for out in self.outputs:
            if out.name not in shown:
                groups.setdefault(out.group, []).append(out)
        return list(groups.items())

    def bar_of(self, group: str) -> Bar | None:
        return next((b for b in self.bars if b.group == group), None)

    @property
    def fillers(self) -> dict[str, Choice | Text]:
        """The parameters that fill others (a model its shape, a pasted config everything), by name."""
        return {p.name: p for p in self.params if isinstance(p, (Choice, Text)) and p.fills}

    def preset(self, preset_id: str) -> Preset:
        for preset in self.presets:
            if preset.id == preset_id:
                return preset
        raise SpecError(f"{self.id}: unknown preset {preset_id!r}")

    def convert(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """Defaults overlaid with ``raw``, each value converted; unknown names are ignored with a note.
        (No ``resolve`` and no filled-field rule: :meth:`prepare` is what a run does.)"""
        values = self.defaults()
        notes: list[str] = []
        self._assign(values, raw.items(), notes)
        return values, notes

    def _assign(self, values: dict[str, Any], pairs: Iterable[tuple[str, Any]], notes: list[str]) -> None:
        """Convert each ``(name, raw value)`` into ``values``, in order; an unknown name is ignored
        with a note, as is any value's own note."""
        params = self.param_map
        for name, value in pairs:
            param = params.get(name)
            if param is None:
                notes.append(f"Unknown parameter {echo(name)} ignored.")
                continue
            values[name], note = param.convert(value)
            if note:
                notes.append(note)

    def _unknown(self, names: Sequence[str]) -> list[str]:
        """The build's message for each name that is no parameter, with the closest one if any."""
        params = self.param_map
        problems = []
        for name in names:
            if name not in params:
                import difflib  # only on this error path: keeps it out of the browser's boot

                close = difflib.get_close_matches(str(name), list(params), n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                problems.append(f"Unknown parameter {echo(name)}: {hint}known: {', '.join(params)}.")
        return problems

    def _check_values(self, overrides: Mapping[str, Any]) -> None:
        """Every name a parameter and every value taken as given (no resolve): a preset's check at
        import, cheap enough for the browser's boot."""
        problems = self._unknown(list(overrides))
        problems.extend(self._refusals(overrides.items()))
        if problems:
            raise SpecError(" ".join(problems))
        self._follow_units(self.convert(overrides)[0], [], strict=True)  # a number in its chosen unit

    def _refusals(self, pairs: Iterable[tuple[str, Any]]) -> list[str]:
        """Each value a parameter would correct, said as the error it is where nothing is
        corrected (a preset, a fence, a figure), with the range or the choices allowed."""
        params = self.param_map
        found = (params[name].refusal(value) for name, value in pairs if name in params)
        return [problem for problem in found if problem]

    def check_overrides(self, overrides: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> dict[str, Any]:
        """Strict :meth:`prepare`, for build time, presets and tests: any note on a value is an
        error, and so is a parameter set beside the one that fills it (:class:`FilledConflict`).
        Returns the inputs ``compute`` receives.

        An unknown name is reported with the names that exist (and the closest, when one is close):
        at build time nothing is "ignored", the build stops.
        """
        pairs = _pairs(overrides)
        problems = self._unknown([name for name, _ in pairs])
        problems.extend(self._refusals(pairs))
        if problems:
            raise SpecError(" ".join(problems))
        inputs, notes = self._fold(pairs, strict=True)
        return self._follow_units(inputs, notes, strict=True)

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

    def _fold(self, pairs: Sequence[tuple[str, Any]], *, strict: bool) -> tuple[dict[str, Any], list[str]]:
        """The inputs a sequence of ``(name, raw value)`` assignments gives, applied in order over
        the defaults, with the notes; the one place the filled-field rule is written.

        A parameter that fills others (:attr:`fillers`: a model, a pasted config) fills them when
        it is set to a value that fills (``fills_now``), replacing what was set before. A filled
        parameter then set to another value than the one filled makes its filler stop filling (a
        model turns ``custom``, a config text empties) and keeps every other filled value: the
        reader's shape starts from the model's. ``strict`` (the build) refuses both cases where
        they disagree — a filled parameter set beside its filler — naming both
        (:class:`FilledConflict`); a filled parameter set beside a filler left at its default is
        the reader's, as at run time, with a note.
        """
        params, fillers = self.param_map, self.fillers
        notes: list[str] = []
        if self.resolve is None or not fillers:
            inputs = self.defaults()
            self._assign(inputs, pairs, notes)
            return self._resolved(inputs, notes) if self.resolve is not None else (inputs, notes)
        inputs = dict(self._resolved_defaults())
        set_here: dict[str, Any] = {}  # what the pairs set, converted: the conflicts name them
        unfilled: dict[str, str] = {}  # filler → the note on why it stopped filling
        for name, value in pairs:
            param = params.get(name)
            if param is None:
                notes.append(f"Unknown parameter {echo(name)} ignored.")
                continue
            converted, note = param.convert(value)
            if note:
                notes.append(note)
            # Set beside what fills it (a shape field beside its model; a model beside a pasted
            # config), to another value: what fills it stops filling.
            active = [f for f in fillers.values() if name in f.fills and f.fills_now(inputs[f.name])]
            if active and converted != inputs[name]:
                for filler in active:
                    if strict and filler.name in set_here:
                        raise FilledConflict(self, name, converted, filler, inputs[filler.name], inputs[name])
                    unfilled[filler.name] = _unfill_note(param, converted, filler, inputs[filler.name], inputs[name])
                    inputs[filler.name] = filler.unfilled
            unfilled.pop(name, None)  # a filler set again says what it does itself
            inputs[name] = converted
            if name in fillers and param.fills_now(converted):  # it fills: what was set before gives way
                filled = self._resolved(inputs, [])[0]
                if strict:
                    for other in param.fills:
                        if other in set_here and filled[other] != set_here[other]:
                            raise FilledConflict(self, other, set_here[other], param, converted, filled[other],
                                                 before=True)
                for other in param.fills:
                    set_here.pop(other, None)
                inputs = filled
            set_here[name] = converted
        return self._resolved(inputs, [*notes, *unfilled.values()])

    def prepare(self, raw: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> tuple[dict[str, Any], list[str]]:
        """The inputs for ``raw`` (a mapping, or ``(name, value)`` pairs: the order counts, see
        :meth:`_fold`): converted, filled, resolved, a number whose unit follows a choice checked
        in that unit; with the notes. (``compute`` receives them in its own units: :meth:`in_base`.)"""
        inputs, notes = self._fold(_pairs(raw), strict=False)
        return self._follow_units(inputs, notes), notes

    # -- units that follow a choice -------------------------------------------------------------

    def chosen_unit(self, unit: Any, inputs: Mapping[str, Any]) -> tuple[str, str] | None:
        """``(the unit the choice holds in inputs, compute's unit: the choice's default)`` for a
        unit that follows a choice; None for any other unit."""
        if not isinstance(unit, units.Follow):
            return None
        choice = self.param_map[unit.choice]
        return str(inputs.get(choice.name, choice.default)), choice.default

    def in_base(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """The inputs as ``compute`` receives them: each number that follows a choice converted
        from the chosen unit into the choice's default unit."""
        out = dict(inputs)
        for param in self.params:
            chosen = self.chosen_unit(param.unit, inputs) if isinstance(param, Number) else None
            if chosen is not None and chosen[0] != chosen[1]:
                out[param.name] = units.convert(inputs[param.name], *chosen)
        return out

    def _follow_units(self, inputs: dict[str, Any], notes: list[str], *, strict: bool = False) -> dict[str, Any]:
        """Check each number typed in a chosen unit against its range (given in the choice's
        default unit): outside it, the nearest bound in the chosen unit with a note, or (``strict``)
        the error with the range in the chosen unit."""
        inputs = dict(inputs)
        for param in self.params:
            chosen = self.chosen_unit(param.unit, inputs) if isinstance(param, Number) else None
            if chosen is None:
                continue
            unit, base = chosen
            value = inputs[param.name]
            in_base = units.convert(value, unit, base)
            slack = 1e-9 * max(abs(param.min), abs(param.max), 1.0)  # a bound converted there and back
            if param.min - slack <= in_base <= param.max + slack:
                continue
            low = _shown_bound(units.convert(param.min, base, unit), up=True)
            high = _shown_bound(units.convert(param.max, base, unit), up=False)
            where = "below the minimum" if in_base < param.min else "above the maximum"
            if strict:
                raise SpecError(f"{param.label}: {param.encode(value)} {unit} is {where}, an error: the range is "
                                f"from {param.encode(low)} {unit} to {param.encode(high)} {unit}.")
            bound = low if in_base < param.min else high
            inputs[param.name] = bound
            notes.append(f"{param.label}: {param.encode(value)} {unit} is {where}; using {param.encode(bound)} {unit}.")
        return inputs

    def _resolved_defaults(self) -> dict[str, Any]:
        """The defaults with what their fillers fill (the defaults' model's shape), computed once."""
        cached = self.__dict__.get("_resolved_defaults_")
        if cached is None:
            cached = self._resolved(self.defaults(), [])[0]
            self.__dict__["_resolved_defaults_"] = cached
        return cached

    def base_inputs(self, base: Setting) -> dict[str, Any]:
        """The inputs a base setting gives (computed once per setting: every run of a widget has the same)."""
        cache = self.__dict__.setdefault("_base_inputs", {})
        if base not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[base] = self.prepare(base.inputs(self)[0])[0]
        return cache[base]

    def run(self, raw: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None, *,
            base: Setting | None = None) -> Result:
        """Prepare ``raw`` (applied after ``base``'s values: a widget's fence setting, or a link's
        keys over it), compute, check and format every output; with the result's canonical pin
        and the inputs that differ from ``base``."""
        base = base or Setting()
        base_pairs, notes = base.inputs(self)
        inputs, more = self.prepare([*base_pairs, *_pairs(raw)])
        notes.extend(more)
        shown, inputs = inputs, self.in_base(inputs)  # compute, chart and answer work in their own units
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
        check_returned(self, values)
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
        text = {o.name: o.text(values[o.name], self.chosen_unit(o.unit, shown)) for o in self.outputs}
        sentence = ""
        if self.answer is not None:
            try:
                sentence = self.answer(_Names(inputs), _Names(values), _Names(text))
            except _UnknownName as exc:
                raise SpecError(f"{self.id}: answer() reads {exc.args[0]!r}, which is neither a parameter nor "
                                f"an output") from None
            if not isinstance(sentence, str) or not sentence.strip():
                raise ValueError(f"{self.id}: answer() must return a sentence, not {sentence!r}")
        outputs = self.output_map
        return Result(
            inputs=shown,
            values={o.name: values[o.name] for o in self.outputs},
            text=text,
            raw={o.name: o.raw(values[o.name]) for o in self.outputs},
            notes=notes,
            charts=charts,
            inputs_text={p.name: p.display(shown[p.name]) for p in self.params},
            pin=Setting.of(self, shown).query(),
            changed=dict(Setting.of(self, shown, self.base_inputs(base) if not base.is_default else None).values),
            slider={p.name: p.stop_of(shown[p.name]) for p in self.params if isinstance(p, Number) and p.stops},
            answer=sentence,
            bars={b.group: b.shares(outputs, values) for b in self.bars},
            scenario=carried(self, shown),
        )


def _shown_bound(value: float, up: bool) -> float:
    """A range's bound converted into a chosen unit, to six significant digits rounded towards the
    inside of the range (``up`` for a minimum), so that the value shown is itself in range."""
    if value == 0 or not math.isfinite(value):
        return value
    scale = 10.0 ** (5 - math.floor(math.log10(abs(value))))
    return (math.ceil if up else math.floor)(round(value * scale, 6)) / scale
