"""Every chart also as a static SVG, drawn at build time from the same chart data.

It is what a reader without JavaScript sees, what a printed page shows, and what is on screen
until the live chart is drawn. Colours are CSS classes (``calc-svg__s1`` …) whose strokes and
fills come from the widget's palette variables, so the picture follows the light and dark palettes.
"""

from __future__ import annotations

import html
import math
from typing import Any, Mapping, Sequence

from course_calculators import charts
from course_calculators.units import sig

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 62, 14, 34, 46
SERIES_CLASSES = 5


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


def _frame(chart: Mapping[str, Any], y: Scale, x_ticks: Sequence[tuple[float, str]]) -> list[str]:
    """Grid lines, tick labels and axis titles."""
    parts = []
    for v in y.ticks():
        py = _num(y(v))
        parts.append(f'<line class="calc-svg__grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py}" y2="{py}"/>')
        parts.append(f'<text class="calc-svg__tick" x="{LEFT - 6}" y="{py}" text-anchor="end" '
                     f'dominant-baseline="middle">{_e(_tick_text(v))}</text>')
    for px, label in x_ticks:
        parts.append(f'<text class="calc-svg__tick" x="{_num(px)}" y="{HEIGHT - BOTTOM + 16}" '
                     f'text-anchor="middle">{_e(label)}</text>')
    parts.append(f'<line class="calc-svg__axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{HEIGHT - BOTTOM}" '
                 f'y2="{HEIGHT - BOTTOM}"/>')
    parts.append(f'<text class="calc-svg__label" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 8}" '
                 f'text-anchor="middle">{_e(chart["x_label"])}</text>')
    parts.append(f'<text class="calc-svg__label" transform="translate(14 {(TOP + HEIGHT - BOTTOM) / 2}) '
                 f'rotate(-90)" text-anchor="middle">{_e(chart["y_label"])}</text>')
    return parts


def _legend(series: Sequence[Mapping[str, Any]]) -> list[str]:
    parts, x = [], LEFT
    for i, s in enumerate(series):
        cls = _series_class(s, i)
        parts.append(f'<rect class="{cls}" x="{x}" y="8" width="12" height="12"/>')
        parts.append(f'<text class="calc-svg__legend" x="{x + 16}" y="18">{_e(s["name"])}</text>')
        x += 24 + 6.2 * len(str(s["name"]))
    return parts


def _series_class(s: Mapping[str, Any], i: int) -> str:
    pinned = " calc-svg__pinned" if s.get("pinned") else ""  # a pinned setting's (compare.overlay)
    if s.get("kind") == "rule":
        return "calc-svg__rule" + pinned
    if pinned and s.get("like") is not None:
        i = s["like"]
    return f"calc-svg__s{i % SERIES_CLASSES + 1}" + pinned


def _categories(chart: Mapping[str, Any]) -> list[str]:
    labels = chart["labels"]
    n = len(labels)
    band = (WIDTH - LEFT - RIGHT) / max(n, 1)
    values = [v for s in chart["series"] for v in s["values"] if v is not None]
    y = Scale(min(values, default=0), max(values, default=1), HEIGHT - BOTTOM, TOP, chart.get("y_log", False))
    every = max(1, math.ceil(n / 12))
    ticks = [(LEFT + band * (i + 0.5), label) for i, label in enumerate(labels) if i % every == 0]
    parts = _frame(chart, y, ticks)
    bars = [s for s in chart["series"] if s.get("kind", "line") == "bar" or chart["kind"] == "bar" and s.get("kind") != "rule"]
    for i, s in enumerate(chart["series"]):
        cls = _series_class(s, i)
        if s in bars:
            width = band * 0.8 / len(bars)
            k = bars.index(s)
            for j, v in enumerate(s["values"]):
                if v is None:
                    continue
                top, base = y(v), y(y.low if y.log else max(y.low, 0))
                parts.append(f'<rect class="{cls}" x="{_num(LEFT + band * (j + 0.1) + k * width)}" y="{_num(min(top, base))}" '
                             f'width="{_num(width)}" height="{_num(abs(base - top))}"/>')
            continue
        points = [(LEFT + band * (j + 0.5), y(v)) for j, v in enumerate(s["values"]) if v is not None]
        dash = ' stroke-dasharray="6 4"' if s.get("kind") == "rule" else ""
        parts.append(f'<polyline class="{cls} calc-svg__line" fill="none"{dash} points="'
                     + " ".join(f"{_num(px)},{_num(py)}" for px, py in points) + '"/>')
        marker = chart.get("marker")
        if s.get("kind") != "rule" and marker is not None and 0 <= marker < len(s["values"]) and s["values"][marker] is not None:
            parts.append(f'<circle class="{cls}" cx="{_num(LEFT + band * (marker + 0.5))}" '
                         f'cy="{_num(y(s["values"][marker]))}" r="5"/>')
    return parts


