"""Reading quantization_config: which tensor is stored in which format, and every refusal path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_calculators.units import GiB
from llm_inference import decode_roofline, kv_cache
from llm_inference.models import catalogue_shape, parse_config
from llm_inference.models.data import llama
from llm_inference.models.params import (ATTENTION, DENSE_MLP, EMBEDDING, LM_HEAD, ROUTED_EXPERTS, ROUTER,
                                         SHARED_EXPERTS, Tensor)
from llm_inference.models.quantization import FORMAT_IDS, SHIPPED, format_scheme, read_quantization
from llm_inference.physics.formats import Fp8, IntGroup, Mxfp4, Nf4, Nvfp4, bits_per_weight
from llm_inference.physics.weights import WeightPlan

LLAMA_8B = dict(llama.ENTRIES[0].config)


def specs_by_group(model_id):
    shape = catalogue_shape(model_id)
    out: dict[str, set[str]] = {}
    for t in shape.tensors:
        if t.is_linear or t.group == EMBEDDING:
            s = shape.quantization.spec_for(t)
            out.setdefault(t.group, set()).add(s.kind if s.kind != "dense" else s.dtype)
    return out


def test_gpt_oss_only_the_experts_are_mxfp4():
    groups = specs_by_group("gpt-oss-120b")
    assert groups[ROUTED_EXPERTS] == {"mxfp4"}
    for group in (EMBEDDING, LM_HEAD, ATTENTION, ROUTER):
        assert groups[group] == {"bfloat16"}


def test_deepseek_v3_ships_fp8_blocks_but_keeps_embeddings_head_and_router():
    groups = specs_by_group("deepseek-v3")
    for group in (ATTENTION, DENSE_MLP, ROUTED_EXPERTS, SHARED_EXPERTS):
        assert groups[group] == {"fp8"}
    for group in (EMBEDDING, LM_HEAD, ROUTER):
        assert groups[group] == {"bfloat16"}
    scheme = catalogue_shape("deepseek-v3").quantization
    assert scheme.linear.strategy == "block" and scheme.linear.block == (128, 128)


def test_qwen3_30b_a3b_fp8_keeps_the_base_shape_with_block_fp8_linears():
    """Qwen/Qwen3-30B-A3B-FP8 (its config.json as aiconfigurator stores it): quant_method fp8, e4m3,
    128 × 128 blocks; modules_to_not_convert lists lm_head and each layer's mlp.gate and norms, so the
    attention and the 48 × 128 routed experts are fp8 and the embedding, head and routers bf16 — on the
    base model's tensors, unchanged."""
    groups = specs_by_group("qwen3-30b-a3b-fp8")
    assert groups[ATTENTION] == {"fp8"} and groups[ROUTED_EXPERTS] == {"fp8"}
    for group in (EMBEDDING, LM_HEAD, ROUTER):
        assert groups[group] == {"bfloat16"}
    fp8, base = catalogue_shape("qwen3-30b-a3b-fp8"), catalogue_shape("qwen3-30b-a3b")
    assert fp8.quantization.linear.strategy == "block" and fp8.quantization.linear.block == (128, 128)
    assert [(t.group, t.module, t.shape) for t in fp8.tensors] == [(t.group, t.module, t.shape) for t in base.tensors]


def test_compressed_tensors_ignore_list_and_targets():
    groups = specs_by_group("llama-3.3-70b-fp8-dynamic")
    assert groups[ATTENTION] == {"fp8"} and groups[DENSE_MLP] == {"fp8"}
    assert groups[LM_HEAD] == {"bfloat16"}
    config = {**LLAMA_8B, "quantization_config": {
        "quant_method": "compressed-tensors", "format": "pack-quantized",
        "ignore": ["lm_head", "re:.*self_attn.*"],
        "config_groups": {"g": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "int",
                                                                  "strategy": "group", "group_size": 128}}}}}
    shape = parse_config(json.dumps(config))
    kinds = {t.group: shape.quantization.spec_for(t).kind for t in shape.tensors if t.is_linear}
    assert kinds[ATTENTION] == "dense" and kinds[DENSE_MLP] == "int"


