"""SGLang's pool in budget.Pool's shape (physics/sglang_pool.py), against a derivation by hand from
SGLang's profile_max_num_token: pool = (T − W) − T(1 − f), cells = pool // cell."""

from __future__ import annotations

from dataclasses import replace

import pytest

from llm_inference.engines import sglang_token_pool
from llm_inference.hardware import GPUS
from llm_inference.physics.sglang_pool import SGLangSettings, startup_lines
from llm_inference.engine_choice import deployment_from_inputs, sglang_notes
from llm_inference.kv_cache import SPEC

GIB = 1 << 30


def _deployment(**inputs):
    resolved, _notes = SPEC.prepare({**SPEC.preset("llama3-8b").values, **inputs})
    return deployment_from_inputs(resolved)[0]


def test_pool_by_hand_on_one_h100():
    vllm = _deployment()
    d = replace(vllm, sglang=SGLangSettings(release="0.4.6", mem_fraction_static=0.88, free_at_start_gib=78.0))
    pool = d.pool
    weights = pool.placement.weight_bytes_per_gpu
    t = 78.0 * GIB
    rest = (t - weights) - t * 0.12
    cell = 32 * 8 * 128 * 2 * 2  # Llama 3.1 8B: layers × KV heads × head_dim × K,V × bf16
    assert pool.bytes_per_token == cell
    assert pool.available_bytes == pytest.approx(rest, rel=1e-12)
    assert pool.sglang.max_total_num_tokens == int(rest // cell)
    assert pool.kv_cache_tokens(8192) == int(rest // cell)
    assert pool.concurrency(8192) == pytest.approx(int(rest // cell) / 8192)
    assert pool.weight_bytes + pool.activation_bytes + pool.overhead_bytes + pool.available_bytes == pytest.approx(
        GPUS["h100-sxm"].visible)
    assert f"#tokens: {int(rest // cell)}, K size: " in startup_lines(pool)


def test_vllm_pool_unchanged_and_resizing_keeps_sglang():
    vllm = _deployment()
    assert vllm.sglang is None and type(vllm.pool).__name__ == "Pool"
    d = replace(vllm, sglang=SGLangSettings())
    assert d.resized(gpus=2).sglang == d.sglang
    assert type(d.pool).__name__ == "SGLangPool"


def test_too_little_memory_is_refused_with_sglangs_words():
    d = replace(_deployment(), sglang=SGLangSettings(mem_fraction_static=0.1, free_at_start_gib=78.0))
    assert not d.pool.starts and "increase" not in d.pool.problem and "smallest that starts" in d.pool.problem
    assert "Not enough memory" in startup_lines(d.pool)


def test_free_memory_beyond_the_gpu_is_refused_not_costed():
    # T is read on this GPU after the CUDA context: more than the GPU shows would make the runtime's
    # share negative, so the pool refuses and names the line to read instead.
    d = replace(_deployment(), sglang=SGLangSettings(mem_fraction_static=0.88, free_at_start_gib=500.0))
    assert not d.pool.starts and "Load weight begin" in d.pool.problem
    assert d.pool.overhead_bytes >= 0 and d.pool.kv_cache_tokens(8192) == 0


def test_a_kv_cell_of_no_bytes_is_refused():
    model = replace(_deployment().model, head_dim=0)
    with pytest.raises(ValueError, match="0 bytes"):
        sglang_token_pool.token_pool(model, 79.0, 1, "0.4.6", weight_gib_per_gpu=15.0, mem_fraction_static=0.88)


def test_free_memory_above_what_the_gpu_shows_is_refused_not_a_negative_runtime():
    # found by test_properties once the LoRA inputs moved its draws: avail mem=1024 GB on an H100
    out = SPEC.run({**SPEC.preset("llama3-8b").values, "engine": "sglang", "sglang_free_gib": 1024.0})
    assert out.values["runtime_bytes"] >= 0 and out.values["max_concurrency"] == 0
    assert any("(1024.00 GiB) is more than the NVIDIA H100" in n for n in out.notes), out.notes


def _run(**inputs):
    from llm_inference.kv_cache import SPEC as KV
    raw = {**KV.preset("llama3-8b").values, "engine": "sglang", "weight_dtype": "shipped", "gpu": "h100-sxm",
           "gpus": 1, **inputs}
    KV.check_overrides(raw)
    return KV.run(raw)


def test_gpt_oss_120b_on_one_h100_is_one_pool_in_0_5_6():
    """0.5.6 turns the SWA pool off for GptOssForCausalLM: every one of the 36 layers caches every token
    (8 KV heads of 64, K and V, bf16); T = the H100's visible memory less the 0.53 GiB context, f = 0.835."""
    r = _run(model="gpt-oss-120b")
    v = r.values
    t = GPUS["h100-sxm"].visible - 0.53 * GIB
    tokens = int((t * 0.835 - v["weight_bytes_per_gpu"]) // (36 * 8 * 64 * 2 * 2))
    assert v["kv_cache_tokens"] == tokens
    assert "Use Sliding window memory pool" not in v["startup_lines"]
    assert any("sliding-window layers every token" in n for n in r.notes)


def test_gemma3_27b_in_0_4_10_has_two_pools():
    """0.4.10: Gemma 3's 52 windowed layers in the SWA pool, 10 full layers in the full pool; swa = int(0.8 × full)."""
    r = _run(model="gemma-3-27b", sglang_version="0.4.10")
    v = r.values
    t = GPUS["h100-sxm"].visible - 0.53 * GIB
    fraction = round((81559 - (9.5 + 0.5) * 1024) / 81559, 3)  # 0.4.8–0.4.10 rule for an 80 GiB GPU at TP 1
    cell = 62 * 16 * 128 * 2 * 2
    profiled = int((t - v["weight_bytes_per_gpu"] - t * (1 - fraction)) // cell)
    full = int(profiled * 62 / (0.8 * 52 + 10))
    assert v["kv_cache_tokens"] == full
    assert (f"Use Sliding window memory pool. full_layer_tokens={full}, swa_layer_tokens={int(full * 0.8)}"
            in v["startup_lines"])
    assert any("SWAKVPool" in n for n in r.notes)
    halved = _run(model="gemma-3-27b", sglang_version="0.4.10", swa_full_tokens_ratio=0.5).values
    assert halved["kv_cache_tokens"] == int(profiled * 62 / (0.5 * 52 + 10))


def test_deepseek_v32_gets_the_nsa_cell_not_a_refusal():
    """DeepSeek-V3.2 on 8 × H200, 0.5.6: 61 layers × (latent 576 bf16 + indexer 128 + 4), 64-token pages;
    f = the 0.5.6 rule (512 + 1.5 × 8,192 + 2 × 512 + 8/8 GiB kept of 143,771 MiB)."""
    r = _run(model="deepseek-v3.2", gpu="h200", gpus=8)
    v = r.values
    t = GPUS["h200"].visible - 2.0 * GIB
    fraction = round((143771 - (512 + 1.5 * 8192 + 2 * 512 + 1024)) / 143771, 3)
    cell = 61 * ((512 + 64) * 2 + 128 + 4)
    assert v["kv_bytes_per_token_per_gpu"] == cell
    assert v["kv_cache_tokens"] == int((t - v["weight_bytes_per_gpu"] - t * (1 - fraction)) // cell) // 64 * 64
    assert any("NSA pool" in n for n in r.notes)


def test_eagle3_head_under_sglang_by_hand():
    """Llama 3.1 8B with its EAGLE-3 head, k = 3, on one H100 (0.5.6): the fraction keeps 2 GiB more, the count
    gains 48 × (3 + 4) + 100 tokens, and the head's own pool (1 layer, 8 KV heads of 128, bf16: 4,096 bytes a
    token) of as many tokens, with its weights, is taken out of the reserve, not the pool."""
    r = _run(model="llama-3.1-8b", speculation="eagle", num_speculative_tokens=3)
    v = r.values
    t = GPUS["h100-sxm"].visible - 0.53 * GIB
    fraction = round((81559 - (512 + 1.5 * 8192 + 2 * 256 + 128) - 2048) / 81559, 3)
    tokens = int((t * fraction - v["weight_bytes_per_gpu"]) // (32 * 8 * 128 * 2 * 2)) + 48 * (3 + 4) + 100
    assert v["kv_cache_tokens"] == tokens
    assert any("EAGLE3" in n and "436 tokens of headroom" in n for n in r.notes)
    plain = _run(model="llama-3.1-8b").values
    assert v["activation_bytes"] < plain["activation_bytes"]
    head_pool = (tokens + 1) * 1 * 8 * 128 * 2 * 2
    assert v["kv_cache_memory"] == pytest.approx(
        t * fraction - v["weight_bytes_per_gpu"] + head_pool, rel=1e-12)  # the target's pool and the head's
    assert v["activation_bytes"] == pytest.approx(t * (1 - fraction) - v["drafter_bytes_per_gpu"] - head_pool,
                                                  rel=1e-12)
    assert v["weight_bytes_per_gpu"] + v["drafter_bytes_per_gpu"] + v["activation_bytes"] + v["runtime_bytes"] + \
        v["kv_cache_memory"] == pytest.approx(GPUS["h100-sxm"].visible, rel=1e-9)


def test_deepseek_v3_dp_attention_on_8_h200_by_hand():
    """The book's DP layout under SGLang is --tp 8 --dp 8 --enable-dp-attention: attention TP 1, the MLA
    latent (512 + 64) × 61 layers × bf16 on every rank, each rank a pool of its own sized by the same formula.
    0.5.6's fraction on an H200 (143,771 MiB), TP 8, graph batch 512: reserved = 512 + 1.5 × 8,192 + 2 × 512
    + 8/8 GiB + 3 × 512 × 8 + 1.5 × 512 × 8 = 33,280 MiB → round(110,491 / 143,771, 3) = 0.769."""
    d = _deployment(model="deepseek-v3", gpu="h200", gpus=8, attention_parallel="dp", engine="sglang")
    pool = d.pool
    assert pool.starts and pool.sglang.mem_fraction_static == 0.769
    cell = (512 + 64) * 61 * 2
    assert pool.sglang.cell_bytes == cell == pool.bytes_per_token
    t = GPUS["h200"].visible - 2.0 * GIB  # T estimated: visible less the TP band of CONTEXT_GIB
    # SGLang's weights: attention and embedding whole, the rest as TP 8 slices
    w = d.weights
    groups = {n: {g.group: g.bytes for g in w.groups(n)} for n in (1, 8)}
    sglang_weights = (sum(groups[8].values()) - groups[8]["attention"] - groups[8]["embedding"]
                      + groups[1]["attention"] + groups[1]["embedding"])
    assert pool.weight_bytes == pytest.approx(sglang_weights, rel=1e-9)
    assert sglang_weights < pool.placement.weight_bytes_per_gpu  # the book's DP placement holds more
    rest = (t - sglang_weights) - t * (1 - 0.769)
    assert pool.sglang.max_total_num_tokens == int(rest // cell)
    # under TP 8 the same latent is copied on every GPU for the same requests; under DP attention each
    # rank's pool serves its own requests, so the deployment holds 8 pools
    tp8 = _deployment(model="deepseek-v3", gpu="h200", gpus=8, engine="sglang").pool
    assert tp8.sglang.cell_bytes == cell and tp8.sglang.mem_fraction_static == 0.897
    assert pool.concurrency(8192) == pytest.approx(8 * pool.sglang.max_total_num_tokens / 8192)
    assert "--enable-dp-attention" in " ".join(sglang_notes(d)) and "1,024 tokens a chunk" in " ".join(sglang_notes(d))


def test_dp_attention_0_5_23_fraction_and_refusals():
    d = _deployment(model="deepseek-v3", gpu="h200", gpus=8, attention_parallel="dp", engine="sglang",
                    sglang_version="0.5.23")
    assert d.pool.starts and d.pool.sglang.mem_fraction_static == 0.758  # 34,816 MiB reserved (test_sglang)
    spec = _deployment(model="deepseek-v3", gpu="h200", gpus=8, attention_parallel="dp", engine="sglang",
                       speculation="mtp")
    assert not spec.pool.starts and "DP attention" in spec.pool.problem
