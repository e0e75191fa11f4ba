"""MiniMax-M3's block-sparse attention (models/block_sparse_attention.py): the layer kind's bytes,
pages, blocks and decode reads by hand, and the published config read into 3 full-attention and 57
sparse layers (tests/unit/llm_inference/models/fixtures_2026/MiniMaxAI--MiniMax-M3.json, published
as https://huggingface.co/MiniMaxAI/MiniMax-M3/blob/main/config.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models import derive
from llm_inference.models.block_sparse_attention import BlockSparseAttention
from llm_inference.models.layer_specs import FullAttention

FIXTURES = Path(__file__).parent / "fixtures_2026"
SPARSE = BlockSparseAttention(kv_heads=4, head_dim=128, index_dim=128, topk_blocks=16)


def m3() -> dict:
    return json.loads((FIXTURES / "MiniMaxAI--MiniMax-M3.json").read_text())


def test_a_sparse_layer_caches_k_v_and_a_bf16_index_key():
    # K and V: 4 heads x 128 x 2 bytes each; the index key: 128 bf16 values, whatever the KV dtype
    assert SPARSE.bytes_per_token("bf16") == 4 * 128 * 2 * 2 + 128 * 2 == 2304
    assert SPARSE.bytes_per_token("fp8") == 4 * 128 * 2 * 1 + 128 * 2 == 1280
    assert SPARSE.bytes_per_sequence(131072) == 2304 * 131072


def test_under_tensor_parallelism_the_kv_heads_split_and_the_index_key_does_not():
    # TP 2: 2 heads a rank; TP 8: one head, replicated (max(1, 4 // 8)); the index key whole on every rank
    assert SPARSE.bytes_per_token("bf16", 2) == 2 * 128 * 2 * 2 + 256
    assert SPARSE.bytes_per_token("bf16", 8) == 1 * 128 * 2 * 2 + 256 == 768


def test_pages_blocks_and_the_128_token_block():
    assert SPARSE.min_block_size == 128
    assert SPARSE.page_bytes(128, "bf16") == 128 * 2304 == 294_912
    assert SPARSE.blocks_per_request(131072, 128) == 1024
    assert SPARSE.blocks_per_request(1000, 128) == 8


def test_a_decode_step_reads_every_index_key_and_the_top_k_blocks_of_k_and_v():
    # 16 blocks of 128 tokens of K and V, the index keys of all 131,072 tokens
    assert SPARSE.read_bytes_per_sequence(131072) == 16 * 128 * 2048 + 131072 * 256
    # a short context reads all it holds
    assert SPARSE.read_bytes_per_sequence(1000) == SPARSE.bytes_per_sequence(1000)


def test_only_bf16_and_fp8_caches_are_served():
    assert SPARSE.kv_dtype_problem("bf16") == SPARSE.kv_dtype_problem("fp8_e5m2") == ""
    assert "bf16 or fp8 only" in SPARSE.kv_dtype_problem("nvfp4")


def test_the_published_config_gives_3_full_and_57_sparse_layers():
    shape = derive(m3())
    kinds = [type(s) for s in shape.layer_specs]
    assert kinds == [FullAttention] * 3 + [BlockSparseAttention] * 57
    assert shape.layer_specs[3] == SPARSE
    # 3 x 2,048 + 57 x 2,304 bytes a token: 16.78 GiB a 128K sequence
    assert shape.kv_bytes_per_sequence(131072) == (3 * 2048 + 57 * 2304) * 131072 == 18_018_729_984


def test_the_sparse_layers_weights_add_the_index_projections():
    """index_q_proj (4 heads x 128), index_k_proj (one head) and their two norms on each sparse layer:
    (4 x 128 + 128) x 6,144 + 2 x 128 parameters more than a dense layer's attention."""
    shape = derive(m3())
    attention = {}
    for t in shape.tensors:
        if t.module.startswith("self_attn.") and t.layer in (2, 3):
            attention[t.layer] = attention.get(t.layer, 0) + t.params
    assert attention[3] - attention[2] == (4 * 128 + 128) * 6144 + 2 * 128
    fp32 = {t.module for t in shape.tensors if t.dtype == "float32" and t.layer == 3}
    assert fp32 == {"block_sparse_moe.gate", "block_sparse_moe.e_score_correction_bias"}
    assert not any(t.dtype for t in shape.tensors if t.layer == 2)  # the dense layers have no router


