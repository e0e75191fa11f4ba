"""The chart schema's grid cells: each cell's owner, state and colour decided in Python, so that no
painter (the build's SVG and HTML, the page's grid and frame views) decodes a cell or picks a hue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from course_calculators import charts
from course_calculators.charts import FREE, HELD, RESERVED, Chart, grid_row

FRAMEWORK = Path(charts.__file__).parent


def test_a_grid_row_names_each_cells_owner_state_and_hue():
    row = grid_row({"name": "Slot 1", "values": [3, -4, None, 0]})
    assert row["name"] == "Slot 1"
    assert row["values"] == [3, 3, None, 0]
    assert row["states"] == [HELD, RESERVED, FREE, HELD]
    assert row["hues"] == [3 * 47 % 360, 3 * 47 % 360, None, 0]


@pytest.mark.parametrize("bad", [1.5, "3", True])
def test_a_cell_is_an_integer_owner_or_none(bad):
    with pytest.raises(ValueError, match="integer owner or None"):
        grid_row({"name": "r", "values": [bad]})


def test_every_grid_a_chart_hands_on_carries_its_cells():
    frame = {"label": "Step 0", "summary": "s", "series": [{"name": "r", "values": [1, None]}],
             "panels": [{"kind": "grid", "title": "p", "rows": [{"name": "q", "values": [-1]}]}]}
    out = Chart(kind="grid", title="t", x_label="x", y_label="y", labels=["0", "1"],
                series=[{"name": "r", "values": [2, None]}], frames=[frame]).to_dict()
    assert out["series"][0]["states"] == [HELD, FREE] and out["series"][0]["hues"] == [94, None]
    assert out["frames"][0]["series"][0]["states"] == [HELD, FREE]
    assert out["frames"][0]["panels"][0]["rows"][0] == {"name": "q", "values": [0], "states": [RESERVED], "hues": [0]}


def test_no_painter_computes_a_cells_colour():
    painters = [*(FRAMEWORK / "browser").rglob("*.js"), FRAMEWORK / "plugin" / "svg.py",
                FRAMEWORK / "plugin" / "templates" / "widget.html"]
    for path in painters:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\*\s*47\b|\b47\s*\)?\s*%\s*360", text), path
