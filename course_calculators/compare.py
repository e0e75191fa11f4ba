"""Pin and compare: a widget's pinned setting, recomputed by Python beside the live one.

A pin is a :class:`~.setting.Setting` of a calculator in query form, ``preset=<id>&<param>=<value>&…``
(a preset, then overrides over the defaults), or :data:`DEFAULTS` for the calculator's own
defaults. It travels in the page's address as one value, ``?loan.pin=years%3D15``, and
reaches :func:`run_json <course_calculators.run_json>` as the reserved input ``pin``. The fence
writes the same setting in text form, as an inline figure does: ``pin: preset=thirty-year years=15``.
What the Pin button pins is each result's own ``pin`` (:attr:`Result.pin <course_calculators.result.Result.pin>`).

The pinned setting's curves are drawn on the live charts too (:func:`overlay`): each chart that the
two settings draw on the same axes gets the pinned curves and bars as more series, marked
``"pinned": true`` (with ``like``, the index of the live series it pins, whose colour it takes)
and named "… (pinned)", so that every painter (Chart.js, the build's SVG, the
data table) draws them beside the live ones without knowing about pins.

Python, not the browser, computes the pinned outputs and each live ÷ pinned ratio (the browser
only shows what :func:`compare` returns), so a ratio is always of the raw values, never of two
rounded texts, and is formatted like every other number on the page.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping, Sequence

from . import units
from .setting import DEFAULT, Setting
from .spec import Calculator, Result

#: The pin of a calculator's own defaults (its query form would be empty).
DEFAULTS = DEFAULT


def decode(calc: Calculator, pin: str) -> tuple[list[tuple[str, Any]], list[str]]:
    """The raw inputs a pin stands for, in order, and notes on what in it was ignored (a link may
    be edited by hand: it never breaks the widget)."""
    pairs, notes = Setting.from_query(pin).inputs(calc)
    return pairs, [f"Pinned: {n}" for n in notes]


def encode(calc: Calculator, inputs: Mapping[str, Any]) -> str:
    """The canonical pin of some converted inputs (:meth:`Setting.of` in query form)."""
    return Setting.of(calc, inputs).query()


@lru_cache(maxsize=32)
def _pinned_run(calc_id: str, items: tuple[tuple[str, str], ...]) -> Result:
    """A pinned setting's result: the same pin is recomputed once, not at every live change."""
    from . import get  # the registry imports this module

    return get(calc_id).run(list(items))


