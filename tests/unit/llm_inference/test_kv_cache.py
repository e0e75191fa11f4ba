"""llm_inference/kv_cache.py: the chapter's reference figures and accuracy notes, each cross-checked,
and vLLM's per-GPU verdict against an independent reckoning.

Every size is checked twice: against the number the brief states, and against an independent
computation with numpy — the byte size of an array shaped like the cache itself. numpy has no
bfloat16; float16 stands in for it (both 2 bytes per element). Whole caches are sized with
``itemsize * prod(shape)`` rather than allocated.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from llm_inference.hardware import DTYPES, GPUS
from llm_inference.kv_cache import CONTEXT_MAX, SPEC
from course_calculators.units import GiB, KiB, MiB

BF16 = np.float16  # the same 2 bytes per element as bf16
assert np.dtype(BF16).itemsize == DTYPES["bf16"] == 2

LLAMA3_8B = dict(SPEC.preset("llama3-8b").values)


def run(**overrides):
    """kv-cache from the Llama 3 8B preset as a custom shape (8B parameters exactly) with ``overrides``;
    any conversion note is an error."""
    raw = {**LLAMA3_8B, "model": "custom", "params_b": 8, **overrides}
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


# -- an independent reckoning of vLLM's budget (full-attention models, tensor parallel) -----------

def numpy_vllm(visible, utilization, weights, tp, layers, kv_heads, head_dim, hidden, width, vocab, tokens, seqs,
               overhead, context, kv_bytes=2):
    """(available bytes, blocks, concurrency at ``context``) on one GPU, written out afresh."""
    requested = math.ceil(visible * utilization)
    forward = tokens * 2 * (3 * width / tp + 3 * hidden)
    sampler = min(tokens, seqs) * vocab * 39 + tokens * hidden * 2
    available = requested - weights / tp - max(forward, sampler) - overhead
    heads = max(1, kv_heads // tp)
    page = np.zeros((16, heads, 2, head_dim), dtype=np.uint8 if kv_bytes == 1 else BF16).nbytes
    blocks = int(available // page // layers)
    return available, blocks, blocks / -(-context // 16)


@pytest.mark.parametrize("gpu, gpus, context", [("h100-sxm", 1, 8192), ("h100-sxm", 1, 131072), ("a100-80g", 1, 32768),
                                                ("h200", 2, 65536), ("l40s", 1, 4096)])
def test_vllm_verdict_matches_an_independent_reckoning(gpu, gpus, context):
    r = run(model="llama-3.1-8b", params_b=8.030261248, gpu=gpu, gpus=gpus, context=context)
    g = GPUS[gpu]
    tokens, seqs = (8192, 1024) if g.visible >= 70 * GiB and "A100" not in g.name else (2048, 256)
    # vLLM keeps the norms (32 layers x 2 + 1 of 4,096 bf16 numbers) whole on every GPU: the per-GPU
    # weights are (W - N) / gpus + N, i.e. a total of W + N (gpus - 1) split evenly.
    norms = (32 * 2 + 1) * 4096 * 2
    # the runtime: non-torch 0.15 GiB and the CUDA-graph estimate, 0.35 GiB ÷ TP (NCCL is set up before the
    # memory snapshot from 0.11.0, so tensor parallelism adds no non-torch memory to the budget)
    runtime = (0.15 + 0.35 / gpus) * GiB
    available, blocks, concurrency = numpy_vllm(g.visible, 0.92, 8.030261248e9 * 2 + norms * (gpus - 1), gpus, 32, 8,
                                                128, 4096, 14336, 128256, tokens, seqs, runtime, context)
    assert r.values["kv_cache_memory"] == pytest.approx(available, rel=1e-6)
    assert r.values["max_concurrency"] == pytest.approx(concurrency, rel=1e-6)
    assert r.values["max_sequences"] == math.floor(concurrency)
    assert r.values["kv_cache_tokens"] == int(concurrency * context)
    assert r.values["fits"] is (concurrency >= 1)


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


@pytest.mark.parametrize("model_id, text", [("llama-3.1-8b", "128 KiB"), ("llama-3.1-70b", "320 KiB"),
                                            ("llama-3.1-405b", "504 KiB"), ("mistral-7b-v0.1", "128 KiB"),
                                            ("mixtral-8x7b", "128 KiB"), ("gpt3-175b", "4.5 MiB"),
                                            ("deepseek-v3", "68.6 KiB")])
def test_reference_kv_per_token_by_picking_the_model(model_id, text):
    assert run_preset("llama3-8b", model=model_id).text["kv_bytes_per_token"] == text


def test_deepseek_v3_mla_is_exactly_70272_bytes():
    result = run(attention="mla", layers=61, latent_dim=512, rope_dim=64)
    latent_plus_rope = np.zeros((61, 512 + 64), dtype=BF16).nbytes  # one latent + RoPE key per layer
    assert latent_plus_rope == 70272
    assert result.values["kv_bytes_per_token"] == 70272
    assert result.raw["kv_bytes_per_token"] == "70272"
    assert result.text["kv_bytes_per_token"] == "68.6 KiB"


def test_8k_context_is_one_gib_per_sequence():
    result = run(context=8192)
    assert nbytes((2, 32, 8, 8192, 128)) == GiB == result.values["kv_bytes_per_sequence"]
    assert result.text["kv_bytes_per_sequence"] == "1 GiB"
    assert np.zeros((2, 32, 8, 16, 128), dtype=BF16).nbytes == 16 * result.values["kv_bytes_per_token"]


def test_128k_context_is_16_gib_more_than_the_8b_weights():
    result = run(context=131072)
    whole = nbytes((2, 32, 8, 131072, 128))
    assert whole == 16 * GiB == result.values["kv_bytes_total"]
    assert result.values["weight_bytes"] == pytest.approx(nbytes((8_000_000_000,))) and nbytes((8_000_000_000,)) == 16e9
    assert result.values["kv_bytes_total"] > result.values["weight_bytes"]


@pytest.mark.parametrize("concurrency", [1, 4, 64])
def test_total_scales_with_concurrency(concurrency):
    result = run(context=4096, concurrency=concurrency)
    whole = nbytes((concurrency, 2, 32, 8, 4096, 128))
    assert result.values["kv_bytes_total"] == whole == concurrency * result.values["kv_bytes_per_sequence"]
    assert result.values["total_bytes"] == result.values["weight_bytes"] + whole


# ----------------------------------------------------------------------------------------------
# The presets the widget contract names
# ----------------------------------------------------------------------------------------------

def test_preset_llama3_8b():
    result = run_preset("llama3-8b")
    assert result.text["kv_bytes_per_token"] == "128 KiB"
    assert result.values["kv_bytes_per_sequence"] == nbytes((2, 32, 8, 8192, 128)) == GiB
    assert result.values["max_sequences"] == 52  # the notice
    assert result.text["weight_bytes"] == "15 GiB" and round(result.values["weight_bytes"] / GiB, 2) == 14.96
    assert result.notes == []


def test_preset_llama3_8b_128k():
    result = run_preset("llama3-8b-128k")
    assert result.values["kv_bytes_total"] == 16 * GiB == nbytes((2, 32, 8, 131072, 128))
    assert result.text["kv_bytes_total"] == "16 GiB"
    assert result.values["kv_bytes_total"] > result.values["weight_bytes"]
    assert result.values["max_sequences"] == 3


def test_preset_gpt3_mha():
    result = run_preset("gpt3-mha")
    assert result.text["kv_bytes_per_token"] == "4.5 MiB"
    assert result.values["kv_bytes_per_token"] == per_token_array(96, 96, 128) == 4718592
    assert result.values["kv_bytes_per_token"] / run_preset("llama3-8b").values["kv_bytes_per_token"] == 36


def test_preset_deepseek_v3_mla():
    result = run_preset("deepseek-v3-mla")
    assert result.text["kv_bytes_per_token"] == "68.6 KiB"
    assert result.values["kv_bytes_per_sequence"] == nbytes((61, 131072, 576))
    assert result.text["kv_bytes_per_sequence"] == "8.58 GiB"
    # "4 sequences fit, not 45": 4.9 a GPU's pool over 8.58 GiB, the Triton experts' 1.75 GiB workspace
    # (8,192 tokens x 8 experts x 2 x 7,168 x 2 B) off the budget
    assert result.values["max_sequences"] == 4
    assert result.values["kv_replicas"] == 8
    assert any("whole latent" in n for n in result.notes)


def test_data_parallel_attention_multiplies_the_pools():
    """Under TP 8 each GPU's pool holds the whole latent of every sequence; under DP 8 each GPU holds
    its own sequences' latents, so the eight pools add up, each smaller by the attention, embeddings,
    dense MLPs and shared experts every DP rank holds whole (fp8, as DeepSeek-V3 ships: 17.5 GB more a
    GPU, 8 x 29.4 GB of pool against 47.1 GB, 5.0x the sequences)."""
    tp, dp = run_preset("deepseek-v3-mla"), run_preset("deepseek-v3-dp8")
    context, per_token = 131072, 70272  # (512 + 64) x 61 layers x 2 bytes
    for result, pools in ((tp, 1), (dp, 8)):
        v = result.values
        assert v["kv_bytes_per_token_per_gpu"] == per_token
        assert v["kv_cache_tokens"] == pytest.approx(v["kv_cache_memory"] / per_token, abs=64)  # whole blocks
        assert v["max_concurrency"] == pytest.approx(pools * v["kv_cache_tokens"] / context)
    assert dp.values["max_concurrency"] > 4.5 * tp.values["max_concurrency"]
    assert dp.values["weight_bytes_per_gpu"] > tp.values["weight_bytes_per_gpu"]
    assert dp.values["kv_replicas"] == 1


def test_preset_llama3_70b_tp16_replicates_the_heads():
    result = run_preset("llama3-70b-tp16")
    assert result.values["kv_replicas"] == 2
    assert result.values["kv_bytes_per_token_per_gpu"] == 80 * 2 * 1 * 128 * 2 == 40 * KiB  # one head per GPU


def test_every_preset_is_valid_and_runs_clean_json():
    for preset in SPEC.presets:
        SPEC.check_overrides(preset.values)
        json.dumps(SPEC.run(preset.values).to_dict(), allow_nan=False)


# ----------------------------------------------------------------------------------------------
# Accuracy notes
# ----------------------------------------------------------------------------------------------

def test_gqa_scales_with_kv_heads_not_query_heads():
    gqa = run(kv_heads=8).values["kv_bytes_per_token"]
    as_query_heads = run(kv_heads=32).values["kv_bytes_per_token"]  # Llama 3 8B has 32 query heads
    mqa = run(kv_heads=1).values["kv_bytes_per_token"]
    assert as_query_heads == 4 * gqa == per_token_array(32, 32, 128)
    assert mqa == gqa / 8 == per_token_array(32, 1, 128)
    assert run(heads=64).values["kv_bytes_per_token"] == gqa  # query heads never enter the cache


def test_mla_has_no_factor_2_and_ignores_head_counts():
    mla = run(attention="mla", layers=61, latent_dim=512, rope_dim=64).values["kv_bytes_per_token"]
    assert mla == 61 * (512 + 64) * 2
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
    preset = run_preset("mistral-7b-swa").inputs
    assert preset["sliding_window"] == 4096 and preset["window_layers"] == preset["layers"] == 32
    at_window = run_preset("mistral-7b-swa", context=4096).values["kv_bytes_per_sequence"]
    for context in (8192, 32768, 131072, CONTEXT_MAX):
        assert run_preset("mistral-7b-swa", context=context).values["kv_bytes_per_sequence"] == at_window
    assert at_window == nbytes((2, 32, 8, 4096, 128)) == 512 * MiB
    assert run_preset("mistral-7b-swa", context=1024).values["kv_bytes_per_sequence"] == at_window / 4


def test_vllm_reserves_the_window_plus_the_batched_tokens():
    """SlidingWindowSpec: (cdiv(window − 1 + the tokens in flight, 16) + 1) blocks, not the window; from
    0.26 two batches of 8,192 are in flight (VllmConfig.max_in_flight_tokens, async scheduling)."""
    result = run_preset("mistral-7b-swa")
    slots = (-(-(4096 - 1 + 2 * 8192) // 16) + 1) * 16
    per_request = nbytes((2, 32, 8, slots, 128))
    assert result.values["max_concurrency"] == pytest.approx(
        (result.values["kv_cache_memory"] // (16 * 2 * 8 * 128 * 2) // 32) * 16 * 2 * 32 * 8 * 128 * 2 / per_request,
        rel=1e-9)
    assert per_request > 3 * result.values["kv_bytes_per_sequence"]


def test_sliding_window_on_half_the_layers_halves_the_growth():
    def seq(context, **kw):
        return run(context=context, sliding_window=4096, **kw).values["kv_bytes_per_sequence"]

    full_growth = run(context=32768).values["kv_bytes_per_sequence"] - run(context=4096).values["kv_bytes_per_sequence"]
    assert seq(32768, window_layers=16) - seq(4096, window_layers=16) == full_growth / 2
    assert seq(32768, window_layers=16) == nbytes((2, 16, 8, 32768, 128)) + nbytes((2, 16, 8, 4096, 128))


def test_no_window_means_full_attention():
    full = nbytes((2, 32, 8, 32768, 128))
    assert run(context=32768, sliding_window=0, window_layers=32).values["kv_bytes_per_sequence"] == full
    assert run(context=32768, sliding_window=4096, window_layers=0).values["kv_bytes_per_sequence"] == full


def test_more_windowed_layers_than_layers_means_all():
    result = run(context=32768, sliding_window=4096, window_layers=64)
    assert result.values["kv_bytes_per_sequence"] == nbytes((2, 32, 8, 4096, 128))


@pytest.mark.parametrize("gpu", sorted(GPUS))
@pytest.mark.parametrize("gpus, utilization", [(1, 0.9), (2, 0.92), (8, 0.5)])
def test_usable_memory_is_what_the_driver_shows_times_the_utilization(gpu, gpus, utilization):
    result = run(gpu=gpu, gpus=gpus, gpu_memory_utilization=utilization, params_b=0.1)
    assert result.values["usable_bytes"] == pytest.approx(math.ceil(GPUS[gpu].visible * utilization) * gpus, rel=1e-12)


def test_h100_shows_79_19_gib_and_vllm_takes_92_percent():
    result = run()
    assert result.values["usable_bytes"] == math.ceil(79.19 * GiB * 0.92)
    assert result.text["usable_bytes"] == "72.9 GiB"


def test_the_activation_peak_is_the_samplers():
    """1,024 sequences × 128,256 logits × 39 bytes on an H100: 4.8 GiB, whatever the model's size."""
    small = run(params_b=1).values["activation_bytes"]
    assert small == pytest.approx(1024 * 128256 * 39 + 8192 * 4096 * 2)
    assert run(params_b=30).values["activation_bytes"] == small