@pytest.mark.parametrize("width", ["moe_intermediate_size", "shared_intermediate_size"])
def test_the_experts_are_sized_by_intermediate_size(width):
    """vLLM's FusedMoE and the shared expert read intermediate_size; the restating fields agree here."""
    config = m3()
    assert config[width] == config["intermediate_size"] == 3072
    shape = derive(config)
    shared = [t for t in shape.tensors if t.layer == 3 and "shared_experts" in t.module]
    assert {t.shape for t in shared} == {(3072, 6144), (6144, 3072)}
    dense = [t for t in shape.tensors if t.layer == 0 and t.module.startswith("mlp.")]
    assert {t.shape for t in dense} == {(12288, 6144), (6144, 12288)}  # dense_intermediate_size


def nvidia_style_wrapper(quantized_layers: dict) -> dict:
    """The shape of NVIDIA's MiniMax-M3-NVFP4 config.json (aiconfigurator @ 095f58a5, 3.1 MB, not
    saved: sources.json): a ``minimax_m3_vl`` wrapper whose ``text_config`` has no model_type, a
    vision tower, ``num_reward_heads`` 0, and a ModelOpt MIXED_PRECISION ``quantized_layers`` map."""
    text = {k: v for k, v in m3().items() if k not in ("model_type", "architectures", "torch_dtype")}
    return {"architectures": ["MiniMaxM3SparseForConditionalGeneration"], "model_type": "minimax_m3_vl",
            "text_config": {**text, "architectures": ["MiniMaxM3SparseForCausalLM"]},
            "num_reward_heads": 0, "torch_dtype": "bfloat16",
            "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                    "kv_cache_quant_algo": None, "exclude_modules": ["lm_head"],
                                    "quantized_layers": quantized_layers}}


def test_the_vl_wrapper_reads_its_text_model_as_minimax_m3():
    shape = derive(nvidia_style_wrapper({"language_model.model.layers.3.block_sparse_moe.experts.0.w1":
                                         {"quant_algo": "NVFP4", "group_size": 16}}))
    assert shape.model_type == "minimax_m3"
    assert shape.kv_bytes_per_sequence(131072) == 18_018_729_984


def test_mxfp8_layers_are_sized_and_mxfp8_routed_experts_refused_by_name():
    """MXFP8 Linear layers (e4m3 and an e8m0 byte per 32): q_proj of layer 0 in MXFP8 takes
    8,192 x 6,144 + 8,192 x 192 bytes instead of 2 x 8,192 x 6,144. Routed experts in MXFP8 run
    through vLLM's ModelOptMxFp8FusedMoE, not modelled: the weights are refused naming it, and the
    KV cache a sequence holds is still computed."""
    from llm_inference.kv_cache import SPEC

    def run(layers):
        return SPEC.run({"config": json.dumps(nvidia_style_wrapper(layers)), "gpu": "h200", "gpus": 8,
                         "context": 131072, "image_limit": 0, "video_limit": 0}).values

    bf16 = run({"language_model.model.layers.3.block_sparse_moe.experts.0.w1": {"quant_algo": "NVFP4", "group_size": 16}})
    mxfp8 = run({"language_model.model.layers.3.block_sparse_moe.experts.0.w1": {"quant_algo": "NVFP4", "group_size": 16},
                 "language_model.model.layers.0.self_attn.q_proj": {"quant_algo": "MXFP8"}})
    assert bf16["weight_bytes"] - mxfp8["weight_bytes"] == 2 * 8192 * 6144 - (8192 * 6144 + 8192 * 192)
    refused = run({"language_model.model.layers.3.block_sparse_moe.experts.0.w1": {"quant_algo": "MXFP8"}})
    assert refused["weight_bytes"] is None and "MXFP8 routed experts" in refused["weight_format"]
    assert refused["kv_bytes_per_sequence"] == 18_018_729_984
