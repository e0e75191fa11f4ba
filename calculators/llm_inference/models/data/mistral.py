"""Mistral AI's Mistral 7B and Mixtral: published configs and parameter counts."""

from __future__ import annotations

from ..entry import CatalogueEntry, Source
from .sources import aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="mistral-7b-v0.1", name="Mistral 7B v0.1",
        config={
            "architectures": ["MistralForCausalLM"],
            "hidden_size": 4096,
            "intermediate_size": 14336,
            "max_position_embeddings": 32768,
            "model_type": "mistral",
            "num_attention_heads": 32,
            "num_hidden_layers": 32,
            "num_key_value_heads": 8,
            "sliding_window": 4096,
            "tie_word_embeddings": False,
            "vocab_size": 32000,
        },
        source=Source(
            url="https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
            note="read as quoted verbatim (transformers_version 4.34.0.dev0) in five files of the "
                 "GitHub code index whose repositories the index does not name; the same shape is in "
                 "Mistral's own params.json (dim 4096, n_layers 32, head_dim 128, hidden_dim 14336, "
                 "n_heads 32, n_kv_heads 8, sliding_window 4096, vocab_size 32000) quoted in "
                 "ggml-org/llama.cpp pull request 3362",
        ),
        published_total=7_300_000_000,
        count_source="Mistral AI, 'Announcing Mistral 7B' (2023-09-27, mistral.ai/news/announcing-mistral-7b): "
                     "'a 7.3B parameter model' (the paper, arXiv 2310.06825, rounds to '7-billion-parameter')",
    ),
    CatalogueEntry(
        id="mixtral-8x7b", name="Mixtral 8x7B",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["MixtralForCausalLM"],
            "hidden_size": 4096,
            "intermediate_size": 14336,
            "max_position_embeddings": 32768,
            "model_type": "mixtral",
            "num_attention_heads": 32,
            "num_experts_per_tok": 2,
            "num_hidden_layers": 32,
            "num_key_value_heads": 8,
            "num_local_experts": 8,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "vocab_size": 32000,
        },
        # Identical fields in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py ("Mixtral-8x7B-v0.1").
        source=aiconfigurator("mistralai/Mixtral-8x7B-v0.1"),
        published_total=47_000_000_000, published_active=13_000_000_000,
        count_source="Jiang et al., 'Mixtral of Experts' (2024, arXiv 2401.04088): 'each token has access "
                     "to 47B parameters, but only uses 13B active parameters'",
    ),
    CatalogueEntry(
        id="mixtral-8x22b", name="Mixtral 8x22B",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["MixtralForCausalLM"],
            "hidden_size": 6144,
            "intermediate_size": 16384,
            "max_position_embeddings": 65536,
            "model_type": "mixtral",
            "num_attention_heads": 48,
            "num_experts_per_tok": 2,
            "num_hidden_layers": 56,
            "num_key_value_heads": 8,
            "num_local_experts": 8,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "vocab_size": 32000,
        },
        source=aiconfigurator("mistralai/Mixtral-8x22B-v0.1"),
        published_total=141_000_000_000, published_active=39_000_000_000,
        count_source="Mistral AI, 'Cheaper, Better, Faster, Stronger' (2024-04-17, mistral.ai/news/mixtral-8x22b): "
                     "'39B active parameters out of 141B'",
    ),
)
