"""Every chart also as a static SVG, drawn at build time from the same chart data.

It is what a reader without JavaScript sees, what a printed page shows, and what is on screen
until the live chart is drawn. Colours are CSS classes (``calc-svg__s1`` …) whose strokes and
fills come from the widget's palette variables, so the picture follows the light and dark palettes.

It is laid out as the live chart is (Chart.js in the same box): it fills its box, whatever the
box's width, and its text is drawn at its CSS size (the style sheet's, as Chart.js's is), never
scaled with the picture. The SVG therefore has no viewBox: each text is placed at a fraction of the
box plus a pixel offset (``x="40%" dx="20"``); the marks are drawn in a plot of their own, an SVG
with ``viewBox="0 0 1000 1000"`` stretched over the plot area (a ``foreignObject`` holding a box
inset by the margins in pixels), their strokes kept at their width (``non-scaling-stroke``) and
points drawn as round dots of a zero-length line, so nothing is distorted.
"""

from __future__ import annotations

import html
import math
from typing import Any, Mapping, Sequence

from course_calculators import charts
from course_calculators.units import sig

#: The plot's margins in CSS px (Chart.js's own are about these, with 12 px text).
LEFT, RIGHT, TOP, BOTTOM = 62, 14, 34, 46
#: The plot's own coordinates: 0..UNITS on each axis, stretched over the plot area.
UNITS = 1000
SERIES_CLASSES = 5
#: The legend starts at LEGEND_LEFT px and wraps to another row past LEGEND_RIGHT px, so that it
#: fits a phone's box (332 px at 390 px wide).
LEGEND_LEFT, LEGEND_RIGHT = 4, 320
#: A wide character's width at the legend's 12 px, to place legend items.
CHAR_PX = 7.2
#: A grid chart's rows (px): as the live grid's (calc.css ``.calc__grid-row``).
GRID_ROW, GRID_GAP, GRID_LABEL = 22, 2, 90
DOT = {"marker": 12, "points": 8, "chart_marker": 10}
#: A narrow widget shows at most about this many x labels (the others are minor, calc.css).
MAX_NARROW_TICKS = 6
#: Category names longer than SLANT_PAST characters are turned SLANT_DEGREES (as Chart.js turns
#: labels that would overlap), cut to LABEL_CHARS.
SLANT_PAST, SLANT_DEGREES, LABEL_CHARS = 7, 35, 18
#: The y axis's title, turned, in characters: a chart's box (13rem on a phone), a timeline's (9rem).
Y_TITLE_CHARS, Y_TITLE_CHARS_COMPACT = 24, 13


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _tick_text(v: float) -> str:
    a = abs(v)
    for factor, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= factor:
            return sig(v / factor) + suffix
    return sig(v)


