"""Pin and compare: a widget's pinned setting, recomputed by Python beside the live one.

A pin is a setting of a calculator written as a query string, ``preset=<id>&<param>=<value>&…``
(``preset`` first applies a preset, the other pairs override it; everything else keeps its
default), or :data:`DEFAULTS` for the calculator's own defaults. It travels in the page's address as one value, ``?kv-cache.pin=context%3D131072``, and
reaches :func:`run_json` as the reserved input ``pin``. The fence writes the same setting with
spaces, as an inline figure does: ``pin: preset=llama3-8b context=131072``.

Python, not the browser, computes the pinned outputs and each live ÷ pinned ratio (the browser
only shows what :func:`compare` returns), so a ratio is always of the raw values, never of two
rounded texts, and is formatted like every other number on the page.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping
from urllib.parse import parse_qsl, urlencode

from . import units
from .spec import Calculator, Result, SpecError

#: The pin of a calculator's own defaults (its query form would be empty).
DEFAULTS = "default"


def decode(calc: Calculator, pin: str) -> tuple[dict[str, Any], list[str]]:
    """The raw inputs a pin stands for, and notes on what in it was ignored (a link may be
    edited by hand: it never breaks the widget)."""
    notes: list[str] = []
    preset: str | None = None
    raw: dict[str, Any] = {}
    pairs = [] if pin.strip() == DEFAULTS else parse_qsl(pin, keep_blank_values=True)
    for name, value in pairs:
        if name == "preset":
            preset = value
        else:
            raw[name] = value
    base: dict[str, Any] = {}
    if preset is not None:
        try:
            base = dict(calc.preset(preset).values)
        except SpecError:
            notes.append(f"Pinned: there is no preset {preset[:24]!r}; the other pinned values apply.")
    return {**base, **raw}, notes


def encode(calc: Calculator, inputs: Mapping[str, Any]) -> str:
    """The canonical pin of some converted inputs: the ones that differ from the defaults, in the
    order of the parameters (what the browser writes into the address)."""
    defaults = calc.defaults()
    changed = [(p.name, _plain(inputs[p.name])) for p in calc.params
               if p.name in inputs and inputs[p.name] != defaults[p.name]]
    return urlencode(changed) or DEFAULTS


def _plain(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@lru_cache(maxsize=32)
def _pinned_run(calc_id: str, items: tuple[tuple[str, str], ...]) -> Result:
    """A pinned setting's result: the same pin is recomputed once, not at every live change."""
    from . import get  # the registry imports this module

    return get(calc_id).run(dict(items))


def pinned_result(calc: Calculator, pin: str) -> tuple[Result, list[str]]:
    raw, notes = decode(calc, pin)
    result = _pinned_run(calc.id, tuple(sorted((k, str(v)) for k, v in raw.items())))
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
    label of the preset the pin equals (if any) and notes on what the pin held that was ignored."""
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
    preset = next((p.label for p in calc.presets if calc.prepare(p.values)[0] == pinned.inputs), "")
    return {"preset": preset, "outputs": outputs, "differs": differs, "notes": notes,
            "summary": summary(preset, differs)}


def summary(preset: str, differs: list[dict[str, str]]) -> str:
    """One line on what is pinned: "Pinned: 8B at 128K. Now: Context length 8,192 → 131,072 tokens."."""
    head = f"Pinned: {preset}." if preset else "Pinned."
    if not differs:
        return f"{head} The live setting is the same."
    changes = "; ".join(f"{d['label']} {d['pinned']} → {d['live']}" for d in differs)
    return f"{head} Now: {changes}."

