"""SGLang's sliding-window pool (engines/sglang_swa.py), by hand from its source and against a public log."""

from __future__ import annotations

import pytest

from llm_inference.engines import sglang_swa
from llm_inference.engines import sglang_token_pool
from llm_inference.engines.sglang_logs import BY_ID
from llm_inference.scenario import catalogue_model

GIB = 1 << 30


def test_which_release_gives_windowed_layers_their_own_pool():
    """model_runner.py / server_args.py per release: 0.4.10 Gemma 2/3; 0.5.3–0.5.6 nobody (disable_hybrid_swa_memory
    for Gemma and gpt-oss); 0.5.23 gpt-oss (SWA_SINK_ARCHS), Gemma disabled; plain windows (Mistral) never."""
    oss, gemma, mistral = (catalogue_model(m) for m in ("gpt-oss-120b", "gemma-3-27b", "mistral-7b-v0.1"))
    assert [sglang_swa.hybrid_swa(gemma, r, "gemma3_text") for r in ("0.4.9.post2", "0.4.10", "0.5.3", "0.5.6", "0.5.23")] \
        == [False, True, False, False, False]
    assert [sglang_swa.hybrid_swa(oss, r, "gpt_oss") for r in ("0.4.9.post2", "0.5.3", "0.5.6", "0.5.10", "0.5.23")] \
        == [False, False, False, False, True]
    with pytest.raises(ValueError, match="gpt-oss came after 0.4.10"):
        sglang_swa.hybrid_swa(oss, "0.5.0", "gpt_oss")
    assert not sglang_swa.hybrid_swa(mistral, "0.5.23", "mistral") and not sglang_swa.hybrid_swa(mistral, "0.4.10", "mistral")
    assert not sglang_swa.hybrid_swa(catalogue_model("qwen3-14b"), "0.5.23", "qwen3")
    assert not sglang_swa.hybrid_swa(gemma, "0.5.6", "")  # 0.5.6's answer does not depend on the architecture
    with pytest.raises(ValueError, match="custom"):
        sglang_swa.hybrid_swa(gemma, "0.4.10", "")
    with pytest.raises(ValueError, match="not modelled"):
        sglang_swa.hybrid_swa(catalogue_model("llama-4-scout"), "0.5.23", "llama4_text")


def test_swa_split_of_0_4_10_by_hand_gemma3_27b():
    """set_num_token_hybrid: all layers' tokens shared so that swa = 0.8 × full (Gemma 3 27B's config:
    62 layers, 16 KV heads of 128, every sixth layer global: 10 full, 52 sliding)."""
    t, w, f = 78.0, 51.0, 0.874
    cell = 62 * 16 * 128 * 2 * 2
    profiled = int(((t - w) - t * (1 - f)) * GIB // cell)
    full = int(profiled * 62 / (0.8 * 52 + 10))
    swa = int(full * 0.8)
    pool = sglang_token_pool.token_pool(catalogue_model("gemma-3-27b"), 0.0, 1, "0.4.10", weight_gib_per_gpu=w,
                             mem_fraction_static=f, free_at_start_gib=t, model_type="gemma3_text")
    assert (pool.swa.full_tokens, pool.swa.swa_tokens) == (full, swa)
    assert pool.max_total_num_tokens == full  # the scheduler prints the full layers' pool
    layer = 16 * 128 * 2 * 2
    assert pool.k_size_gib == pytest.approx((full + 1) * layer * 10 / 2 / GIB)
    assert pool.swa_k_size_gib == pytest.approx((swa + 1) * layer * 52 / 2 / GIB)
    # the same memory: the two pools hold what the one pool of every layer would have held (to a token a layer)
    assert (full * 10 + swa * 52) * layer == pytest.approx(profiled * cell, abs=62 * layer)
    uniform = sglang_token_pool.token_pool(catalogue_model("gemma-3-27b"), 0.0, 1, "0.5.6", weight_gib_per_gpu=w,
                                mem_fraction_static=f, free_at_start_gib=t, model_type="gemma3_text")
    assert uniform.swa is None and uniform.max_total_num_tokens == profiled


def test_swa_split_of_0_5_23_by_hand_gpt_oss_120b():
    """HybridSWAPoolConfigurator: cell = full layers + 0.8 × SWA layers; full = rest // cell; swa = 0.8 × full
    (gpt-oss-120b's config: 36 layers alternating sliding/full, 8 KV heads of 64)."""
    t, w, f = 78.66, 60.8, 0.835
    layer = 8 * 64 * 2 * 2
    rest = ((t - w) - t * (1 - f)) * GIB
    full = int(rest // (18 * layer + 0.8 * 18 * layer))
    pool = sglang_token_pool.token_pool(catalogue_model("gpt-oss-120b"), 0.0, 1, "0.5.23", weight_gib_per_gpu=w,
                             mem_fraction_static=f, free_at_start_gib=t, model_type="gpt_oss")
    assert (pool.swa.full_tokens, pool.swa.swa_tokens) == (full, int(full * 0.8)) and not pool.problem
    one_pool = sglang_token_pool.token_pool(catalogue_model("gpt-oss-120b"), 0.0, 1, "0.5.6", weight_gib_per_gpu=w,
                                 mem_fraction_static=f, free_at_start_gib=t, model_type="gpt_oss")
    assert one_pool.swa is None and one_pool.max_total_num_tokens == int(rest // (36 * layer))
    assert full / one_pool.max_total_num_tokens == pytest.approx(36 / 32.4, rel=1e-4)
    # 0.5.23 refuses an SWA pool no request fits in: window (128) + page ≥ swa tokens
    tiny = sglang_token_pool.token_pool(catalogue_model("gpt-oss-120b"), 0.0, 1, "0.5.23", weight_gib_per_gpu=w,
                             mem_fraction_static=f, free_at_start_gib=t, model_type="gpt_oss",
                             max_total_tokens=150)
    assert tiny.swa.swa_tokens == 120 and "cannot hold even one request" in tiny.problem


def test_mimo_swa_log_split_and_sizes():
    """PR #18039's log: swa_layer_tokens = int(0.8 × full_layer_tokens) on 64-token pages, and the SWA pool's
    K and V sizes from MiMo-V2-Flash's config (39 sliding layers, 8 KV heads ÷ TP 4, K 192 and V 128 wide)."""
    log = BY_ID["mimo-v2-flash-tp4-swa-split"]
    p = log.parsed
    assert int(375360 * 0.8) // 64 * 64 == 300288 == sglang_swa.swa_tokens_of(int(p["full_tokens"]), 0.8, 64)
    slots = (300288 + 64) * 2 * 39 * 2
    k, v = sglang_swa.swa_pool_sizes_gib(300288, swa_layers=39, kv_heads=2, k_head_dim=192, v_head_dim=128,
                                     kv_dtype_bytes=2, page_size=64)
    assert (k, v) == (slots * 192 / GIB, slots * 128 / GIB)
    assert round(k, 2) == p["swa_k_gib"] and round(v, 2) == p["swa_v_gib"]


# --- DeepSeek-V3.2: the NSA pool ---------------------------------------------------------------------------
