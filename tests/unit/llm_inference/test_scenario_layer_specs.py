"""A pasted config whose layers differ in what they cache (Gemma 4's two geometries, GLM-5.2's
shared indexer, DeepSeek-V4's compressed attention) is refused by the calculators, naming how the
layers differ: their fields hold one geometry, and a number computed from one geometry for all
would be wrong (Gemma 4 31B: 20.8 GiB a 128K sequence instead of 10.8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_inference import kv_cache

FIXTURES = Path(__file__).parent / "models" / "fixtures_2026"


@pytest.mark.parametrize("name, words", [
    ("nvidia--Gemma-4-31B-IT-NVFP4.json", "10 layers 4 KV heads x 512"),
    ("zai-org--GLM-5.2.json", "21 layers a 512 + 64 latent and a 128-dim indexer key"),
    ("deepseek-ai--DeepSeek-V4-Flash.json", "hc_mult (DeepSeek-V4's hyper-connections"),  # its weights first
])
def test_a_config_with_layers_that_differ_is_refused_naming_them(name, words):
    result = kv_cache.SPEC.run({"config": (FIXTURES / name).read_text()})
    assert all(v is None for v in result.values.values())
    assert any(words in note and "Nothing is computed" in note for note in result.notes)
