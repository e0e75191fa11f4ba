"""Every catalogue model lists its tensors by group, as its checkpoint stores them: the recurrent
mixers of the hybrids, DeepSeek-V3.2's indexer and the gated and normed attention included, so
that no model falls back to a shape at one precision."""

from __future__ import annotations

import pytest

from llm_inference.models import CATALOGUE
from llm_inference.models.catalogue import catalogue_shape
from llm_inference.models.params import GROUP_LABELS, MIXER
from llm_inference.models.quantization import read_quantization


@pytest.mark.parametrize("model_id", list(CATALOGUE))
def test_every_model_has_its_tensors_and_its_shipped_format(model_id):
    entry, shape = CATALOGUE[model_id], catalogue_shape(model_id)
    assert shape.tensors, "no tensors: the weights would be sized from a substituted shape"
    assert sum(t.params for t in shape.tensors) == shape.total_params
    assert {t.group for t in shape.tensors} <= set(GROUP_LABELS)
    # the official checkpoint's config is cited by URL (GPT-3, never released, by its paper's table)
    assert entry.source.url.startswith("https://") or (model_id == "gpt3-175b" and entry.source.path)
    assert not read_quantization(entry.config).unsupported  # the shipped format is one the calculator models


@pytest.mark.parametrize("model_id, method", [("deepseek-v3.2", "fp8"), ("kimi-k2", "fp8"), ("minimax-m2.5", "fp8"),
                                              ("qwen3-next-80b-a3b", "none"), ("glm-4.5-air", "none"),
                                              ("nemotron-h-56b", "none"), ("nemotron-3-nano-30b-a3b", "none"),
                                              ("nemotron-3-super-120b-a12b", "none"),
                                              ("qwen3.6-35b-a3b", "none"), ("qwen3.6-35b-a3b-nvfp4", "modelopt"),
                                              ("qwen3.6-27b-nvfp4", "modelopt")])
def test_the_attention_works_models_ship_as_their_configs_say(model_id, method):
    scheme = read_quantization(CATALOGUE[model_id].config)
    assert scheme.method == method
    if method == "fp8":  # DeepSeek's 128 x 128 blocks, as each config's quantization_config says
        assert CATALOGUE[model_id].config["quantization_config"]["weight_block_size"] == [128, 128]


@pytest.mark.parametrize("model_id, kind", [("qwen3-next-80b-a3b", "linear_attn.in_proj_qkvz"),
                                            ("qwen3.6-35b-a3b", "linear_attn.in_proj_qkv"),
                                            ("nemotron-h-56b", "mixer.in_proj"),
                                            ("nemotron-3-nano-30b-a3b", "mixer.in_proj"),
                                            ("nemotron-3-super-120b-a12b", "mixer.in_proj")])
def test_recurrent_mixers_are_their_own_group(model_id, kind):
    shape = catalogue_shape(model_id)
    mixers = [t for t in shape.tensors if t.group == MIXER]
    assert any(t.module == kind for t in mixers)
    assert sum(t.layer is not None for t in mixers if t.module == kind) == shape.state_layers
    conv = [t for t in mixers if t.module.endswith("conv1d")]
    assert conv and all(len(t.shape) == 3 and not t.quantizable for t in conv)  # (channels, 1, kernel), never quantized


def test_deepseek_v32_indexer_as_vllm_holds_it():
    """wq_b follows the checkpoint (fp8 blocks); wk and weights_proj are one unquantized bf16 GEMM in
    vLLM 0.33.0 (wk_weights_proj, quant_config=None)."""
    shape = catalogue_shape("deepseek-v3.2")
    scheme = read_quantization(CATALOGUE["deepseek-v3.2"].config)
    layer0 = {t.module: t for t in shape.tensors if t.layer == 0 and t.module.startswith("self_attn.indexer")}
    assert set(layer0) == {"self_attn.indexer.wq_b", "self_attn.indexer.wk", "self_attn.indexer.k_norm",
                           "self_attn.indexer.weights_proj"}
    assert scheme.spec_for(layer0["self_attn.indexer.wq_b"]).kind == "fp8"
    for name in ("self_attn.indexer.wk", "self_attn.indexer.weights_proj"):
        assert scheme.spec_for(layer0[name]).kind == "dense"
    assert layer0["self_attn.indexer.wq_b"].shape == (64 * 128, 1536)


def test_modelopt_mixed_precision_layer_by_layer():
    """nvidia/Qwen3.6-35B-A3B-NVFP4: attention and linear-attention projections FP8, routed and shared
    experts and the LM head NVFP4 with 16-bit activations, everything not listed (the embedding, the
    small in_proj_a/in_proj_b, the routers, the convolutions) bf16; names carry no language_model."""
    shape = catalogue_shape("qwen3.6-35b-a3b-nvfp4")
    scheme = read_quantization(CATALOGUE["qwen3.6-35b-a3b-nvfp4"].config)
    assert scheme.method == "modelopt" and "mixed precision" in scheme.label and not scheme.unsupported
    by_module = {}
    for t in shape.tensors:
        if t.layer in (None, 2, 3):
            by_module.setdefault((t.layer, t.module, t.param), scheme.spec_for(t))
    spec = lambda layer, module, param="weight": by_module[(layer, module, param)]  # noqa: E731
    assert spec(2, "linear_attn.in_proj_qkv").kind == spec(3, "self_attn.q_proj").kind == "fp8"
    assert spec(2, "linear_attn.in_proj_a").kind == spec(2, "mlp.gate").kind == "dense"
    routed = spec(2, "mlp.experts.down_proj")
    assert routed.kind == "nvfp4" and routed.group == 16 and routed.activations == ""  # W4A16
    assert spec(3, "mlp.shared_expert.up_proj").kind == spec(None, "lm_head").kind == "nvfp4"
    assert spec(None, "model.embed_tokens").kind == "dense"
