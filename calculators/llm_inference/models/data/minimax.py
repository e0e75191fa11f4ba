"""MiniMax's M2.5: 256-expert MoE with full (softmax) attention on every layer."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="minimax-m2.5", name="MiniMax-M2.5 (230B MoE)",
        config={
            "architectures": ["MiniMaxM2ForCausalLM"],
            "head_dim": 128,
            "hidden_size": 3072,
            "intermediate_size": 1536,
            "max_position_embeddings": 196608,
            "model_type": "minimax_m2",
            "mtp_transformer_layers": 1,
            "num_attention_heads": 48,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 62,
            "num_key_value_heads": 8,
            "num_local_experts": 256,
            "num_mtp_modules": 3,
            "qk_norm_type": "per_layer",
            "quantization_config": {"activation_scheme": "dynamic", "fmt": "float8_e4m3fn",
                                    "modules_to_not_convert": ["gate", "e_score_correction_bias", "lm_head"],
                                    "quant_method": "fp8", "weight_block_size": [128, 128]},
            "rotary_dim": 64,
            "shared_intermediate_size": 0,
            "tie_word_embeddings": False,
            "use_mtp": True,
            "use_qk_norm": True,
            "vocab_size": 200064,
        },
        source=aiconfigurator("MiniMaxAI/MiniMax-M2.5"),
        published_total=229_900_000_000, published_active=9_800_000_000, active_excludes_embedding=True,
        active_excludes_head=True,
        count_source="MiniMax M2 series report as summarised at https://www.emergentmind.com/topics/minimax-m2-5 "
                     "('229.9 billion total parameters, 9.8 billion activated per token'; M2's card: 230B / 10B)",
        counts_note="MiniMax's activated count leaves out the embedding and the LM head (0.61B each); the three "
                    "MTP modules (use_mtp) are not counted.",
    ),
)
