"""What derive() reads at whichever level the checkpoint puts it (models/derive.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models import ConfigError, derive

FIXTURES = Path(__file__).parent / "fixtures_2026"


def qwen35_27b() -> dict:
    return json.loads((FIXTURES / "Qwen--Qwen3.5-27B.json").read_text())


def test_qwen3_5_27b_top_level_untied_head_is_counted():
    """Its text_config does not say; the top level's tie_word_embeddings false wins over the text
    model type's default, so the LM head (vocab × hidden) is a matrix of its own."""
    config = qwen35_27b()
    untied = derive(config)
    assert not untied.tie_word_embeddings
    config["tie_word_embeddings"] = True
    tied = derive(config)
    assert untied.total_params - tied.total_params == 248320 * 5120
    assert (untied.total_params - tied.total_params) / untied.total_params == pytest.approx(0.047, abs=0.001)
    assert any("false at the top level" in trap for trap in untied.traps)


def test_the_nested_value_agreeing_with_the_top_level_reads():
    config = qwen35_27b()
    config["text_config"]["tie_word_embeddings"] = False
    assert not derive(config).tie_word_embeddings


def test_the_two_levels_disagreeing_is_refused():
    config = qwen35_27b()
    config["text_config"]["tie_word_embeddings"] = True
    with pytest.raises(ConfigError, match="tie_word_embeddings is false at the top level but text_config"):
        derive(config)


def test_a_top_level_tie_that_is_not_a_boolean_is_refused():
    config = qwen35_27b()
    config["tie_word_embeddings"] = "no"
    with pytest.raises(ConfigError, match="tie_word_embeddings .* must be true or false"):
        derive(config)