def test_awq_modules_to_not_convert_is_a_substring_match():
    config = {**LLAMA_8B, "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128,
                                                  "zero_point": True, "modules_to_not_convert": ["layers.0."]}}
    shape = parse_config(json.dumps(config))
    first = {shape.quantization.spec_for(t).kind for t in shape.tensors if t.is_linear and t.layer == 0}
    second = {shape.quantization.spec_for(t).kind for t in shape.tensors if t.is_linear and t.layer == 1}
    assert first == {"dense"} and second == {"int"}


def test_modelopt_exclude_wildcards():
    shape = catalogue_shape("qwen3-235b-a22b-nvfp4")
    groups = specs_by_group("qwen3-235b-a22b-nvfp4")
    assert groups[ROUTED_EXPERTS] == {"nvfp4"} and groups[ATTENTION] == {"nvfp4"}
    assert groups[LM_HEAD] == {"bfloat16"} and groups[ROUTER] == {"bfloat16"}
    assert shape.quantization.method == "modelopt"


def test_scale_overheads_per_format():
    """The bits per weight of a 4096 × 4096 matrix, scales included."""
    assert bits_per_weight(Fp8("fp8", "fp8", strategy="block")) == pytest.approx(8 + 32 / 16384)
    assert bits_per_weight(Fp8("fp8", "fp8", strategy="channel")) == pytest.approx(8 + 32 / 4096)
    assert bits_per_weight(IntGroup("int4", "int4", bits=4, group=128, zero_point=True)) == pytest.approx(
        4 + 16 / 128 + 4 / 128)
    assert bits_per_weight(IntGroup("int4", "int4", bits=4, group=128)) == pytest.approx(4 + 16 / 128)
    assert bits_per_weight(Mxfp4("mxfp4", "mxfp4")) == pytest.approx(4.25)
    assert bits_per_weight(Nvfp4("nvfp4", "nvfp4")) == pytest.approx(4.5, abs=1e-4)
    assert bits_per_weight(Nf4("nf4", "nf4", double_quant=False)) == pytest.approx(4.5)
    assert bits_per_weight(Nf4("nf4", "nf4")) == pytest.approx(4 + 8 / 64 + 32 / 64 / 256)


@pytest.mark.parametrize("fmt", [f for f in FORMAT_IDS if f != SHIPPED])
def test_every_offered_format_sizes_a_model(fmt):
    scheme = format_scheme(fmt)
    assert not scheme.unsupported
    shape = catalogue_shape("llama-3.1-8b")
    total = WeightPlan(shape.tensors, scheme).on(None).total_bytes
    assert 3 * GiB < total < 16 * GiB


# -- refusals: a method the calculator does not model computes nothing from another format --------

REFUSED = [
    ({"quant_method": "hqq", "nbits": 4}, "hqq"),
    ({"quant_method": "gguf"}, "gguf"),
    ({"quant_method": "quark", "global_quant_config": {}}, "quark"),
    ({"bits": 4}, "no quant_method"),
    ({"quant_method": "awq", "bits": 3, "group_size": 128}, "3-bit"),
    ({"quant_method": "gptq", "bits": 4, "group_size": 128, "dynamic": {"+:.*down": {"bits": 8}}}, "dynamic"),
    ({"quant_method": "modelopt", "quantization": {"quant_algo": "W4A8_AWQ"}}, "W4A8_AWQ"),
    ({"quant_method": "compressed-tensors", "config_groups": {}}, "config_groups"),
    ({"quant_method": "fp8", "activation_scheme": "static", "weight_block_size": [128]}, "weight_block_size"),
]


