"""Z.ai's GLM-5.2 (bf16 and FP8) and NVIDIA's NVFP4 release of it, as published.

GLM-5.2 is GLM-5.1's shape (78 layers of MLA with DeepSeek sparse attention, 256 routed experts)
with the indexer kept on 21 layers only (``indexer_types``: "full" on layers 0-2 and every 4th from
6; the 57 "shared" layers reuse the previous indexer's selection and cache only their latent).
The configs are aiconfigurator's stored copies of the published config.json files; the per-layer
lists are written here by the rule they follow (the tests compare them with the stored files).
"""

from __future__ import annotations

from typing import Any

from ..entry import CatalogueEntry
from .sources import aiconfigurator

LAYERS = 78
#: The layers that own a sparse-attention indexer (indexer_types "full").
INDEXER_LAYERS = (0, 1, 2, *range(6, LAYERS, 4))

GLM52: dict[str, Any] = {
    "architectures": ["GlmMoeDsaForCausalLM"],
    "attention_bias": False,
    "attention_dropout": 0.0,
    "dtype": "bfloat16",
    "eos_token_id": [154820, 154827, 154829],
    "ep_size": 1,
    "first_k_dense_replace": 3,
    "head_dim": 192,
    "hidden_act": "silu",
    "hidden_size": 6144,
    "index_head_dim": 128,
    "index_n_heads": 32,
    "index_share_for_mtp_iteration": True,
    "index_skip_topk_offset": 3,
    "index_topk": 2048,
    "index_topk_freq": 4,
    "index_topk_pattern": None,
    "indexer_rope_interleave": True,
    "initializer_range": 0.02,
    "intermediate_size": 12288,
    "kv_lora_rank": 512,
    "max_position_embeddings": 1048576,
    "model_type": "glm_moe_dsa",
    "moe_intermediate_size": 2048,
    "moe_layer_freq": 1,
    "moe_router_dtype": "float32",
    "n_group": 1,
    "n_routed_experts": 256,
    "n_shared_experts": 1,
    "norm_topk_prob": True,
    "num_attention_heads": 64,
    "num_experts_per_tok": 8,
    "num_hidden_layers": 78,
    "num_key_value_heads": 64,
    "num_nextn_predict_layers": 1,
    "pad_token_id": 154820,
    "pretraining_tp": 1,
    "q_lora_rank": 2048,
    "qk_head_dim": 256,
    "qk_nope_head_dim": 192,
    "qk_rope_head_dim": 64,
    "rms_norm_eps": 1e-05,
    "rope_interleave": True,
    "rope_parameters": {"rope_theta": 8000000, "rope_type": "default"},
    "routed_scaling_factor": 2.5,
    "scoring_func": "sigmoid",
    "tie_word_embeddings": False,
    "topk_group": 1,
    "topk_method": "noaux_tc",
    "transformers_version": "5.12.0",
    "use_cache": True,
    "v_head_dim": 256,
    "vocab_size": 154880,
}
GLM52["indexer_types"] = ["full" if i in INDEXER_LAYERS else "shared" for i in range(LAYERS)]
GLM52["mlp_layer_types"] = ["dense"] * 3 + ["sparse"] * (LAYERS - 3)

#: The FP8 release's modules_to_not_convert: every norm, the routers and their biases, the
#: indexers' norms and weight projections, the MTP layer's own modules, the embeddings and the head
#: (541 names; the published list holds the same names in another order).
_FP8_NOT_CONVERTED = [
    "lm_head", "model.norm", "model.embed_tokens",
    *(f"model.layers.{i}.{m}" for i in range(LAYERS + 1)
      for m in ("input_layernorm", "post_attention_layernorm", "self_attn.q_a_layernorm", "self_attn.kv_a_layernorm")),
    *(f"model.layers.{i}.{m}" for i in range(3, LAYERS + 1) for m in ("mlp.gate", "mlp.gate.e_score_correction_bias")),
    *(f"model.layers.{i}.{m}" for i in (*INDEXER_LAYERS, LAYERS)
      for m in ("self_attn.indexer.k_norm", "self_attn.indexer.k_norm.bias", "self_attn.indexers_proj")),
    *(f"model.layers.{LAYERS}.{m}" for m in ("enorm", "hnorm", "eh_proj", "shared_head.norm")),
]
GLM52_FP8 = {**GLM52, "quantization_config": {
    "activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128],
    "modules_to_not_convert": _FP8_NOT_CONVERTED,
}}

