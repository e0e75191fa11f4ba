"""Gemma 4 26B-A4B's experts beside a dense MLP (models/experts_beside_mlp.py), against the
published configs and a derivation by hand (fixtures_2026/by_hand.py, vLLM's gemma4.py)."""

from __future__ import annotations

import json

import pytest

from llm_inference.hardware import GPUS
from llm_inference.models import derive
from llm_inference.models.layer_specs import FullAttention, SlidingWindow
from llm_inference.physics.weights import WeightPlan

from .fixtures_2026.by_hand import CONTEXT, FIXTURES, config, gemma4_kv, gemma4_weights

BF16 = config("google--gemma-4-26B-A4B")
NVFP4 = config("nvidia--Gemma-4-26B-A4B-NVFP4")
NVFP4["quantization_config"] = json.loads((FIXTURES / "nvidia--Gemma-4-26B-A4B-NVFP4.hf_quant_config.json").read_text())
GiB = 2**30


def stored(cfg: dict) -> float:
    shape = derive(cfg)
    return WeightPlan(shape.tensors, shape.quantization).on(GPUS["h200"]).total_bytes


def test_two_geometries_full_layers_with_k_eq_v():
    specs = derive(BF16).layer_specs
    full = [s for s in specs if type(s) is FullAttention]
    window = [s for s in specs if type(s) is SlidingWindow]
    assert {(s.kv_heads, s.head_dim, s.k_eq_v) for s in full} == {(2, 512, True)}
    assert {(s.kv_heads, s.head_dim, s.size) for s in window} == {(8, 256, 1024)}
    assert (len(full), len(window)) == (5, 25)


def test_kv_a_128k_sequence_matches_the_derivation_by_hand():
    # 5 full layers x 131072 x 2 x 2 x 512 x 2 + 25 sliding x 1024 x 2 x 8 x 256 x 2 bytes = 2.695 GiB
    assert gemma4_kv(BF16) == 5 * CONTEXT * 2 * 2 * 512 * 2 + 25 * 1024 * 2 * 8 * 256 * 2
    for cfg in (BF16, NVFP4):
        assert derive(cfg).kv_bytes_per_sequence(CONTEXT) == gemma4_kv(cfg)


def test_every_layer_keeps_its_dense_mlp_beside_the_experts():
    shape = derive(BF16)
    dense = [t for t in shape.tensors if t.module.startswith("mlp.")]
    experts = [t for t in shape.tensors if t.module.startswith("moe.experts.")]
    assert {t.layer for t in dense} == {t.layer for t in experts} == set(range(30))
    assert {t.shape for t in dense if t.module == "mlp.down_proj"} == {(2816, 2112)}
    assert {(t.shape, t.count) for t in experts if t.module == "moe.experts.down_proj"} == {((2816, 704), 128)}
    # Google's card: 25.2B total, 3.8B active
    assert shape.total_params / 1e9 == pytest.approx(25.2, abs=0.05)
    assert any("enable_moe_block is true" in t for t in shape.traps)


def test_bf16_weights_match_the_derivation_by_hand():
    assert stored(BF16) == pytest.approx(gemma4_weights(BF16), rel=1e-4)
    assert stored(BF16) / GiB == pytest.approx(47.0, abs=0.05)


def test_nvfp4_quantizes_the_experts_only():
    """ModelOpt's exclude list keeps self_attn, mlp and router of every layer in bf16."""
    assert stored(NVFP4) == pytest.approx(gemma4_weights(NVFP4, "nvfp4", "bf16"), rel=1e-4)
    assert stored(NVFP4) / GiB == pytest.approx(16.4, abs=0.05)


def test_without_the_moe_block_no_expert_is_counted():
    cfg = json.loads(json.dumps(BF16))
    cfg["text_config"]["enable_moe_block"] = False
    shape = derive(cfg)
    assert not any(t.module.startswith("moe.") for t in shape.tensors)
