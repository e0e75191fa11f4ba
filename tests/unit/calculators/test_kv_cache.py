"""calculators/kv_cache.py: the chapter's reference figures and accuracy notes, each cross-checked.

Every figure is checked twice: against the number the brief states, and against an independent
computation with numpy — the byte size of an array shaped like the cache itself. numpy has no
bfloat16; float16 stands in for it (both 2 bytes per element). Whole caches are sized with
``itemsize * prod(shape)`` rather than allocated.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from calculators import kv_cache
from calculators.hardware import DTYPES, GPUS
from calculators.kv_cache import CONTEXT_MAX, SPEC, kv_bytes_per_sequence
from course_calculators.units import GiB, KiB, MiB

BF16 = np.float16  # the same 2 bytes per element as bf16
assert np.dtype(BF16).itemsize == DTYPES["bf16"] == 2

LLAMA3_8B = dict(SPEC.preset("llama3-8b").values)


def run(**overrides):
    """Run kv-cache from the Llama 3 8B preset with ``overrides``; any conversion note is an error."""
    raw = {**LLAMA3_8B, **overrides}
    SPEC.check_overrides(raw)
    return SPEC.run(raw)


def run_preset(preset_id: str, **overrides):
    raw = {**SPEC.preset(preset_id).values, **overrides}
    SPEC.check_overrides(raw)
    return SPEC.run(raw)


def nbytes(shape, dtype=BF16) -> int:
    """Bytes of an array of this shape, without allocating it."""
    return np.dtype(dtype).itemsize * int(np.prod(shape, dtype=np.int64))


def per_token_array(layers, kv_heads, head_dim, dtype=BF16) -> int:
    """One token's K and V over all layers, as a real (small) array."""
    return np.zeros((2, layers, kv_heads, head_dim), dtype=dtype).nbytes


# ----------------------------------------------------------------------------------------------
# Reference figures: KV per token (bf16)
# ----------------------------------------------------------------------------------------------

REFERENCE = [
    # model, L, KV heads, d_head, bytes per token, as the brief writes it
    ("Llama 3.1 8B", 32, 8, 128, 128 * KiB, "128 KiB"),
    ("Llama 3.1 70B", 80, 8, 128, 320 * KiB, "320 KiB"),
    ("Llama 3.1 405B", 126, 8, 128, 504 * KiB, "504 KiB"),
    ("Mistral 7B / Mixtral 8x7B", 32, 8, 128, 128 * KiB, "128 KiB"),
    ("GPT-3 175B (MHA)", 96, 96, 128, int(4.5 * MiB), "4.5 MiB"),
]


@pytest.mark.parametrize("model, layers, kv_heads, head_dim, expected, text", REFERENCE, ids=[r[0] for r in REFERENCE])
def test_reference_kv_per_token(model, layers, kv_heads, head_dim, expected, text):
    result = run(layers=layers, kv_heads=kv_heads, head_dim=head_dim)
    assert result.values["kv_bytes_per_token"] == expected
    assert per_token_array(layers, kv_heads, head_dim) == expected
    assert result.text["kv_bytes_per_token"] == text
    assert result.raw["kv_bytes_per_token"] == str(expected)


def test_deepseek_v3_mla_is_exactly_70272_bytes():
    result = run(attention="mla", layers=61, latent_dim=512, rope_dim=64)
    latent_plus_rope = np.zeros((61, 512 + 64), dtype=BF16).nbytes  # one latent + RoPE key per layer
    assert latent_plus_rope == 70272
    assert result.values["kv_bytes_per_token"] == 70272
    assert result.raw["kv_bytes_per_token"] == "70272"
    assert result.text["kv_bytes_per_token"] == "68.6 KiB"
    assert 70272 / KiB == pytest.approx(68.6, abs=0.05)


def test_8k_context_is_one_gib_per_sequence():
    result = run(context=8192)
    whole = nbytes((2, 32, 8, 8192, 128))
    assert whole == GiB
    assert result.values["kv_bytes_per_sequence"] == GiB
    assert result.text["kv_bytes_per_sequence"] == "1 GiB"
    # the cache is linear in context: a small cache, really allocated, is context × per-token
    assert np.zeros((2, 32, 8, 16, 128), dtype=BF16).nbytes == 16 * result.values["kv_bytes_per_token"]


