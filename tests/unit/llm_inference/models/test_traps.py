"""One test per config trap: the shape comes out right and the trap is named in shape.traps."""

from __future__ import annotations

import copy

from llm_inference.models import CATALOGUE, catalogue_shape, derive


def config(model_id: str) -> dict:
    return copy.deepcopy(CATALOGUE[model_id].config)


def trap(shape, *fragments: str) -> str:
    """The one trap message holding every fragment (fails listing the traps otherwise)."""
    found = [t for t in shape.traps if all(f in t for f in fragments)]
    assert len(found) == 1, f"no single trap with {fragments!r} in:\n" + "\n".join(shape.traps)
    return found[0]


def no_trap(shape, fragment: str) -> None:
    assert not any(fragment in t for t in shape.traps), shape.traps


def test_a_plain_config_has_no_traps():
    assert catalogue_shape("llama-3.1-8b").traps == ()


# ---- attention and the cache ----

def test_mla_ignores_the_listed_kv_heads():
    shape = catalogue_shape("deepseek-v3")
    message = trap(shape, "latent attention", "num_key_value_heads 128 does not apply")
    assert "no factor 2" in message and "71x" in message
    assert (shape.kv_heads, shape.head_dim, shape.latent_dim, shape.rope_dim) == (1, 0, 512, 64)
    assert shape.kv_bytes_per_token(2) == 61 * (512 + 64) * 2


def test_mla_without_query_compression():
    lite = catalogue_shape("deepseek-v2-lite")
    assert lite.attention == "mla" and lite.kv_bytes_per_token(2) == 27 * 576 * 2
    compressed = derive(dict(config("deepseek-v2-lite"), q_lora_rank=1536))
    extra = 27 * (2048 * 1536 + 1536 + 1536 * 16 * 192 - 2048 * 16 * 192)
    assert compressed.total_params - lite.total_params == extra


def test_kv_heads_absent_means_multi_head_attention():
    raw = config("llama-3.1-8b")
    del raw["num_key_value_heads"]
    shape = derive(raw)
    assert (shape.kv_heads, shape.attention) == (32, "mha")
    trap(shape, "num_key_value_heads is not given", "multi-head attention")


def test_multi_query_attention():
    shape = derive(dict(config("llama-3.1-8b"), num_key_value_heads=1))
    assert shape.attention == "mqa" and shape.kv_bytes_per_token(2) == 2 * 32 * 1 * 128 * 2


def test_explicit_head_dim_differs_from_hidden_over_heads():
    for model_id, head_dim, implied in (("qwen3-32b", 128, 80), ("gemma-2-9b", 256, 224),
                                        ("gpt-oss-120b", 64, 45), ("gemma-3-27b", 128, 168),
                                        ("qwen3-235b-a22b", 128, 64)):
        shape = catalogue_shape(model_id)
        assert shape.head_dim == head_dim
        trap(shape, f"head_dim {head_dim} is given explicitly", f"= {implied}")
    no_trap(catalogue_shape("llama-4-scout"), "given explicitly")  # 5120 / 40 = 128: nothing to say


def test_mistral_nemo_style_head_dim():
    # Mistral-Nemo's layout: hidden 5120, 32 heads, head_dim 128 (not 160)
    nemo = dict(config("mistral-7b-v0.1"), hidden_size=5120, head_dim=128, num_hidden_layers=40,
                sliding_window=None, vocab_size=131072)
    shape = derive(nemo)
    assert shape.head_dim == 128 and shape.kv_bytes_per_token(2) == 2 * 40 * 8 * 128 * 2
    trap(shape, "head_dim 128 is given explicitly", "5120 / 32 = 160")


def test_head_dim_from_the_model_type_default():
    shape = catalogue_shape("gemma-3-12b")
    assert shape.head_dim == 256  # not 3840 / 16 = 240
    trap(shape, "head_dim is not in the config", "default 256", "= 240")


# ---- windows and chunks ----

def test_qwen_window_listed_but_switched_off():
    for model_id in ("qwen2.5-7b", "qwen2.5-72b", "qwen2.5-32b"):
        shape = catalogue_shape(model_id)
        assert set(shape.layer_kinds) == {("full", 0)}
        trap(shape, "sliding_window is 131072 but use_sliding_window is false")
    no_trap(catalogue_shape("qwen3-8b"), "use_sliding_window")  # sliding_window null: nothing misleads


def test_qwen_max_window_layers_when_the_window_is_on():
    raw = dict(config("qwen2.5-7b"), use_sliding_window=True, sliding_window=4096, max_window_layers=20)
    shape = derive(raw)
    assert shape.layer_kinds == (("full", 0),) * 20 + (("sliding", 4096),) * 8
    trap(shape, "use_sliding_window is true", "max_window_layers")


