"""Reading config.json fields: names, aliases, model-type defaults, types and ranges.

Published configs are not uniform. The same quantity has several names (GPT-2's ``n_layer`` is
everybody else's ``num_hidden_layers``), some configs leave fields out and rely on their model
type's defaults in transformers (Gemma 3's ``text_config`` has no ``vocab_size`` and often no
``head_dim``), and a pasted config can hold anything. :class:`FieldReader` reads one field at a
time, records every default it fills in as a trap message, and raises :class:`ConfigError` with a
one-line message that names the field and what it means.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ConfigError

#: What each field means, for error messages (a reader pasting a config may not know).
MEANINGS = {
    "num_hidden_layers": "the number of transformer layers (decoder blocks)",
    "hidden_size": "the width of the residual stream (d_model)",
    "num_attention_heads": "the number of query heads per layer",
    "num_key_value_heads": "the number of key/value heads per layer (GQA)",
    "head_dim": "the dimension of one attention head",
    "vocab_size": "the number of tokens in the vocabulary (rows of the embedding table)",
    "intermediate_size": "the hidden width of the MLP (feed-forward) block",
    "intermediate_size_mlp": "the hidden width of Llama 4's dense MLP layers",
    "moe_intermediate_size": "the hidden width of one expert's MLP",
    "shared_expert_intermediate_size": "the hidden width of the shared expert's MLP",
    "max_position_embeddings": "the longest context the model was configured for",
    "tie_word_embeddings": "whether the LM head reuses the embedding matrix",
    "sliding_window": "the window of sliding-window attention layers, in tokens",
    "sliding_window_pattern": "every how many layers one is global (Gemma 3)",
    "attention_chunk_size": "the chunk of chunked local attention, in tokens (Llama 4)",
    "max_window_layers": "Qwen's boundary: layers from this index up use the sliding window",
    "use_sliding_window": "whether the sliding window is switched on (Qwen)",
    "layer_types": "the attention kind of each layer",
    "no_rope_layers": "Llama 4's per-layer flag: 1 = RoPE with chunked attention, 0 = global NoPE",
    "no_rope_layer_interval": "Llama 4: every how many layers one is a global NoPE layer",
    "kv_lora_rank": "MLA's compressed key/value latent dimension",
    "q_lora_rank": "MLA's compressed query dimension (null: queries are not compressed)",
    "qk_rope_head_dim": "MLA's decoupled RoPE key dimension per head",
    "qk_nope_head_dim": "MLA's non-RoPE query/key dimension per head",
    "v_head_dim": "MLA's value dimension per head",
    "num_local_experts": "the number of routed experts per MoE layer",
    "n_routed_experts": "the number of routed experts per MoE layer",
    "num_experts": "the number of routed experts per MoE layer",
    "num_experts_per_tok": "how many routed experts each token uses",
    "n_shared_experts": "the number of always-on shared experts per MoE layer",
    "first_k_dense_replace": "how many leading layers keep a dense MLP instead of experts",
    "moe_layer_freq": "every how many layers (after the dense ones) is an MoE layer",
    "interleave_moe_layer_step": "every how many layers one is an MoE layer (Llama 4)",
    "moe_layers": "the indices of the MoE layers (Llama 4)",
    "decoder_sparse_step": "every how many layers one is an MoE layer (Qwen MoE)",
    "mlp_only_layers": "layers that keep a dense MLP (Qwen MoE)",
    "attention_bias": "whether the attention projections have biases",
    "mlp_bias": "whether the MLP projections have biases",
    "text_config": "the text model's config inside a multimodal config",
}

#: The other names a field goes by (checked in order after the canonical name).
ALIASES = {
    "num_hidden_layers": ("n_layer", "num_layers", "n_layers"),
    "hidden_size": ("n_embd", "d_model", "dim"),
    "num_attention_heads": ("n_head", "num_heads", "n_heads"),
    "num_key_value_heads": ("num_kv_heads", "n_kv_heads", "n_head_kv"),
    "intermediate_size": ("n_inner", "ffn_dim", "d_ff"),
    "max_position_embeddings": ("n_positions", "n_ctx", "max_sequence_length", "seq_length"),
}

#: Defaults transformers applies when a config leaves a field out, per model_type (only the
#: fields that published configs actually omit, and that change the shape). Sources: the
#: ``*Config`` classes in transformers, e.g. ``Gemma3TextConfig(vocab_size=262_208, head_dim=256,
#: num_attention_heads=8, num_key_value_heads=4, sliding_window_pattern=6, tie_word_embeddings=True,
#: max_position_embeddings=131_072)`` and ``Llama4TextConfig(no_rope_layer_interval=4,
#: attention_chunk_size=8192, interleave_moe_layer_step=1, tie_word_embeddings=False)``.
_UNTIED = {"tie_word_embeddings": False}
MODEL_TYPE_DEFAULTS: dict[str, dict[str, Any]] = {
    "gemma3_text": {
        "vocab_size": 262208, "head_dim": 256, "num_attention_heads": 8, "num_key_value_heads": 4,
        "sliding_window": 4096, "sliding_window_pattern": 6, "max_position_embeddings": 131072,
        "tie_word_embeddings": True,
    },
    "gemma2": {"sliding_window": 4096, "tie_word_embeddings": True},
    "gemma": {"tie_word_embeddings": True},
    "gpt2": {"tie_word_embeddings": True},
    "llama4_text": {
        "attention_chunk_size": 8192, "no_rope_layer_interval": 4, "interleave_moe_layer_step": 1,
        "tie_word_embeddings": False,
    },
    "qwen2": {"use_sliding_window": False, **_UNTIED},
    "qwen2_moe": {"use_sliding_window": False, "decoder_sparse_step": 1, **_UNTIED},
    "qwen3": {"use_sliding_window": False, **_UNTIED},
    "qwen3_moe": {"use_sliding_window": False, "decoder_sparse_step": 1, **_UNTIED},
    "deepseek_v2": {"first_k_dense_replace": 0, "moe_layer_freq": 1, **_UNTIED},
    "deepseek_v3": {"first_k_dense_replace": 0, "moe_layer_freq": 1, **_UNTIED},
    **{t: dict(_UNTIED) for t in ("llama", "mistral", "mixtral", "phi3", "gpt_oss")},
}

#: A whole-number field outside these bounds is refused: a pasted config with a billion layers
#: would otherwise build a billion-entry layer list in the reader's browser.
RANGES = {
    "num_hidden_layers": (1, 4096),
    "hidden_size": (1, 1 << 20),
    "num_attention_heads": (1, 1 << 16),
    "num_key_value_heads": (1, 1 << 16),
    "head_dim": (1, 1 << 16),
    "vocab_size": (1, 1 << 27),
    "max_position_embeddings": (0, 1 << 34),
}
_DEFAULT_RANGE = (0, 1 << 40)

_MISSING = object()


def _describe(value: Any) -> str:
    if isinstance(value, float) and value != value:
        return "NaN (not a number)"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return f"{'-' if value < 0 else ''}Infinity"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return f"{shown!r} (a string)"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return repr(value)


class FieldReader:
    """Reads fields of one (text) config, filling in its model type's defaults.

    ``where`` prefixes field names in messages ("text_config.") so a reader finds the field.
    ``traps`` collects a message for every default used.
    """

    def __init__(self, config: Mapping[str, Any], model_type: str, where: str = "") -> None:
        self.config = config
        self.model_type = model_type
        self.where = where
        self.traps: list[str] = []

    def label(self, name: str) -> str:
        return f"{self.where}{name}"

    def _meaning(self, name: str) -> str:
        meaning = MEANINGS.get(name)
        return f" ({meaning})" if meaning else ""

    def raw(self, name: str, aliases: bool = True) -> Any:
        """The value under ``name`` or one of its aliases; ``_MISSING`` if none is present."""
        if name in self.config:
            return self.config[name]
        for alias in ALIASES.get(name, ()) if aliases else ():
            if alias in self.config:
                return self.config[alias]
        return _MISSING

    def seen(self, *names: str) -> None:
        """Mark fields as read without using them: they restate, or do not apply to, what the
        derivation read (the closed-world check, :mod:`.closed_world`, then lets them pass)."""
        mark = getattr(self.config, "mark", None)
        if mark is not None:
            mark(*names)

    def peek(self, name: str) -> Any:
        """The value under ``name`` (None if absent) without marking it read: for deciding whether
        a field restates what was read, before :meth:`seen` passes it."""
        return getattr(self.config, "data", self.config).get(name)

    def has(self, name: str) -> bool:
        """Present with a non-null value."""
        value = self.raw(name)
        return value is not _MISSING and value is not None

    def _default(self, name: str) -> Any:
        return MODEL_TYPE_DEFAULTS.get(self.model_type, {}).get(name, _MISSING)

    def _used_default(self, name: str, value: Any, why: str = "") -> None:
        shown = "true" if value is True else "false" if value is False else value
        self.traps.append(
            f"{self.label(name)} is not in the config: using the {self.model_type} default {shown} "
            f"(transformers' config class){why}."
        )

    def integer(self, name: str, *, required: bool = True, default: Any = _MISSING,
                null_ok: bool = False) -> Any:
        """A whole number. Missing: the model type's default, else ``default``, else an error
        when ``required`` (else None). An explicit null is None when ``null_ok``."""
        value = self.raw(name)
        if value is None and null_ok:
            return None
        if value is _MISSING or value is None:
            fallback = self._default(name)
            if fallback is not _MISSING:
                self._used_default(name, fallback)
                return fallback
            if default is not _MISSING:
                return default
            if required:
                raise ConfigError(f"missing field {self.label(name)}{self._meaning(name)}")
            return None
        return self._check_int(name, value)

    def _check_int(self, name: str, value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # "4096.0": a number, written as a float
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(
                f"{self.label(name)}{self._meaning(name)} must be a whole number, got {_describe(value)}"
            )
        low, high = RANGES.get(name, _DEFAULT_RANGE)
        if not low <= value <= high:
            raise ConfigError(f"{self.label(name)} = {value} is out of range ({low} to {high})")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self.raw(name)
        if value is _MISSING or value is None:
            fallback = self._default(name)
            if fallback is not _MISSING:
                if name == "tie_word_embeddings":  # worth saying: it decides whether the head counts
                    why = ": the LM head reuses the embedding matrix" if fallback else (
                        ": the LM head is a matrix of its own")
                    self._used_default(name, fallback, why)
                return bool(fallback)
            return default
        if not isinstance(value, bool):
            raise ConfigError(f"{self.label(name)}{self._meaning(name)} must be true or false, got {_describe(value)}")
        return value

    def int_list(self, name: str) -> list[int] | None:
        """A list of whole numbers, or None when absent or null."""
        value = self.raw(name, aliases=False)
        if value is _MISSING or value is None:
            return None
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{self.label(name)}{self._meaning(name)} must be a list, got {_describe(value)}")
        return [self._check_int(f"{name}[{i}]", item) for i, item in enumerate(value)]

    def str_list(self, name: str) -> list[str] | None:
        value = self.raw(name, aliases=False)
        if value is _MISSING or value is None:
            return None
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{self.label(name)}{self._meaning(name)} must be a list of strings, got {_describe(value)}")
        return list(value)


def first_present(reader: FieldReader, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` the config sets to a non-null value (MoE fields have many names)."""
    for name in names:
        if reader.has(name):
            return name
    return None
