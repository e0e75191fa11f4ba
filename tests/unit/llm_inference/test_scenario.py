"""One scenario through the chapter: a model picked or pasted fills the same shape in kv-cache,
decode-roofline and unit-economics; the traps of a pasted config are named; a config that cannot
be read (or holds a layer kind not modelled) computes nothing; every catalogue model's cache,
recurrent state and weights match numpy from its raw config."""

from __future__ import annotations

from dataclasses import replace

import copy
import json

import numpy as np
import pytest

import course_calculators
from llm_inference import decode_roofline, kv_cache, scenario, unit_economics
from llm_inference.models import CATALOGUE
from course_calculators.spec import Choice, SpecError, Text
from tests.unit.llm_inference.models import numpy_reference as ref

KV = kv_cache.SPEC
CALCS = (kv_cache.SPEC, decode_roofline.SPEC, unit_economics.SPEC)
GiB = 2**30


def run(spec, **inputs):
    spec.check_overrides(inputs)
    return spec.run(inputs)


# -- picking a model -----------------------------------------------------------------------------

def test_llama_31_70b_in_kv_cache_is_320_kib_per_token():
    r = run(KV, model="llama-3.1-70b")
    assert r.values["kv_bytes_per_token"] == 320 * 1024 and r.text["kv_bytes_per_token"] == "320 KiB"
    assert (r.inputs["layers"], r.inputs["kv_heads"], r.inputs["head_dim"]) == (80, 8, 128)
    assert r.values["model_name"] == "Llama 3.1 70B"
    assert "config.json" in r.values["model_source"] and "Meta-Llama-3.1-70B" in r.values["model_source"]


def test_deepseek_v3_fp8_on_eight_h200_at_128k_is_about_five_sequences():
    r = run(KV, model="deepseek-v3", gpu="h200", gpus=8, context=131072)  # fp8 blocks, as shipped
    # just under five: the Triton experts (block fp8 on Hopper under TP) keep a 1.75 GiB workspace
    assert r.values["max_sequences"] == 4 and 4.8 <= r.values["max_concurrency"] < 5
    assert r.values["kv_replicas"] == 8
    # the naive reckoning: 8 × 141 GiB × 0.9 pooled, less the weights, over an unreplicated cache
    naive = (8 * 141 * GiB * 0.9 - r.values["weight_bytes"]) // r.values["kv_bytes_per_sequence"]
    assert naive == 45


def test_a_shape_field_set_beside_its_model_makes_the_model_custom():
    r = KV.run({"model": "llama-3.1-70b", "layers": 40})
    assert r.inputs["model"] == "custom" and r.inputs["layers"] == 40
    assert r.inputs["kv_heads"] == 8 and r.inputs["heads"] == 64  # the rest of the shape is the 70B's
    assert any("Layers: 40 layers set beside Model “Llama 3.1 70B”" in n for n in r.notes), r.notes
    with pytest.raises(SpecError, match="layers: 40 is set beside model: llama-3.1-70b, which fills it with 80"):
        KV.check_overrides({"model": "llama-3.1-70b", "layers": 40})  # at build time both at once is an error


def test_a_model_set_after_stale_shape_fields_fills_them():
    """What the browser sends when the reader picks a model: the old shape, then the model."""
    r = KV.run([("layers", "80"), ("kv_heads", "64"), ("model", "llama-3.1-8b")])
    assert (r.inputs["model"], r.inputs["layers"], r.inputs["kv_heads"]) == ("llama-3.1-8b", 32, 8)
    assert not [n for n in r.notes if "set beside" in n], r.notes


def test_a_field_equal_to_what_its_model_fills_changes_nothing():
    r = run(KV, model="llama-3.1-70b", layers=80, kv_heads=8)
    assert r.inputs["model"] == "llama-3.1-70b" and r.notes == KV.run({"model": "llama-3.1-70b"}).notes


def test_custom_keeps_the_readers_shape():
    r = run(KV, model="custom", layers=80)
    assert r.inputs["layers"] == 80 and r.values["model_name"] == "Custom shape"


@pytest.mark.parametrize("model_id", list(CATALOGUE))
def test_every_catalogue_model_through_kv_cache_matches_numpy(model_id):
    """KV per token, per sequence (windows by each family's rule) and weights, from the raw config
    (the weights all in bf16 here; vLLM pads the vocabulary rows to a multiple of 64, which moves
    GPT-2's 50,257 rows by 47; a Qwen3-VL tower is loaded unless told otherwise)."""
    config = CATALOGUE[model_id].config
    compressed = ref.text_config(config)["model_type"] == "deepseek_v4"  # its fp8 layout only
    r = run(KV, model=model_id, context=65536, weight_dtype="bf16", **({"kv_dtype": "fp8"} if compressed else {}))
    per_token = ref.kv_bytes_per_token_bf16(config) + ref.indexer_bytes_per_token(config)
    assert r.values["kv_bytes_per_token"] == per_token
    if compressed:  # its windows and compressed entries per sequence: test_scenario_layer_specs.py, by hand
        return
    layers = [(kind, size) for kind, size in ref.layer_pattern(config) if kind in ("full", "sliding", "chunked")]
    # each attending layer's bytes (linear-attention and MLP-only layers cache nothing per token)
    per_layer = np.array(ref.kv_bytes_per_layer_bf16(config), dtype=np.int64)
    tokens = np.array([65536 if kind == "full" else min(65536, size) for kind, size in layers], dtype=np.int64)
    assert r.values["kv_bytes_per_sequence"] == int((per_layer * tokens).sum())
    assert r.values["state_bytes_per_sequence"] == ref.state_bytes_per_sequence(config)
    # with the vision tower vLLM loads beside the text model by default (Qwen3.5/3.6)
    expected = ref.param_counts(config)["total"] + ref.vision_params(config)
    fp32 = ref.fp32_params(config)  # tensors vLLM creates in fp32 whatever the weights' dtype
    assert r.values["weight_bytes"] == pytest.approx((expected - fp32) * 2 + fp32 * 4, rel=1e-5)