#: What each calculator computes without the weights (the KV geometry, the GPU, the engine's own
#: figures, the names); every other output of a refused config must be "not computed" (None).
KV_CACHE_WEIGHT_FREE = {"kv_bytes_per_token", "kv_bytes_per_sequence", "kv_bytes_total", "state_bytes_per_sequence",
                        "weight_format", "weight_breakdown", "usable_bytes", "activation_bytes", "runtime_bytes",
                        "free_bytes_per_gpu",
                        "engine_release", "kv_bytes_per_token_per_gpu", "kv_replicas", "legal_gpus",
                        "model_name", "model_source"}
ROOFLINE_WEIGHT_FREE = {"kv_bytes_per_token", "kv_bytes", "ridge_point", "compute_ceiling", "bandwidth", "peak_flops",
                        "usable_bytes", "activation_bytes", "model_name", "model_source", "weight_format",
                        "weight_breakdown", "measured", "measured_band", "ttft_measured_band", "experts_touched",
                        "allreduce_s"}


def assert_weights_not_computed(result, weight_free, named):
    """Every weight-dependent output is None (rendered "not computed"), every other one computed,
    and the notes say why, naming the method."""
    v = result.values
    computed_anyway = sorted(k for k, x in v.items() if k not in weight_free and x is not None)
    assert not computed_anyway, f"computed from another format: {computed_anyway}"
    missing = sorted(k for k in weight_free if v[k] is None)
    assert not missing, f"weight-free outputs left out: {missing}"
    assert v["weight_format"].startswith("not modelled") and named.lower() in v["weight_format"].lower()
    assert v["weight_breakdown"].startswith("not computed")
    assert any("Nothing that depends on the weights is computed" in n and named.lower() in n.lower()
               for n in result.notes)
    assert not any(c["title"].startswith("Weights by tensor group") for c in result.charts)


@pytest.mark.parametrize("quantization, named", REFUSED, ids=[r[1] for r in REFUSED])
def test_an_unmodelled_method_is_named_and_sizes_nothing(quantization, named):
    scheme = read_quantization({**LLAMA_8B, "quantization_config": quantization})
    assert scheme.unsupported and named.lower() in scheme.unsupported.lower()
    text = json.dumps({**LLAMA_8B, "quantization_config": quantization})
    for inputs in ({"config": text, "gpu": "h100-sxm"}, {"config": text}):
        kv = kv_cache.SPEC.run(inputs)
        assert_weights_not_computed(kv, KV_CACHE_WEIGHT_FREE, named)
        assert kv.values["kv_bytes_per_token"] > 0  # the KV geometry does not depend on the weights
        roof = decode_roofline.SPEC.run(inputs)
        assert_weights_not_computed(roof, ROOFLINE_WEIGHT_FREE, named)
        assert roof.values["kv_bytes_per_token"] == kv.values["kv_bytes_per_token"]


def test_a_pasted_quantized_config_is_read_the_same_way():
    entry_config = catalogue_shape("qwen2.5-72b-awq")
    from llm_inference.models import CATALOGUE

    text = json.dumps(CATALOGUE["qwen2.5-72b-awq"].config)
    pasted = kv_cache.SPEC.run({"config": text}).values
    picked = kv_cache.SPEC.run({"model": "qwen2.5-72b-awq"}).values
    assert pasted["weight_bytes"] == pytest.approx(picked["weight_bytes"])
    assert pasted["weight_format"] == picked["weight_format"] == entry_config.quantization.label
    assert pasted["model_name"] == picked["model_name"]


def test_a_quantization_group_straddling_two_ranks_is_refused_as_vllm_refuses_it():
    """Qwen2.5-72B's MLP (29,568) over 2 ranks leaves 14,784 inputs of down_proj per rank, not a
    whole number of 128-wide AWQ groups: vLLM raises "The input size is not aligned with the
    quantized weight shape". Qwen's quantized releases pad the MLP to 29,696 for that reason."""
    refused = kv_cache.SPEC.run({"model": "qwen2.5-72b", "weight_dtype": "awq", "gpus": 2})
    assert refused.values["fits"] is False
    assert any("not a multiple of the quantization group 128" in n for n in refused.notes)
    shipped = kv_cache.SPEC.run({"model": "qwen2.5-72b-awq", "gpus": 2})
    assert shipped.values["fits"] is True and not any("quantization group" in n for n in shipped.notes)


