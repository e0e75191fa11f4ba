"""vLLM's definitions, one rule at a time (each test names the vLLM source it mirrors)."""

from __future__ import annotations

import pytest

from llm_inference.engines import vllm
from llm_inference.engines.vllm import GIB, LayerGroup


def test_fp8_ds_mla_is_656_bytes_per_token_and_layer():
    # flashmla_sparse.py: 512 fp8 NoPE + 4 fp32 scales + 64 bf16 RoPE
    assert vllm.FP8_DS_MLA_LAYOUT == {"nope_fp8": 512, "scales_fp32": 16, "rope_bf16": 128}
    assert vllm.FP8_DS_MLA_BYTES_PER_TOKEN == 656
    assert vllm.page_size_bytes("mla", block_size=64, cache_dtype="fp8_ds_mla") == 64 * 656


def test_mla_page_is_one_latent_without_the_factor_two():
    # MLAAttentionSpec: block × 1 × 576 × dtype; DeepSeek-V3: 61 layers → 70,272 bytes per token
    page = vllm.page_size_bytes("mla", block_size=16, head_size=vllm.MLA_HEAD_SIZE_DEEPSEEK, dtype_bytes=2)
    assert page == 16 * 576 * 2
    assert page // 16 * 61 == 70272


def test_full_and_windowed_pages_are_the_same_size():
    full = vllm.page_size_bytes("full", block_size=16, num_kv_heads=8, head_size=128, dtype_bytes=2)
    assert full == 2 * 16 * 8 * 128 * 2 == 65536
    assert vllm.page_size_bytes("sliding", block_size=16, num_kv_heads=8, head_size=128) == full
    # K and V of different widths (head_size_v)
    assert vllm.page_size_bytes("full", num_kv_heads=1, head_size=192, head_size_v=128) == 16 * 320 * 2
    with pytest.raises(ValueError):
        vllm.page_size_bytes("linear")