# -- pasting a config ----------------------------------------------------------------------------

def test_a_pasted_config_fills_the_shape_and_names_its_traps():
    text = json.dumps(CATALOGUE["deepseek-v3"].config)
    r = run(KV, config=text)
    assert r.inputs["model"] == "deepseek-v3"
    assert r.inputs["attention"] == "mla" and r.values["kv_bytes_per_token"] == 70272
    assert any("read as DeepSeek-V3" in n for n in r.notes)
    assert any("num_key_value_heads 128 does not apply" in n for n in r.notes)


@pytest.mark.parametrize("model_id, fragment", [
    ("qwen2.5-7b", "use_sliding_window is false"),
    ("phi-3-mini", "2047"),
    ("gemma-2-9b", "Gemma 2 alternates"),
    ("gemma-3-27b", "Gemma 3 interleaves"),
    ("gpt-oss-20b", "layer_types"),
    ("llama-4-scout", "chunked local attention"),
])
def test_each_trap_is_named_in_the_message(model_id, fragment):
    r = run(KV, config=json.dumps(CATALOGUE[model_id].config))
    assert any(fragment in n for n in r.notes), r.notes
    assert r.inputs["model"] == model_id


def test_a_fine_tune_not_in_the_catalogue_is_custom():
    raw = copy.deepcopy(CATALOGUE["llama-3.1-8b"].config)
    raw["num_hidden_layers"] = 40
    r = run(KV, config=json.dumps(raw))
    assert r.inputs["model"] == "custom" and r.inputs["layers"] == 40
    assert r.values["kv_bytes_per_token"] == 2 * 40 * 8 * 128 * 2
    assert r.values["model_name"] == "Pasted config.json"


REFUSED = [
    ('{"num_hidden_layers": 32,', "not valid JSON at line 1"),
    ("[1, 2]", "must be a JSON object"),
    ('{"hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000}', "missing field num_hidden_layers"),
    ('{"num_hidden_layers": "many", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 1}',
     "must be a whole number"),
    ('{"num_hidden_layers": Infinity, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 1}',
     "Infinity"),
    # layer kinds the calculators do not model: named, and nothing computed from another shape
    ('{"model_type": "rwkv7", "num_hidden_layers": 24}', "model_type 'rwkv7' (RWKV-7)"),
    ('{"model_type": "zamba2", "num_hidden_layers": 54, "hidden_size": 2560}', "model_type 'zamba2'"),
    ('{"model_type": "mamba2", "num_hidden_layers": 64, "hidden_size": 2560, "vocab_size": 50288}',
     "model_type 'mamba2'"),
    (json.dumps({**CATALOGUE["llama-3.1-8b"].config, "layer_types": ["full_attention"] * 31 + ["retention"]}),
     "layer kind this calculator does not model: 'retention'"),
    (json.dumps({**CATALOGUE["llama-3.1-8b"].config, "ssm_state_size": 16}),
     "ssm_state_size describes layers without (or beside) attention"),
    (json.dumps({**CATALOGUE["qwen3-next-80b-a3b"].config, "model_type": "qwen4_exp"}), "model_type 'qwen4_exp'"),
]


@pytest.mark.parametrize("spec", [KV, decode_roofline.SPEC], ids=["kv-cache", "decode-roofline"])
@pytest.mark.parametrize("text, says", REFUSED)
def test_a_config_that_cannot_be_read_computes_nothing(spec, text, says):
    """The outputs are empty ("not computed"), never the numbers of the model the form still shows."""
    before = run(spec, model="llama-3.1-70b", context=32768)
    after = run(spec, model="llama-3.1-70b", context=32768, config=text)
    assert {k: v for k, v in after.inputs.items() if k != "config"} == {
        k: v for k, v in before.inputs.items() if k != "config"}
    assert set(after.values.values()) == {None}
    assert set(after.text.values()) == {"not computed"} and set(after.raw.values()) == {""}
    assert after.charts == []
    (note,) = [n for n in after.notes if n.startswith("config.json:")]
    assert says in note and note.endswith("Nothing is computed: the outputs would be those of another model.")