def test_128k_context_is_16_gib_more_than_the_8b_weights():
    result = run(context=131072)
    whole = nbytes((2, 32, 8, 131072, 128))
    weights = nbytes((8_000_000_000,))  # 8e9 parameters × 2 bytes
    assert whole == 16 * GiB
    assert result.values["kv_bytes_total"] == whole
    assert result.values["weight_bytes"] == weights == 16e9
    assert result.values["kv_bytes_total"] > result.values["weight_bytes"]


@pytest.mark.parametrize("concurrency", [1, 4, 64])
def test_total_scales_with_concurrency(concurrency):
    result = run(context=4096, concurrency=concurrency)
    whole = nbytes((concurrency, 2, 32, 8, 4096, 128))
    assert result.values["kv_bytes_total"] == whole
    assert result.values["kv_bytes_total"] == concurrency * result.values["kv_bytes_per_sequence"]
    assert result.values["total_bytes"] == result.values["weight_bytes"] + whole


# ----------------------------------------------------------------------------------------------
# The presets the widget contract names
# ----------------------------------------------------------------------------------------------


def test_preset_llama3_8b():
    result = run_preset("llama3-8b")
    assert result.text["kv_bytes_per_token"] == "128 KiB"
    assert result.raw["kv_bytes_per_token"] == "131072"
    assert result.values["kv_bytes_per_token"] == per_token_array(32, 8, 128)
    assert result.values["kv_bytes_per_sequence"] == nbytes((2, 32, 8, 8192, 128)) == GiB
    assert result.notes == []


def test_preset_llama3_8b_128k():
    result = run_preset("llama3-8b-128k")
    assert result.values["kv_bytes_total"] == 16 * GiB == nbytes((2, 32, 8, 131072, 128))
    assert result.raw["kv_bytes_total"] == str(2**34)
    assert result.text["kv_bytes_total"] == "16 GiB"
    assert result.values["kv_bytes_total"] > result.values["weight_bytes"]


def test_preset_gpt3_mha():
    result = run_preset("gpt3-mha")
    assert result.text["kv_bytes_per_token"] == "4.5 MiB"
    assert result.values["kv_bytes_per_token"] == per_token_array(96, 96, 128) == 4718592
    assert result.values["kv_bytes_per_token"] / run_preset("llama3-8b").values["kv_bytes_per_token"] == 36


def test_preset_deepseek_v3_mla():
    result = run_preset("deepseek-v3-mla")
    assert result.text["kv_bytes_per_token"] == "68.6 KiB"
    assert result.values["kv_bytes_per_token"] == np.zeros((61, 576), dtype=BF16).nbytes == 70272
    context = result.inputs["context"]
    assert result.values["kv_bytes_per_sequence"] == nbytes((61, context, 576))
    assert result.text["kv_bytes_per_sequence"] == "8.58 GiB"  # the figure its notice quotes


def test_every_preset_is_valid_and_runs_clean_json():
    for preset in SPEC.presets:
        SPEC.check_overrides(preset.values)
        data = SPEC.run(preset.values).to_dict()
        json.dumps(data, allow_nan=False)


# ----------------------------------------------------------------------------------------------
# Accuracy notes
# ----------------------------------------------------------------------------------------------


def test_gqa_scales_with_kv_heads_not_query_heads():
    gqa = run(kv_heads=8).values["kv_bytes_per_token"]
    as_query_heads = run(kv_heads=32).values["kv_bytes_per_token"]  # Llama 3 8B has 32 query heads
    mqa = run(kv_heads=1).values["kv_bytes_per_token"]
    assert as_query_heads == 4 * gqa == per_token_array(32, 32, 128)
    assert mqa == gqa / 8 == per_token_array(32, 1, 128)
    assert "query" not in {p.name for p in SPEC.params}  # nothing lets query heads leak into the formula


