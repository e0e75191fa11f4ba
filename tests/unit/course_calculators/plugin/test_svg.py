"""Static SVG charts: well-formed, one mark per data point, the summary as the text alternative;
laid out to fill their box at any width, text at its CSS size (tests/e2e/test_svg_text.py measures
it in Chromium)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import course_calculators
from course_calculators.plugin import svg
from course_calculators.spec import Chart

NS = "{http://www.w3.org/2000/svg}"


def charts():
    for calc in course_calculators.CALCULATORS.values():
        for preset in [None, *calc.presets]:
            result = calc.run(dict(preset.values) if preset else {})
            for chart in result.charts:
                yield pytest.param(chart, id=f"{calc.id}-{preset.id if preset else 'defaults'}-{chart['kind']}")


@pytest.mark.parametrize("chart", list(charts()))
def test_every_chart_of_every_preset_renders_as_well_formed_svg(chart):
    root = ET.fromstring(svg.render(chart))
    assert root.tag == NS + "svg" and root.get("aria-label") == chart["summary"]
    if chart["kind"] == "grid":
        cells = sum(len(row["values"]) for row in chart["series"])
        assert len(list(root.iter(f"{NS}rect"))) == cells
    elif chart["kind"] in ("line", "bar"):
        assert chart["x_label"] in "".join(root.itertext())


def test_xy_points_are_round_dots_with_their_names():
    chart = Chart(kind="xy", title="T", x_label="Batch", y_label="Tokens/s", labels=[], x_log=True, y_log=True,
                  series=[{"name": "Roofline", "points": [[1, 10], [1024, 5000]]},
                          {"name": "Measured", "kind": "points", "points": [[8, 70], [64, 900]],
                           "point_labels": ["vLLM 0.10, 8 users", "SGLang, 64 users"]}]).to_dict()
    root = ET.fromstring(svg.render(chart))
    dots = [e for e in root.iter(f"{NS}polyline") if "calc-svg__dot" in e.get("class")]
    assert len(dots) == 2 and dots[0].find(f"{NS}title").text == "vLLM 0.10, 8 users"
    assert dots[0].get("stroke-linecap") == "round" and dots[0].get("vector-effect") == "non-scaling-stroke"
    assert len([e for e in root.iter(f"{NS}polyline") if "calc-svg__line" in e.get("class")]) == 1


@pytest.mark.parametrize("chart", list(charts()))
def test_the_picture_fills_its_box_and_its_text_is_never_scaled(chart):
    """No viewBox on the picture itself (it would scale the text with the box): only the plot of
    the marks, stretched over the plot area, has one."""
    root = ET.fromstring(svg.render(chart))
    assert root.get("viewBox") is None and root.get("width") == "100%" and root.get("height") == "100%"
    plots = list(root.iter(f"{NS}svg"))[1:]
    assert len(plots) == 1 and plots[0].get("preserveAspectRatio") == "none"
    assert not [t for t in plots[0].iter(f"{NS}text")], "text inside the stretched plot would be distorted"
    for line in plots[0].iter(f"{NS}polyline"):
        assert line.get("vector-effect") == "non-scaling-stroke"


def test_log_scale_ticks_are_decades():
    scale = svg.Scale(3, 4500, 0, 100, log=True)
    assert scale.ticks() == [1, 10, 100, 1000, 10000]
    assert scale(1) == 0 and scale(10000) == 100