def test_70b_does_not_fit_one_h100_but_fits_two():
    one = run_preset("llama3-70b", gpus=1)
    assert one.values["weight_bytes"] == pytest.approx(70.553706496e9 * 2)
    assert one.values["fits"] is False
    assert one.values["max_sequences"] == 0 and one.values["max_context"] == 0
    assert any("would not start" in n for n in one.notes)
    two = run_preset("llama3-70b")
    assert two.values["fits"] is True and two.values["gpus_needed"] == 2


def test_illegal_sizes_are_refused():
    result = run_preset("llama3-70b", gpus=3)
    assert result.values["fits"] is False and result.values["max_sequences"] == 0
    assert any("Legal sizes: 1, 2, 4, 8, 16, 32, 64" in n for n in result.notes)
    assert result.values["legal_gpus"] == "1, 2, 4, 8, 16, 32, 64"


def test_fewest_gpus_and_cheapest_configuration():
    result = run_preset("llama3-70b", context=131072, concurrency=8)
    n = result.values["gpus_needed"]
    assert run_preset("llama3-70b", context=131072, concurrency=8, gpus=n).values["fits"]
    smaller = [m for m in (1, 2, 4, 8) if m < n]
    assert all(not run_preset("llama3-70b", context=131072, concurrency=8, gpus=m).values["fits"] for m in smaller)
    # the cheapest: no listed GPU with a price, at its own fewest count, is cheaper
    offers = []
    for gpu in (g for g in GPUS.values() if g.usd_per_hour > 0):
        m = run_preset("llama3-70b", context=131072, concurrency=8, gpu=gpu.id).values["gpus_needed"]
        if m:
            offers.append(m * gpu.usd_per_hour)
    assert result.values["cheapest_usd_per_hour"] == pytest.approx(min(offers))