def test_mla_has_no_factor_2_and_ignores_head_counts():
    mla = run(attention="mla", layers=61, latent_dim=512, rope_dim=64).values["kv_bytes_per_token"]
    assert mla == 61 * (512 + 64) * 2
    assert mla != 2 * 61 * (512 + 64) * 2
    for kv_heads, head_dim in ((1, 1), (128, 160), (256, 1024)):
        other = run(attention="mla", layers=61, latent_dim=512, rope_dim=64, kv_heads=kv_heads, head_dim=head_dim)
        assert other.values["kv_bytes_per_token"] == mla


def test_mla_misread_as_gqa_overstates_about_70x():
    mla = run_preset("deepseek-v3-mla").values
    gqa = run_preset("deepseek-v3-as-gqa").values
    assert gqa["kv_bytes_per_token"] == per_token_array(61, 128, 160)
    ratio = gqa["kv_bytes_per_token"] / mla["kv_bytes_per_token"]
    assert 65 < ratio < 75
    assert gqa["kv_bytes_total"] / mla["kv_bytes_total"] == pytest.approx(ratio)


def test_sliding_window_caps_the_cache_when_every_layer_is_windowed():
    preset = SPEC.preset("mistral-7b-swa").values
    assert preset["sliding_window"] == 4096 and preset["window_layers"] == preset["layers"] == 32
    at_window = run_preset("mistral-7b-swa", context=4096).values["kv_bytes_per_sequence"]
    for context in (8192, 32768, 131072, CONTEXT_MAX):
        assert run_preset("mistral-7b-swa", context=context).values["kv_bytes_per_sequence"] == at_window
    assert at_window == nbytes((2, 32, 8, 4096, 128)) == 512 * MiB
    # below the window the cache still grows token by token
    assert run_preset("mistral-7b-swa", context=1024).values["kv_bytes_per_sequence"] == at_window / 4


def test_sliding_window_on_half_the_layers_halves_the_growth():
    def seq(context, **kw):
        return run(context=context, sliding_window=4096, **kw).values["kv_bytes_per_sequence"]

    full_growth = run(context=32768).values["kv_bytes_per_sequence"] - run(context=4096).values["kv_bytes_per_sequence"]
    half_growth = seq(32768, window_layers=16) - seq(4096, window_layers=16)
    assert half_growth == full_growth / 2
    # numpy: 16 full layers of 32768 tokens, 16 windowed layers of 4096
    assert seq(32768, window_layers=16) == nbytes((2, 16, 8, 32768, 128)) + nbytes((2, 16, 8, 4096, 128))
    assert seq(4096, window_layers=16) == nbytes((2, 32, 8, 4096, 128))


def test_no_window_means_full_attention():
    assert run(context=32768, sliding_window=0, window_layers=32).values["kv_bytes_per_sequence"] == nbytes(
        (2, 32, 8, 32768, 128)
    )
    assert run(context=32768, sliding_window=4096, window_layers=0).values["kv_bytes_per_sequence"] == nbytes(
        (2, 32, 8, 32768, 128)
    )


def test_more_windowed_layers_than_layers_says_so():
    result = run(context=32768, sliding_window=4096, window_layers=64)
    assert result.values["kv_bytes_per_sequence"] == nbytes((2, 32, 8, 4096, 128))
    assert any("Only 32 layers exist" in n for n in result.notes)


@pytest.mark.parametrize("gpu", sorted(GPUS))
@pytest.mark.parametrize("gpus, reserve_pct", [(1, 10), (2, 0), (8, 25)])
def test_usable_memory_is_capacity_less_the_reserve(gpu, gpus, reserve_pct):
    result = run(gpu=gpu, gpus=gpus, reserve_pct=reserve_pct, params_b=0.1)
    expected = GPUS[gpu].memory_bytes * gpus * (1 - reserve_pct / 100)
    assert result.values["usable_bytes"] == pytest.approx(expected, rel=1e-12)


def test_h100_default_usable_is_72_gib():
    assert run().values["usable_bytes"] == pytest.approx(72 * GiB)
    assert run().text["usable_bytes"] == "72 GiB"


