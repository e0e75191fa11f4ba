"""DeepSeek-V4's weights (models/deepseek_v4.py) against the derivation by hand.

fixtures_2026/by_hand.py sizes every tensor vLLM loads for text serving from the published configs
(deepseek-ai's Flash and Pro, NVIDIA's NVFP4 releases), without the library; here the library's
weight plan (the derived tensors, the checkpoint's formats) must give the same bytes. The figures
by hand: Flash 145.3 GiB, Pro 792.3, Flash-NVFP4 153.4, Pro-NVFP4 837.3.
"""

from __future__ import annotations

import json

import pytest

from llm_inference import hardware
from llm_inference.models import ConfigError, derive
from llm_inference.models import deepseek_v4 as v4
from llm_inference.models.params import NORMS_BIASES, ROUTED_EXPERTS, ROUTER
from llm_inference.physics.weights import WeightPlan

from .fixtures_2026.by_hand import FIXTURES, config, deepseek_v4_weights

GIB = 2**30
RELEASES = {  # fixture -> the routed experts' format by hand, and the figure quoted in the brief (GiB)
    "deepseek-ai--DeepSeek-V4-Flash": ("mxfp4", 145.3),
    "deepseek-ai--DeepSeek-V4-Pro": ("mxfp4", 792.3),
    "nvidia--DeepSeek-V4-Flash-NVFP4": ("nvfp4", 153.4),
    "nvidia--DeepSeek-V4-Pro-NVFP4": ("nvfp4", 837.3),
}
FLASH = config("deepseek-ai--DeepSeek-V4-Flash")


def pasted(name: str) -> dict:
    cfg = config(name)
    quant = FIXTURES / f"{name}.hf_quant_config.json"
    if quant.exists() and "quantization_config" not in cfg:
        cfg["quantization_config"] = json.loads(quant.read_text())
    return cfg


def plan(cfg: dict) -> WeightPlan:
    shape = derive(cfg)
    return WeightPlan(shape.tensors, shape.quantization)


@pytest.mark.parametrize("name", RELEASES)
def test_the_weights_match_the_derivation_by_hand(name):
    experts, quoted = RELEASES[name]
    hand = deepseek_v4_weights(config(name), experts)
    assert hand / GIB == pytest.approx(quoted, abs=0.05)
    weights = plan(pasted(name))
    assert weights.on(None).total_bytes == pytest.approx(hand, rel=0.005)
    # on the GPUs of the verdict: vLLM's MoE kernels pad neither model's experts at TP 1
    for gpu in ("h200", "b200"):
        assert weights.on(hardware.GPUS[gpu]).total_bytes == pytest.approx(hand, rel=0.005)


def test_the_formats_as_shipped():
    deepseek = derive(FLASH).quantization
    nvidia = derive(pasted("nvidia--DeepSeek-V4-Flash-NVFP4")).quantization
    assert "MXFP4 routed experts" in deepseek.label and "e8m0" in deepseek.label
    assert "NVFP4 routed experts" in nvidia.label


def _bytes_by_group(cfg: dict) -> dict[str, float]:
    return {g.group: g.bytes for g in plan(cfg).on(None).groups()}


def test_the_hyper_connections_are_fp32_and_counted():
    """hc_attn_fn and hc_ffn_fn: (2 + 4) × 4 = 24 rows by 4 × 4,096 columns, fp32, twice a layer,
    with their bases (24) and scales (3); the model's hc_head adds 4 × 16,384 + 4 + 1."""
    per_layer = 2 * (24 * 4 * 4096 + 24 + 3) * 4
    head = (4 * 4 * 4096 + 4 + 1) * 4
    tensors = v4.hyper_connections(4096, 4).tensors + v4.hc_head(4096, 4).tensors
    assert all(t.dtype == "float32" and t.group == NORMS_BIASES for t in tensors)
    without = {**FLASH, "hc_mult": 1}  # one stream: a 3 × 4,096 mixer, as a check on the arithmetic
    gap = _bytes_by_group(FLASH)[NORMS_BIASES] - _bytes_by_group(without)[NORMS_BIASES]
    one = 43 * 2 * (3 * 4096 + 3 + 3) * 4 + (4096 + 1 + 1) * 4
    assert gap == per_layer * 43 + head - one