def test_vllm_cross_check_11_12x_concurrency_at_8k():
    # The brief's log: 11.12 GiB of KV cache and "maximum concurrency for 8,192 tokens: 11.12x".
    # 128 KiB per token makes an 8K sequence 1 GiB, so 11.12 GiB holds 11.12 of them.
    per_sequence = run(context=8192).values["kv_bytes_per_sequence"]
    assert per_sequence == nbytes((2, 32, 8, 8192, 128)) == GiB
    assert 11.12 * GiB / per_sequence == pytest.approx(11.12)


@pytest.mark.parametrize("dtype, factor", [("bf16", 1), ("fp16", 1), ("fp8", 0.5), ("fp8_e5m2", 0.5),
                                           ("int8_per_token_head", 132 / 256), ("fp8_per_token_head", 132 / 256),
                                           ("int4_per_token_head", 68 / 256), ("nvfp4", 72 / 256)])
def test_kv_precision_scales_the_bytes(dtype, factor):
    bf16 = run(kv_dtype="bf16").values
    other = run(kv_dtype=dtype).values
    for key in ("kv_bytes_per_token", "kv_bytes_per_sequence", "kv_bytes_total"):
        assert other[key] == pytest.approx(bf16[key] * factor)
    assert other["weight_bytes"] == bf16["weight_bytes"]


