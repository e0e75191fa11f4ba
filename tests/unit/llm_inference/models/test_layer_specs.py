"""Each layer kind's spec answers as vLLM's KVCacheSpec of that kind does, figures worked by hand;
and the move to specs changed no catalogue model's KV figure (catalogue_kv_fe84d0c.json holds
them as computed before it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models import catalogue_shape
from llm_inference.models import layer_specs as ls
from llm_inference.models.data import ENTRIES
from llm_inference.models.shape import RecurrentState
from llm_inference.physics import kv
from llm_inference.scenario import catalogue_values, model_from_inputs

BEFORE = json.loads(Path(__file__).with_name("catalogue_kv_fe84d0c.json").read_text())["models"]


def test_full_attention_bytes_page_and_blocks():
    # Llama 3.1 8B's layer: 8 KV heads x 128, K and V in bf16: 2 x 8 x 128 x 2 = 4096 bytes a token
    spec = ls.FullAttention(kv_heads=8, head_dim=128)
    assert spec.bytes_per_token("bf16") == 4096
    assert spec.bytes_per_token("fp8") == 2048
    assert spec.bytes_per_token("bf16", tensor_parallel=4) == 1024  # 2 heads a rank
    assert spec.bytes_per_token("bf16", tensor_parallel=16) == 512  # one replicated head
    assert spec.page_bytes(16, "bf16") == 16 * 4096
    assert spec.bytes_per_sequence(1000, "bf16") == 1000 * 4096
    assert spec.blocks_per_request(131072, 16) == 8192
    assert spec.blocks_per_request(131072, 16, dcp=4) == 2048  # cdiv(len, dcp) tokens a DCP rank
    assert spec.legacy == ("full", 0) and spec.caches_kv


def test_sliding_and_chunked_windows():
    sliding = ls.SlidingWindow(kv_heads=8, head_dim=64, size=128)  # gpt-oss
    assert sliding.bytes_per_token("bf16") == 2 * 8 * 64 * 2
    assert sliding.bytes_per_sequence(100_000, "bf16") == 128 * 2048
    assert sliding.bytes_per_sequence(100, "bf16") == 100 * 2048
    # SlidingWindowSpec: cdiv(min(window - 1 + batched, len), block) + 1 blocks
    assert sliding.blocks_per_request(131072, 16, 8192) == -(-(127 + 8192) // 16) + 1
    chunked = ls.ChunkedLocal(kv_heads=8, head_dim=128, size=8192)  # Llama 4
    assert chunked.legacy == ("chunked", 8192)
    # ChunkedLocalAttentionSpec: cdiv(min(chunk + batched, len), block), no extra block
    assert chunked.blocks_per_request(131072, 16, 8192) == (8192 + 8192) // 16


def test_k_eq_v_still_caches_k_and_v():
    # Gemma 4's global layer: 4 heads x 512, K serving as V; vLLM keeps both slots
    spec = ls.FullAttention(kv_heads=4, head_dim=512, k_eq_v=True)
    assert spec.bytes_per_token("bf16") == 2 * 4 * 512 * 2 == 8192


def test_latent_attention_with_and_without_indexer():
    # DeepSeek-V3: 512 + 64 values, one vector; V3.2's indexer adds 128 fp8 + one fp32 scale
    plain = ls.LatentAttention(latent_dim=512, rope_dim=64)
    sparse = ls.LatentAttention(latent_dim=512, rope_dim=64, indexer_dim=128)
    assert plain.bytes_per_token("bf16") == 576 * 2
    assert plain.bytes_per_token("bf16", tensor_parallel=8) == 1152  # every rank holds the latent
    assert sparse.bytes_per_token("bf16") == 1152 + 132
    assert sparse.bytes_per_token("fp8_ds_mla") == 656 + 132
    assert (plain.min_block_size, sparse.min_block_size) == (0, 64)
    assert plain.geometry != sparse.geometry


def test_recurrent_layers_keep_a_state_not_a_cache():
    # Qwen3-Next's Gated DeltaNet: 16 key heads and 32 value heads of 128, kernel 4
    state = RecurrentState("gated_deltanet", heads=32, head_dim=128, state_dim=128,
                           conv_channels=2 * 16 * 128 + 32 * 128, conv_kernel=4)
    spec = ls.recurrent(state)
    assert isinstance(spec, ls.LinearAttention) and not spec.caches_kv
    assert spec.bytes_per_token("bf16") == 0 and spec.bytes_per_sequence(10**6) == 0
    # conv (8192 channels x 3 columns) + ssm (32 x 128 x 128), both bf16
    assert spec.state_bytes() == (8192 * 3 + 32 * 128 * 128) * 2
    mamba = RecurrentState("mamba2", heads=128, head_dim=64, state_dim=128, conv_channels=8192, groups=8,
                           conv_kernel=4)
    assert isinstance(ls.recurrent(mamba), ls.StateSpace)


def test_parallel_mixers_add_the_state_to_the_attention():
    state = RecurrentState("mamba2", heads=24, head_dim=64, state_dim=256, conv_channels=1536, groups=1,
                           conv_kernel=4)
    attention = ls.FullAttention(kv_heads=2, head_dim=128)
    both = ls.ParallelMixers(attention=attention, mixer=ls.recurrent(state))
    assert both.bytes_per_token("bf16") == attention.bytes_per_token("bf16")
    assert both.state_bytes() == ls.recurrent(state).state_bytes() > 0
    assert both.legacy == ("full", 0)


def test_uniform_geometry():
    a, b = ls.FullAttention(kv_heads=16, head_dim=256), ls.SlidingWindow(kv_heads=16, head_dim=256, size=1024)
    assert ls.uniform_geometry((a, b, ls.NoCache()))
    assert not ls.uniform_geometry((ls.FullAttention(kv_heads=4, head_dim=512), b))


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.id in BEFORE], ids=lambda e: e.id)
def test_catalogue_kv_figures_unchanged(entry):
    """The models catalogued before the specs (later ones, whose layers differ, are tested by hand in
    test_models_2026.py and test_scenario_layer_specs.py)."""
    before = BEFORE[entry.id]
    shape = catalogue_shape(entry.id)
    model = model_from_inputs(dict(catalogue_values(entry.id)))
    assert shape.kv_bytes_per_token(2) == before["kv_bytes_per_token_bf16"]
    assert shape.kv_bytes_per_token(1) == before["kv_bytes_per_token_fp8"]
    assert shape.kv_layers == before["kv_layers"]
    for dtype in ("bf16", "fp8"):
        assert kv.bytes_per_token(model, dtype) == before[f"physics_token_{dtype}"]
        assert kv.bytes_per_sequence(model, dtype, 131072) == before[f"physics_seq128k_{dtype}"]
        assert kv.longest_context(model, dtype, 40e9, 10**7) == before[f"longest_{dtype}"]
    assert kv.layer_bytes_per_token(model, "bf16") == before["physics_layer_bf16"]
    assert kv.state_bytes_per_sequence(model) == before["state_seq"]
    # and the shape's own specs agree with the chapter's one-geometry formula
    assert shape.kv_bytes_per_token(2) == shape.kv_layers * shape.kv_elements_per_layer * 2
    assert shape.geometry_gap == ""