def test_phi3_mini_window_of_2047_on_every_layer():
    shape = catalogue_shape("phi-3-mini")
    assert shape.layer_kinds == (("sliding", 2047),) * 32
    trap(shape, "sliding_window 2047 applies to every layer")


def test_mistral_window_on_every_layer():
    trap(catalogue_shape("mistral-7b-v0.1"), "sliding_window 4096 applies to every layer")
    no_trap(catalogue_shape("mixtral-8x7b"), "sliding_window")  # null: no window


def test_gemma2_alternates():
    shape = catalogue_shape("gemma-2-27b")
    assert shape.layer_kinds[:4] == (("sliding", 4096), ("full", 0), ("sliding", 4096), ("full", 0))
    trap(shape, "Gemma 2 alternates", "4096-token sliding window")


def test_gemma3_five_local_per_global():
    shape = catalogue_shape("gemma-3-27b")
    assert shape.layer_kinds[:6] == (("sliding", 1024),) * 5 + (("full", 0),)
    trap(shape, "5 local layers", "sliding_window_pattern 6", "52 local, 10 global")
    trap(shape, "sliding_window_pattern is not in the config", "default 6")


def test_gemma3_explicit_pattern_and_layer_types():
    raw = config("gemma-3-27b")
    raw["text_config"]["sliding_window_pattern"] = 2
    shape = derive(raw)
    assert shape.layer_kinds[:2] == (("sliding", 1024), ("full", 0))
    no_trap(shape, "sliding_window_pattern is not in the config")
    raw = config("gemma-3-27b")
    raw["text_config"]["layer_types"] = ["sliding_attention"] * 61 + ["full_attention"]
    shape = derive(raw)
    assert shape.layer_kinds == (("sliding", 1024),) * 61 + (("full", 0),)
    trap(shape, "layer_types gives each layer's attention", "1 full, 61 sliding")


def test_gpt_oss_layer_types():
    shape = catalogue_shape("gpt-oss-20b")
    trap(shape, "layer_types gives each layer's attention", "12 full, 12 sliding", "sliding 128 tokens")


def test_llama4_chunked_attention_from_the_default_interval():
    shape = catalogue_shape("llama-4-maverick")
    assert shape.layer_kinds[:4] == (("chunked", 8192),) * 3 + (("full", 0),)
    trap(shape, "chunked local attention", "36 of 48 layers", "no_rope_layers is not given",
         "no_rope_layer_interval 4")


def test_llama4_empty_and_explicit_no_rope_layers():
    raw = config("llama-4-scout")
    raw["text_config"]["no_rope_layers"] = []  # as the base model's published config has it
    shape = derive(raw)
    assert shape.layer_kinds == catalogue_shape("llama-4-scout").layer_kinds
    trap(shape, "no_rope_layers is empty")
    raw["text_config"]["no_rope_layers"] = [1, 0] * 24
    shape = derive(raw)
    assert shape.layer_kinds[:2] == (("chunked", 8192), ("full", 0))
    trap(shape, "24 of 48 layers", "no_rope_layers (1 = RoPE, chunked; 0 = NoPE, global)")


# ---- nesting and what is not counted ----

def test_nested_text_config():
    for model_id in ("gemma-3-27b", "llama-4-scout"):
        trap(catalogue_shape(model_id), "nested in text_config")
    assert catalogue_shape("gemma-3-27b").hidden_size == 5376


def test_vision_tower_not_counted():
    shape = catalogue_shape("gemma-3-27b")
    trap(shape, "vision tower", "not counted")
    without = config("gemma-3-27b")
    del without["vision_config"]
    assert derive(without).total_params == shape.total_params


def test_gemma3_vocab_and_tie_defaults():
    shape = catalogue_shape("gemma-3-4b")
    assert (shape.vocab_size, shape.tie_word_embeddings, shape.heads, shape.kv_heads) == (262208, True, 8, 4)
    trap(shape, "vocab_size is not in the config", "262208")
    trap(shape, "num_attention_heads is not in the config", "default 8")


def test_multi_token_prediction_not_counted():
    trap(catalogue_shape("deepseek-v3"), "num_nextn_predict_layers 1", "not counted")


def test_tied_embeddings():
    trap(catalogue_shape("llama-3.2-1b"), "tie_word_embeddings is true", "counted once")
    trap(catalogue_shape("gemma-2-9b"), "tie_word_embeddings is not in the config", "default true")
    untied = derive(dict(config("llama-3.2-1b"), tie_word_embeddings=False))
    assert untied.total_params - catalogue_shape("llama-3.2-1b").total_params == 128256 * 2048


