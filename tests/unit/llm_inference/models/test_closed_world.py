"""Closed world (models/closed_world.py, models/known_keys.py): every key of a config is read,
known to be harmless, or named in a refusal, and no number is computed from a shape that ignored it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.kv_cache import SPEC as KV_CACHE
from llm_inference.models import CATALOGUE, ConfigError, catalogue_shape, derive, get_entry, parse_config
from llm_inference.models.closed_world import Tracked, check_whole, unread
from llm_inference.models.known_keys import HARMLESS, NEUTRAL, UNMODELLED

FIXTURES = Path(__file__).parent / "fixtures_2026"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def llama(**extra) -> dict:
    return {**get_entry("llama-3.1-8b").config, **extra}


def refusal(config) -> str:
    with pytest.raises(ConfigError) as caught:
        derive(config)
    return str(caught.value)


def test_an_unknown_memory_key_in_a_llama_config_is_refused_by_name():
    """Done when: a known config with compress_ratios added refuses, naming it and what it is."""
    why = refusal(llama(compress_ratios=[0, 4, 128] * 10 + [0, 0]))
    assert "compress_ratios (DeepSeek-V4's compressed attention" in why
    assert "no figure is computed" in why


def test_the_calculator_shows_no_number_for_it():
    config = llama(compress_ratios=[4] * 32)
    r = KV_CACHE.run({"config": json.dumps(config), "gpu": "h100", "gpus": 1, "context": 131072})
    assert all(value is None for value in r.values.values())
    assert any("compress_ratios" in note and "Nothing is computed" in note for note in r.notes)


def test_the_same_config_without_it_reads():
    assert derive(llama()).signature() == catalogue_shape("llama-3.1-8b").signature()


@pytest.mark.parametrize("key, value", [
    ("foo_bar", 1),  # a key nobody knows: named as it is
    ("sliding_window_pattern", 6),  # Gemma 3's, read only for its model types
    ("first_k_dense_replace", 2),  # an MoE rule on a dense model
    ("moe_intermediate_size", 1024),
    ("n_shared_experts", 1),
    ("attention_chunk_size", 8192),
    ("no_rope_layers", [1] * 32),
    ("v_head_dim", 64),
    ("qk_rope_head_dim", 64),
    ("global_head_dim", 256),
    ("index_topk", 2048),
    ("audio_config", {"hidden_size": 1024}),
])
def test_each_unread_key_is_named(key, value):
    assert key in refusal(llama(**{key: value}))


@pytest.mark.parametrize("key, value", [
    ("bos_token_id", 128000), ("image_token_index", 5), ("rope_scaling", {"rope_type": "llama3", "factor": 8.0}),
    ("initializer_range", 0.02), ("transformers_version", "4.43.0"), ("rms_norm_eps", 1e-5),
    ("hidden_act", "silu"), ("use_cache", True), ("pretraining_tp", 1), ("num_kv_shared_layers", 0),
    ("use_double_wide_mlp", False), ("some_future_field", None),
])
def test_harmless_and_neutral_keys_pass(key, value):
    assert derive(llama(**{key: value})).signature() == catalogue_shape("llama-3.1-8b").signature()


def test_a_neutral_key_at_another_value_is_refused():
    assert "use_double_wide_mlp" in refusal(llama(use_double_wide_mlp=True))


def test_nested_text_config_keys_are_checked_with_their_place():
    config = {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
              "text_config": {**get_entry("gemma-3-27b").config["text_config"], "compress_ratios": [4]}}
    assert "text_config.compress_ratios" in refusal(config)


def test_language_config_is_read_like_text_config():
    inner = get_entry("llama-3.1-8b").config
    shape = derive({"model_type": "wrapper", "architectures": ["X"], "language_config": inner})
    assert shape.layers == 32 and shape.total_params == catalogue_shape("llama-3.1-8b").total_params
    assert "language_config.foo" in refusal({"model_type": "wrapper", "language_config": {**inner, "foo": 1}})


def test_known_meanings_come_first_and_the_list_is_capped():
    config = llama(**{f"unknown_{i}": i for i in range(8)}, hybrid_layer_pattern=[0] * 32)
    why = refusal(config)
    assert why.index("hybrid_layer_pattern") < why.index("unknown_0")
    assert "and 3 more" in why


def test_the_refusal_reaches_parse_config():
    with pytest.raises(ConfigError, match="compress_ratios"):
        parse_config(json.dumps(llama(compress_ratios=[4] * 32)))


@pytest.mark.parametrize("model_id", list(CATALOGUE))
def test_every_catalogue_config_reads_whole(model_id):
    """The stored config of each catalogue model passes the check: each key read or harmless."""
    assert catalogue_shape(model_id).layers > 0


def test_the_registries_do_not_overlap():
    assert not (HARMLESS & set(NEUTRAL))
    assert not (HARMLESS & set(UNMODELLED))
    assert all(isinstance(values, tuple) for values in NEUTRAL.values())


def test_tracked_records_every_lookup():
    view = Tracked({"a": 1, "b": 2, "c": None, "text_config": {"d": 4}})
    assert view["a"] == 1 and view.get("zz") is None and "b" in view
    assert unread(view) == ["text_config"]  # c is null: absent
    nested = view.get("text_config")
    assert isinstance(nested, Tracked) and nested.where == "text_config." and view["text_config"] is nested
    with pytest.raises(ConfigError, match=r"text_config\.d"):
        check_whole([view])
    nested.mark("d")
    check_whole([view])


# -- real configs of 2026: each refusal names the real reason -------------------------------------

def test_deepseek_v4_is_read_whole_and_an_unknown_key_added_is_named():
    """Every key of DeepSeek-V4's config is read now (its weights: models/deepseek_v4.py); a key
    added to it that may change the weights still refuses, by name."""
    for name in ("deepseek-ai--DeepSeek-V4-Flash", "deepseek-ai--DeepSeek-V4-Pro"):
        assert derive(fixture(name)).attention == "csa"
    why = refusal({**fixture("deepseek-ai--DeepSeek-V4-Flash"), "o_lora_bias": True})
    assert "o_lora_bias" in why and "no figure is computed" in why


def test_minimax_m3_is_read_whole_and_an_unknown_sparse_key_is_named():
    """Every key of MiniMax-M3's config, and of its sparse_attention_config, is read or known not to
    change memory (models/block_sparse_attention.py); a key added inside the sparse attention's
    object, or beside it, still refuses by name."""
    assert derive(fixture("MiniMaxAI--MiniMax-M3")).layers == 60
    config = fixture("MiniMaxAI--MiniMax-M3")
    config["sparse_attention_config"]["sparse_index_value_dim"] = 128
    why = refusal(config)
    assert "sparse_attention_config.sparse_index_value_dim" in why and "no figure is computed" in why
    why = refusal({**fixture("MiniMaxAI--MiniMax-M3"), "index_v_proj_dim": 128})
    assert "index_v_proj_dim" in why and "moe_layer_freq" not in why


def test_sparse_attention_config_outside_minimax_m3_is_refused_by_name():
    """Read for model_type minimax_m3 only: on another family it is named, with what it is."""
    sparse = fixture("MiniMaxAI--MiniMax-M3")["sparse_attention_config"]
    why = refusal(llama(sparse_attention_config={**sparse, "sparse_attention_freq": [0] * 3 + [1] * 29}))
    assert "sparse_attention_config (" in why


@pytest.mark.parametrize(("change", "words"), [
    ({"use_sparse_attention": False}, "use_sparse_attention"),
    ({"sparse_block_size": 64}, "128-token blocks"),
    ({"sparse_num_index_heads": 8}, "sparse_num_index_heads 8 differs"),
    ({"sparse_disable_index_value": [0] * 60}, "index value/output projection"),
    ({"sparse_attention_freq": [1] * 59}, "lists 59 layers"),
])
def test_minimax_m3_sparse_values_vllm_does_not_serve_are_refused(change, words):
    config = fixture("MiniMaxAI--MiniMax-M3")
    config["sparse_attention_config"].update(change)
    assert words in refusal(config)


def test_minimax_m3_widths_that_contradict_intermediate_size_are_refused():
    """vLLM sizes M3's experts and shared expert by intermediate_size; a restating field that differs
    is refused rather than guessed."""
    why = refusal({**fixture("MiniMaxAI--MiniMax-M3"), "shared_intermediate_size": 6144})
    assert "shared_intermediate_size 6144 differs from intermediate_size 3072" in why


def test_mimo_v2_flash_reads_its_hybrid_window_layers_and_names_an_unknown_swa_key():
    """Every key of MiMo-V2-Flash's config is read or harmless (models/window_geometry.py); a
    geometry key it does not know is still refused by name."""
    assert derive(fixture("XiaomiMiMo--MiMo-V2-Flash")).layers == 48
    why = refusal({**fixture("XiaomiMiMo--MiMo-V2-Flash"), "swa_qk_norm_dim": 64})
    assert "swa_qk_norm_dim" in why and "moe_layer_freq" not in why


def test_gemma_4_moe_reads_enable_moe_block_and_top_k_experts():
    """Its experts beside the dense MLP are read (models/experts_beside_mlp.py), top_k_experts as the
    per-token count; an unknown MoE key beside them is still refused by name."""
    shape = derive(fixture("google--gemma-4-26B-A4B"))
    assert (shape.experts, shape.experts_per_token) == (128, 8)
    config = fixture("google--gemma-4-26B-A4B")
    config["text_config"]["moe_dense_ratio"] = 2
    assert "text_config.moe_dense_ratio" in refusal(config)


def test_glm_5_2_reads_its_indexer_pattern_layer_by_layer():
    """indexer_types lists what index_topk_freq and index_skip_topk_offset give as a rule: read."""
    shape = derive(fixture("zai-org--GLM-5.2"))
    assert any("21 of 78 layers own a sparse-attention indexer" in t for t in shape.traps)


def test_glm_5_1_indexer_on_every_layer_reads():
    """indexer_types all "full" restates the indexer read on every layer (GLM-5.1)."""
    config = fixture("zai-org--GLM-5.2")
    config["indexer_types"] = ["full"] * len(config["indexer_types"])
    assert derive(config).indexer_head_dim == config["index_head_dim"]
