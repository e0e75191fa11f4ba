"""Hybrid configs read family by family: which layers cache keys and values, which keep a fixed
state, and that state's dimensions — the configs built from the transformers configuration
classes' defaults (transformers 4.57.1 sdist) and the catalogue's published ones."""

from __future__ import annotations

import json

import pytest

from llm_inference.models import CATALOGUE, ConfigError, catalogue_shape, parse_config
from llm_inference.models.params import MOE_LATENT, REPLICATED

#: GraniteMoeHybridConfig's defaults (configuration_granitemoehybrid.py), with a layer_types list.
GRANITE = {
    "model_type": "granitemoehybrid", "vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008,
    "num_hidden_layers": 8, "num_attention_heads": 32, "num_key_value_heads": 8, "num_local_experts": 8,
    "num_experts_per_tok": 2, "shared_intermediate_size": 1024, "mamba_n_heads": 128, "mamba_n_groups": 1,
    "mamba_d_state": 256, "mamba_d_head": "auto", "mamba_d_conv": 4, "mamba_expand": 2, "mamba_chunk_size": 256,
    "layer_types": ["mamba", "mamba", "mamba", "attention"] * 2, "tie_word_embeddings": False,
}
#: FalconH1Config's defaults (configuration_falcon_h1.py).
FALCON_H1 = {
    "model_type": "falcon_h1", "vocab_size": 128000, "hidden_size": 4096, "intermediate_size": 14336,
    "num_hidden_layers": 4, "num_attention_heads": 32, "num_key_value_heads": 8, "mamba_d_ssm": 1024,
    "mamba_n_heads": 128, "mamba_d_head": "auto", "mamba_n_groups": 1, "mamba_d_state": 256, "mamba_d_conv": 4,
    "mamba_expand": 2, "mamba_chunk_size": 256, "tie_word_embeddings": False,
}
#: JambaConfig's defaults (configuration_jamba.py): attention on layer 4 of every 8, experts on odd layers.
JAMBA = {
    "model_type": "jamba", "vocab_size": 65536, "hidden_size": 4096, "intermediate_size": 14336,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "num_experts": 16,
    "num_experts_per_tok": 2, "expert_layer_period": 2, "expert_layer_offset": 1, "attn_layer_period": 8,
    "attn_layer_offset": 4, "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": "auto",
    "tie_word_embeddings": False,
}
#: MiniMaxConfig's defaults (configuration_minimax.py), with MiniMax-Text-01's pattern of one softmax
#: layer in eight (attn_type_list).
MINIMAX_01 = {
    "model_type": "minimax", "vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336,
    "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
    "num_local_experts": 8, "num_experts_per_tok": 2, "attn_type_list": ([0] * 7 + [1]) * 2,
    "tie_word_embeddings": False,
}
#: Shaped like Kimi-Linear-48B-A3B (a KDA layer list, MLA elsewhere); the values are the test's.
KIMI_LINEAR = {
    "model_type": "kimi_linear", "vocab_size": 163840, "hidden_size": 2304, "intermediate_size": 9216,
    "num_hidden_layers": 8, "num_attention_heads": 32, "num_key_value_heads": 32, "kv_lora_rank": 512,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "q_lora_rank": None,
    "linear_attn_config": {"kda_layers": [1, 2, 3, 5, 6, 7], "full_attn_layers": [4, 8], "num_heads": 32,
                           "head_dim": 128, "short_conv_kernel_size": 4},
    "tie_word_embeddings": False,
}


def kinds(shape) -> list[str]:
    return [k for k, _ in shape.layer_kinds]


def test_qwen3_next_attends_on_every_fourth_layer():
    shape = catalogue_shape("qwen3-next-80b-a3b")
    assert kinds(shape) == (["linear"] * 3 + ["full"]) * 12
    assert (shape.kv_layers, shape.state_layers) == (12, 36)
    s = shape.state
    assert (s.mixer, s.heads, s.head_dim, s.state_dim, s.conv_channels, s.conv_kernel) == (
        "gated_deltanet", 32, 128, 128, 8192, 4)
    assert shape.kv_bytes_per_token(2) == 12 * 2 * 2 * 256 * 2
    assert any("Gated DeltaNet" in t for t in shape.traps)


def test_nemotron_h_reads_its_block_pattern():
    shape = catalogue_shape("nemotron-3-nano-30b-a3b")
    pattern = CATALOGUE["nemotron-3-nano-30b-a3b"].config["hybrid_override_pattern"]
    assert kinds(shape) == [{"M": "linear", "*": "full"}.get(b, "none") for b in pattern]
    assert (shape.kv_layers, shape.state_layers) == (6, 23)
    assert (shape.state.mixer, shape.state.groups, shape.state.ssm_dtype, shape.state.chunk_size) == (
        "mamba2", 8, "float32", 128)
    assert catalogue_shape("nemotron-h-56b").state.ssm_dtype == "nemotron_h"  # not in its config: vLLM's default


