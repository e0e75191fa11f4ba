"""Xiaomi's MiMo-V2-Flash: a 256-expert MoE whose 48 layers alternate sliding-window attention with
a geometry of its own (``swa_*``, 39 layers over 128 tokens) and full attention (9 layers), keys
192 wide and values 128 (models/window_geometry.py). Shipped in fp8 with 128 × 128 block scales."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="mimo-v2-flash", name="MiMo-V2-Flash (309B MoE, fp8)",
        config={"architectures": ["MiMoV2FlashForCausalLM"],
                "model_type": "mimo_v2_flash",
                "num_hidden_layers": 48,
                "hidden_size": 4096,
                "num_attention_heads": 64,
                "num_key_value_heads": 4,
                "head_dim": 192,
                "v_head_dim": 128,
                "intermediate_size": 16384,
                "vocab_size": 152576,
                "max_position_embeddings": 262144,
                "rope_theta": 5000000,
                "swa_rope_theta": 10000,
                "partial_rotary_factor": 0.334,
                "sliding_window": 128,
                "sliding_window_size": 128,
                "attention_chunk_size": 128,
                "swa_num_attention_heads": 64,
                "swa_num_key_value_heads": 8,
                "swa_head_dim": 192,
                "swa_v_head_dim": 128,
                "hybrid_layer_pattern": [0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0,
                                         1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1,
                                         0],
                "moe_layer_freq": [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                "moe_intermediate_size": 2048,
                "n_routed_experts": 256,
                "n_shared_experts": None,
                "num_experts_per_tok": 8,
                "norm_topk_prob": True,
                "scoring_func": "sigmoid",
                "n_group": 1,
                "topk_group": 1,
                "topk_method": "noaux_tc",
                "routed_scaling_factor": None,
                "hidden_act": "silu",
                "layernorm_epsilon": 1e-05,
                "attention_dropout": 0.0,
                "attention_bias": False,
                "attention_value_scale": 0.707,
                "add_swa_attention_sink_bias": True,
                "add_full_attention_sink_bias": False,
                "tie_word_embeddings": False,
                "torch_dtype": "bfloat16",
                "transformers_version": "4.40.1",
                "use_cache": True,
                "quantization_config": {"activation_scheme": "dynamic",
                                        "fmt": "e4m3",
                                        "quant_method": "fp8",
                                        "weight_block_size": [128, 128]}},
        source=aiconfigurator("XiaomiMiMo/MiMo-V2-Flash"),
        published_total=309_000_000_000, published_active=15_000_000_000, active_tolerance=0.04,
        count_source="Xiaomi's model card, https://huggingface.co/XiaomiMiMo/MiMo-V2-Flash ('309B total parameters "
                     "and 15B active parameters')",
        counts_note="The card gives the active count to two significant figures (15B); the derivation's 15.4B "
                    "includes the embedding table. The MTP layers (num_nextn_predict_layers is not set; the card's "
                    "MTP module ships apart) are not counted.",
    ),
)
