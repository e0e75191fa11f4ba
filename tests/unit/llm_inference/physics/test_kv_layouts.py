"""KV bytes per token and layer, in every layout the calculators offer, against numpy arrays
shaped like the cache (with its scales), and the textbook figures of the chapter."""

from __future__ import annotations

import numpy as np
import pytest

from llm_inference.physics import Model, kv
from llm_inference.physics.model import MLA
from llm_inference.physics.precision import KV_DTYPES, kv_vector_bytes, mla_latent_bytes

LLAMA3_8B = Model(layers=32, kv_heads=8, head_dim=128, total_params=8.03e9)
DEEPSEEK_V3 = Model(layers=61, attention=MLA, kv_heads=1, head_dim=576, latent_dim=512, rope_dim=64,
                    total_params=671e9)


def gqa_cache(kv_dtype: str, layers: int, kv_heads: int, head_dim: int) -> int:
    """One token's K and V in every layer, as arrays shaped like vLLM's pages: the values, and
    the per-token-head layouts' fp32 scale per (K or V, head), NVFP4's fp8 scale per 16 values."""
    values = {"bf16": np.float16, "fp16": np.float16, "fp8": np.uint8, "fp8_e4m3": np.uint8, "fp8_e5m2": np.uint8,
              "int8_per_token_head": np.int8, "fp8_per_token_head": np.uint8}
    if kv_dtype in ("int4_per_token_head", "nvfp4"):
        data = np.zeros((2, layers, kv_heads, head_dim // 2), dtype=np.uint8)  # two values per byte
    else:
        data = np.zeros((2, layers, kv_heads, head_dim), dtype=values[kv_dtype])
    if kv_dtype.endswith("_per_token_head"):
        scales = np.zeros((2, layers, kv_heads), dtype=np.float32)
    elif kv_dtype == "nvfp4":
        scales = np.zeros((2, layers, kv_heads, head_dim // 16), dtype=np.uint8)  # e4m3 block scales
    else:
        scales = np.zeros(0)
    return data.nbytes + scales.nbytes


GQA_LAYOUTS = ["bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2", "int8_per_token_head", "fp8_per_token_head",
               "int4_per_token_head", "nvfp4"]


@pytest.mark.parametrize("kv_dtype", GQA_LAYOUTS)
def test_gqa_layouts_match_the_arrays(kv_dtype):
    assert kv.bytes_per_token(LLAMA3_8B, kv_dtype) == gqa_cache(kv_dtype, 32, 8, 128)


def test_every_offered_layout_is_tested():
    assert set(KV_DTYPES) == set(GQA_LAYOUTS) | {"fp8_ds_mla", "nvfp4_ds_mla"}


def test_the_chapters_figures():
    assert kv.bytes_per_token(LLAMA3_8B, "bf16") == 128 * 1024
    assert kv.bytes_per_token(LLAMA3_8B, "fp8") == 64 * 1024  # one scale per layer: nothing per token
    assert kv.bytes_per_sequence(LLAMA3_8B, "bf16", 8192) == 2**30
    assert kv.bytes_per_sequence(LLAMA3_8B, "bf16", 131072) == 16 * 2**30
    gpt3 = Model(layers=96, kv_heads=96, head_dim=128)
    assert kv.bytes_per_token(gpt3, "bf16") == 4.5 * 2**20
    assert kv.bytes_per_token(DEEPSEEK_V3, "bf16") == 70272 == np.zeros((61, 576), np.float16).nbytes


def test_per_token_head_layouts_carry_their_scales():
    # vLLM's TRITON_ATTN packs one fp32 scale after each head's K (and V) data: 132 bytes, not 128
    assert kv_vector_bytes(128, "int8_per_token_head") == kv_vector_bytes(128, "fp8_per_token_head") == 128 + 4
    assert kv_vector_bytes(128, "int4_per_token_head") == 64 + 4
    assert kv_vector_bytes(128, "nvfp4") == 64 + 8  # an fp8 scale per 16 values
    assert kv.bytes_per_token(LLAMA3_8B, "nvfp4") / kv.bytes_per_token(LLAMA3_8B, "bf16") == pytest.approx(72 / 256)


def test_mla_layouts():
    assert mla_latent_bytes(512, 64, "bf16") == 576 * 2
    assert mla_latent_bytes(512, 64, "fp8") == 576  # vLLM's --kv-cache-dtype fp8 on MLA: per-tensor scale
    # fp8_ds_mla: 512 fp8 NoPE values, 4 fp32 scales, 64 bf16 RoPE values
    layout = (np.zeros(512, np.uint8).nbytes + np.zeros(4, np.float32).nbytes + np.zeros(64, np.float16).nbytes)
    assert mla_latent_bytes(512, 64, "fp8_ds_mla") == layout == 656
    assert kv.bytes_per_token(DEEPSEEK_V3, "fp8_ds_mla") == 61 * 656
    # nvfp4_ds_mla: 256 bytes of packed e2m1 NoPE, 64 fp8 RoPE values, 32 fp8 block scales
    layout = np.zeros(256, np.uint8).nbytes + np.zeros(64, np.uint8).nbytes + np.zeros(32, np.uint8).nbytes
    assert mla_latent_bytes(512, 64, "nvfp4_ds_mla") == layout == 352


def test_deepseek_v32_caches_its_indexer_key_beside_the_latent():
    v32 = Model(layers=61, attention=MLA, kv_heads=1, head_dim=576, latent_dim=512, rope_dim=64, indexer_dim=128)
    # DeepseekV32IndexerCache: 128 fp8 values + one fp32 scale per 128, whatever the KV dtype
    indexer = np.zeros(128, np.uint8).nbytes + np.zeros(1, np.float32).nbytes
    assert kv.layer_bytes_per_token(v32, "fp8_ds_mla") == 656 + indexer == 788
    assert kv.bytes_per_token(v32, "bf16") == 61 * (1152 + 132)


def test_mla_ignores_the_head_counts():
    listed = Model(layers=61, attention=MLA, kv_heads=128, head_dim=160, latent_dim=512, rope_dim=64)
    assert kv.bytes_per_token(listed, "bf16") == 70272


def test_every_layout_shrinks_with_fewer_bits():
    order = ["bf16", "int8_per_token_head", "fp8", "nvfp4", "int4_per_token_head"]
    sizes = [kv.bytes_per_token(LLAMA3_8B, d) for d in order]
    assert sizes == sorted(sizes, reverse=True)
    mla = ["bf16", "fp8_ds_mla", "fp8", "nvfp4_ds_mla"]
    sizes = [kv.bytes_per_token(DEEPSEEK_V3, d) for d in mla]
    assert sizes == sorted(sizes, reverse=True)


def test_windows_cap_the_windowed_layers():
    mistral = Model(layers=32, kv_heads=8, head_dim=128, window=4096, window_layers=32)
    assert kv.bytes_per_sequence(mistral, "bf16", 32768) == kv.bytes_per_sequence(mistral, "bf16", 4096) == 512 * 2**20
    gemma2 = Model(layers=42, kv_heads=8, head_dim=256, window=4096, window_layers=21)
    full = np.zeros((2, 21, 8, 32768, 256), np.float16).nbytes
    windowed = np.zeros((2, 21, 8, 4096, 256), np.float16).nbytes
    assert kv.bytes_per_sequence(gemma2, "bf16", 32768) == full + windowed


@pytest.mark.parametrize("budget", [0, 1, 2**20, 2**30, 3 * 2**30, 2**40])
def test_longest_context_inverts_the_sequence_size(budget):
    for model in (LLAMA3_8B, Model(layers=42, kv_heads=8, head_dim=256, window=4096, window_layers=21)):
        n = kv.longest_context(model, "bf16", budget, 1 << 20)
        assert kv.bytes_per_sequence(model, "bf16", n) <= budget or n == 0
        if 0 < n < 1 << 20:
            assert kv.bytes_per_sequence(model, "bf16", n + 1) > budget