#: NVIDIA's NVFP4 release: ModelOpt keeps the first three layers, every layer's attention and shared
#: expert and the MTP layer in bf16 (the config's ignore list, which its hf_quant_config.json's
#: exclude_modules repeats); the routed experts are NVFP4.
_NVFP4_IGNORE = sorted([
    "lm_head", "model.embed_tokens", "model.layers.0*", "model.layers.1.*", "model.layers.2.*",
    *(f"model.layers.{i}.{m}" for i in range(3, LAYERS) for m in ("mlp.shared_experts*", "self_attn*")),
]) + [f"model.layers.{LAYERS}*"]
GLM52_NVFP4 = {
    **{k: v for k, v in GLM52.items() if k != "moe_router_dtype"},
    "bos_token_id": 0, "mlp_bias": False, "num_experts": 256, "transformers_version": "5.11.0",
    # vLLM does not read layer_types for this family (models/layers.py _FAMILY_ATTENTION)
    "layer_types": ["deepseek_sparse_attention"] * LAYERS,
    "quantization_config": {
        "config_groups": {"group_0": {
            "input_activations": {"dynamic": False, "group_size": 16, "num_bits": 4, "type": "float"},
            "targets": ["Linear"],
            "weights": {"dynamic": False, "group_size": 16, "num_bits": 4, "type": "float"}}},
        "ignore": _NVFP4_IGNORE,
        "kv_cache_scheme": {"dynamic": False, "num_bits": 8, "type": "float"},
        "producer": {"name": "modelopt", "version": "0.46.0.dev65+g977d34dc3"},
        "quant_algo": "NVFP4",
        "quant_method": "modelopt",
    },
}

_COUNTS = dict(
    published_total=744_000_000_000, published_active=40_000_000_000, active_excludes_embedding=True,
    active_excludes_head=True,
    count_source="GLM-5.2 as described from its model card: '744B total parameters, 40B active parameters per "
                 "inference' (https://api.treerouter.ai/en/blog/glm-5-2-vs-glm-5-1-benchmark-analysis; other "
                 "write-ups say 753B, the checkpoint with its MTP layer)",
    counts_note="The shapes give 743.4B for the 78 main layers (the MTP layer is not counted); Zhipu's active "
                "figure leaves out the embedding and the LM head (0.95B each), as for GLM-4.5-Air.",
)

ENTRIES = (
    CatalogueEntry(id="glm-5.2", name="GLM-5.2 (744B MoE)", config=GLM52,
                   source=aiconfigurator("zai-org/GLM-5.2"), **_COUNTS),
    CatalogueEntry(id="glm-5.2-fp8", name="GLM-5.2 FP8 (Z.ai)", config=GLM52_FP8,
                   source=aiconfigurator("zai-org/GLM-5.2-FP8"),
                   notes="zai-org/GLM-5.2-FP8: fp8 e4m3 weights in 128 x 128 blocks; norms, routers, indexer "
                         "projections, embeddings and the LM head stay in bf16.", **_COUNTS),
    CatalogueEntry(id="glm-5.2-nvfp4", name="GLM-5.2 NVFP4 (NVIDIA ModelOpt)", config=GLM52_NVFP4,
                   source=aiconfigurator("nvidia/GLM-5.2-NVFP4"),
                   notes="nvidia/GLM-5.2-NVFP4: NVFP4 routed experts (layers 3-77); the first three layers, "
                         "the attention, the shared experts and the MTP layer in bf16.", **_COUNTS),
)