def _xy(chart: Mapping[str, Any]) -> list[str]:
    xs = [p[0] for s in chart["series"] for p in s["points"]]
    ys = [p[1] for s in chart["series"] for p in s["points"]]
    x = Scale(min(xs, default=1), max(xs, default=10), LEFT, WIDTH - RIGHT, chart.get("x_log", False))
    y = Scale(min(ys, default=0), max(ys, default=1), HEIGHT - BOTTOM, TOP, chart.get("y_log", False))
    parts = _frame(chart, y, [(x(v), _tick_text(v)) for v in x.ticks()])
    for i, s in enumerate(chart["series"]):
        cls = _series_class(s, i)
        kind = s.get("kind", "line")
        points = [(x(px), y(py)) for px, py in s["points"]]
        if kind in ("line", "rule"):
            dash = ' stroke-dasharray="6 4"' if kind == "rule" else ""
            parts.append(f'<polyline class="{cls} calc-svg__line" fill="none"{dash} points="'
                         + " ".join(f"{_num(px)},{_num(py)}" for px, py in points) + '"/>')
        else:
            r = 6 if kind == "marker" else 4
            names = s.get("point_labels") or []
            for j, (px, py) in enumerate(points):
                title = f"<title>{_e(names[j])}</title>" if j < len(names) else ""
                parts.append(f'<circle class="{cls}" cx="{_num(px)}" cy="{_num(py)}" r="{r}">{title}</circle>')
    return parts


def _grid(chart: Mapping[str, Any]) -> list[str]:
    rows = chart["series"]
    cols = max((len(r["values"]) for r in rows), default=1)
    label_w = 96
    size, gap = min(24, (WIDTH - label_w) / max(cols, 1) - 2), 2
    parts = []
    for i, row in enumerate(rows):
        y0 = 6 + i * (size + gap)
        parts.append(f'<text class="calc-svg__tick" x="0" y="{_num(y0 + size / 2)}" dominant-baseline="middle">'
                     f'{_e(row["name"])}</text>')
        for j, (state, hue) in enumerate(zip(row["states"], row["hues"])):  # charts.grid_row's cells
            x0 = label_w + j * (size + gap)
            if state == charts.FREE:
                parts.append(f'<rect class="calc-svg__free" x="{_num(x0)}" y="{_num(y0)}" width="{_num(size)}" '
                             f'height="{_num(size)}" rx="2"/>')
            elif state == charts.RESERVED:  # reserved for its owner, still empty
                parts.append(f'<rect x="{_num(x0 + 1)}" y="{_num(y0 + 1)}" width="{_num(size - 2)}" '
                             f'height="{_num(size - 2)}" rx="2" fill="none" stroke="hsl({hue} 60% 55%)" '
                             f'stroke-dasharray="3 2"/>')
            else:
                parts.append(f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(size)}" height="{_num(size)}" rx="2" '
                             f'fill="hsl({hue} 70% 80%)"/>')
    return parts


def timeline_chart(chart: Mapping[str, Any]) -> dict[str, Any]:
    """A simulation's timeline (one value per step of each series) as a line chart, its marker at
    the step the chart shows."""
    timeline = chart["timeline"]
    return {"kind": "line", "title": timeline["title"], "x_label": "Step", "y_label": timeline["y_label"],
            "labels": timeline["labels"], "series": timeline["series"], "marker": chart["frame"],
            "summary": timeline["title"], "y_log": False, "x_log": False}


def render(chart: Mapping[str, Any], *, hidden: bool = False) -> str:
    """The chart as an inline ``<svg>`` element: its text alternative is the chart's summary, or,
    ``hidden``, none (beside a canvas that carries the same summary, it would be read twice)."""
    if chart["kind"] == "grid":
        rows = len(chart["series"])
        height = 12 + rows * 26
        body = _grid(chart)
    else:
        height = HEIGHT
        body = _legend(chart["series"]) + (_xy(chart) if chart["kind"] == "xy" else _categories(chart))
    label = 'aria-hidden="true" focusable="false"' if hidden else f'role="img" aria-label="{_e(chart["summary"])}"'
    return (f'<svg class="calc-svg" viewBox="0 0 {WIDTH} {height}" {label} '
            f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">' + "".join(body) + "</svg>")
