"""Charts with recorded simulation steps: the spec's checks, the one step the page's HTML carries,
and the two chapter simulations' frames against their own runs."""

from __future__ import annotations

import json
import re

import pytest

import course_calculators
from llm_inference import paged_attention as pa
from llm_inference import speculative_decoding as sd
from course_calculators.plugin import render
from course_calculators.charts import MAX_FRAME_MS, frame_ms
from course_calculators.spec import Chart


def chart(**kw) -> Chart:
    frames = kw.pop("frames", [{"label": "Step 0", "summary": "s0"}, {"label": "Step 1", "summary": "s1"}])
    return Chart(kind="bar", title="T", x_label="x", y_label="y", labels=["a"],
                 series=[{"name": "s", "values": [1]}], frames=frames, **kw)


def test_frames_are_plain_data_with_defaults():
    out = chart(frame=1, timeline={"title": "Run", "y_label": "%", "series": [{"name": "u", "values": [1, 2]}]}).to_dict()
    assert out["frame"] == 1 and [f["stats"] for f in out["frames"]] == [[], []]
    assert out["frame_ms"] == MAX_FRAME_MS == 1500  # two steps: not 30 s (play_seconds) on one still picture
    assert frame_ms(121, 30) == 250 and frame_ms(31, 30) == 1000 and frame_ms(1, 30) == MAX_FRAME_MS
    assert out["timeline"]["labels"] == ["Step 0", "Step 1"]
    json.dumps(out, allow_nan=False)
    assert "frames" not in chart(frames=()).to_dict()


@pytest.mark.parametrize("kw, message", [
    ({"frame": 2}, "not one of its 2 frames"),
    ({"frames": [{"label": "x"}]}, "needs a label and a summary"),
    ({"frames": [{"label": "x", "summary": "y", "series": [{"name": "s", "values": [float("nan")]}]}]}, "non-finite"),
    ({"frames": [{"label": "x", "summary": "y", "panels": [{"kind": "pie"}]}]}, "kind is one of"),
    ({"frames": [{"label": "x", "summary": "y"}] * (Chart.MAX_FRAMES + 1)}, "at most"),
    ({"timeline": {"title": "t", "y_label": "y", "series": [{"name": "u", "values": [1]}]}}, "one value per frame"),
    ({"play_seconds": 0}, "play_seconds"),
])
def test_bad_frames_are_refused(kw, message):
    with pytest.raises(ValueError, match=message):
        chart(**kw).to_dict()


def test_the_page_carries_only_the_step_it_shows():
    result = course_calculators.get("paged-attention").run({})
    grid = result.charts[0]
    trimmed = render.one_frame(grid)
    assert trimmed["frames"] == [grid["frames"][grid["frame"]]] and trimmed["frame"] == 0
    assert trimmed["frames_total"] == len(grid["frames"]) > 1
    html = render.widget(course_calculators.get("paged-attention"), {}, dom_id="calc-paged-attention")
    data = json.loads(re.search(r'data-charts="([^"]+)"', html).group(1).replace("&#34;", '"').replace("&quot;", '"')
                      .replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'"))
    assert len(data[0]["frames"]) == 1
    # The step the chart shows is drawn in the HTML: its stats and its contiguous picture.
    shown = grid["frames"][grid["frame"]]
    assert all(f"<dd>{text}</dd>" in html for _, text in shown["stats"])
    assert len(re.findall(r'class="calc__cell[ "]', html)) == sum(len(r["values"]) for p in shown["panels"] for r in p["rows"])
    assert 'data-frame-scrub min="0" max="%d"' % (len(grid["frames"]) - 1) in html


# -- paged-attention: the chart shows one of its frames -------------------------------------------


def test_the_block_chart_is_its_own_first_frame():
    grid, _ = course_calculators.get("paged-attention").run({}).charts
    assert grid["frame"] == 0  # the page's HTML shows the step the player opens on
    shown = grid["frames"][0]
    assert grid["series"] == shown["series"] and grid["summary"] == shown["summary"]
    assert shown["label"] == "Step 0"
    # The step when half of the requests had finished is kept among the frames, whatever the spacing.
    assert sum("when half of the requests had finished" in f["summary"] for f in grid["frames"]) == 1
    assert all(len(r["values"]) == pa.GRID_COLS for p in shown["panels"] for r in p["rows"])
    assert len(grid["timeline"]["series"][0]["values"]) == len(grid["frames"])


# -- speculative-decoding: each frame is one pass of the Monte Carlo run ---------------------------


def test_speculative_frames_are_passes_of_the_same_run():
    calc = course_calculators.get("speculative-decoding")
    result = calc.run({})
    bars = result.charts[1]
    frames = bars["frames"]
    assert [f["label"] for f in frames[:sd.FIRST_PASSES]] == [f"Pass {i}" for i in range(1, sd.FIRST_PASSES + 1)]
    assert bars["frame"] == 0 and bars["series"] == frames[0]["series"] and bars["summary"] == frames[0]["summary"]
    assert frames[-1]["label"] == f"Pass {result.values['passes']:,}"
    for f in frames:
        states = [t["state"] for t in f["panels"][0]["tokens"]]
        # a pass: accepted drafts, then either a rejection and its replacement, or a bonus token
        assert states[-1] in ("resampled", "bonus")
        assert set(states[:-2 if states[-1] == "resampled" else -1]) <= {"accepted"}
        assert len(states) <= result.inputs["draft_tokens"] + 1 + (states[-1] == "resampled")
    # Recording the frames leaves the random stream alone: the same run as before, token for token.
    sim = sd.simulate(sd.TARGET, sd.draft_for(0.8), 4, 5000, 1)
    assert sim["passes"] == result.values["passes"]


# -- both players: the whole run in 20-40 s at the default speed ----------------------------------


def _run_seconds(chart) -> float:
    return (len(chart["frames"]) - 1) * chart["frame_ms"] / 1000


@pytest.mark.parametrize("calc, index", [("paged-attention", 0), ("speculative-decoding", 1)])
def test_each_run_plays_in_20_to_40_seconds_at_the_default_speed(calc, index):
    spec = course_calculators.get(calc)
    for preset in [None, *spec.presets]:
        chart = spec.run(dict(preset.values) if preset else {}).charts[index]
        assert 20 <= _run_seconds(chart) <= 40, (calc, preset and preset.id, len(chart["frames"]), chart["frame_ms"])
        assert chart["frame"] == 0


def test_the_paged_run_is_watched_every_16th_step():
    grid = course_calculators.get("paged-attention").run({}).charts[0]
    steps = [int(f["label"].removeprefix("Step ").replace(",", "")) for f in grid["frames"]]
    assert steps[:3] == [0, 16, 32] and len(grid["frames"]) <= Chart.MAX_FRAMES