def test_verdict_uses_usable_memory_not_raw_capacity():
    # 8B bf16 (16e9 bytes) + 64K tokens (8 GiB) on a 24 GiB RTX 4090: under 24 GiB, over 21.6 GiB usable.
    result = run(gpu="rtx-4090", context=65536, reserve_pct=10)
    total = result.values["total_bytes"]
    assert total == 16e9 + nbytes((2, 32, 8, 65536, 128))
    assert result.values["usable_bytes"] < total < GPUS["rtx-4090"].memory_bytes
    assert result.values["fits"] is False
    assert result.raw["fits"] == "0" and result.text["fits"] == "does not fit"
    assert any("more than" in n for n in result.notes)
    raw_capacity = run(gpu="rtx-4090", context=65536, reserve_pct=0)
    assert raw_capacity.values["fits"] is True and raw_capacity.raw["fits"] == "1"


def test_70b_does_not_fit_one_h100_but_fits_two():
    one = run_preset("llama3-70b", gpus=1)
    assert one.values["weight_bytes"] == pytest.approx(141.2e9)
    assert one.values["fits"] is False
    assert one.values["max_sequences"] == 0 and one.values["max_context"] == 0
    assert any("weights alone" in n for n in one.notes)
    assert run_preset("llama3-70b", gpus=2).values["fits"] is True


def test_vllm_cross_check_11_12x_concurrency_at_8k():
    # The log: Llama 3.1 8B, 14.96 GiB of weights, 11.12 GiB free for KV, "maximum concurrency for
    # 8,192 tokens: 11.12x". 128 KiB per token makes an 8K sequence 1 GiB, so 11.12 GiB holds 11.12.
    p = run(context=8192).inputs
    per_sequence = kv_bytes_per_sequence(p, 8192)
    assert per_sequence == nbytes((2, 32, 8, 8192, 128)) == GiB
    assert 11.12 * GiB / per_sequence == pytest.approx(11.12)

    # The same through the whole calculator: weights sized to leave 11.12 GiB of 72 GiB usable.
    params_b = (72 - 11.12) * GiB / 2e9
    result = run(context=8192, params_b=params_b)
    free = result.values["usable_bytes"] - result.values["weight_bytes"]
    assert free == pytest.approx(11.12 * GiB)
    assert free / result.values["kv_bytes_per_sequence"] == pytest.approx(11.12)
    assert result.values["max_sequences"] == 11  # whole sequences
    assert result.values["max_context"] == math.floor(11.12 * 8192)  # 91,095 tokens for one sequence


VERDICT_CASES = [
    {},
    {"concurrency": 4},
    {"concurrency": 3, "context": 100_000},
    {"context": CONTEXT_MAX},
    {"gpu": "rtx-4090", "context": 65536},
    {"gpu": "a100-40g", "kv_dtype": "fp8", "concurrency": 7},
    {"params_b": 100},  # the weights alone do not fit
    {"sliding_window": 4096, "window_layers": 16, "concurrency": 16},
    {"sliding_window": 4096, "window_layers": 32, "concurrency": 50},
    {"attention": "mla", "layers": 61, "params_b": 37, "gpu": "h200"},
]


@pytest.mark.parametrize(
    "raw",
    VERDICT_CASES + [dict(p.values) for p in SPEC.presets],
    ids=[f"case{i}" for i in range(len(VERDICT_CASES))] + [p.id for p in SPEC.presets],
)
def test_verdict_outputs_are_consistent(raw):
    result = SPEC.run({**LLAMA3_8B, **raw})
    v, p = result.values, result.inputs
    per_token, per_seq = v["kv_bytes_per_token"], v["kv_bytes_per_sequence"]
    free = v["usable_bytes"] - v["weight_bytes"]
    assert v["total_bytes"] == v["weight_bytes"] + v["kv_bytes_total"]
    assert v["fits"] == (v["total_bytes"] <= v["usable_bytes"])
    if free <= 0:
        assert v["fits"] is False and v["max_sequences"] == 0 and v["max_context"] == 0
        return
    # max_sequences: whole sequences of this context within the free budget
    n = v["max_sequences"]
    assert n * per_seq <= free < (n + 1) * per_seq
    assert v["fits"] == (n >= p["concurrency"])
    # max_context: the longest context per sequence, at this concurrency, within the budget
    budget = free / p["concurrency"]
    c = v["max_context"]
    assert 0 <= c <= CONTEXT_MAX
    assert kv_bytes_per_sequence(p, c) <= budget
    if c < CONTEXT_MAX:
        assert budget < kv_bytes_per_sequence(p, c + 1)
    windowed = p["sliding_window"] and p["window_layers"]
    if not windowed and c < CONTEXT_MAX:
        assert c * per_token <= budget < (c + 1) * per_token
    if v["fits"]:
        assert c >= p["context"]


