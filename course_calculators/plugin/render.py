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


#: The embed page's height, estimated at build time for the iframe snippet (for hosts that strip
#: scripts, so embed.js cannot size the iframe): its layout at :data:`EMBED_WIDTH` CSS px with
#: "More parameters" closed, from what it shows. Each figure is CSS px, measured on this
#: repository's books and example site (tests/e2e/test_embed_iframe.py checks that every embed
#: page fits its estimate, and is not much shorter); the total gets :data:`EMBED_MARGIN` on top.
EMBED_WIDTH = 720
EMBED_HEIGHT = {"frame": 320, "param": 80, "text": 60, "output": 34, "preset_row": 45, "more": 45,
                "note_line": 24, "chart": 330, "summary_line": 24, "frames": 560, "timeline": 170,
                "answer": 60, "group": 35, "bar": 100}
EMBED_MARGIN = 1.22
_LINE = 80  # characters of a note or a chart summary per line, at that width


def embed_height(calc: Calculator, result: Any, shown: Sequence[str] | None = None) -> int:
    """The iframe height (CSS px) the embed page of ``calc`` needs at :data:`EMBED_WIDTH`, rounded
    up to 20 px: its parameters shown first, its answer, its outputs under their group headings and
    bars, presets, notes and charts."""
    h = EMBED_HEIGHT
    first = shown_params(calc, shown)
    params = [p for p in calc.params if p.name in first]
    total = h["frame"] + h["param"] * len(params) + h["text"] * sum(1 for p in params if type(p).__name__ == "Text")
    total += h["output"] * sum(1 for o in calc.outputs if not o.primary)
    total += (h["answer"] if calc.answer else 0) + h["group"] * len(calc.output_groups()) + h["bar"] * len(calc.bars)
    total += h["preset_row"] * -(-len(calc.presets) // 4) + (h["more"] if len(params) < len(calc.params) else 0)
    total += h["note_line"] * -(-len(" ".join(result.notes)) // _LINE)
    for chart in result.charts:
        total += h["chart"] + h["summary_line"] * -(-len(str(chart.get("summary", ""))) // _LINE)
        total += (h["frames"] if chart.get("frames") else 0) + (h["timeline"] if chart.get("timeline") else 0)
    return -(-round(total * EMBED_MARGIN) // 20) * 20


def widget(calc: Calculator, setting: Setting | Mapping[str, Any] | None = None, *, dom_id: str,
           show_source: bool = True, embed: bool = False, shown: Sequence[str] | None = None, pin: str = "",
           instance: str = "") -> str:
    """The HTML of one widget whose inputs start at ``setting`` (already validated: the fence's
    preset and values; the defaults when None), showing the parameters ``shown`` first, with the
    setting ``pin`` (a pin's query form) pinned if given; ``instance`` names it among the page's
    widgets of the calculator (its URL keys, ``contract.url_key``)."""
    if not isinstance(setting, Setting):
        setting = Setting.from_pairs((setting or {}).items())
    try:
        live = result = calc.run(base=setting)
        compared = compare.compare(calc, result, pin) if pin else None
        if pin:  # the pinned curves beside the live ones, in the build's pictures too
            result = dataclasses.replace(result, charts=compare.pinned_charts(calc, result, pin))
    except Exception as exc:  # a broken calculator must fail the build, naming its file and line
        where = neighbourhood.check_error(calc, exc, "failed to render", setting)
        raise RenderError(
            f"calculator {calc.id!r} ({source_pages.module_file(calc.module)}) failed to render: {where}"
        ) from None
    try:  # the answers before Python: the same compute over one control moved at a time
        # Each entry's charts as the page draws them: the pin's curves on them, as on the build's.
        table = neighbourhood.fitted(neighbourhood.table(
            calc, setting, live, shown_params(calc, shown),
            charts=lambda got: [one_frame(c) for c in (compare.pinned_charts(calc, got, pin) if pin else got.charts)]))
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
        neighbourhood_url=neighbourhood.TABLES.add(table) if table else "",
        slider=slider,
        preset_inputs=lambda preset: preset_inputs(calc, preset.id),
        source_path=source_pages.module_file(calc.module) if show_source else "",
        source_url=source_pages.SOURCE_PREFIX + source_pages.source_file(calc.module),
        embed=embed,
        instance=instance,
        iframe_height=embed_height(calc, result, shown),
        embed_width=EMBED_WIDTH,
    )