def test_a_longer_context_than_the_model_allows_is_said():
    r = run(KV, model="mistral-7b-v0.1", context=65536)
    assert any("32,768 tokens" in n and "max_model_len" in n for n in r.notes)


# -- the same scenario in every calculator -------------------------------------------------------

SHARED = ("model", *scenario.MODEL_FILLS, "weight_dtype", "kv_dtype", "gpu")


@pytest.mark.parametrize("name", SHARED)
def test_shared_parameters_have_one_name_one_choice_list_one_scenario_key(name):
    params = [spec.param_map[name] for spec in CALCS]
    assert len({p.scenario for p in params}) == 1 and params[0].scenario
    if isinstance(params[0], Choice):
        assert len({tuple(p.values) for p in params}) == 1
    else:
        assert len({(p.min, p.max, p.integer) for p in params}) == 1


def test_the_model_fills_every_shape_parameter_and_the_config_clears_on_edit():
    for spec in CALCS:
        model = spec.param_map["model"]
        assert model.fills == scenario.MODEL_FILLS and model.custom == "custom"
        assert model.values[-1] == "custom" and set(model.values[:-1]) == set(CATALOGUE)
    for spec in (kv_cache.SPEC, decode_roofline.SPEC):
        config = spec.param_map["config"]
        assert isinstance(config, Text) and set(config.fills) == {*scenario.MODEL_FILLS, "model"}


@pytest.mark.parametrize("model_id", ["llama-3.1-8b", "qwen3-30b-a3b", "gemma-3-27b", "deepseek-v3"])
def test_one_model_one_shape_everywhere(model_id):
    shapes = [{n: spec.run({"model": model_id}).inputs[n] for n in scenario.MODEL_FILLS} for spec in CALCS]
    assert shapes[0] == shapes[1] == shapes[2]


def test_defaults_are_their_models():
    for spec, model_id in ((kv_cache.SPEC, "llama-3.1-8b"), (decode_roofline.SPEC, "llama-3.1-70b"),
                           (unit_economics.SPEC, "llama-3.1-8b")):
        d = spec.defaults()
        assert d["model"] == model_id
        assert spec.run({}).inputs == d  # resolving the defaults changes nothing
        assert course_calculators.get(spec.id) is spec


# -- vLLM's pool, declared once --------------------------------------------------------------------

def test_the_pool_outputs_are_declared_once_and_shown_alike():
    declared = scenario.pool_outputs()
    assert [o.name for o in declared] == list(scenario.POOL_OUTPUTS)
    for spec in (kv_cache.SPEC, decode_roofline.SPEC):
        # the same outputs, whatever group each calculator lists them under (answers.py)
        assert [replace(spec.output_map[name], group="") for name in scenario.POOL_OUTPUTS] == list(declared), spec.id
        assert all(o.help for o in declared)


def test_both_calculators_give_the_same_pool_for_the_same_deployment():
    setting = {"model": "llama-3.1-8b", "gpu": "h100-sxm", "gpus": 1, "context": 8192}
    kv = KV.run({**setting, "concurrency": 4}).values
    roof = decode_roofline.SPEC.run({**setting, "batch": 4}).values
    assert {n: kv[n] for n in scenario.POOL_OUTPUTS} == {n: roof[n] for n in scenario.POOL_OUTPUTS}


# -- a vision tower ------------------------------------------------------------------------------

def test_a_served_vision_tower_is_in_the_weights_and_text_only_drops_it():
    # vLLM loads Qwen3.6's tower unless images and videos are both 0 (--language-model-only)
    base = {"model": "qwen3.6-35b-a3b-nvfp4", "gpu": "rtx-5090", "context": 131072}
    served = run(KV, **base).values
    text = run(KV, **base, image_limit=0, video_limit=0).values
    one = run(KV, **base, image_limit=0).values  # the video still needs the tower
    assert served["weight_bytes"] - text["weight_bytes"] == pytest.approx(446_571_248 * 2)
    assert one["weight_bytes"] == served["weight_bytes"]
    assert served["activation_bytes"] > text["activation_bytes"]
    assert not scenario.serves_vision({"image_limit": 0, "video_limit": 0})
    assert scenario.serves_vision({})


def test_the_engine_reads_the_multimodal_limits_and_the_context():
    engine = scenario.engine_from_inputs({**KV.defaults(), "image_limit": 2, "video_limit": 0, "context": 4096})
    assert (engine.image_limit, engine.video_limit, engine.max_model_len) == (2, 0, 4096)
    assert scenario.engine_from_inputs(KV.defaults()).mm_limits == {"image": 999, "video": 999}


def test_decode_roofline_shows_the_same_pool_with_the_tower_and_streams_without_it():
    inputs = {"model": "qwen3.6-35b-a3b-nvfp4", "gpu": "rtx-pro-6000", "context": 8192}
    kv, roof = run(KV, **inputs).values, run(decode_roofline.SPEC, **inputs).values
    assert kv["kv_cache_memory"] == pytest.approx(roof["kv_cache_memory"])
    assert kv["activation_bytes"] == pytest.approx(roof["activation_bytes"])
