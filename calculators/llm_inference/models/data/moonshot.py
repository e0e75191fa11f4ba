"""Moonshot AI's Kimi K2 (DeepSeek-V3's MLA architecture, 384 experts): its published config."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="kimi-k2", name="Kimi K2 (1T MoE, MLA)",
        config={
            "architectures": ["DeepseekV3ForCausalLM"],
            "attention_bias": False,
            "first_k_dense_replace": 1,
            "hidden_size": 7168,
            "intermediate_size": 18432,
            "kv_lora_rank": 512,
            "max_position_embeddings": 131072,
            "model_type": "kimi_k2",
            "moe_intermediate_size": 2048,
            "moe_layer_freq": 1,
            "n_group": 1,
            "n_routed_experts": 384,
            "n_shared_experts": 1,
            "num_attention_heads": 64,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 61,
            "num_key_value_heads": 64,
            "num_nextn_predict_layers": 0,
            "q_lora_rank": 1536,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                                    "weight_block_size": [128, 128]},
            "tie_word_embeddings": False,
            "topk_group": 1,
            "v_head_dim": 128,
            "vocab_size": 163840,
        },
        source=aiconfigurator("moonshotai/Kimi-K2-Instruct"),
        published_total=1_040_000_000_000, published_active=32_000_000_000, active_excludes_embedding=True,
        count_source="Kimi K2 technical report (arXiv:2507.20534): '1.04 trillion total parameters' and '32 billion "
                     "activated parameters'; the model card rounds the total to 1T",
        counts_note="The shapes give 1.026T in total (1.3% under the report's 1.04T) and 32.86B active with the "
                    "input embedding (1.17B), 31.69B without: compared without it.",
    ),
)
