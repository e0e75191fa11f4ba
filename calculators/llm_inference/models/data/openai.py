"""OpenAI's gpt-oss (published configs) and GPT-3 175B (from the paper)."""

from __future__ import annotations

from ..entry import CatalogueEntry, Source
from .sources import aiconfigurator

_GPT_OSS_README = "openai/gpt-oss @ 7b583341fe16: README.md"
_GPT_OSS_NOTE = (
    "OpenAI's active count leaves out the input embedding table (a row lookup): the shapes give "
    "{with_} active with it and {without} without."
)


def _gpt_oss(layers: int, experts: int) -> dict:
    """gpt-oss-20b and -120b differ only in depth and expert count."""
    return {
        "architectures": ["GptOssForCausalLM"],
        "attention_bias": True,
        "experts_per_token": 4,
        "head_dim": 64,
        "hidden_size": 2880,
        "intermediate_size": 2880,
        # As published: one entry per layer, alternating, starting with a sliding layer.
        "layer_types": ["sliding_attention", "full_attention"] * (layers // 2),
        "max_position_embeddings": 131072,
        "model_type": "gpt_oss",
        "num_attention_heads": 64,
        "num_experts_per_tok": 4,
        "num_hidden_layers": layers,
        "num_key_value_heads": 8,
        "num_local_experts": experts,
        # As published: MXFP4 experts, everything else in bf16 (the config names no torch_dtype).
        "quantization_config": {
            "modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                       "model.embed_tokens", "lm_head"],
            "quant_method": "mxfp4",
        },
        "sliding_window": 128,
        "tie_word_embeddings": False,
        "vocab_size": 201088,
    }


ENTRIES = (
    CatalogueEntry(
        id="gpt-oss-20b", name="gpt-oss-20b",
        config=_gpt_oss(layers=24, experts=32),
        source=aiconfigurator("openai/gpt-oss-20b"),
        published_total=21_000_000_000, published_active=3_600_000_000, active_excludes_embedding=True,
        count_source=f"{_GPT_OSS_README} ('21B parameters with 3.6B active parameters')",
        counts_note=_GPT_OSS_NOTE.format(with_="4.19B", without="3.61B"),
    ),
    CatalogueEntry(
        id="gpt-oss-120b", name="gpt-oss-120b",
        config=_gpt_oss(layers=36, experts=128),
        source=aiconfigurator("openai/gpt-oss-120b"),
        published_total=117_000_000_000, published_active=5_100_000_000, active_excludes_embedding=True,
        count_source=f"{_GPT_OSS_README} ('117B parameters with 5.1B active parameters')",
        counts_note=_GPT_OSS_NOTE.format(with_="5.71B", without="5.13B"),
    ),
    CatalogueEntry(
        id="gpt3-175b", name="GPT-3 175B",
        # Not a published config.json: the paper's hyper-parameters in GPT-2's config keys (the
        # paper uses "the same model and architecture as GPT-2"). Table 2.1: n_layers 96,
        # d_model 12288, n_heads 96, d_head 128, n_ctx 2048; section 2.1: d_ff = 4 * d_model.
        # GPT-2's BPE vocabulary of 50257 tokens; GPT-2 ties the LM head to the embedding, which
        # the derivation assumes (the gpt2 default) and says so.
        config={
            "model_type": "gpt2",
            "n_ctx": 2048,
            "n_embd": 12288,
            "n_head": 96,
            "n_inner": 49152,
            "n_layer": 96,
            "n_positions": 2048,
            "vocab_size": 50257,
        },
        source=Source(
            path="Brown et al., 'Language Models are Few-Shot Learners' (2020, arXiv 2005.14165), table 2.1",
            note="the paper also says the layers alternate dense and locally banded sparse attention "
                 "(as in the Sparse Transformer) without giving the band; like the chapter, this entry "
                 "treats every layer as full attention",
        ),
        published_total=175_000_000_000,
        count_source="the same paper, table 2.1 (n_params 175.0B)",
    ),
)