def test_nemotron_3_super_latent_moe_as_vllm_builds_it():
    """NemotronHMoE (vllm/model_executor/models/nemotron_h.py): the router and the shared expert at the
    hidden width 4096, the routed experts at moe_latent_size 1024 between two ReplicatedLinear
    projections that every token runs."""
    shape = catalogue_shape("nemotron-3-super-120b-a12b")
    assert (shape.kv_layers, shape.state_layers, shape.moe_layers) == (8, 40, 40)
    assert shape.kv_bytes_per_token(2) == 8 * 2 * 2 * 128 * 2  # 8 KiB: 8 attention layers, 2 KV heads of 128
    assert (shape.experts, shape.experts_per_token, shape.shared_experts) == (512, 22, 1)
    assert shape.expert_params == 2 * 1024 * 2688  # up and down at the latent width, no gate
    layer1 = {t.module: t for t in shape.tensors if t.layer == 1}  # the first "E" block
    assert layer1["mixer.experts.up_proj"].shape == (2688, 1024) and layer1["mixer.experts.up_proj"].count == 512
    assert layer1["mixer.experts.down_proj"].shape == (1024, 2688)
    assert layer1["mixer.fc1_latent_proj"].shape == (1024, 4096) and layer1["mixer.fc2_latent_proj"].shape == (4096, 1024)
    assert {layer1[m].group for m in ("mixer.fc1_latent_proj", "mixer.fc2_latent_proj")} == {MOE_LATENT}
    assert layer1["mixer.fc1_latent_proj"].split == REPLICATED and layer1["mixer.fc1_latent_proj"].quantizable
    assert layer1["mixer.shared_experts.up_proj"].shape == (5376, 4096) and layer1["mixer.gate"].shape == (512, 4096)
    latent = sum(t.params for t in shape.tensors if t.group == MOE_LATENT)
    assert latent == 40 * 2 * 4096 * 1024
    # the projections are read by every token: in the active count, like the shared expert
    assert shape.dense_params == shape.active_params - 22 * shape.expert_params * 40
    assert any("Latent MoE (moe_latent_size 1024)" in t for t in shape.traps)


def test_the_nano_has_no_latent_projections():
    nano = catalogue_shape("nemotron-3-nano-30b-a3b")
    assert not any(t.group == MOE_LATENT for t in nano.tensors)
    assert nano.expert_params == 2 * 2688 * 1856  # its experts at the hidden width
    null = dict(CATALOGUE["nemotron-3-nano-30b-a3b"].config, moe_latent_size=None)  # as transformers writes it
    assert parse_config(json.dumps(null)) == nano


@pytest.mark.parametrize("config, says", [
    (dict(CATALOGUE["qwen3-235b-a22b"].config, moe_latent_size=1024), "modelled only for Nemotron-H"),
    (dict(CATALOGUE["nemotron-3-super-120b-a12b"].config, moe_latent_size=8192), "between 1 and hidden_size 4096"),
])
def test_a_latent_moe_that_is_not_modelled_is_refused(config, says):
    with pytest.raises(ConfigError, match=says):
        parse_config(json.dumps(config))


def test_granite_40_h():
    shape = parse_config(json.dumps(GRANITE))
    assert kinds(shape) == ["linear", "linear", "linear", "full"] * 2
    s = shape.state
    assert (s.mixer, s.heads, s.head_dim, s.state_dim, s.conv_channels, s.groups) == (
        "mamba2", 128, 64, 256, 8192, 1)  # mamba_d_head "auto": 2 × 4096 / 128


def test_falcon_h1_runs_both_in_every_layer():
    shape = parse_config(json.dumps(FALCON_H1))
    assert kinds(shape) == ["full"] * 4 and (shape.kv_layers, shape.state_layers) == (4, 4)
    assert (shape.state.conv_channels, shape.state.head_dim) == (1024, 8)  # mamba_d_ssm 1024 over 128 heads


def test_jamba_places_attention_by_period_and_offset():
    shape = parse_config(json.dumps(JAMBA))
    assert [i for i, k in enumerate(kinds(shape)) if k == "full"] == [4, 12, 20, 28]
    assert (shape.state.mixer, shape.state.heads, shape.state.state_dim) == ("mamba1", 8192, 16)
    assert shape.moe_layers == 16


def test_minimax_text_01_lightning_layers():
    shape = parse_config(json.dumps(MINIMAX_01))
    assert kinds(shape).count("linear") == 14 and shape.kv_layers == 2
    assert (shape.state.mixer, shape.state.heads, shape.state.head_dim) == ("lightning", 32, 128)


def test_kimi_linear_kda_layers_are_one_based():
    shape = parse_config(json.dumps(KIMI_LINEAR))
    assert [i for i, k in enumerate(kinds(shape)) if k == "full"] == [3, 7]
    assert shape.attention == "mla" and shape.state.mixer == "kda"


@pytest.mark.parametrize("config, field, says", [
    (GRANITE, "layer_types", "layer kind this calculator does not model: 'retention'"),
    (CATALOGUE["nemotron-h-56b"].config, "hybrid_override_pattern", "block kind this calculator does not model"),
    (MINIMAX_01, "attn_type_list", "must give 0 (lightning) or 1 (softmax)"),
])
def test_an_unknown_layer_kind_in_a_hybrid_is_named(config, field, says):
    bad = dict(config)
    value = bad[field]
    bad[field] = (["retention"] + value[1:] if isinstance(value, list) and isinstance(value[0], str)
                  else "X" + value[1:] if isinstance(value, str) else [2] + value[1:])
    with pytest.raises(ConfigError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_config(json.dumps(bad))


def test_a_hybrid_matches_the_catalogue_and_a_changed_state_does_not():
    from llm_inference.models import match_catalogue
    config = CATALOGUE["qwen3-next-80b-a3b"].config
    assert match_catalogue(parse_config(json.dumps(config))) == "qwen3-next-80b-a3b"
    assert match_catalogue(parse_config(json.dumps({**config, "linear_num_value_heads": 16}))) is None
