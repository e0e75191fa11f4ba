"""SGLang's LoRA buffers (engines/sglang_lora.py), by hand from lora/mem_pool.py."""

from __future__ import annotations

import pytest

from llm_inference.engines import sglang_lora
from llm_inference.engines import sglang_token_pool
from llm_inference.scenario import catalogue_model

GIB = 1 << 30


def test_lora_buffers_by_hand_llama_8b_tp2():
    """0.5.6 lora/mem_pool.py: 8 slots (--max-loras-per-batch's default), rank 16, TP 2 — qkv A (8, 48, 4096),
    B (8, 6144 / 2, 16); o A (8, 16, 4096 / 2), B (8, 4096, 16); gate_up A (8, 32, 4096), B (8, 28672 / 2, 16);
    down A (8, 16, 14336 / 2), B (8, 4096, 16); 32 layers of bf16."""
    per_layer = (8 * 48 * 4096 + 8 * 3072 * 16 + 8 * 16 * 2048 + 8 * 4096 * 16 + 8 * 32 * 4096 + 8 * 14336 * 16
                 + 8 * 16 * 7168 + 8 * 4096 * 16)
    got = sglang_lora.lora_buffer_bytes(layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, intermediate=14336,
                                   max_loras_per_batch=sglang_lora.SGLANG_MAX_LORAS_PER_BATCH, max_lora_rank=16, tp=2)
    assert got == per_layer * 32 * 2 == 452_984_832
    # the buffers are allocated before the profile: B, and so the pool, is that much lower
    with_lora = sglang_token_pool.token_pool(catalogue_model("llama-3.1-8b"), 79.19, 1, "0.5.6", weight_gib_per_gpu=14.96,
                                  mem_fraction_static=0.85, free_at_start_gib=78.6, lora_gib=got / GIB)
    without = sglang_token_pool.token_pool(catalogue_model("llama-3.1-8b"), 79.19, 1, "0.5.6", weight_gib_per_gpu=14.96,
                                mem_fraction_static=0.85, free_at_start_gib=78.6)
    assert without.rest_gib - with_lora.rest_gib == pytest.approx(got / GIB)
    for release in ("0.5.3", "0.5.23"):
        with pytest.raises(ValueError, match="LoRA memory pool is not modelled"):
            sglang_lora.lora_buffer_bytes(layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, intermediate=14336,
                                     max_loras_per_batch=8, max_lora_rank=16, release=release)