class Scale:
    """Maps data values to pixels along one axis, linear or logarithmic, with its ticks."""

    def __init__(self, low: float, high: float, start: float, end: float, log: bool = False) -> None:
        self.log = log and low > 0
        if self.log:
            low, high = 10 ** math.floor(math.log10(low)), 10 ** math.ceil(math.log10(high))
            if low == high:
                high = low * 10
        else:
            low, high = min(0.0, low), high
            if high <= low:
                high = low + 1
            step = self._step(high - low)
            low, high = math.floor(low / step) * step, math.ceil(high / step) * step
        self.low, self.high, self.start, self.end = low, high, start, end

    @staticmethod
    def _step(span: float) -> float:
        raw = span / 5
        power = 10 ** math.floor(math.log10(raw))
        return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)

    def __call__(self, v: float) -> float:
        if self.log:
            v = max(v, self.low)
            t = (math.log10(v) - math.log10(self.low)) / (math.log10(self.high) - math.log10(self.low))
        else:
            t = (v - self.low) / (self.high - self.low)
        return self.start + t * (self.end - self.start)

    def ticks(self) -> list[float]:
        if self.log:
            first, last = round(math.log10(self.low)), round(math.log10(self.high))
            every = max(1, (last - first) // 6)
            return [10.0 ** e for e in range(first, last + 1, every)]
        step = self._step(self.high - self.low)
        count = round((self.high - self.low) / step)
        return [self.low + i * step for i in range(count + 1)]


def _at(fraction: float, offset: float) -> str:
    """A position that is ``fraction`` of the box plus ``offset`` px: the attribute pair."""
    return f'{_num(fraction * 100)}%', _num(offset)


def _x(g: float) -> tuple[str, str]:
    """Where the plot's horizontal fraction ``g`` (0 left, 1 right) is: ``x`` and ``dx``."""
    return _at(g, LEFT * (1 - g) - RIGHT * g)


def _y(f: float, top: float, bottom: float = BOTTOM) -> tuple[str, str]:
    """Where the plot's vertical fraction ``f`` (0 top, 1 bottom) is: ``y`` and ``dy``."""
    return _at(f, top * (1 - f) - bottom * f)


def _text(cls: str, x: tuple[str, str] | float, y: tuple[str, str] | float, text: str, extra: str = "") -> str:
    xs = f'x="{x[0]}" dx="{x[1]}"' if isinstance(x, tuple) else f'x="{_num(x)}"'
    ys = f'y="{y[0]}" dy="{y[1]}"' if isinstance(y, tuple) else f'y="{_num(y)}"'
    return f'<text class="{cls}" {xs} {ys}{extra}>{_e(text)}</text>'


def _plot(marks: Sequence[str], top: float, left: float = LEFT, right: float = RIGHT, bottom: float = BOTTOM,
          aspect: str = "none") -> str:
    """The marks, in an SVG of their own (``0..UNITS`` each way) stretched over the plot area."""
    return (f'<foreignObject x="0" y="0" width="100%" height="100%"><div xmlns="http://www.w3.org/1999/xhtml" '
            f'class="calc-svg__area" style="padding:{_num(top)}px {_num(right)}px {_num(bottom)}px {_num(left)}px">'
            f'<svg class="calc-svg__plot" viewBox="0 0 {UNITS} {UNITS}" preserveAspectRatio="{aspect}" '
            f'overflow="visible" xmlns="http://www.w3.org/2000/svg">' + "".join(marks) + "</svg></div></foreignObject>")


_STROKE = ' vector-effect="non-scaling-stroke"'


def _dot(cls: str, px: float, py: float, size: int, title: str = "") -> str:
    """A round point that stays round in the stretched plot: a zero-length line, round caps."""
    inner = f"<title>{_e(title)}</title>" if title else ""
    return (f'<polyline class="{cls} calc-svg__dot" points="{_num(px)},{_num(py)} {_num(px)},{_num(py)}" '
            f'stroke-width="{size}" stroke-linecap="round"{_STROKE}>{inner}</polyline>')


def _frame(chart: Mapping[str, Any], y: "Scale", x_ticks: Sequence[tuple[float, str]], top: float,
           bottom: float = BOTTOM, slant: bool = False) -> tuple[list[str], list[str]]:
    """Grid lines (marks of the plot) and tick labels and axis titles (text of the box); ``slant``:
    the x labels are long (a category's name), turned as Chart.js turns them, ending at their tick."""
    marks, text = [], []
    for v in y.ticks():
        f = y(v) / UNITS
        marks.append(f'<line class="calc-svg__grid" x1="0" x2="{UNITS}" y1="{_num(y(v))}" y2="{_num(y(v))}"{_STROKE}/>')
        text.append(_text("calc-svg__tick", LEFT - 6, _y(f, top, bottom), _tick_text(v),
                          ' text-anchor="end" dominant-baseline="middle"'))
    for k, (g, label) in enumerate(x_ticks):
        # Every other label of a crowded axis steps aside in a narrow widget (calc.css), as
        # Chart.js skips labels that would overlap.
        cls = "calc-svg__tick calc-svg__tick--minor" if len(x_ticks) > MAX_NARROW_TICKS and k % 2 else "calc-svg__tick"
        if slant:
            text.append(_text(cls + " calc-svg__tick--slant", _x(g / UNITS), _at(1, 12 - bottom), label,
                              ' text-anchor="end" dominant-baseline="middle"'))
        else:
            text.append(_text(cls, _x(g / UNITS), _at(1, 16 - bottom), label, ' text-anchor="middle"'))
    marks.append(f'<line class="calc-svg__axis" x1="0" x2="{UNITS}" y1="{UNITS}" y2="{UNITS}"{_STROKE}/>')
    text.append(_text("calc-svg__label", _x(0.5), _at(1, -8), chart["x_label"], ' text-anchor="middle"'))
    # The y title turns about its own centre, at 14 px from the left and half-way down the plot.
    # Turned, it runs along the plot's height: cut to what the box holds (the caption and the data
    # table hold the whole).
    limit = Y_TITLE_CHARS_COMPACT if chart.get("compact") else Y_TITLE_CHARS
    text.append(_text("calc-svg__label calc-svg__label--y", 14, _y(0.5, top, bottom), _short(chart["y_label"], limit),
                      ' text-anchor="middle" dominant-baseline="middle"'))
    return marks, text


def _legend(series: Sequence[Mapping[str, Any]]) -> tuple[list[str], float]:
    """The legend's items in rows that end before LEGEND_RIGHT px, and the plot's top margin under them."""
    parts, x, row = [], LEGEND_LEFT, 0
    for i, s in enumerate(series):
        width = 24 + CHAR_PX * len(str(s["name"]))
        if x > LEGEND_LEFT and x + width > LEGEND_RIGHT:
            x, row = LEGEND_LEFT, row + 1
        cls = _series_class(s, i)
        y = 8 + row * 18
        parts.append(f'<rect class="{cls}" x="{_num(x)}" y="{y}" width="12" height="12"/>')
        parts.append(f'<text class="calc-svg__legend" x="{_num(x + 16)}" y="{y + 10}">{_e(s["name"])}</text>')
        x += width
    return parts, TOP + row * 18


def _series_class(s: Mapping[str, Any], i: int) -> str:
    pinned = " calc-svg__pinned" if s.get("pinned") else ""  # a pinned setting's (compare.overlay)
    if s.get("kind") == "rule":
        return "calc-svg__rule" + pinned
    if pinned and s.get("like") is not None:
        i = s["like"]
    return f"calc-svg__s{i % SERIES_CLASSES + 1}" + pinned


def _categories(chart: Mapping[str, Any], top: float) -> tuple[list[str], list[str]]:
    labels = chart["labels"]
    n = len(labels)
    band = UNITS / max(n, 1)
    values = [v for s in chart["series"] for v in s["values"] if v is not None]
    y = Scale(min(values, default=0), max(values, default=1), UNITS, 0, chart.get("y_log", False))
    every = max(1, math.ceil(n / 12))
    ticks = [(band * (i + 0.5), _short(label)) for i, label in enumerate(labels) if i % every == 0]
    slant = max((len(t) for _, t in ticks), default=0) > SLANT_PAST
    bottom = slanted_bottom(ticks) if slant else BOTTOM
    marks, text = _frame(chart, y, ticks, top, bottom, slant)
    bars = [s for s in chart["series"] if s.get("kind", "line") == "bar" or chart["kind"] == "bar" and s.get("kind") != "rule"]
    for i, s in enumerate(chart["series"]):
        cls = _series_class(s, i)
        if s in bars:
            width = band * 0.8 / len(bars)
            k = bars.index(s)
            for j, v in enumerate(s["values"]):
                if v is None:
                    continue
                tip, base = y(v), y(y.low if y.log else max(y.low, 0))
                marks.append(f'<rect class="{cls}" x="{_num(band * (j + 0.1) + k * width)}" y="{_num(min(tip, base))}" '
                             f'width="{_num(width)}" height="{_num(abs(base - tip))}"/>')
            continue
        points = [(band * (j + 0.5), y(v)) for j, v in enumerate(s["values"]) if v is not None]
        dash = ' stroke-dasharray="6 4"' if s.get("kind") == "rule" else ""
        marks.append(f'<polyline class="{cls} calc-svg__line" fill="none"{dash}{_STROKE} points="'
                     + " ".join(f"{_num(px)},{_num(py)}" for px, py in points) + '"/>')
        marker = chart.get("marker")
        if s.get("kind") != "rule" and marker is not None and 0 <= marker < len(s["values"]) and s["values"][marker] is not None:
            marks.append(_dot(cls, band * (marker + 0.5), y(s["values"][marker]), DOT["chart_marker"]))
    return marks, text, bottom


def _short(label: str, limit: int = 0) -> str:
    """A category's name as its axis shows it: at most ``limit`` (LABEL_CHARS) characters (the
    data table and the live chart's tooltip hold the whole)."""
    label, limit = str(label), limit or LABEL_CHARS
    return label if len(label) <= limit else label[:limit - 1].rstrip() + "…"


def slanted_bottom(ticks: Sequence[tuple[float, str]]) -> float:
    """The bottom margin under labels turned by SLANT_DEGREES: their drop, and the axis title."""
    longest = max(len(t) for _, t in ticks)
    return 12 + CHAR_PX * longest * math.sin(math.radians(SLANT_DEGREES)) + 22


def _xy(chart: Mapping[str, Any], top: float) -> tuple[list[str], list[str]]:
    xs = [p[0] for s in chart["series"] for p in s["points"]]
    ys = [p[1] for s in chart["series"] for p in s["points"]]
    x = Scale(min(xs, default=1), max(xs, default=10), 0, UNITS, chart.get("x_log", False))
    y = Scale(min(ys, default=0), max(ys, default=1), UNITS, 0, chart.get("y_log", False))
    marks, text = _frame(chart, y, [(x(v), _tick_text(v)) for v in x.ticks()], top)
    for i, s in enumerate(chart["series"]):
        cls = _series_class(s, i)
        kind = s.get("kind", "line")
        points = [(x(px), y(py)) for px, py in s["points"]]
        if kind in ("line", "rule"):
            dash = ' stroke-dasharray="6 4"' if kind == "rule" else ""
            marks.append(f'<polyline class="{cls} calc-svg__line" fill="none"{dash}{_STROKE} points="'
                         + " ".join(f"{_num(px)},{_num(py)}" for px, py in points) + '"/>')
        else:
            names = s.get("point_labels") or []
            for j, (px, py) in enumerate(points):
                marks.append(_dot(cls, px, py, DOT["marker" if kind == "marker" else "points"],
                                  names[j] if j < len(names) else ""))
    return marks, text, BOTTOM


def _grid(chart: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Rows of cells as the live grid draws them (chart-table.js's renderGrid, calc.css): a label
    column, then each row's cells sharing the width, rows of GRID_ROW px from the top."""
    rows = chart["series"]
    cols = max((len(r["values"]) for r in rows), default=1)
    pitch = GRID_ROW + GRID_GAP
    text, marks = [], []
    for i, row in enumerate(rows):
        text.append(f'<text class="calc-svg__tick" x="0" y="{_num(i * pitch + GRID_ROW / 2)}" dominant-baseline="middle">'
                    f'{_e(row["name"])}</text>')
        for j, (state, hue) in enumerate(zip(row["states"], row["hues"])):  # charts.grid_row's cells
            x0, y0, w, h = j * UNITS / cols, i * UNITS / max(len(rows), 1), UNITS / cols * 0.92, UNITS / max(len(rows), 1) * 0.92
            box = f'x="{_num(x0)}" y="{_num(y0)}" width="{_num(w)}" height="{_num(h)}"'
            if state == charts.FREE:
                marks.append(f'<rect class="calc-svg__free" {box}/>')
            elif state == charts.RESERVED:  # reserved for its owner, still empty
                marks.append(f'<rect {box} fill="none" stroke="hsl({hue} 60% 55%)" stroke-dasharray="3 2"{_STROKE}/>')
            else:
                marks.append(f'<rect {box} fill="hsl({hue} 70% 80%)"/>')
    return marks, text


def timeline_chart(chart: Mapping[str, Any]) -> dict[str, Any]:
    """A simulation's timeline (one value per step of each series) as a line chart, its marker at
    the step the chart shows."""
    timeline = chart["timeline"]
    return {"kind": "line", "title": timeline["title"], "x_label": "Step", "y_label": timeline["y_label"],
            "labels": timeline["labels"], "series": timeline["series"], "marker": chart["frame"],
            "summary": timeline["title"], "y_log": False, "x_log": False, "compact": True}


def render(chart: Mapping[str, Any], *, hidden: bool = False) -> str:
    """The chart as an inline ``<svg>`` element that fills its box: its text alternative is the
    chart's summary, or, ``hidden``, none (beside a canvas that carries the same summary, it would
    be read twice)."""
    if chart["kind"] == "grid":
        marks, text = _grid(chart)
        rows = len(chart["series"])
        plot = _plot(marks, 0, left=GRID_LABEL, right=0, bottom=0)
        # The rows keep the live grid's height from the top; the plot's box is only as tall as they are.
        plot = plot.replace('style="padding:', f'style="height:{rows * (GRID_ROW + GRID_GAP)}px;padding:', 1)
        body = [plot, *text]
    else:
        legend, top = _legend(chart["series"])
        marks, text, bottom = _xy(chart, top) if chart["kind"] == "xy" else _categories(chart, top)
        body = [_plot(marks, top, bottom=bottom), *legend, *text]
    label = 'aria-hidden="true" focusable="false"' if hidden else f'role="img" aria-label="{_e(chart["summary"])}"'
    return (f'<svg class="calc-svg" width="100%" height="100%" {label} '
            'xmlns="http://www.w3.org/2000/svg">' + "".join(body) + "</svg>")
