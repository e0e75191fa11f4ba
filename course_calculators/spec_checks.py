"""What a calculator must be: the checks its spec passes when it is defined (:func:`check_spec`),
and the check every ``compute()`` result passes (:func:`check_returned`). A spec that fails is a
:class:`SpecError` naming the calculator; a result that fails, a :class:`RunFailure` naming the
``return`` of ``compute`` that gave it."""

from __future__ import annotations

import math
from collections import abc
from typing import TYPE_CHECKING, Any, Sequence

from . import contract, units
from .failure import RunFailure, return_line
from .outputs import Bar, Output, Preset
from .params import Choice, Number, SpecError, Text, echo, need_text

if TYPE_CHECKING:
    from .calculator import Calculator


def _repeated(names: Sequence[str]) -> str:
    return ", ".join(sorted({n for n in names if names.count(n) > 1}))


def check_spec(calc: "Calculator") -> None:
    """Every field of the spec of the kind it must be, and its names consistent: distinct
    parameters, outputs and preset ids; fillers that fill other parameters (and a ``resolve``);
    answers, bars and ``neighbours`` that name what exists. (Each preset's values are checked by
    the calculator, which converts them.)"""
    if not isinstance(calc.id, str) or not contract.is_id(calc.id):
        raise SpecError(f"calculator id {calc.id!r} must be kebab-case")
    need_text(calc.id, "title", calc.title)
    for attr, kinds, what in (("params", (Number, Choice, Text), "a Number, Choice or Text"),
                              ("outputs", (Output,), "an Output"), ("presets", (Preset,), "a Preset")):
        items = getattr(calc, attr)
        if isinstance(items, (str, abc.Mapping)) or not isinstance(items, abc.Sequence):
            raise SpecError(f"{calc.id}: {attr} must be a sequence (a tuple or a list)")
        for item in items:
            if not isinstance(item, kinds):
                raise SpecError(f"{calc.id}: {attr} holds a {type(item).__name__} ({echo(item)}), not {what}")
    if not calc.outputs:
        raise SpecError(f"{calc.id}: a calculator needs at least one output")
    if not callable(calc.compute):
        raise SpecError(f"{calc.id}: compute must be a function of the inputs")
    if calc.chart is not None and not callable(calc.chart):
        raise SpecError(f"{calc.id}: chart must be a function of the inputs and outputs, or None")
    if calc.resolve is not None and not callable(calc.resolve):
        raise SpecError(f"{calc.id}: resolve must be a function of the inputs, or None")
    names = [p.name for p in calc.params]
    if len(set(names)) != len(names):
        raise SpecError(f"{calc.id}: duplicate parameter names: {_repeated(names)}")
    for param in calc.params:
        if isinstance(param, (Choice, Text)) and param.fills:
            unknown = [n for n in param.fills if n not in names or n == param.name]
            if unknown:
                raise SpecError(f"{calc.id}: parameter {param.name!r} fills {unknown}, which are not "
                                "other parameters of this calculator")
            if calc.resolve is None:
                raise SpecError(f"{calc.id}: parameter {param.name!r} fills others, so the calculator "
                                "needs a resolve function")
    outs = [o.name for o in calc.outputs]
    if len(set(outs)) != len(outs):
        raise SpecError(f"{calc.id}: duplicate output names: {_repeated(outs)}")
    if calc.answer is not None and not callable(calc.answer):
        raise SpecError(f"{calc.id}: answer must be a function of the inputs, outputs and their text, or None")
    if isinstance(calc.answers, str) or not isinstance(calc.answers, abc.Sequence):
        raise SpecError(f"{calc.id}: answers must be a sequence of output names")
    unknown = [n for n in calc.answers if n not in outs]
    if unknown or len(set(calc.answers)) != len(calc.answers):
        raise SpecError(f"{calc.id}: answers names {unknown or _repeated(list(calc.answers))}, which are not "
                        "distinct outputs of this calculator")
    if isinstance(calc.bars, (str, Bar)) or not isinstance(calc.bars, abc.Sequence):
        raise SpecError(f"{calc.id}: bars must be a sequence of Bar")
    groups = {o.group for o in calc.outputs if o.group}
    for bar in calc.bars:
        if not isinstance(bar, Bar):
            raise SpecError(f"{calc.id}: bars holds a {type(bar).__name__} ({echo(bar)}), not a Bar")
        if bar.group not in groups:
            raise SpecError(f"{calc.id}: bar {bar.group!r} names no output group; groups: {sorted(groups)}")
        missing = [n for n in bar.parts if n not in outs]
        if missing:
            raise SpecError(f"{calc.id}: bar {bar.group!r} draws {missing}, which are not outputs")
        kinds = {str(calc.output_map[n].unit) for n in bar.parts}
        if len(kinds) > 1:
            raise SpecError(f"{calc.id}: bar {bar.group!r} stacks outputs of different units: {sorted(kinds)}")
    if len({b.group for b in calc.bars}) != len(calc.bars):
        raise SpecError(f"{calc.id}: one bar per group")
    if calc.neighbours is not None and (type(calc.neighbours) is not int or calc.neighbours < 0):
        raise SpecError(f"{calc.id}: neighbours must be a whole number ≥ 0, or None")
    _check_followed_units(calc)
    preset_ids = [p.id for p in calc.presets]
    if len(set(preset_ids)) != len(preset_ids):
        raise SpecError(f"{calc.id}: duplicate preset ids: {_repeated(preset_ids)}")


