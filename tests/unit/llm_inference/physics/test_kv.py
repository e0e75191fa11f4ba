"""physics.kv sums the layer specs: a model whose layers differ (Gemma 4, DeepSeek-V4) is counted
layer by layer, and a one-geometry model as the chapter's closed forms give it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models import derive
from llm_inference.physics import Model, kv

from ..models.test_compressed_attention import cache_side

FIXTURES = Path(__file__).parents[1] / "models" / "fixtures_2026"
GEMMA4 = derive(json.loads((FIXTURES / "nvidia--Gemma-4-31B-IT-NVFP4.json").read_text()))
# its weights' keys refuse the published config (test_compressed_attention): the cache side alone
V4 = derive(cache_side(json.loads((FIXTURES / "deepseek-ai--DeepSeek-V4-Flash.json").read_text())))
CONTEXT = 131072


def _model(shape) -> Model:
    return Model(layers=shape.layers, kv_heads=shape.kv_heads, head_dim=shape.head_dim, heads=shape.heads,
                 hidden_size=shape.hidden_size, total_params=shape.total_params, layer_specs=shape.layer_specs)


def test_gemma4_layer_by_layer():
    model = _model(GEMMA4)
    assert kv.bytes_per_sequence(model, "bf16", CONTEXT) == 10 * CONTEXT * 8192 + 50 * 1024 * 16384
    assert kv.bytes_per_token(model, "bf16") == 10 * 8192 + 50 * 16384
    assert kv.layer_bytes_per_token(model, "bf16") == (10 * 8192 + 50 * 16384) / 60
    # TP 8: the 4 global heads are replicated (one a rank), the 16 sliding ones split (two a rank)
    assert kv.bytes_per_token(model, "bf16", tensor_parallel=8) == 10 * 2 * 512 * 2 + 50 * 2 * 2 * 256 * 2
    assert kv.state_bytes_per_sequence(model) == 0


def test_longest_context_inverts_the_sequence_bytes():
    model = _model(GEMMA4)
    budget = 5 * 2**30
    longest = kv.longest_context(model, "bf16", budget, 10**7)
    assert kv.bytes_per_sequence(model, "bf16", longest) <= budget < kv.bytes_per_sequence(model, "bf16", longest + 1)
    # by hand: past the 1024-token window only the 10 global layers grow
    assert longest == 1024 + (budget - 1024 * (10 * 8192 + 50 * 16384)) // (10 * 8192)


def test_longest_context_of_a_one_geometry_model_is_the_closed_form():
    # 32 full layers and 8 windowed ones of 4096 tokens, 8 KV heads x 128 (4096 bytes a token in bf16)
    model = Model(layers=40, kv_heads=8, head_dim=128, window=4096, window_layers=8)
    per = 4096
    budget = 10e9
    at_window = 40 * per * 4096
    assert kv.longest_context(model, "bf16", budget, 10**7) == int(4096 + (budget - at_window) // (32 * per))
    assert kv.longest_context(model, "bf16", 1e6, 10**7) == int(1e6 // (40 * per))
    assert kv.longest_context(model, "bf16", 1e15, 5000) == 5000


def test_deepseek_v4_flash_with_its_compressor_state():
    model = _model(V4)
    assert kv.bytes_per_sequence(model, "fp8", CONTEXT) == V4.kv_bytes_per_sequence(CONTEXT, "fp8")
    assert kv.bytes_per_sequence(model, "fp8", CONTEXT) / 2**30 == pytest.approx(0.473, abs=0.001)
    assert kv.state_bytes_per_sequence(model) == 12_206_080
    with pytest.raises(ValueError, match="fp8"):
        kv.bytes_per_token(model, "bf16")