# -- read at whichever level the checkpoint puts it, names with or without a wrapper's prefix -------

FIXTURES_2026 = Path(__file__).parent / "fixtures_2026"


def test_kimi_k2_5_int4_scheme_is_read_from_text_config():
    """vLLM's get_quantization_config (vllm/config/model.py) reads the text config's
    quantization_config when the top level has none: Kimi K2.5's int4 routed experts."""
    shape = parse_config((FIXTURES_2026 / "moonshotai--Kimi-K2.5.json").read_text())
    scheme = shape.quantization
    assert scheme.method == "compressed-tensors" and "int4" in scheme.label
    assert any("text_config.quantization_config" in note for note in scheme.notes)
    kinds = {}
    for t in shape.tensors:
        if t.is_linear:
            kinds.setdefault(t.group, set()).add(scheme.spec_for(t).kind)
    assert kinds[ROUTED_EXPERTS] == {"int"}  # group 32
    assert kinds[ATTENTION] == {"dense"} and kinds[LM_HEAD] == {"dense"}  # ignored: self_attn, lm_head


def test_compression_config_is_read_as_the_quantization_config():
    config = {**LLAMA_8B, "compression_config": {"quant_method": "fp8", "activation_scheme": "dynamic",
                                                 "weight_block_size": [128, 128]}}
    assert parse_config(json.dumps(config)).quantization.method == "fp8"


def _kinds_of_layer0(quantization: dict) -> dict:
    shape = parse_config(json.dumps({**LLAMA_8B, "quantization_config": quantization}))
    return {t.path.rsplit(".", 1)[-1]: shape.quantization.spec_for(t).kind
            for t in shape.tensors if t.is_linear and t.layer == 0}


@pytest.mark.parametrize("prefix", ["", "model.", "model.language_model.", "language_model.model."])
def test_modelopt_exclude_matches_with_or_without_a_wrapper_prefix(prefix):
    """Gemma 4 31B's NVFP4 release excludes model.language_model.layers.N.self_attn*: the attention
    stays bf16 whatever prefix the checkpoint's names carry."""
    bare = "layers.0.self_attn*" if prefix != "" else "model.layers.0.self_attn*"
    kinds = _kinds_of_layer0({"quant_method": "modelopt", "quant_algo": "NVFP4",
                              "exclude_modules": ["lm_head", f"{prefix}{bare}" if prefix else bare]})
    assert kinds["q_proj"] == "dense" and kinds["o_proj"] == "dense"
    assert kinds["gate_proj"] == "nvfp4"


