"""derive(config) -> ModelShape: one reading of a published config.json, for the catalogue and
for a config a reader pastes.

What the cache and the weights really are is often not what the obvious fields say; every trap
met is named in ``shape.traps``. The readings live in small modules: :mod:`.fields` (names,
aliases, model-type defaults, types), :mod:`.attention` (MLA, head_dim, KV heads),
:mod:`.layers` (windows and chunks), :mod:`.experts` (MoE), :mod:`.params` (the counting). This
module handles what is left: nested multimodal configs, GPT-2-style keys, norms, embeddings and
the LM head, and what is deliberately not counted (vision towers, DeepSeek's MTP module; a Qwen3-VL
tower is read apart, :mod:`.vision`, for the engine to load beside the text decoder).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .attention import read_attention
from . import deepseek_v4
from .closed_world import NESTED_TEXT, check_whole, tracked
from .errors import ConfigError
from .experts import dense_width_name, read_experts
from .experts_beside_mlp import experts_beside_mlp
from .fields import MEANINGS, MODEL_TYPE_DEFAULTS, FieldReader
from .layers import layer_kinds, layer_specs
from .mixers import read_hybrid, refuse_unmodelled
from .params import (COLUMN, DENSE_MLP, ROW, LayerPlan, Params, count, embedding_table, gated_mlp, join, linear, lm_head, model_tensors,
                     norm, plain_mlp, ungated_mlp)
from .quantization import read_quantization
from .shape import ModelShape
from .vision import read_vision

#: ``text_config`` without a model_type of its own: the text model type of the wrapper's.
_TEXT_MODEL_TYPES = {"gemma3": "gemma3_text", "llama4": "llama4_text", "minimax_m3_vl": "minimax_m3"}
#: Families with four norms per layer (before and after attention and the MLP).
_FOUR_NORM_TYPES = ("gemma2", "gemma3_text", "gemma4_text")


def _reader(config: Mapping[str, Any]) -> FieldReader:
    """A reader on the text model: ``text_config`` when the config nests one."""
    top_type = config.get("model_type")
    top_type = top_type if isinstance(top_type, str) else ""
    nested_name = next((name for name in NESTED_TEXT if config.get(name) is not None), None)
    text = config.get(nested_name) if nested_name else None
    if text is None:
        reader = FieldReader(config, top_type)
    else:
        if not isinstance(text, Mapping):
            raise ConfigError(f"{nested_name} (the text model's config inside a multimodal config) must be an object")
        text_type = text.get("model_type")
        if not (isinstance(text_type, str) and text_type):
            text_type = _TEXT_MODEL_TYPES.get(top_type, top_type)
        reader = FieldReader(text, text_type, f"{nested_name}.")
        reader.traps.append(
            f"The text model is nested in {nested_name} (a multimodal {top_type or 'model'} config): its "
            f"shape is read from there, not from the top level."
        )
    if reader.model_type != "gpt2" and "n_layer" in reader.config and "num_hidden_layers" not in reader.config:
        reader.model_type = "gpt2"  # GPT-2's keys without its model_type
    return reader


def _tied(reader: FieldReader, top: Mapping[str, Any]) -> bool:
    """Whether the LM head reuses the embedding matrix, read at whichever level the checkpoint says it."""
    outer = top.get("tie_word_embeddings") if reader.config is not top else None
    if outer is not None:
        if not isinstance(outer, bool):
            raise ConfigError(f"tie_word_embeddings ({MEANINGS['tie_word_embeddings']}) must be true or false")
        if not reader.has("tie_word_embeddings"):
            # The wrapper's value, not the text model type's default (Qwen3.5-27B: false at the top).
            reader.traps.append(
                f"tie_word_embeddings is {'true' if outer else 'false'} at the top level ({reader.where[:-1]} does not "
                f"say): the LM head {'reuses the embedding matrix' if outer else 'is a matrix of its own'}.")
            return outer
        if reader.boolean("tie_word_embeddings", default=True) != outer:
            raise ConfigError(f"tie_word_embeddings is {'true' if outer else 'false'} at the top level but "
                              f"{reader.label('tie_word_embeddings')} says otherwise: which one the engine follows "
                              f"is not known here, and the LM head's size depends on it")
    listed = reader.has("tie_word_embeddings")
    tied = reader.boolean("tie_word_embeddings", default=True)  # transformers' PretrainedConfig default
    if listed and tied:
        reader.traps.append("tie_word_embeddings is true: the LM head reuses the embedding matrix, counted once.")
    elif not listed and reader.model_type not in MODEL_TYPE_DEFAULTS:
        reader.traps.append(
            "tie_word_embeddings is not in the config: assumed true, transformers' general default "
            "(the LM head reuses the embedding matrix, counted once)."
        )
    return tied


def _restated(reader: FieldReader, attention_kind: str, indexer_head_dim: int) -> None:
    """Fields that restate, or do not apply to, what was read: passed by the closed-world check."""
    kinds = reader.peek("indexer_types")
    if indexer_head_dim and isinstance(kinds, list) and kinds and all(k == "full" for k in kinds):
        # GLM-5.1: an indexer of its own on every layer, as read; GLM-5.2's "shared" layers are not.
        reader.seen("indexer_types")
    if attention_kind == "mla":
        # MLA's cache and projections are sized by kv_lora_rank, q_lora_rank, qk_nope_head_dim,
        # qk_rope_head_dim and v_head_dim; head_dim and qk_head_dim restate them (vLLM reads neither).
        reader.seen("head_dim", "qk_head_dim")
    if not reader.boolean("use_sliding_window", default=False):
        reader.seen("max_window_layers")  # Qwen's window boundary, only with use_sliding_window true


def _layer_count(reader: FieldReader) -> int:
    """``num_hidden_layers``; a Nemotron-H config that lists its blocks in ``layers_block_type``
    may leave it out (transformers' NemotronHConfig: one layer per listed block)."""
    blocks = reader.peek("layers_block_type")
    if not reader.has("num_hidden_layers") and reader.model_type == "nemotron_h" and isinstance(blocks, list):
        reader.traps.append(f"{reader.label('num_hidden_layers')} is not in the config: layers_block_type lists "
                            f"{len(blocks)} blocks, one layer each.")
        return reader._check_int("num_hidden_layers", len(blocks))
    return reader.integer("num_hidden_layers")


def derive(config: Mapping[str, Any]) -> ModelShape:
    """The :class:`ModelShape` of a published config (or one a reader pastes).

    Raises :class:`ConfigError` (a ValueError) with a one-line message for anything that cannot
    be read: a missing required field, a wrong type, an impossible value.
    """
    if not isinstance(config, Mapping):
        raise ConfigError(f"the config must be a JSON object of fields, got {type(config).__name__}")
    config = tracked(config)
    reader = _reader(config)
    refuse_unmodelled(reader)
    gpt2 = reader.model_type == "gpt2"
    layers = _layer_count(reader)
    hidden = reader.integer("hidden_size")
    heads = reader.integer("num_attention_heads")
    vocab = reader.integer("vocab_size")
    if gpt2:
        reader.traps.append(
            "GPT-2-style keys (n_layer, n_embd, n_head, n_positions) read as num_hidden_layers, "
            "hidden_size, num_attention_heads, max_position_embeddings; learned position embeddings "
            "and biases on every projection and LayerNorm are counted."
        )

    attention = read_attention(reader, hidden, heads, gpt2)
    hybrid = None if gpt2 else read_hybrid(reader, hidden, layers, attention.params, heads, attention.head_dim)
    kinds = hybrid.kinds if hybrid else layer_kinds(reader, layers)
    specs = layer_specs(reader, attention, kinds, state=hybrid.state if hybrid else None,
                        state_layers=hybrid.state_layers if hybrid else 0)
    kinds = tuple(s.legacy for s in specs)
    fixed_ffn = hybrid.ffn if hybrid else None
    experts = read_experts(reader, hidden, layers,
                           None if fixed_ffn is None else [i for i, f in enumerate(fixed_ffn) if f == "moe"])

    if gpt2:  # two LayerNorms with biases per layer, and ln_f
        block_norms = join(norm(hidden, "ln_1", bias=True), norm(hidden, "ln_2", bias=True))
        final_norm = norm(hidden, "transformer.ln_f", bias=True)
    else:
        names = (("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                  "post_feedforward_layernorm") if reader.model_type in _FOUR_NORM_TYPES
                 else ("input_layernorm", "post_attention_layernorm"))
        block_norms, final_norm = join(*(norm(hidden, n) for n in names)), norm(hidden, "model.norm")
    moe_layers = set(experts.layers)
    beside = bool(experts.experts) and experts_beside_mlp(reader)  # Gemma 4: experts and a dense MLP per layer
    dense = Params()
    if hybrid and hybrid.dense_width:
        width = hybrid.dense_width
        # Nemotron-H's MLP blocks are relu² (up, down); the others SwiGLU.
        dense = (gated_mlp(hidden, width, hybrid.mlp_bias) if hybrid.gated
                 else ungated_mlp(hidden, width) if not hybrid.mlp_bias
                 else join(linear(hidden, width, True, module="mlp.up_proj", group=DENSE_MLP, split=COLUMN),
                           linear(width, hidden, True, module="mlp.down_proj", group=DENSE_MLP, split=ROW)))
    elif (len(moe_layers) < layers or beside) and not (fixed_ffn and "dense" not in fixed_ffn):  # some layer keeps a dense MLP
        if gpt2:
            inner = reader.integer("intermediate_size", required=False, null_ok=True) or 4 * hidden
            dense = plain_mlp(hidden, inner)
        else:
            width = reader.integer(dense_width_name(reader, bool(experts.experts)))
            prefix = "feed_forward" if reader.model_type == "llama4_text" else "mlp"
            dense = gated_mlp(hidden, width, reader.boolean("mlp_bias", False), prefix=prefix)

    def plan(i: int) -> LayerPlan:
        mixer = hybrid.mixer_params[i] if hybrid else attention.layer_params(i, kinds[i][0])
        norms = hybrid.norms[i] if hybrid else block_norms
        ffn = fixed_ffn[i] if fixed_ffn else ("moe" if i in moe_layers else "dense")
        if ffn == "moe":
            return LayerPlan(mixer, norms, router=experts.router, shared=experts.shared, expert=experts.expert,
                             experts=experts.experts, latent=experts.latent, dense_mlp=dense if beside else Params())
        return LayerPlan(mixer, norms, dense_mlp=dense if ffn == "dense" else Params())

    plans = [plan(i) for i in range(layers)]
    if attention.compressed is not None:  # DeepSeek-V4's layers are its own (deepseek_v4.py)
        plans = deepseek_v4.layer_plans(reader, hidden=hidden, heads=heads, head_dim=attention.head_dim, vocab=vocab,
                                        ratios=attention.compressed.ratios, experts=experts)
        final_norm = join(final_norm, deepseek_v4.hc_head(hidden, reader.integer("hc_mult")))

    tied = _tied(reader, config)
    max_positions = reader.integer("max_position_embeddings", required=False)
    if max_positions is None:
        reader.traps.append("max_position_embeddings is not in the config: the context length is unknown (0).")
        max_positions = 0
    embedding = embedding_table(vocab, hidden)
    if gpt2:  # GPT-2 learns its positions
        embedding = join(embedding, Params([t.__class__(t.group, "transformer.wpe", (max_positions, hidden))
                                            for t in embedding.tensors]))
    head = Params() if tied else lm_head(vocab, hidden)
    counts = count(plans, embedding=embedding, lm_head=head, final_norm=final_norm,
                   experts_per_token=experts.per_token)
    tensors = model_tensors(plans, embedding=embedding, lm_head=head, final_norm=final_norm)
    quantization = read_quantization(config)

    mtp = reader.integer("num_nextn_predict_layers", required=False)
    if mtp:
        reader.traps.append(
            f"num_nextn_predict_layers {mtp}: the multi-token-prediction module (used for speculative "
            f"decoding, not ordinary decoding) is not counted; the totals cover the {layers} main layers."
        )
    vision = read_vision(config, reader.traps)
    _restated(reader, attention.kind, attention.indexer_head_dim)
    check_whole([config])  # last: every key was read, is harmless, or is refused here by name

    return ModelShape(
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=attention.kv_heads,
        head_dim=attention.head_dim, attention=attention.kind, latent_dim=attention.latent_dim,
        rope_dim=attention.rope_dim, layer_kinds=kinds,
        total_params=counts.total, active_params=counts.active, embedding_params=counts.embedding,
        experts=experts.experts, experts_per_token=counts.experts_per_token,
        shared_experts=experts.shared_count, moe_layers=counts.moe_layers, expert_params=counts.expert,
        dense_params=counts.dense, vocab_size=vocab, tie_word_embeddings=tied,
        max_position_embeddings=max_positions, model_type=reader.model_type, traps=tuple(reader.traps),
        state=hybrid.state if hybrid else None, state_layers=hybrid.state_layers if hybrid else 0,
        indexer_head_dim=attention.indexer_head_dim, layer_specs=specs,
        tensors=tensors, quantization=quantization, vision=vision,
    )