def test_kv_precision_against_numpy():
    assert run(kv_dtype="fp8").values["kv_bytes_per_token"] == per_token_array(32, 8, 128, np.int8)
    # int4_per_token_head: two values packed per byte, plus one fp32 scale per head and K/V (vLLM's Triton layout)
    int4 = np.zeros((2, 32, 8, 128 // 2), np.uint8).nbytes + np.zeros((2, 32, 8), np.float32).nbytes
    assert run(kv_dtype="int4_per_token_head").values["kv_bytes_per_token"] == int4
    # nvfp4: packed e2m1 pairs plus one fp8 scale per 16 values
    nvfp4 = np.zeros((2, 32, 8, 128 // 2), np.uint8).nbytes + np.zeros((2, 32, 8, 128 // 16), np.uint8).nbytes
    assert run(kv_dtype="nvfp4", gpu="b200").values["kv_bytes_per_token"] == nvfp4
    mla_fp8 = run(attention="mla", layers=61, latent_dim=512, rope_dim=64, kv_dtype="fp8")
    assert mla_fp8.values["kv_bytes_per_token"] == np.zeros((61, 576), np.int8).nbytes == 35136
    ds = run(attention="mla", layers=61, latent_dim=512, rope_dim=64, kv_dtype="fp8_ds_mla")
    assert ds.values["kv_bytes_per_token"] == 61 * 656


@pytest.mark.parametrize("dtype, per_param", [("bf16", 2), ("fp8", 1), ("int4", 0.5)])
def test_weights_are_parameters_times_bytes(dtype, per_param):
    """A custom shape's Linear layers at the format's width, with its scales; the embedding, LM head
    and norms stay in bf16 (as every quantized release keeps them)."""
    r = run(params_b=70.6, weight_dtype=dtype)
    vocab, hidden, layers = r.inputs["vocab_size"], r.inputs["hidden_size"], r.inputs["layers"]
    outside = 2 * vocab * hidden + (2 * layers + 1) * hidden
    linear = 70.6e9 - outside
    scales = {"bf16": 0.0, "fp8": None, "int4": linear * 2 / 128}[dtype]  # fp8: one fp32 per output row
    got = r.values["weight_bytes"]
    if dtype == "fp8":
        assert linear * 1 + outside * 2 < got < linear * 1.001 + outside * 2
    else:
        assert got == pytest.approx(linear * per_param + scales + outside * 2, rel=1e-9)
    assert got == pytest.approx(sum(_breakdown_bytes(r)), rel=1e-4)  # the bars are rounded to 0.1 MiB


def _breakdown_bytes(r):
    """The GiB of the breakdown chart's bars (numbers and scales), back in bytes."""
    chart = r.charts[-1]
    return [v * GiB for s in chart["series"] for v in s["values"]]


def test_moe_weights_count_every_expert():
    """DeepSeek-V3 as shipped: every one of its 671.03B parameters, the fp8 ones at a byte plus a
    fp32 scale per 128 × 128 block, the embeddings, LM head, routers and norms at two bytes, and
    vLLM's bf16 copy of each kv_b_proj (W_UK_T and W_UV)."""
    from llm_inference.models import catalogue_shape

    shape = catalogue_shape("deepseek-v3")
    fp8 = [t for t in shape.tensors if shape.quantization.spec_for(t).kind == "fp8"]
    fp8_params = sum(t.params for t in fp8)
    scales = sum(t.count * -(-t.shape[0] // 128) * -(-t.shape[1] // 128) * 4 for t in fp8)
    copies = sum(t.params * 2 for t in fp8 if t.module.endswith("kv_b_proj"))
    want = fp8_params + scales + (671_026_404_352 - fp8_params) * 2 + copies
    assert run_preset("deepseek-v3-mla").values["weight_bytes"] == pytest.approx(want, rel=1e-12)


def test_zero_cache_per_token_is_reported_not_divided_by():
    result = run(attention="mla", latent_dim=0, rope_dim=0)
    assert result.values["kv_bytes_per_token"] == 0
    assert any("0 bytes" in n for n in result.notes)
    json.dumps(result.to_dict(), allow_nan=False)


def test_chart_is_one_gpus_memory():
    result = run_preset("llama3-8b-128k")
    chart, weights = result.charts
    assert weights["kind"] == "bar" and weights["labels"][0] == "Embeddings"
    assert chart["labels"][0] == "512" and chart["labels"][-1] == "1M"
    assert chart["labels"][chart["marker"]] == "128K"
    rule = chart["series"][2]
    assert rule["kind"] == "rule" and rule["values"] == [pytest.approx(result.values["usable_bytes"] / GiB, abs=1e-3)] * 12
    used = chart["series"][0]["values"]
    assert used == sorted(used)
    # the used memory crosses the line where the longest context that fits ends
    assert used[chart["labels"].index("256K")] < rule["values"][0] < used[chart["labels"].index("512K")]
    assert 262144 <= result.values["max_context"] < 524288
    assert "usable" in chart["summary"]


# -- hybrid models, sparse MLA, DCP, every layout --------------------------------------------------

def _cache_of_run(r):
    """The pool layout the calculator used (its details), for checking the logged figures."""
    from llm_inference import scenario
    from llm_inference.physics import budget, place
    inputs = r.inputs
    model = scenario.model_from_inputs(inputs)
    placement = place(model, scenario.layout_from_inputs(inputs), scenario.weights_on(inputs)[0])
    return budget.pool(model, GPUS[inputs["gpu"]], placement, scenario.engine_from_inputs(inputs),
                       inputs["kv_dtype"]).layout


def test_done_when_qwen3_next_pasted_as_config_json():
    """KV bytes from its 12 full-attention layers only, its linear state per sequence as an output,
    tokens and concurrency as vLLM's hybrid allocator gives them."""
    from llm_inference.models import CATALOGUE
    from llm_inference.physics.cache_layout import from_available
    text = json.dumps(CATALOGUE["qwen3-next-80b-a3b"].config)
    r = SPEC.run({"config": text, "gpu": "h200", "gpus": 2, "context": 262144, "concurrency": 8})
    assert r.inputs["model"] == "qwen3-next-80b-a3b"
    assert r.values["kv_bytes_per_token"] == np.zeros((2, 12, 2, 256), BF16).nbytes == 24 * KiB
    conv = np.zeros((2 * 16 * 128 + 32 * 128, 3), BF16)  # (conv channels, kernel − 1)
    ssm = np.zeros((32, 128, 128), BF16)  # (value heads, value dim, key dim)
    assert r.values["state_bytes_per_sequence"] == 36 * (conv.nbytes + ssm.nbytes)
    assert r.text["state_bytes_per_sequence"] == "37.7 MiB"
    cache = _cache_of_run(r)
    assert (cache.block_size, cache.cache_mode) == (576, "align") == (r.values["block_size"], "align")
    _, concurrency, tokens = from_available(cache, r.values["kv_cache_memory"], 262144,
                                            r.inputs["max_num_batched_tokens"] or 8192)
    assert r.values["max_concurrency"] == pytest.approx(concurrency)
    assert r.values["kv_cache_tokens"] == tokens == int(concurrency * 262144)
    assert any("Gated DeltaNet" in n and "576 tokens" in n for n in r.notes)


def test_the_state_is_paid_per_sequence_whatever_the_context():
    short = run_preset("qwen3-next-hybrid", context=1024)
    long = run_preset("qwen3-next-hybrid")
    assert short.values["state_bytes_per_sequence"] == long.values["state_bytes_per_sequence"] > 0
    assert long.values["total_bytes"] == pytest.approx(
        long.values["weight_bytes"] + 8 * (long.values["kv_bytes_per_sequence"]
                                           + long.values["state_bytes_per_sequence"]))


def test_prefix_caching_gives_each_request_more_state_pages():
    on, off = run_preset("qwen3-next-hybrid"), run_preset("qwen3-next-hybrid", prefix_caching="off")
    assert off.values["max_concurrency"] > on.values["max_concurrency"]
    assert off.values["block_size"] == 544 and on.values["block_size"] == 576


def test_deepseek_v32_caches_the_indexer_beside_the_latent():
    r = run_preset("deepseek-v32-dcp", dcp=1)
    assert r.values["kv_bytes_per_token"] == 61 * (np.zeros(576, BF16).nbytes + 128 + 4)
    assert r.values["block_size"] == 64
    ds = run_preset("deepseek-v32-dcp", dcp=1, kv_dtype="fp8_ds_mla")
    assert ds.values["kv_bytes_per_token"] == 61 * (656 + 132)


@pytest.mark.parametrize("overrides, refused", [
    (dict(kv_dtype="fp8_e4m3", vllm_version="0.28.0"), "FLASHMLA_SPARSE: [kv_cache_dtype not supported]"),
    (dict(kv_dtype="fp8_e5m2"), "FLASHINFER_MLA_SPARSE_SM90: [kv_cache_dtype not supported]"),
    (dict(gpu="rtx-pro-6000", vllm_version="0.23.0"), "FLASHINFER_MLA_SPARSE_SM120 arrives in 0.24"),
])
def test_sparse_mla_caches_vllm_refuses_compute_no_pool(overrides, refused):
    r = run_preset("deepseek-v32-dcp", dcp=1, **overrides)
    assert r.values["fits"] is False and r.values["max_concurrency"] == 0
    assert any(n.startswith("vLLM refuses this") and "No valid attention backend found for cuda" in n and refused in n
               for n in r.notes)


def test_sparse_mla_on_sm120_stores_fp8_ds_mla_even_for_bf16():
    """From 0.24 FLASHINFER_MLA_SPARSE_SM120 stores "auto" (a bf16 cache) as fp8_ds_mla: 656 + 132 bytes a
    token and layer, not 2 × 576 + 132; on an H200 fp8_e4m3 goes to FlashInfer's SM90 backend from 0.30, plain
    576 + 132."""
    sm120 = run_preset("deepseek-v32-dcp", dcp=1, gpu="rtx-pro-6000")
    assert sm120.values["kv_bytes_per_token"] == 61 * (656 + 132) == 48068
    h200 = run_preset("deepseek-v32-dcp", dcp=1, kv_dtype="fp8_e4m3")
    assert h200.values["kv_bytes_per_token"] == 61 * (576 + 132) and h200.values["max_concurrency"] > 0


def test_decode_context_parallelism_divides_the_copied_latent():
    one, eight = run_preset("deepseek-v32-dcp", dcp=1), run_preset("deepseek-v32-dcp")
    assert eight.values["kv_bytes_per_token_per_gpu"] == one.values["kv_bytes_per_token_per_gpu"] / 8
    assert 7.9 < eight.values["max_concurrency"] / one.values["max_concurrency"] <= 8.0
    bad = run_preset("deepseek-v32-dcp", dcp=3)
    assert bad.values["fits"] is False and any("must divide the tensor-parallel size 8" in n for n in bad.notes)


def test_dcp_on_a_gqa_model_is_not_modelled_and_computes_no_pool():
    r = run(gpus=2, dcp=2)
    assert r.values["max_concurrency"] is None and r.text["fits"] == "not computed"
    assert r.values["kv_bytes_per_token"] == 128 * KiB  # the textbook sizes stand
    assert any(n.startswith("Not modelled: decode context parallelism") for n in r.notes)
    assert [c["title"] for c in r.charts] == ["Weights by tensor group, as vLLM holds them"]  # no pool chart


@pytest.mark.parametrize("kv, gpu, refused", [
    ("nvfp4", "b200", ""), ("nvfp4", "h100-sxm", ""), ("int8_per_token_head", "h100-sxm", ""),
    ("fp8_ds_mla", "h100-sxm", "sparse-MLA"), ("nvfp4_ds_mla", "h100-sxm", "sparse-MLA"),
])
def test_a_layout_vllm_refuses_does_not_fit(kv, gpu, refused):
    r = run(kv_dtype=kv, gpu=gpu)
    if refused:
        assert r.values["fits"] is False and r.values["max_concurrency"] == 0
        assert any(n.startswith("vLLM refuses this") and refused in n for n in r.notes)
    else:
        assert r.values["fits"] is True


def test_every_offered_layout_runs():
    for kv in SPEC.param_map["kv_dtype"].values:
        json.dumps(run(kv_dtype=kv).to_dict(), allow_nan=False)
        json.dumps(run_preset("deepseek-v32-dcp", kv_dtype=kv, gpu="b200").to_dict(), allow_nan=False)


def test_a_served_vision_tower_is_said_with_its_profile():
    raw = {"model": "qwen3.6-35b-a3b-nvfp4", "gpu": "rtx-5090", "context": 131072, "max_num_seqs": 1,
           "max_num_batched_tokens": 8192, "kv_dtype": "fp8"}
    SPEC.check_overrides(raw)
    r = SPEC.run(raw)
    note = next(n for n in r.notes if n.startswith("Vision tower"))
    assert "1 image of the largest size (16,384 tokens, 65,536 patches" in note and "1.88 GiB" in note
    assert "Vision tower" in r.text["weight_breakdown"]
    text = SPEC.run({**raw, "image_limit": 0, "video_limit": 0})
    assert any(n.startswith("Vision tower not loaded") for n in text.notes)
    assert "Vision tower" not in text.text["weight_breakdown"]
    assert not any("Vision tower" in n for n in run().notes)  # a text model says nothing of it


def test_lora_slots_of_a_mixture_of_experts_come_off_the_pool_and_move_the_bar():
    """Qwen3-30B-A3B on one H100 with 4 LoRA slots of rank 16 (vLLM 0.33.0): every slot holds w13 and
    w2 adapters for all 128 routed experts of each of the 48 layers (vllm/lora/layers/fused_moe.py).
    Per layer, M = 4, R = 16, hidden 2048, expert width 768: experts 2·4·128·16·2048 + 2·4·128·768·16
    + 4·128·16·768 + 4·128·2048·16, router 4·16·2048 + 4·128·16, attention (3 q/k/v slices, o_proj)
    3·4·16·2048 + 4·16·(4096 + 2·512) + 4·16·4096 + 4·2048·16; the embedding and LM head
    2·(4·151936·16 + 4·2048·16); bf16."""
    experts = 2 * 4 * 128 * 16 * 2048 + 2 * 4 * 128 * 768 * 16 + 4 * 128 * 16 * 768 + 4 * 128 * 2048 * 16
    router = 4 * 16 * 2048 + 4 * 128 * 16
    attention = 3 * 4 * 16 * 2048 + 4 * 16 * (4096 + 2 * 512) + 4 * 16 * 4096 + 4 * 2048 * 16
    slots = 2 * (48 * (experts + router + attention) + 2 * (4 * 151936 * 16 + 4 * 2048 * 16))
    off = run_preset("llama3-8b", model="qwen3-30b-a3b")
    on = run_preset("llama3-8b", model="qwen3-30b-a3b", max_loras=4, max_lora_rank="16")
    lora = on.values["lora_bytes_per_gpu"]
    assert slots == 6_803_521_536 and slots < lora < slots + MiB  # and under a MiB of index buffers
    assert off.values["kv_cache_memory"] - on.values["kv_cache_memory"] == pytest.approx(lora)
    assert on.values["max_concurrency"] < off.values["max_concurrency"] / 3
    bar = {p["name"]: p for p in on.bars["Memory per GPU"]["parts"]}
    assert bar["lora_bytes_per_gpu"]["shown"] and bar["lora_bytes_per_gpu"]["share"] > 0.07


# -- EPLB: redundant experts -----------------------------------------------------------------------

QWEN3_30B_EP4 = {"model": "qwen3-30b-a3b", "gpus": 4, "context": 8192, "expert_parallel": "on"}
#: Qwen3-30B-A3B: 48 MoE layers of 128 experts, each gate, up and down 2048 × 768 in bf16
QWEN3_EXPERT_LAYER_BYTES = nbytes((3, 2048, 768))


def _deployment(raw):
    from llm_inference import engine_choice
    r = SPEC.run(raw)
    d, _ = engine_choice.deployment_from_inputs(r.inputs)
    return d, r


def test_eplb_with_four_redundant_experts_by_hand():
    """R = 4 over EP 4 (vllm/model_executor/layers/fused_moe/layer.py, determine_expert_counts): 132 physical
    experts, 33 a GPU instead of 32, so 48 more expert-layers; EplbState.add_model (0.33.0): a buffer of one
    layer's 33 local experts, and int64 tables physical→logical 48 × 132, logical→physical 48 × 128 × 1024,
    replica counts and last load 48 × 128 each, int32 load pass 48 × 132 and window 1000 × 48 × 132."""
    off, r_off = _deployment(QWEN3_30B_EP4)
    on, r_on = _deployment({**QWEN3_30B_EP4, "redundant_experts": 4})
    s = on.pool.placement.eplb
    assert s.per_rank == (33,) * 4
    redundant = 48 * QWEN3_EXPERT_LAYER_BYTES
    buffer = 33 * QWEN3_EXPERT_LAYER_BYTES
    tables = 8 * (48 * 132 + 48 * 128 * 1024 + 48 * 128 + 48 * 128) + 4 * (48 * 132 + 1000 * 48 * 132)
    assert (redundant, buffer, tables) == (452_984_832, 311_427_072, 75_849_984)
    assert (s.redundant_bytes, s.eplb_buffer_bytes, s.eplb_table_bytes) == (redundant, buffer, tables)
    added = on.pool.placement.weight_bytes_per_gpu - off.pool.placement.weight_bytes_per_gpu
    assert added == redundant + buffer + tables == 840_261_888
    # a block: 16 tokens × 48 layers × K and V of 1 KV head (4 over TP 4) × 128 × 2 bytes
    page = 16 * 48 * 2 * 128 * 2
    assert on.pool.available_bytes == off.pool.available_bytes - added
    assert on.pool.num_blocks == on.pool.available_bytes // page == off.pool.num_blocks - 2137
    assert r_on.values["max_concurrency"] == on.pool.num_blocks / (8192 // 16) < r_off.values["max_concurrency"]
    assert any("33 whole experts on each GPU" in n and "297 MiB receive buffer" in n for n in r_on.notes)


@pytest.mark.parametrize("overrides, said", [
    (dict(redundant_experts=3), "EPLB currently only supports even distribution of experts across ranks"),
    (dict(redundant_experts=4, expert_parallel="off"), "enable_expert_parallel must be True to use EPLB."),
    (dict(redundant_experts=4, gpus=1), "EPLB needs expert parallelism over more than one GPU"),
    (dict(redundant_experts=4, vllm_version="0.20.0"), "before vLLM 0.23.0 is not modelled"),
    (dict(redundant_experts=4, model="llama-3.1-8b"), "without routed experts"),
])
def test_eplb_settings_vllm_refuses_or_the_calculator_does_not_model_compute_no_pool(overrides, said):
    r = SPEC.run({**QWEN3_30B_EP4, **overrides})
    assert r.values["fits"] is False and not r.values["max_concurrency"]
    assert any(said in n for n in r.notes)


def test_lora_slots_of_deepseek_v2_lite_count_its_mla_projections_dense_layer_and_shared_experts():
    """DeepSeek-V2-Lite on one H100 with 4 LoRA slots of rank 16 (vLLM 0.33.0): per layer the MLA
    projections q_proj (2048 → 16·192), kv_a_proj_with_mqa (2048 → 576, replicated), kv_b_proj
    (512 → 16·256) and o_proj (16·128 → 2048); the first layer's dense MLP of 10944; in the 26 MoE
    layers the router (→ 64), the shared experts' MLP of 2·1408 and the 64 routed experts of 1408
    (deepseek_v2.py, layers/mla.py, lora/layers/*.py). No embeddings are wrapped; bf16."""
    attention = (4 * 16 * 2048 + 4 * 16 * 16 * 192 + 4 * 16 * 2048 + 4 * 16 * 576 + 4 * 16 * 512
                 + 4 * 16 * 16 * 256 + 4 * 16 * 2048 + 4 * 2048 * 16)
    dense = 2 * 4 * 16 * 2048 + 4 * 16 * 2 * 10944 + 4 * 16 * 10944 + 4 * 2048 * 16
    shared = 2 * 4 * 16 * 2048 + 4 * 16 * 2 * 2816 + 4 * 16 * 2816 + 4 * 2048 * 16
    router = 4 * 16 * 2048 + 4 * 64 * 16
    experts = 2 * 4 * 64 * 16 * 2048 + 2 * 4 * 64 * 1408 * 16 + 4 * 64 * 16 * 1408 + 4 * 64 * 2048 * 16
    slots = 2 * (27 * attention + dense + 26 * (router + shared + experts))
    off = run_preset("llama3-8b", model="deepseek-v2-lite")
    on = run_preset("llama3-8b", model="deepseek-v2-lite", max_loras=4, max_lora_rank="16")
    lora = on.values["lora_bytes_per_gpu"]
    assert slots == 2_325_725_184 and slots < lora < slots + MiB
    assert off.values["kv_cache_memory"] - on.values["kv_cache_memory"] == pytest.approx(lora)
    assert on.values["max_concurrency"] < off.values["max_concurrency"] * 0.95
    bar = {p["name"]: p for p in on.bars["Memory per GPU"]["parts"]}
    assert bar["lora_bytes_per_gpu"]["shown"]
    assert any("64 routed experts" in n for n in on.notes)
    # up to 0.21.0 the MLA wrapper's references get slots of their own: in 0.20.0 q_proj, kv_a_proj_with_mqa
    # and o_proj twice, kv_b_proj three times (layers/mla.py, MLAAttention)
    old = run_preset("llama3-8b", model="deepseek-v2-lite", max_loras=4, vllm_version="0.20.0")
    kv_b = 4 * 16 * 512 + 4 * 16 * 16 * 256
    extra = 2 * 27 * (attention + kv_b)
    assert slots + extra < old.values["lora_bytes_per_gpu"] < slots + extra + MiB
    refused = run_preset("llama3-8b", model="deepseek-v2-lite", max_loras=4, vllm_version="0.17.0")
    assert any(n.startswith("vLLM refuses this") and "GateLinear" in n for n in refused.notes)


def test_lora_slots_of_gpt_oss_20b_take_the_mxfp4_backends_rounded_sizes():
    """gpt-oss-20b on one H100 with 4 LoRA slots of rank 16 (vLLM 0.33.0): FusedMoE3DWithLoRA's slots
    take the experts' hidden size and width as MARLIN, the MXFP4 backend LoRA gets, rounds them up
    (2880 → 3072 and 2944); the router and the attention keep 2880 (oracle/mxfp4.py)."""
    attention = 3 * 4 * 16 * 2880 + 4 * 16 * (4096 + 2 * 512) + 4 * 16 * 4096 + 4 * 2880 * 16
    router = 4 * 16 * 2880 + 4 * 32 * 16
    experts = 4 * 32 * 16 * 3072 + 2 * 4 * 32 * 2944 * 16 + 4 * 32 * 16 * 2944 + 4 * 32 * 3072 * 16
    slots = 2 * 24 * (attention + router + experts)
    off = run_preset("llama3-8b", model="gpt-oss-20b")
    on = run_preset("llama3-8b", model="gpt-oss-20b", max_loras=4, max_lora_rank="16")
    lora = on.values["lora_bytes_per_gpu"]
    assert slots == 1_544_847_360 and slots < lora < slots + MiB
    assert off.values["kv_cache_memory"] - on.values["kv_cache_memory"] == pytest.approx(lora)
    assert on.values["max_concurrency"] < off.values["max_concurrency"]
    older = run_preset("llama3-8b", model="gpt-oss-20b", max_loras=4, vllm_version="0.28.0")
    assert older.values["lora_bytes_per_gpu"] is None


def test_the_stored_kv_dtype_is_the_engines():
    """The per-token bytes read the pool's stored dtype: vLLM 0.33 on an RTX PRO 6000 keeps DeepSeek-V3.2's fp8
    cache as fp8_ds_mla (656 + 132 bytes a token and layer); SGLang 0.5.6 keeps the plain fp8 latent (576 + its
    NSA indexer's 132: engines.sglang.model_cell_bytes) and says nothing of fp8_ds_mla."""
    common = dict(dcp=1, gpu="rtx-pro-6000", kv_dtype="fp8", gpus=8)
    vllm = run_preset("deepseek-v32-dcp", **common)
    assert vllm.values["kv_bytes_per_token"] == 61 * (656 + 132)
    assert any("as fp8_ds_mla" in n for n in vllm.notes)
    sglang = run_preset("deepseek-v32-dcp", **common, engine="sglang", sglang_version="0.5.6", mem_fraction_static=0.85)
    assert sglang.values["kv_bytes_per_token"] == 61 * (576 + 132)
    assert not any("as fp8_ds_mla" in n for n in sglang.notes)