@pytest.mark.parametrize("quantization", [
    {"quant_method": "fp8", "activation_scheme": "dynamic",
     "ignored_layers": ["language_model.model.layers.0.self_attn.q_proj", "language_model.model.layers.0.self_attn.k_proj",
                        "language_model.model.layers.0.self_attn.v_proj", "language_model.model.layers.0.self_attn.o_proj"]},
    {"quant_method": "compressed-tensors", "ignore": [r"re:^model\.language_model\.layers\.0\.self_attn\..*"],
     "config_groups": {"g": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float", "strategy": "channel"}}}},
    {"quant_method": "awq", "bits": 4, "group_size": 128, "modules_to_not_convert": ["language_model.model.layers.0.self_attn"]},
    {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {
        "language_model.model.layers.0.mlp.gate_proj": {"quant_algo": "NVFP4"},
        "language_model.model.layers.0.mlp.up_proj": {"quant_algo": "NVFP4"},
        "language_model.model.layers.0.mlp.down_proj": {"quant_algo": "NVFP4"}}},
])
def test_every_method_matches_names_across_wrappers(quantization):
    kinds = _kinds_of_layer0(quantization)
    assert kinds["q_proj"] == "dense" and kinds["o_proj"] == "dense"
    assert kinds["down_proj"] != "dense"


def test_gemma_4_31b_nvfp4_keeps_its_attention_in_bf16():
    scheme = read_quantization(json.loads((FIXTURES_2026 / "nvidia--Gemma-4-31B-IT-NVFP4.json").read_text()))
    attention = Tensor(ATTENTION, "self_attn.q_proj", (8192, 5376), layer=7)
    mlp = Tensor(DENSE_MLP, "mlp.gate_proj", (21504, 5376), layer=7)
    assert scheme.spec_for(attention).kind == "dense" and scheme.spec_for(mlp).kind == "nvfp4"


@pytest.mark.parametrize("quantization, kind", [
    ({"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8"}}, "fp8"),
    ({"quant_method": "modelopt", "quant_algo": "FP8",
      "kv_cache_scheme": {"dynamic": False, "num_bits": 8, "type": "float"}}, "fp8"),
    ({"quant_method": "modelopt", "quant_algo": "NVFP4", "kv_cache_scheme": {"num_bits": 4, "type": "float"}}, "nvfp4"),
    ({"quant_method": "modelopt", "quant_algo": "NVFP4"}, ""),
])
def test_a_modelopt_kv_cache_format_is_named(quantization, kind):
    """vLLM's --kv-cache-dtype auto becomes the checkpoint's kv_cache_quant_algo (vllm/utils/torch_utils.py):
    named in a note so the reader picks that precision."""
    scheme = read_quantization({"quantization_config": quantization})
    assert scheme.kv_cache == kind
    assert any(f"an {kind} KV cache" in note for note in scheme.notes) == bool(kind)


def test_nemotron_3_5_mixed_precision_is_read_layer_by_layer_as_vllm_resolves_it():
    """nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4 lists each quantized module under its
    checkpoint names (``backbone.layers.1.mixer.experts.0.up_proj``): vLLM maps ``backbone`` to
    ``model`` (nemotron_h.py's hf_to_vllm_mapper) and gives a FusedMoE layer the format of the first
    expert listed under it (``_resolve_quant_algo``'s prefix lookup, modelopt.py)."""
    from llm_inference.models.params import MIXER, SHARED_EXPERTS
    quant = json.loads((FIXTURES_2026 / "nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4.hf_quant_config.json")
                       .read_text())
    scheme = read_quantization({"quantization_config": quant, "torch_dtype": "bfloat16"})
    kinds = {(t.group, t.module): (scheme.spec_for(t).kind, scheme.spec_for(t).activations) for t in (
        Tensor(MIXER, "mixer.in_proj", (10000, 2688), layer=0),
        Tensor(MIXER, "mixer.conv1d", (6000, 4), layer=0),
        Tensor(ROUTED_EXPERTS, "mixer.experts.up_proj", (1856, 2688), layer=1),
        Tensor(SHARED_EXPERTS, "mixer.shared_experts.down_proj", (2688, 3712), layer=1),
        Tensor(ATTENTION, "self_attn.q_proj", (4096, 2688), layer=5),
        Tensor(LM_HEAD, "lm_head", (131072, 2688)))}
    assert kinds == {
        (MIXER, "mixer.in_proj"): ("fp8", "fp8"), (MIXER, "mixer.conv1d"): ("dense", ""),
        (ROUTED_EXPERTS, "mixer.experts.up_proj"): ("nvfp4", ""),  # W4A16: 16-bit activations
        (SHARED_EXPERTS, "mixer.shared_experts.down_proj"): ("nvfp4", ""),
        (ATTENTION, "self_attn.q_proj"): ("dense", ""), (LM_HEAD, "lm_head"): ("nvfp4", "")}
