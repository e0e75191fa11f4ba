"""Hybrid and attention-kind lists read for what they say (models/mixers.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models import CATALOGUE, ConfigError, catalogue_shape, derive, match_catalogue_all

FIXTURES = Path(__file__).parent / "fixtures_2026"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def test_minimax_m2_7_all_softmax_attn_type_list_reads_as_m2_5():
    """MiniMax-M2.7's config lists 1 (softmax) for each of its 62 layers; vLLM's minimax_m2.py
    builds every layer as full attention: the same architecture as the catalogue's M2.5."""
    shape = derive(fixture("MiniMaxAI--MiniMax-M2.7"))
    assert match_catalogue_all(shape)[:2] == ["minimax-m2.5", "minimax-m2.7"]  # M2.7 by name too
    assert shape.kv_bytes_per_token(2) == 62 * 2 * 8 * 128 * 2
    assert any("all 62 layers 1 (softmax attention)" in trap for trap in shape.traps)


def test_a_lightning_layer_outside_the_minimax_text_families_is_still_refused():
    config = fixture("MiniMaxAI--MiniMax-M2.7")
    config["attn_type_list"] = [0] + [1] * 61
    with pytest.raises(ConfigError, match="attn_type_list describes layers without"):
        derive(config)


def _ultra() -> dict:
    return fixture("nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16")


def test_nemotron_3_ultra_reads_layers_block_type():
    """Nemotron 3 Ultra lists its blocks in layers_block_type and leaves num_hidden_layers out."""
    config = _ultra()
    blocks = config["layers_block_type"]
    shape = derive(config)
    assert shape.layers == len(blocks) == 108
    assert shape.state_layers == blocks.count("mamba") == 48
    assert shape.moe_layers == blocks.count("moe") == 48
    # Only the attention blocks cache: 12 × 2 KV heads × 128 × (K and V) × 2 bytes.
    assert shape.kv_bytes_per_token(2) == blocks.count("attention") * 2 * 128 * 2 * 2 == 12288
    assert shape.total_params == pytest.approx(550e9, rel=0.02)  # "550B" in its name
    assert any("layers_block_type lists 108 blocks" in trap for trap in shape.traps)


def test_nemotron_3_5_reads_layers_block_type_as_the_nano_pattern():
    shape = derive(fixture("nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4"))
    nano = CATALOGUE["nemotron-3-nano-30b-a3b"].config["hybrid_override_pattern"]
    assert "".join({"mamba": "M", "attention": "*", "mlp": "-", "moe": "E"}[b] for b in fixture(
        "nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4")["layers_block_type"]) == nano
    assert shape.signature() == catalogue_shape("nemotron-3-nano-30b-a3b").signature()


@pytest.mark.parametrize("change, named", [
    ({"layers_block_type": ["mamba", "conv"] * 54}, "'conv'"),
    ({"hybrid_override_pattern": "M" * 108}, "describe different blocks"),
])
def test_nemotron_block_lists_that_cannot_be_read(change, named):
    with pytest.raises(ConfigError, match=named):
        derive({**_ultra(), **change})
