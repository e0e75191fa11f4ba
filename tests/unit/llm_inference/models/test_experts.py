"""Experts under their other names and per-layer lists (models/experts.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models import ConfigError, catalogue_shape, derive, get_entry

FIXTURES = Path(__file__).parent / "fixtures_2026"


def deepseek(**changes) -> dict:
    return {**get_entry("deepseek-v3").config, **changes}


def test_gemma_4_top_k_experts_is_the_experts_per_token():
    """Gemma 4 26B-A4B says top_k_experts (transformers' Gemma4TextConfig): it is read as the experts
    per token."""
    config = {**get_entry("qwen3-30b-a3b").config}
    config["top_k_experts"] = config.pop("num_experts_per_tok")
    shape = derive(config)
    assert shape.experts_per_token == 8
    assert shape.signature() == catalogue_shape("qwen3-30b-a3b").signature()
    gemma = json.loads((FIXTURES / "google--gemma-4-26B-A4B.json").read_text())
    assert derive(gemma).experts_per_token == 8  # now read whole: test_experts_beside_mlp.py


def test_a_list_valued_moe_layer_freq_is_read_layer_by_layer():
    """MiniMax-M3 and MiMo-V2-Flash list 0 (dense) or 1 (MoE) per layer."""
    listed = derive(deepseek(moe_layer_freq=[0, 0, 0] + [1] * 58))
    assert listed.signature() == catalogue_shape("deepseek-v3").signature()  # first_k_dense_replace 3 agrees
    alternate = derive(deepseek(first_k_dense_replace=0, moe_layer_freq=[i % 2 for i in range(61)]))
    assert alternate.moe_layers == 30


@pytest.mark.parametrize("changes, named", [
    ({"moe_layer_freq": [1] * 61}, "different layers"),  # experts before first_k_dense_replace 3
    ({"moe_layer_freq": [0, 2] * 30 + [1]}, r"0 \(dense\) or 1 \(MoE\)"),
    ({"moe_layer_freq": [1] * 60}, "lists 60 layers"),
    ({"mlp_layer_types": ["dense"] * 3 + ["sparse"] * 57 + ["shared"]}, "'shared'"),
    ({"mlp_layer_types": ["sparse"] * 61}, "different layers"),
])
def test_a_per_layer_list_that_cannot_be_read_is_refused(changes, named):
    with pytest.raises(ConfigError, match=named):
        derive(deepseek(**changes))


def test_glm_mlp_layer_types_is_read_and_checked_against_first_k_dense_replace():
    listed = derive(deepseek(mlp_layer_types=["dense"] * 3 + ["sparse"] * 58))
    assert listed.signature() == catalogue_shape("deepseek-v3").signature()
    assert any("mlp_layer_types, layer by layer" in trap for trap in listed.traps)


def test_step_3_7_share_expert_dim_is_the_shared_expert_width():
    wide = derive(deepseek(share_expert_dim=4096))
    base = catalogue_shape("deepseek-v3")
    # One shared SwiGLU expert per MoE layer, 2048 → 4096 wide: 3 × 7168 × 2048 more each.
    assert wide.total_params - base.total_params == 58 * 3 * 7168 * 2048


def test_an_unused_dense_width_is_named_not_refused():
    shape = catalogue_shape("llama-4-scout")  # every layer MoE: intermediate_size_mlp is not used
    assert any("intermediate_size_mlp 16384 is not used" in trap for trap in shape.traps)
