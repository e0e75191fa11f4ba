"""parse_config: JSON text in, a ModelShape or one clear ConfigError out, never anything else."""

from __future__ import annotations

import copy
import json
import random

import pytest

from llm_inference.models import CATALOGUE, ConfigError, catalogue_shape, parse_config


def text(model_id: str, **changes) -> str:
    raw = copy.deepcopy(CATALOGUE[model_id].config)
    for key, value in changes.items():
        if value is _DELETE:
            del raw[key]
        else:
            raw[key] = value
    return json.dumps(raw, indent=2)


_DELETE = object()


def error(source) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(source)
    message = str(info.value)
    assert "\n" not in message and message, message
    return message


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_a_pasted_config_reads_like_the_catalogue():
    assert parse_config(text("llama-3.1-8b")) == catalogue_shape("llama-3.1-8b")
    assert parse_config(text("llama-3.1-8b").encode()) == catalogue_shape("llama-3.1-8b")


@pytest.mark.parametrize("source,where", [
    ('{"num_hidden_layers": 32,, "hidden_size": 4096}', "line 1, column 26"),
    ('{\n  "num_hidden_layers": 32\n  "hidden_size": 4096\n}', "line 3, column 3"),
    ('{"num_hidden_layers": 32', "line 1, column 25"),
    ("{'num_hidden_layers': 32}", "line 1, column 2"),
    ('{"a": 1} trailing', "line 1, column 10"),
])
def test_malformed_json_says_where(source, where):
    message = error(source)
    assert message.startswith("not valid JSON at ") and where in message


def test_nan_is_refused():
    assert "NaN" in error('{"num_hidden_layers": NaN}')


@pytest.mark.parametrize("source,kind", [
    ("[1, 2]", "a list"), ('"config"', "a string"), ("42", "a number"), ("null", "null"), ("true", "true or false"),
])
def test_a_non_object_is_refused(source, kind):
    message = error(source)
    assert "must be a JSON object" in message and kind in message


def test_empty_and_non_text_input():
    assert "empty" in error("   ")
    assert "JSON text" in error(42)
    assert "UTF-8" in error(b"\xff\xfe{")


@pytest.mark.parametrize("field,meaning", [
    ("num_hidden_layers", "the number of transformer layers"),
    ("hidden_size", "the width of the residual stream"),
    ("num_attention_heads", "the number of query heads per layer"),
    ("vocab_size", "the number of tokens in the vocabulary"),
    ("intermediate_size", "the hidden width of the MLP"),
])
def test_a_missing_field_is_named_and_explained(field, meaning):
    message = error(text("llama-3.1-8b", **{field: _DELETE}))
    assert message.startswith(f"missing field {field} (") and meaning in message


def test_a_missing_field_inside_text_config_says_so():
    raw = copy.deepcopy(CATALOGUE["gemma-3-27b"].config)
    del raw["text_config"]["hidden_size"]
    assert error(json.dumps(raw)).startswith("missing field text_config.hidden_size (")


def test_a_null_required_field_is_missing():
    assert error(text("llama-3.1-8b", num_hidden_layers=None)).startswith("missing field num_hidden_layers")


def test_mla_fields_are_required_together():
    message = error(text("deepseek-v3", qk_rope_head_dim=_DELETE))
    assert message.startswith("missing field qk_rope_head_dim") and "RoPE key" in message


def test_experts_need_a_per_token_count():
    message = error(text("mixtral-8x7b", num_experts_per_tok=_DELETE))
    assert "num_experts_per_tok" in message and "num_local_experts is 8" in message


@pytest.mark.parametrize("changes,expected", [
    ({"num_hidden_layers": "32"}, "num_hidden_layers (the number of transformer layers (decoder blocks)) must be a whole number, got '32' (a string)"),
    ({"num_hidden_layers": 32.5}, "must be a whole number, got 32.5"),
    ({"num_hidden_layers": True}, "must be a whole number, got true (a boolean)"),
    ({"hidden_size": [4096]}, "hidden_size (the width of the residual stream (d_model)) must be a whole number, got a list"),
    ({"num_key_value_heads": {"n": 8}}, "must be a whole number, got an object"),
    ({"tie_word_embeddings": "false"}, "tie_word_embeddings (whether the LM head reuses the embedding matrix) must be true or false"),
    ({"num_hidden_layers": -1}, "num_hidden_layers = -1 is out of range (1 to 4096)"),
    ({"num_hidden_layers": 10**9}, "is out of range"),
    ({"num_attention_heads": 0}, "num_attention_heads = 0 is out of range"),
    ({"num_key_value_heads": 5}, "num_attention_heads 32 is not a multiple of num_key_value_heads 5"),
    ({"layer_types": "full_attention"}, "layer_types (the attention kind of each layer) must be a list of strings"),
    ({"layer_types": ["full_attention"] * 31}, "layer_types lists 31 layers but num_hidden_layers is 32"),
    ({"layer_types": ["linear_attention"] * 32}, "does not model: 'linear_attention'"),
    ({"layer_types": ["sliding_attention"] * 32}, "sliding_window is missing or null, but layer_types lists sliding layers"),
    ({"sliding_window": "4096"}, "sliding_window (the window of sliding-window attention layers, in tokens) must be a whole number"),
    ({"text_config": [1]}, "text_config (the text model's config inside a multimodal config) must be an object"),
    ({"hidden_size": 4097, "num_key_value_heads": 8}, "head_dim"),
])
def test_wrong_types_and_values(changes, expected):
    assert expected in error(text("llama-3.1-8b", **changes))