def test_qwen2_attention_biases():
    shape = catalogue_shape("qwen2.5-7b")
    trap(shape, "biases on the q, k and v projections")
    no_bias = derive(dict(config("qwen2.5-7b"), model_type="llama"))
    assert shape.total_params - no_bias.total_params == 28 * (3584 + 2 * 512)


def test_gpt2_style_keys():
    shape = catalogue_shape("gpt3-175b")
    trap(shape, "GPT-2-style keys")
    assert shape.embedding_params == (50257 + 2048) * 12288  # tokens and learned positions


def test_missing_context_length():
    raw = config("llama-3.1-8b")
    del raw["max_position_embeddings"]
    shape = derive(raw)
    assert shape.max_position_embeddings == 0
    trap(shape, "max_position_embeddings is not in the config")


# ---- MoE fields under their many names ----

def test_moe_num_local_experts():
    shape = catalogue_shape("mixtral-8x7b")
    assert (shape.experts, shape.experts_per_token, shape.moe_layers) == (8, 2, 32)
    trap(shape, "num_local_experts 8", "num_experts_per_tok 2", "32 of 32 layers")


def test_moe_n_routed_experts_shared_and_first_dense_layers():
    shape = catalogue_shape("deepseek-v3")
    trap(shape, "n_routed_experts 256", "1 shared expert", "moe_intermediate_size 2048", "58 of 61 layers",
         "first_k_dense_replace 3", "intermediate_size 18432")


def test_moe_layer_freq():
    raw = dict(config("deepseek-v3"), moe_layer_freq=2)
    shape = derive(raw)
    assert shape.moe_layers == len([i for i in range(3, 61) if i % 2 == 0])
    trap(shape, "every moe_layer_freq 2")


def test_moe_num_experts_and_unused_intermediate_size():
    shape = catalogue_shape("qwen3-235b-a22b")
    trap(shape, "num_experts 128", "num_experts_per_tok 8", "94 of 94 layers",
         "intermediate_size 12288 is not used")


def test_moe_decoder_sparse_step_and_mlp_only_layers():
    raw = dict(config("qwen3-30b-a3b"), decoder_sparse_step=2, mlp_only_layers=[1])
    shape = derive(raw)
    moe = [i for i in range(48) if i != 1 and (i + 1) % 2 == 0]
    assert shape.moe_layers == len(moe)
    trap(shape, "every decoder_sparse_step 2 layer", "except mlp_only_layers [1]")
    dense_mlp = 3 * 2048 * 6144
    assert shape.total_params - catalogue_shape("qwen3-30b-a3b").total_params == (
        (48 - len(moe)) * dense_mlp - (48 - len(moe)) * (128 * 3 * 2048 * 768 + 2048 * 128))


def test_moe_interleave_step_and_dense_width():
    shape = catalogue_shape("llama-4-maverick")
    trap(shape, "interleave_moe_layer_step 2", "24 of 48 layers", "intermediate_size_mlp 16384")
    trap(shape, "Llama 4 names the expert width intermediate_size")


def test_moe_experts_per_token_under_gpt_oss_name():
    raw = config("gpt-oss-20b")
    del raw["num_experts_per_tok"]  # experts_per_token remains
    shape = derive(raw)
    assert shape.experts_per_token == 4 and shape.active_params == catalogue_shape("gpt-oss-20b").active_params
    trap(shape, "experts_per_token 4")


def test_moe_shared_expert_intermediate_size():
    # Qwen1.5-MoE's layout: 60 experts of 1408, 4 per token, one shared MLP of 5632 with a gate
    raw = {
        "model_type": "qwen2_moe", "hidden_size": 2048, "num_hidden_layers": 24, "num_attention_heads": 16,
        "num_key_value_heads": 16, "vocab_size": 151936, "intermediate_size": 5632,
        "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632, "num_experts": 60,
        "num_experts_per_tok": 4, "decoder_sparse_step": 1, "mlp_only_layers": [], "tie_word_embeddings": False,
        "max_position_embeddings": 8192, "use_sliding_window": False,
    }
    shape = derive(raw)
    assert (shape.experts, shape.experts_per_token, shape.shared_experts, shape.moe_layers) == (60, 4, 1, 24)
    h, expert = 2048, 3 * 2048 * 1408
    attention = 4 * h * h + 3 * h  # q, k, v with biases (Qwen2 MoE as Qwen2), o without
    shared = 3 * h * 5632 + h  # the shared MLP and its sigmoid gate
    per_layer = attention + 2 * h + h * 60 + shared + 60 * expert
    assert shape.total_params == 24 * per_layer + 2 * 151936 * h + h
    assert shape.active_params == shape.total_params - 24 * 56 * expert
    trap(shape, "1 shared expert", "num_experts 60")