def _check_followed_units(calc: "Calculator") -> None:
    """Each unit that follows a choice names a ``Choice`` of this calculator whose values are unit
    names of one quantity (and which fills nothing: its value is the unit, not a setting)."""
    params = calc.param_map
    followers = [(f"parameter {p.name!r}", p.unit) for p in calc.params if isinstance(p, Number)]
    followers += [(f"output {o.name!r}", o.unit) for o in calc.outputs]
    for what, unit in followers:
        if not isinstance(unit, units.Follow):
            continue
        choice = params.get(unit.choice)
        if not isinstance(choice, Choice) or choice.fills:
            raise SpecError(f"{calc.id}: {what} follows {unit.choice!r}, which is not a Choice parameter of this "
                            "calculator (one whose values are unit names, filling nothing)")
        if units.same_quantity(choice.values) is None:
            raise SpecError(f"{calc.id}: {what} follows {unit.choice!r}, whose values {choice.values} are not "
                            "unit names of one quantity (units.convert must turn each into the others)")


def check_returned(calc: "Calculator", values: Any) -> None:
    """What ``compute()`` returned must be exactly the declared outputs, each a finite number
    (or None: not computed; a bool or text output its own kind). A :class:`RunFailure` naming
    the ``return`` that gave it otherwise (:func:`.failure.return_line`): the build's check and
    the browser say where."""
    def where() -> str:  # read from the source only when a check fails: every run passes here
        return return_line(calc.compute, values)

    if not isinstance(values, abc.Mapping):
        raise RunFailure(where(), f"{calc.id}: compute() returned a {type(values).__name__}, not a dict of outputs")
    missing = [o.name for o in calc.outputs if o.name not in values]
    if missing:
        raise RunFailure(where(), f"{calc.id}: compute() returned no value for {missing}")
    declared = calc.output_map
    extra = [k for k in values if k not in declared]
    if extra:
        raise RunFailure(where(), f"{calc.id}: compute() returned {extra}, which no output declares; "
                                  f"outputs: {', '.join(declared)}")
    for out in calc.outputs:
        value = values[out.name]
        if out.unit in ("bool", "text") or value is None:  # None: not computed (the notes say why)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise RunFailure(where(), f"{calc.id}: output {out.name!r} is not a finite number ({value!r})")