def test_sliding_window_reserves_window_minus_one_plus_batch_plus_one_block():
    # SlidingWindowSpec.max_memory_usage_bytes: (cdiv(min(w - 1 + T, L), block) + 1) × page
    assert vllm.sliding_window_tokens(4096, 8192, 16) == (-(-(4096 - 1 + 8192) // 16) + 1) * 16 == 12304
    assert vllm.sliding_window_tokens(4096, 8192, 16, max_model_len=8192) == (512 + 1) * 16
    # the docstring's example: block 4, 4 tokens after the window → two blocks [XXCD] [EF]
    assert vllm.sliding_window_tokens(3, 4, 4) == (2 + 1) * 4  # cdiv(6, 4) + 1 = 3 blocks
    # Phi-3-mini-4k's 2047-token window at the API server's 2,048 batched tokens
    assert vllm.sliding_window_tokens(2047, 2048, 16, max_model_len=4096) == 4096 + 16


def test_chunked_local_attention_has_no_extra_block():
    # ChunkedLocalAttentionSpec: cdiv(min(chunk + T, L), block) × page (Llama 4: chunk 8192)
    assert vllm.chunked_local_tokens(8192, 8192, 16) == 16384
    assert vllm.chunked_local_tokens(8192, 8192, 16, max_model_len=10000) == 10000


def test_hybrid_layers_are_grouped_by_the_smallest_type_and_padded():
    # _get_kv_cache_groups_uniform_page_size, 0.11.0: Gemma-3-27B-like 52 local + 10 global layers
    size, groups, padding = vllm.kv_cache_groups([LayerGroup("sliding", 52, 1024), LayerGroup("full", 10)])
    assert size == 10 and padding == 8
    assert [g.kind for g in groups] == ["sliding"] * 6 + ["full"]
    # gpt-oss-20b + an EAGLE drafter: 12 sliding + 13 full; 0.33.0 pads to 13 + 13 (one padding layer)
    types = [LayerGroup("sliding", 12, 128), LayerGroup("full", 13)]
    assert vllm.kv_cache_groups(types, "0.11.0")[0] == 12
    assert vllm.kv_cache_groups(types, "0.33.0")[:1] + vllm.kv_cache_groups(types, "0.33.0")[2:] == (13, 1)
    # one type: one group of all layers
    assert vllm.kv_cache_groups([LayerGroup("full", 32)]) == (32, [LayerGroup("full", 1)], 0)


def test_hybrid_request_blocks_and_the_two_token_counts():
    size, groups, _ = vllm.kv_cache_groups([LayerGroup("sliding", 52, 1024), LayerGroup("full", 10)])
    per_request = vllm.blocks_per_request(groups, max_model_len=131072, max_num_batched_tokens=8192)
    assert per_request == 131072 // 16 + 6 * (-(-(1023 + 8192) // 16) + 1)
    blocks = 20000
    old = vllm.gpu_kv_cache_size_tokens(blocks, len(groups), per_request, 131072, version="0.20.0")
    new = vllm.gpu_kv_cache_size_tokens(blocks, len(groups), per_request, 131072, version="0.21.0")
    assert old == blocks // 7 * 16
    assert new == int(blocks / per_request * 131072)
    assert new > 3 * old  # why vllm#43308 saw Gemma 4's "KV cache size" jump ~10× in 0.21


def test_blocks_tokens_and_concurrency_of_a_plain_model():
    # the brief's cross-check: Llama 3.1 8B, 11.12 GiB left → 11.12× at 8,192 tokens
    page = vllm.page_size_bytes("full", num_kv_heads=8, head_size=128)
    blocks, tokens = vllm.blocks_and_tokens(11.12 * GIB, page, 32)
    assert tokens == blocks * 16
    request = vllm.blocks_per_request([LayerGroup("full", 1)], 8192, 8192)
    assert request == 512
    assert vllm.max_concurrency(blocks, request) == pytest.approx(11.12, abs=0.005)


def test_kv_heads_are_split_then_replicated():
    assert vllm.kv_heads_per_rank(8, 2) == 4
    assert vllm.kv_heads_per_rank(8, 16) == 1
    assert vllm.kv_replication_factor(8, 16) == 2  # 8 KV heads on TP 16: every head twice
    assert vllm.kv_replication_factor(8, 4) == 1
    assert vllm.kv_heads_per_rank(1, 8, mla=True) == 1
    assert vllm.kv_replication_factor(1, 8, mla=True) == 8  # the latent on all 8 GPUs
    with pytest.raises(ValueError):
        vllm.kv_heads_per_rank(8, 3)
    with pytest.raises(ValueError):
        vllm.kv_heads_per_rank(8, 12)


def test_legal_tensor_parallel_sizes():
    assert vllm.legal_tp_sizes(64, 8, max_tp=16) == [1, 2, 4, 8, 16]
    assert 3 not in vllm.legal_tp_sizes(64, 8)
    # Llama-3.1-70B with its MLP width and vocabulary
    assert vllm.legal_tp_sizes(64, 8, intermediate_size=28672, vocab_size=128256, max_tp=64) == [
        1, 2, 4, 8, 16, 32, 64]
    # 40 query heads, 8 KV heads (Qwen3-14B): 5 divides the heads but not the KV heads
    assert vllm.legal_tp_sizes(40, 8, max_tp=8) == [1, 2, 4, 8]
    # MLA: the KV-head rule does not apply (128 heads, DeepSeek-V3)
    assert vllm.legal_tp_sizes(128, 128, mla=True, max_tp=16) == [1, 2, 4, 8, 16]
    # the padded vocabulary must split evenly: 151,936 = 64 × 2374, not a multiple of 3
    assert 3 not in vllm.legal_tp_sizes(96, 96, vocab_size=151936, max_tp=8)


def test_pipeline_stages_split_layers_evenly_remainder_before_the_last():
    assert vllm.pipeline_stage_layers(32, 2) == [16, 16]
    assert vllm.pipeline_stage_layers(61, 4) == [15, 15, 16, 15]
    assert vllm.pipeline_stage_layers(80, 3) == [27, 27, 26]
    assert sum(vllm.pipeline_stage_layers(126, 8)) == 126


def test_default_utilization_changed_in_0_20():
    assert vllm.default_gpu_memory_utilization("0.19.1") == 0.9
    assert vllm.default_gpu_memory_utilization("0.20.0") == 0.92
    assert vllm.default_gpu_memory_utilization("0.33.0") == 0.92


def test_default_batched_tokens_depend_on_device_and_entry_point():
    h100, a100, l40s, b200 = 79.19 * GIB, 79.25 * GIB, 44.4 * GIB, 178.36 * GIB
    assert vllm.default_scheduler_limits(h100, "NVIDIA H100 80GB HBM3") == (8192, 1024)
    assert vllm.default_scheduler_limits(h100, "NVIDIA H100 80GB HBM3", "llm") == (16384, 1024)
    assert vllm.default_scheduler_limits(a100, "NVIDIA A100-SXM4-80GB") == (2048, 256)
    assert vllm.default_scheduler_limits(a100, "NVIDIA A100-SXM4-80GB", version="0.8.5") == (8192, 1024)
    assert vllm.default_scheduler_limits(l40s, "NVIDIA L40S", "llm") == (8192, 256)
    assert vllm.default_scheduler_limits(b200, "NVIDIA B200", version="0.28.0") == (16384, 1024)
    assert vllm.default_scheduler_limits(b200, "NVIDIA B200", version="0.27.0") == (8192, 1024)


def test_budget_subtracts_every_reservation():
    budget = vllm.kv_cache_budget(80 * GIB, 0.9, 15 * GIB, 1 * GIB, 0.5 * GIB, cuda_graph_bytes=0.5 * GIB)
    assert budget == pytest.approx(72 * GIB - 17 * GIB, abs=1)
    with pytest.raises(ValueError):
        vllm.requested_memory(80 * GIB, 1.2)


def test_version_parsing():
    assert vllm.parse_version("0.10.2") == (0, 10, 2)
    assert vllm.parse_version("v0.8.5.post1") == (0, 8, 5)
    assert vllm.parse_version("0.29.1rc1.dev17") == (0, 29, 1)
    assert vllm.parse_version((0, 21)) == (0, 21)


def test_batches_in_flight_by_release_runner_and_stages():
    """VllmConfig.max_concurrent_batches (0.26 on): async scheduling keeps two batches in flight on the V1
    runner without pipeline parallelism and pp_size with it; Model Runner V2 pp_size + 1; without async
    scheduling pp_size. Before 0.26 a window reserved one batch of max_num_batched_tokens."""
    from llm_inference.engines import vllm as v
    assert v.max_concurrent_batches("0.25.0") == 1 and v.in_flight_tokens(8192, "0.25.0") == 8192
    assert v.max_concurrent_batches("0.26.0") == 2 and v.in_flight_tokens(8192, "0.26.0") == 16384
    assert v.max_concurrent_batches("0.33.0", pipeline_stages=4) == 4
    assert v.max_concurrent_batches("0.33.0", pipeline_stages=4, v2_runner=True) == 5
    assert v.max_concurrent_batches("0.33.0", v2_runner=True) == 2
    assert v.max_concurrent_batches("0.33.0", pipeline_stages=2, async_scheduling=False) == 2
    # gpt-oss's 128-token window, 16-token blocks: cdiv(127 + 16,384, 16) + 1 = 1,033 blocks
    assert v.sliding_window_tokens(128, v.in_flight_tokens(8192, "0.26.0"), 16) == 1033 * 16
