"""Widget HTML: the form, the outputs computed now by the same Python the browser runs, the charts.

The markup is the public widget contract (the site's "Widget contract" page): tests and embedders
rely on its attributes. Two sets of values travel with every widget: ``data-defaults``, the
calculator's own defaults (what links and embed snippets are measured against, and what presets
start from), and ``data-initial``, the values this page's fence gave it (what "Reset" returns to).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import jinja2
from mkdocs.exceptions import PluginError

from course_calculators import compare, contract
from course_calculators.setting import Setting
from course_calculators.spec import Calculator, Number

from . import neighbourhood, source_pages, svg

TEMPLATES = Path(__file__).parent / "templates"

env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(TEMPLATES)),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=False,
)
env.globals["contract"] = contract
env.globals["zip"] = zip
env.globals["chart_svg"] = lambda chart: svg.render(chart, hidden=True)
env.globals["timeline_svg"] = lambda chart: svg.render(svg.timeline_chart(chart), hidden=True)


class RenderError(PluginError):
    """A calculator failed to compute its pre-rendered outputs; the message names its module.

    A PluginError, so that ``mkdocs build`` stops with the message, not a traceback.
    """


def log_stops(param: Number) -> list[float]:
    """The values a log slider stops at, low to high (:attr:`Number.stops`, defined there only)."""
    return list(param.stops)


def slider(param: Number, value: float) -> dict[str, Any]:
    """Range-input attributes. A linear slider is the native mapping; a log slider moves over the
    positions of :func:`log_stops`, which the HTML carries."""
    if param.scale == "log":
        stops = log_stops(param)
        position = param.stop_of(value)
        return {"min": 0, "max": len(stops) - 1, "step": 1, "value": position,
                "stops": json.dumps(stops, separators=(",", ":"))}
    return {"min": param.min, "max": param.max, "step": param.step, "value": value, "stops": ""}


def one_frame(chart: Mapping[str, Any]) -> Mapping[str, Any]:
    """A chart as the page's HTML carries it: of a simulation's steps only the one it shows (the
    others arrive with Python's first result in the browser), so the page stays small."""
    if not chart.get("frames"):
        return chart
    return {**chart, "frames": [chart["frames"][chart["frame"]]], "frame": 0, "frames_total": len(chart["frames"])}


def shown_params(calc: Calculator, shown: Sequence[str] | None) -> set[str]:
    """The parameters shown before "More parameters": the fence's ``show:`` list, else every
    parameter not marked ``advanced``."""
    if shown is not None:
        return set(shown)
    return {p.name for p in calc.params if not p.advanced}


def preset_inputs(calc: Calculator, preset_id: str) -> dict[str, str]:
    """Every input a preset gives, as the canonical text a field holds: the calculator's defaults,
    then the preset's values (its model's shape filled), prepared by Python. A preset button puts
    them all in the form: the browser composes no setting."""
    inputs = calc.prepare(Setting(preset_id).inputs(calc)[0])[0]
    return {p.name: p.encode(inputs[p.name]) for p in calc.params}


def widget(calc: Calculator, setting: Setting | Mapping[str, Any] | None = None, *, dom_id: str,
           show_source: bool = True, embed: bool = False, shown: Sequence[str] | None = None, pin: str = "") -> str:
    """The HTML of one widget whose inputs start at ``setting`` (already validated: the fence's
    preset and values; the defaults when None), showing the parameters ``shown`` first, with the
    setting ``pin`` (a pin's query form) pinned if given."""
    if not isinstance(setting, Setting):
        setting = Setting.from_pairs((setting or {}).items())
    try:
        result = calc.run(base=setting)
        compared = compare.compare(calc, result, pin) if pin else None
        if pin:  # the pinned curves beside the live ones, in the build's pictures too
            result = dataclasses.replace(result, charts=compare.pinned_charts(calc, result, pin))
    except Exception as exc:  # a broken calculator must fail the build, naming its file and line
        where = neighbourhood.check_error(calc, exc, "failed to render", setting)
        raise RenderError(
            f"calculator {calc.id!r} ({source_pages.module_file(calc.module)}) failed to render: {where}"
        ) from None
    try:  # the answers before Python: the same compute over one control moved at a time
        table = neighbourhood.fitted(neighbourhood.table(calc, setting, result, shown_params(calc, shown)))
    except neighbourhood.CheckError as exc:
        raise RenderError(str(exc)) from None
    return env.get_template("widget.html").render(
        calc=calc,
        dom_id=dom_id,
        defaults=calc.defaults(),
        inputs=result.inputs,
        setting=setting.query(),
        result=result,
        shown=shown_params(calc, shown),
        pin=pin,
        compared=compared,
        charts_json=json.dumps([one_frame(c) for c in result.charts], separators=(",", ":"), allow_nan=False),
        neighbourhood_json=table,
        slider=slider,
        preset_inputs=lambda preset: preset_inputs(calc, preset.id),
        source_path=source_pages.module_file(calc.module) if show_source else "",
        source_url=source_pages.SOURCE_PREFIX + source_pages.source_file(calc.module),
        embed=embed,
    )
