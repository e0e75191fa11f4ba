"""Published decode measurements through the physics: below the ceiling, and the same ceiling as
the byte-level reckoning of calculators.measurements (an independent path)."""

from __future__ import annotations

import pytest

from calculators import decode_roofline, measurements
from calculators.measurements import DECODE_POINTS
from calculators.physics import measured


@pytest.mark.parametrize("point", DECODE_POINTS, ids=lambda p: p.id)
def test_every_point_sits_below_the_physics_ceiling(point):
    judged = measured.judge(point)
    assert 0 < judged.share < 1
    assert judged.ceiling_ms <= judged.estimate_ms < point.step_ms
    # the byte-level reckoning from the published figures agrees within 3 %
    assert judged.ceiling_ms == pytest.approx(measurements.roofline_step_ms(point), rel=0.03)


def test_the_chart_holds_every_point_with_its_source():
    (chart,) = [c for c in decode_roofline.SPEC.run({}).charts if c["title"].startswith("Measured")]
    runs = next(s for s in chart["series"] if s["kind"] == "points")
    assert len(runs["points"]) == len(DECODE_POINTS)
    for label, point in zip(runs["point_labels"], DECODE_POINTS):
        assert point.source_url in label and point.engine in label and f"batch {point.concurrency}" in label
        assert "% )" not in label and "ceiling" in label
    assert "median" in chart["summary"]


def test_a_matching_run_is_drawn_on_the_roofline_with_its_share():
    result = decode_roofline.SPEC.run(decode_roofline.SPEC.preset("nim-70b-fp8-tp2").values)
    roof = result.charts[0]
    seen = next(s for s in roof["series"] if s["name"] == "Measured on this configuration")
    assert [p[0] for p in seen["points"]] == [1, 1, 25]
    assert all("docs.nvidia.com" in label for label in seen["point_labels"])
    assert result.values["measured_share"] == pytest.approx(0.58, abs=0.01)
    assert "18.58 ms" in result.values["measured"]


def test_practice_sits_far_below_the_ceiling_where_gpus_talk():
    judged = {j.point.id: j for j in measured.judged()}
    single = [j.share for j in judged.values() if j.point.gpus == 1]
    assert min(single) > 0.45 and max(single) < 0.8  # one GPU: 47–78 % of the ceiling
    assert judged["sglang-dsr1-fp8-16xh100-c1"].share < 0.05  # 16 GPUs over InfiniBand: 3 %
