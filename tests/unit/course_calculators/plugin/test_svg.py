"""Static SVG charts: well-formed, one mark per data point, the summary as the text alternative."""

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
        assert len(root.findall(f"{NS}rect")) == cells
    elif chart["kind"] in ("line", "bar"):
        assert chart["x_label"] in "".join(root.itertext())


def test_xy_points_are_circles_with_their_names():
    chart = Chart(kind="xy", title="T", x_label="Batch", y_label="Tokens/s", labels=[], x_log=True, y_log=True,
                  series=[{"name": "Roofline", "points": [[1, 10], [1024, 5000]]},
                          {"name": "Measured", "kind": "points", "points": [[8, 70], [64, 900]],
                           "point_labels": ["vLLM 0.10, 8 users", "SGLang, 64 users"]}]).to_dict()
    root = ET.fromstring(svg.render(chart))
    circles = root.findall(f"{NS}circle")
    assert len(circles) == 2 and circles[0].find(f"{NS}title").text == "vLLM 0.10, 8 users"
    assert len(root.findall(f"{NS}polyline")) == 1


def test_log_scale_ticks_are_decades():
    scale = svg.Scale(3, 4500, 0, 100, log=True)
    assert scale.ticks() == [1, 10, 100, 1000, 10000]
    assert scale(1) == 0 and scale(10000) == 100
