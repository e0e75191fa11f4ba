"""NVIDIA's Nemotron-H hybrids: Mamba-2 blocks with a few attention blocks (published configs)."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="nemotron-h-56b", name="Nemotron-H 56B (Mamba-2 hybrid)",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["NemotronHForCausalLM"],
            "attention_bias": False,
            "attention_head_dim": 128,
            "chunk_size": 128,
            "conv_kernel": 4,
            "expand": 2,
            "hidden_size": 8192,
            "hybrid_override_pattern": (
                "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-"
                "M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"),
            "intermediate_size": 32768,
            "mamba_head_dim": 64,
            "mamba_num_heads": 256,
            "mamba_proj_bias": False,
            "max_position_embeddings": 8192,
            "mlp_bias": False,
            "model_type": "nemotron_h",
            "n_groups": 8,
            "num_attention_heads": 64,
            "num_hidden_layers": 118,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "ssm_state_size": 256,
            "tie_word_embeddings": False,
            "use_bias": False,
            "use_conv_bias": True,
            "vocab_size": 131072,
        },
        source=aiconfigurator("nvidia/Nemotron-H-56B-Base-8K",
                              note="the published file also holds \"time_step_limit\": [0.0, Infinity]"),
        published_total=56_000_000_000,
        count_source="the model's name and NVIDIA's Nemotron-H paper (arXiv:2504.03624, 'Nemotron-H-56B')",
    ),
    CatalogueEntry(
        id="nemotron-3-nano-30b-a3b", name="Nemotron 3 Nano 30B-A3B (Mamba-2 MoE hybrid)",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["NemotronHForCausalLM"],
            "attention_bias": False,
            "chunk_size": 128,
            "conv_kernel": 4,
            "expand": 2,
            "head_dim": 128,
            "hidden_size": 2688,
            "hybrid_override_pattern": "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",
            "intermediate_size": 1856,
            "mamba_head_dim": 64,
            "mamba_num_heads": 64,
            "mamba_proj_bias": False,
            "mamba_ssm_cache_dtype": "float32",
            "max_position_embeddings": 262144,
            "mlp_bias": False,
            "model_type": "nemotron_h",
            "moe_intermediate_size": 1856,
            "moe_shared_expert_intermediate_size": 3712,
            "n_group": 1,
            "n_groups": 8,
            "n_routed_experts": 128,
            "n_shared_experts": 1,
            "num_attention_heads": 32,
            "num_experts_per_tok": 6,
            "num_hidden_layers": 52,
            "num_key_value_heads": 2,
            "sliding_window": None,
            "ssm_state_size": 128,
            "tie_word_embeddings": False,
            "topk_group": 1,
            "use_bias": False,
            "use_conv_bias": True,
            "vocab_size": 131072,
        },
        source=aiconfigurator("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
        published_total=31_600_000_000, published_active=3_600_000_000,
        count_source="NVIDIA model card, huggingface.co/nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 (31.6B total "
                     "parameters, 3.2B active, 3.6B including embeddings)",
    ),
)