@pytest.mark.parametrize("dtype, factor", [("bf16", 1), ("fp16", 1), ("fp8", 0.5), ("int8", 0.5), ("int4", 0.25)])
def test_kv_precision_scales_the_bytes(dtype, factor):
    bf16 = run(kv_dtype="bf16").values
    other = run(kv_dtype=dtype).values
    for key in ("kv_bytes_per_token", "kv_bytes_per_sequence", "kv_bytes_total"):
        assert other[key] == bf16[key] * factor
    # weights are untouched by the KV precision
    assert other["weight_bytes"] == bf16["weight_bytes"]


def test_kv_precision_against_numpy():
    assert run(kv_dtype="fp8").values["kv_bytes_per_token"] == per_token_array(32, 8, 128, np.int8)
    # int4: two values packed per byte
    assert run(kv_dtype="int4").values["kv_bytes_per_token"] == np.zeros((2, 32, 8, 128 // 2), np.uint8).nbytes
    mla_fp8 = run(attention="mla", layers=61, latent_dim=512, rope_dim=64, kv_dtype="fp8")
    assert mla_fp8.values["kv_bytes_per_token"] == np.zeros((61, 576), np.int8).nbytes == 35136


@pytest.mark.parametrize("dtype, per_param", [("bf16", 2), ("fp8", 1), ("int4", 0.5)])
def test_weights_are_parameters_times_bytes(dtype, per_param):
    assert run(params_b=70.6, weight_dtype=dtype).values["weight_bytes"] == pytest.approx(70.6e9 * per_param)


def test_moe_weights_count_every_expert():
    # DeepSeek-V3: all 671B parameters sit in memory (fp8: one byte each), not the 37B active ones.
    assert run_preset("deepseek-v3-mla").values["weight_bytes"] == 671e9


def test_zero_cache_per_token_is_reported_not_divided_by():
    result = run(attention="mla", latent_dim=0, rope_dim=0)
    assert result.values["kv_bytes_per_token"] == 0
    assert any("0 bytes" in n for n in result.notes)
    json.dumps(result.to_dict(), allow_nan=False)


def test_chart_matches_the_outputs():
    result = run_preset("llama3-8b-128k")
    (chart,) = result.charts
    assert chart["labels"][0] == "512" and chart["labels"][-1] == "1M"
    assert chart["labels"][chart["marker"]] == "128K"
    names = [s["name"] for s in chart["series"]]
    assert names[0] == "Weights + KV cache" and names[1] == "KV cache"
    kv = chart["series"][1]["values"][chart["marker"]]
    assert kv == pytest.approx(result.values["kv_bytes_total"] / GiB, abs=1e-3)
    assert chart["series"][2]["kind"] == "rule"
    assert chart["series"][2]["values"] == [pytest.approx(result.values["usable_bytes"] / GiB, abs=1e-3)] * 12
    assert chart["summary"]


def test_module_formula_functions_match_the_outputs():
    result = run(context=12345, concurrency=3)
    p = result.inputs
    assert kv_cache.kv_bytes_per_token(p) == result.values["kv_bytes_per_token"]
    assert kv_cache.kv_bytes_per_sequence(p, 12345) == result.values["kv_bytes_per_sequence"]
    assert kv_cache.weight_bytes(p) == result.values["weight_bytes"]
    assert kv_cache.usable_bytes(p) == result.values["usable_bytes"]