def test_the_hash_layers_hold_a_token_table_instead_of_a_bias():
    """The first num_hash_layers (3) route by token id: an int32 table of vocab × experts per token
    (129,280 × 6) each, in place of the router's 256 fp32 biases."""
    table, bias = 129280 * 6 * 4, 256 * 4
    none = {**FLASH, "num_hash_layers": 0}
    gap = _bytes_by_group(FLASH)[ROUTER] - _bytes_by_group(none)[ROUTER]
    assert gap == 3 * (table - bias)
    hashed = v4.routing(4096, 256, hashed=True, vocab=129280, per_token=6).tensors
    assert [(t.module, t.shape, t.dtype) for t in hashed][-1] == ("ffn.gate.tid2eid", (129280, 6), "int32")


def test_the_grouped_output_and_low_rank_queries_by_hand():
    """Flash's ratio-0 layer: wq_a 1,024 × 4,096, wkv 512 × 4,096, wq_b 32,768 × 1,024, wo_a
    8,192 × 4,096 (8 groups of 8 heads × 512 in, 1,024 out each), wo_b 4,096 × 8,192."""
    attn = v4.attention(4096, 64, 512, q_lora_rank=1024, o_groups=8, o_lora_rank=1024, ratio=0,
                        index_heads=64, index_head_dim=128)
    shapes = {t.module: t.shape for t in attn.tensors if t.param == "weight"}
    assert shapes == {"attn.wq_a": (1024, 4096), "attn.wkv": (512, 4096), "attn.wq_b": (32768, 1024),
                      "attn.wo_a": (8192, 4096), "attn.wo_b": (4096, 8192)}
    c4 = v4.attention(4096, 64, 512, q_lora_rank=1024, o_groups=8, o_lora_rank=1024, ratio=4,
                      index_heads=64, index_head_dim=128)
    extra = {t.module: t.shape for t in c4.tensors} .keys() - {t.module for t in attn.tensors}
    assert extra == {"attn.compressor.wkv", "attn.compressor.wgate", "attn.compressor.ape", "attn.compressor.norm",
                     "attn.indexer.wq_b", "attn.indexer.weights_proj", "attn.indexer.k_norm",
                     "attn.indexer.compressor.wkv", "attn.indexer.compressor.wgate",
                     "attn.indexer.compressor.ape", "attn.indexer.compressor.norm"}
    # built with quant_config=None: bf16 whatever the checkpoint
    assert {t.module for t in c4.tensors if not t.quantizable} >= {
        "attn.compressor.wkv", "attn.indexer.weights_proj", "attn.indexer.compressor.wgate"}


def test_fp8_reaches_the_attention_and_shared_experts_not_the_compressors():
    shape = derive(FLASH)
    specs = {t.module: shape.quantization.spec_for(t) for t in shape.tensors if t.layer == 2}
    assert specs["attn.wq_b"].kind == specs["ffn.shared_experts.down_proj"].kind == "fp8"
    assert specs["attn.compressor.wkv"].kind == specs["attn.indexer.weights_proj"].kind == "dense"
    assert specs["ffn.experts.down_proj"].kind == "mxfp4"
    assert specs["ffn.gate"].kind == "dense"


def test_the_mtp_layer_is_not_counted():
    shape = derive(FLASH)
    assert max(t.layer for t in shape.tensors if t.layer is not None) == 42
    assert any("num_nextn_predict_layers 1" in t for t in shape.traps)


def test_the_routed_experts_are_what_the_config_says():
    shape = derive(FLASH)
    experts = [t for t in shape.tensors if t.group == ROUTED_EXPERTS and t.layer == 0]
    assert {(t.module, t.shape, t.count) for t in experts} == {
        ("ffn.experts.gate_proj", (2048, 4096), 256), ("ffn.experts.up_proj", (2048, 4096), 256),
        ("ffn.experts.down_proj", (4096, 2048), 256)}


# -- refusals: each names its reason ---------------------------------------------------------------

@pytest.mark.parametrize(("change", "why"), [
    ({"o_groups": 7}, "not a multiple of o_groups 7"),
    ({"num_hash_layers": 44}, "num_hash_layers 44 exceeds"),
    ({"q_lora_rank": None}, "q_lora_rank"),
    ({"hc_mult": "four"}, "hc_mult"),
])
def test_a_config_it_cannot_size_is_refused_naming_the_field(change, why):
    with pytest.raises(ConfigError, match=why):
        derive({**FLASH, **change})


@pytest.mark.parametrize("key", ["hc_attn_layers", "o_lora_bias", "index_share_layers"])
def test_an_unknown_key_added_is_refused_by_name(key):
    with pytest.raises(ConfigError, match=key):
        derive({**FLASH, key: 2})
