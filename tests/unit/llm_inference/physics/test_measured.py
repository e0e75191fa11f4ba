"""Published measurements through the physics: decode steps and times to first token below their
ceilings, the same decode ceiling as the byte-level reckoning of llm_inference.measurements (an
independent path), and the bands drawn beside the calculators' ceilings."""

from __future__ import annotations

import pytest

from llm_inference import decode_roofline, measurements
from llm_inference.hardware import GPUS
from llm_inference.measurements import DECODE_POINTS, PREFILL_POINTS
from llm_inference.physics import measured


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
    assert len(runs["points"]) == len(DECODE_POINTS) == len(chart["labels"])
    for point in DECODE_POINTS:
        (label,) = [t for t in runs["point_labels"] if point.source_url in t and f"batch {point.concurrency}:" in t
                    and f"{point.step_ms:.1f} ms measured" in t]
        assert point.engine in label and "ceiling (" in label
    # each run sits beside its own ceiling: x is the ceiling, y the measurement, below the y = x line
    ceiling = next(s for s in chart["series"] if s["name"].startswith("Ceiling"))
    assert [p[1] for p in ceiling["points"]] == [p[0] for p in ceiling["points"]]
    assert all(y < x for x, y in runs["points"])
    # a renderer that draws categories gets the same numbers, one per run
    assert runs["values"] == [p[1] for p in runs["points"]]
    assert "median" in chart["summary"]


def test_a_matching_run_is_marked_with_its_share():
    result = decode_roofline.SPEC.run(decode_roofline.SPEC.preset("nim-70b-fp8-tp2").values)
    roof, runs = result.charts
    marked = [t for t in next(s for s in runs["series"] if s["kind"] == "points")["point_labels"]
              if t.startswith("this configuration: ")]
    assert len(marked) == 3 and all("docs.nvidia.com" in t for t in marked)
    assert "Measured on this configuration" in roof["summary"]
    # fp8 projections with their scales, the embedding and LM head in bf16: a 11.1 ms ceiling
    assert result.values["measured_share"] == pytest.approx(0.60, abs=0.01)
    assert "18.58 ms" in result.values["measured"]


def test_practice_sits_far_below_the_ceiling_where_gpus_talk():
    judged = {j.point.id: j for j in measured.judged()}
    single = [j.share for j in judged.values() if j.point.gpus == 1]
    assert min(single) > 0.45 and max(single) < 0.8  # one GPU: 47–78 % of the ceiling
    assert judged["sglang-dsr1-fp8-16xh100-c1"].share < 0.05  # 16 GPUs over InfiniBand: 3 %


# -- times to first token, and the bands --------------------------------------------------------

@pytest.mark.parametrize("point", PREFILL_POINTS, ids=lambda p: p.id)
def test_every_time_to_first_token_sits_below_its_prefill_ceiling(point):
    j = measured.judge_prefill(point)
    assert 0 < j.share < 1
    # the ceiling is at least the published FLOPs at the dense peak (attention left out)
    gpu = GPUS[point.gpu]
    peak = gpu.fp8_flops if point.precision == "fp8" else gpu.bf16_flops
    assert j.ceiling_ms >= 2 * point.params * point.input_tokens / (point.gpus * peak) * 1e3 * (1 - 1e-9)
    assert point.source_url in j.label() and f"{point.ttft_ms:g} ms measured" in j.label()


def test_bands_split_one_node_from_across_nodes():
    one, far = measured.decode_band(8), measured.decode_band(9)
    assert (one.across, far.across) == (False, True)
    assert one.runs + far.runs == len(DECODE_POINTS)
    shares = sorted(j.share for j in measured.judged() if j.point.gpus <= 8)
    assert (one.low, one.high) == (shares[0], shares[-1])
    first = measured.prefill_band(1)
    assert first.runs + measured.prefill_band(16).runs == len(PREFILL_POINTS)
    assert first.describe() == ("20% to 67% of the ceiling in 13 published runs on one node "
                                "(NVIDIA NIM, TensorRT-LLM, vLLM)")
    assert measured.decode_band(16).describe() == "3% of the ceiling in 1 published run across nodes (SGLang)"
    assert measured.median_prefill_share() < measured.median_decode_share()  # prefill reaches less of its ceiling


@pytest.mark.parametrize("name, model_id", sorted(measured.CATALOGUE_MODELS.items()))
def test_a_catalogue_point_is_the_calculators_model(name, model_id):
    # the MLP width too, read from the config (Llama 3.3 70B's 28,672, not 4 × hidden = 32,768; DeepSeek-R1's
    # 2,048 per expert): it sets the legal TP sizes and the activation peak
    from llm_inference import scenario

    point = next(p for p in (*DECODE_POINTS, *PREFILL_POINTS) if p.model == name)
    model = measured.model_of(point)
    fields = scenario.model_from_inputs(dict(scenario.catalogue_values(model_id)))
    assert model == scenario.with_sides(fields, scenario.catalogue_shape(model_id))  # + DeepSeek's dense layers
    expected = {"llama-3.3-70b": 28672, "llama-3.1-405b": 53248, "deepseek-r1": 2048}[model_id]
    assert model.intermediate_size == expected


def test_a_shape_becomes_a_model_only_with_its_config():
    from llm_inference import scenario
    from llm_inference.models import catalogue_shape, get_entry

    shape = catalogue_shape("llama-3.1-8b")
    assert scenario.model_from_shape(shape, get_entry("llama-3.1-8b").config).intermediate_size == 14336
    with pytest.raises(TypeError):
        scenario.model_from_shape(shape)  # type: ignore[call-arg]  # without it: 4 × 4,096 = 16,384