def test_wrong_types_in_moe_and_window_fields():
    assert "must be true or false" in error(text("qwen2.5-7b", use_sliding_window="no"))
    assert "must be a list" in error(text("qwen3-30b-a3b", mlp_only_layers=3))
    assert "between 1 and num_local_experts 8" in error(text("mixtral-8x7b", num_experts_per_tok=9))
    raw = copy.deepcopy(CATALOGUE["llama-4-scout"].config)
    raw["text_config"]["no_rope_layers"] = [1, 0]
    assert "text_config.no_rope_layers lists 2 layers but num_hidden_layers is 48" in error(json.dumps(raw))


def _junk(rng: random.Random):
    return rng.choice([None, True, False, -1, 0, 1, 3, 2.5, 1e300, 10**12, "", "x", "32", [], [1, "a"],
                       {}, {"a": 1}, ["sliding_attention"], [0, 1, 0]])


def _mutate(node, rng: random.Random):
    if isinstance(node, dict) and node:
        key = rng.choice(list(node))
        if isinstance(node[key], dict) and rng.random() < 0.5:
            _mutate(node[key], rng)
        elif rng.random() < 0.2:
            del node[key]
        else:
            node[key] = _junk(rng)


@pytest.mark.parametrize("model_id", list(CATALOGUE))
def test_mangled_configs_raise_config_error_or_read(model_id):
    rng = random.Random(model_id)
    for _ in range(60):
        raw = copy.deepcopy(CATALOGUE[model_id].config)
        for _ in range(rng.randint(1, 3)):
            _mutate(raw, rng)
        try:
            shape = parse_config(json.dumps(raw))
        except ConfigError as exc:
            assert "\n" not in str(exc)
        else:
            assert shape.layers == len(shape.layer_kinds) and shape.total_params >= shape.active_params > 0


# -- a config of any published length is read whole; a longer one is refused, never cut ----------

def test_a_long_config_is_read_whole():
    """Longer than the 60,000 characters the field used to cut at: a compressed-tensors ignore list
    naming every layer's attention, as quantized releases write it."""
    config = dict(CATALOGUE["llama-3.1-8b"].config)
    config["quantization_config"] = {
        "quant_method": "compressed-tensors", "format": "float-quantized",
        "ignore": ["lm_head"] + [f"model.layers.{i}.self_attn.{p}_proj" for i in range(32) for p in "qkvo"] * 40,
        "config_groups": {"g": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float",
                                                                   "strategy": "channel"}}}}
    source = json.dumps(config, indent=2)
    assert len(source) > 200_000
    assert parse_config(source).quantization.method == "compressed-tensors"


def test_a_config_past_the_bound_is_refused_as_too_long_not_as_invalid_json():
    from llm_inference.models.parse import MAX_CONFIG_CHARS
    source = json.dumps(CATALOGUE["llama-3.1-8b"].config)
    padded = source[:-1] + " " * (MAX_CONFIG_CHARS - len(source) + 1) + "}"
    assert len(padded) == MAX_CONFIG_CHARS + 1
    message = error(padded)
    assert "longer than 8,000,000 characters" in message and "JSON" not in message
    assert parse_config(source[:-1] + " " * (MAX_CONFIG_CHARS - len(source)) + "}").layers == 32


def test_the_config_field_holds_one_character_more_than_parse_reads():
    """So a paste the browser or the framework cuts at max_length is refused as too long."""
    from llm_inference.kv_cache import SPEC
    from llm_inference.models.parse import MAX_CONFIG_CHARS
    field = next(p for p in SPEC.params if p.name == "config")
    assert field.max_length == MAX_CONFIG_CHARS + 1
    r = SPEC.run({"config": '{"padding": "' + "x" * MAX_CONFIG_CHARS + '"}'})
    assert all(value is None for value in r.values.values())
    assert any("longer than 8,000,000 characters" in note for note in r.notes)
