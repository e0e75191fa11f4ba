"""MiMo-V2-Flash's sliding layers with their own geometry (models/window_geometry.py), against the
published config and a derivation by hand (fixtures_2026/by_hand.py, vLLM's mimo_v2_flash.py)."""

from __future__ import annotations

import copy

import pytest

from llm_inference.hardware import GPUS
from llm_inference.models import derive
from llm_inference.models.errors import ConfigError
from llm_inference.models.layer_specs import FullAttention, SlidingWindow
from llm_inference.physics.weights import WeightPlan

from .fixtures_2026.by_hand import CONTEXT, config, mimo_v2_kv, mimo_v2_weights

MIMO = config("XiaomiMiMo--MiMo-V2-Flash")


def test_each_layer_gets_its_geometry_from_hybrid_layer_pattern():
    shape = derive(MIMO)
    full = [s for s in shape.layer_specs if type(s) is FullAttention]
    window = [s for s in shape.layer_specs if type(s) is SlidingWindow]
    assert (len(full), len(window)) == (9, 39)
    # by hand: full layers 4 KV heads, K 192, V 128; sliding layers 8 KV heads over 128 tokens
    assert {(s.kv_heads, s.head_dim, s.v_dim) for s in full} == {(4, 192, 128)}
    assert {(s.kv_heads, s.head_dim, s.v_dim, s.size) for s in window} == {(8, 192, 128, 128)}
    assert [type(s) is SlidingWindow for s in shape.layer_specs] == [bool(p) for p in MIMO["hybrid_layer_pattern"]]


def test_kv_a_128k_sequence_matches_the_derivation_by_hand():
    # 9 x 131072 x 4 x 320 x 2 + 39 x 128 x 8 x 320 x 2 bytes = 2.836 GiB
    assert mimo_v2_kv(MIMO) == 9 * CONTEXT * 4 * 320 * 2 + 39 * 128 * 8 * 320 * 2
    assert derive(MIMO).kv_bytes_per_sequence(CONTEXT) == mimo_v2_kv(MIMO)


def test_weights_match_the_derivation_by_hand():
    shape = derive(MIMO)
    stored = WeightPlan(shape.tensors, shape.quantization).on(GPUS["h200"]).total_bytes
    assert stored == pytest.approx(mimo_v2_weights(MIMO), rel=1e-4)
    assert stored / 2**30 == pytest.approx(288.9, abs=0.05)


def test_every_key_is_read_and_the_traps_are_named():
    traps = " ".join(derive(MIMO).traps)
    assert "39 sliding-window layers (128 tokens) and 9 full-attention layers" in traps
    assert "attention_chunk_size 128 is not read" in traps
    assert "47 of 48 layers" in traps  # moe_layer_freq as a list: layer 0 dense


def test_the_sinks_are_counted_on_the_sliding_layers_only():
    shape = derive(MIMO)
    sinks = [t for t in shape.tensors if t.module == "self_attn.attention_sink_bias"]
    assert len(sinks) == 39 and {t.shape for t in sinks} == {(64,)}
    without = derive({**MIMO, "add_swa_attention_sink_bias": False})
    assert shape.total_params - without.total_params == 39 * 64


@pytest.mark.parametrize(("change", "named"), [
    ({"hybrid_layer_pattern": [0] * 47}, "hybrid_layer_pattern lists 47 layers"),
    ({"hybrid_layer_pattern": [2] * 48}, "hybrid_layer_pattern must give 0"),
    ({"sliding_window": 256}, "sliding_window 256 and sliding_window_size 128 differ"),
    ({"swa_num_key_value_heads": 7}, "swa_num_attention_heads 64 is not a multiple"),
])
def test_a_pattern_that_cannot_be_read_is_refused_by_name(change, named):
    with pytest.raises(ConfigError, match=named):
        derive({**copy.deepcopy(MIMO), **change})


def test_an_unknown_swa_key_is_still_refused():
    with pytest.raises(ConfigError, match="swa_num_layers"):
        derive({**MIMO, "swa_num_layers": 3})