@lru_cache(maxsize=16)
def _preset_inputs(calc_id: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Each preset's label and the inputs it gives (to name the preset a pin equals)."""
    from . import get

    calc = get(calc_id)
    return tuple((p.label, calc.prepare(p.values)[0]) for p in calc.presets)


def forget() -> None:
    """Drop the cached pinned results and preset inputs (the registry was emptied)."""
    _pinned_run.cache_clear()
    _preset_inputs.cache_clear()


def pinned_result(calc: Calculator, pin: str) -> tuple[Result, list[str]]:
    pairs, notes = decode(calc, pin)
    result = _pinned_run(calc.id, tuple((k, str(v)) for k, v in pairs))
    return result, notes + [f"Pinned: {n}" for n in result.notes if n.startswith("Unknown parameter")]


def ratio(live: Any, pinned: Any) -> float | None:
    """live ÷ pinned, for two finite numbers (1 when both are zero); None otherwise."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (live, pinned))
    if not numbers:
        return None
    if pinned == 0:
        return 1.0 if live == 0 else None
    return live / pinned


def compare(calc: Calculator, live: Result, pin: str) -> dict[str, Any]:
    """What the widget shows beside its live outputs: the pinned outputs (text and raw value), the
    ratio live ÷ pinned of each numeric output, the inputs in which the two settings differ, the
    label of the preset the pin equals (if any), notes on what the pin held that was ignored, and
    the pin's canonical form (``pin``: a pin the page made of a form's raw values before Python,
    or a link's, is replaced by it)."""
    pinned, notes = pinned_result(calc, pin)
    outputs: dict[str, dict[str, str]] = {}
    for out in calc.outputs:
        r = ratio(live.values[out.name], pinned.values[out.name])
        if out.unit in ("bool", "text") or r is None:
            same = live.raw[out.name] == pinned.raw[out.name]
            ratio_text, ratio_raw = ("same" if same else "differs"), ""
        else:
            ratio_text, ratio_raw = units.format_ratio(r), units.format_raw(r)
        outputs[out.name] = {"raw": pinned.raw[out.name], "text": pinned.text[out.name],
                             "ratio": ratio_raw, "ratio_text": ratio_text}
    differs = [{"name": p.name, "label": p.label, "pinned": p.display(pinned.inputs[p.name]),
                "live": p.display(live.inputs[p.name])}
               for p in calc.params if pinned.inputs[p.name] != live.inputs[p.name]]
    preset = next((label for label, inputs in _preset_inputs(calc.id) if inputs == pinned.inputs), "")
    return {"preset": preset, "outputs": outputs, "differs": differs, "notes": notes,
            "summary": summary(preset, differs), "pin": encode(calc, pinned.inputs)}


def summary(preset: str, differs: list[dict[str, str]]) -> str:
    """One line on what is pinned: "Pinned: 30 years. Now: Term 30 → 15 years."."""
    head = f"Pinned: {preset}." if preset else "Pinned."
    if not differs:
        return f"{head} The live setting is the same."
    changes = "; ".join(f"{d['label']} {d['pinned']} → {d['live']}" for d in differs)
    return f"{head} Now: {changes}."



#: The series kinds a pinned setting adds to a chart: its curves and bars. Its measured points and
#: markers would repeat the live ones; a reference rule is added only where it differs.
PINNED_KINDS = ("line", "bar")
#: What a pinned series' name ends with.
PINNED_SUFFIX = " (pinned)"


def _same_axes(live: Mapping[str, Any], pinned: Mapping[str, Any] | None) -> bool:
    """Whether a pinned chart can be drawn on the live chart's axes: the same chart (kind, title,
    axis labels and scales), the same categories (a line or bar chart), no recorded steps (a
    simulation's player shows one run)."""
    if pinned is None or live.get("frames") or pinned.get("frames"):
        return False
    keys = ("kind", "title", "x_label", "y_label", "y_log", "x_log")
    if any(live.get(k) != pinned.get(k) for k in keys) or live["kind"] not in ("line", "bar", "xy"):
        return False
    return live["kind"] == "xy" or list(live["labels"]) == list(pinned["labels"])


def _pinned_series(live: Mapping[str, Any], pinned: Mapping[str, Any]) -> list[dict[str, Any]]:
    values = "points" if live["kind"] == "xy" else "values"
    rules = [s[values] for s in live["series"] if s.get("kind") == "rule"]
    names = [s["name"] for s in live["series"]]
    out = []
    for s in pinned["series"]:
        kind = s.get("kind", "line")
        if kind in PINNED_KINDS or (kind == "rule" and s[values] not in rules):
            # ``like``: the live series it pins (same name), whose colour it takes, or None.
            out.append({**s, "name": s["name"] + PINNED_SUFFIX, "pinned": True,
                        "like": names.index(s["name"]) if s["name"] in names else None})
    return out


def overlay(live: Sequence[Mapping[str, Any]], pinned: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The live charts, each with the pinned setting's curves beside its own where the two share
    axes (:func:`_same_axes`); the others as they are."""
    out: list[Mapping[str, Any]] = []
    for i, chart in enumerate(live):
        other = pinned[i] if i < len(pinned) else None
        if _same_axes(chart, other):
            chart = {**chart, "series": [*chart["series"], *_pinned_series(chart, other)]}
        out.append(chart)
    return out


def pinned_charts(calc: Calculator, live: Result, pin: str) -> list[Mapping[str, Any]]:
    """The live result's charts with the pin's curves drawn on them (the pin's result is cached)."""
    return overlay(live.charts, pinned_result(calc, pin)[0].charts)
