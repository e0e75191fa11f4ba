"""ModelShape: what a model is made of, as far as memory and bandwidth care.

Pure description: no GPU, no precision policy. The physics (cache per sequence, windows capping
long contexts, what fits where) lives elsewhere and reads these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import layer_specs as specs_
from .layer_specs import CHUNKED, FULL, LINEAR, NONE, SLIDING, LayerSpec

#: The layer kinds of ``ModelShape.layer_kinds``: ("full", 0), ("sliding", window), ("chunked", chunk)
#: cache keys and values; ("linear", 0) is a linear-attention or state-space layer (a fixed state per
#: sequence, no KV cache: ``ModelShape.state``); ("none", 0) caches nothing (Nemotron-H's MLP and MoE
#: blocks); ("compressed", ratio) is a DeepSeek-V4 layer. Each layer's full description is its spec
#: in ``ModelShape.layer_specs`` (:mod:`.layer_specs`).
KV_KINDS = (FULL, SLIDING, CHUNKED)
__all__ = ["FULL", "SLIDING", "CHUNKED", "LINEAR", "NONE", "KV_KINDS", "ATTENTION_KINDS", "RecurrentState",
           "ModelShape"]
ATTENTION_KINDS = ("mha", "gqa", "mqa", "mla", "csa")


@dataclass(frozen=True)
class RecurrentState:
    """What one linear-attention or state-space layer keeps per sequence, as the config sizes it.

    The state is a short convolution window (``conv_channels`` + Mamba-2's ``2 × groups ×
    state_dim`` channels, ``conv_kernel − 1`` wide) and a recurrent state of ``heads × head_dim ×
    state_dim`` numbers; engines.vllm_hybrid turns it into bytes per tensor-parallel rank.

    mixer: "gated_deltanet" (Qwen3-Next, Qwen3.5), "kda" (Kimi-Linear), "lightning" (MiniMax-Text-01),
        "mamba2" (Nemotron-H, Granite 4.0-H, Falcon-H1), "mamba1" (Jamba).
    ssm_dtype: the state's dtype as the config sets it ("auto": the model's; "nemotron_h": vLLM's
        Nemotron-H rule; or "float32", "float16", "bfloat16").
    chunk_size: Mamba-2's scan chunk (``chunk_size``/``mamba_chunk_size``; vLLM aligns blocks to it
        when it caches a state per block); 0 when the config has none.
    """

    mixer: str
    heads: int
    head_dim: int
    state_dim: int
    conv_channels: int = 0
    groups: int = 0
    conv_kernel: int = 0
    ssm_dtype: str = "auto"
    chunk_size: int = 0


def _describe(geometry: tuple) -> str:
    if geometry[0] == "gqa":
        return f"{geometry[1]} KV heads x {geometry[2]}"
    if geometry[0] == "mla":
        return f"a {geometry[1]} + {geometry[2]} latent" + (f" and a {geometry[3]}-dim indexer key" if geometry[3] else "")
    return str(geometry)


@dataclass(frozen=True)
class ModelShape:
    """The shape of a decoder-only transformer, derived from its config by :func:`derive`.

    Attention and cache:
        layers: decoder layers (``num_hidden_layers``).
        hidden_size: width of the residual stream.
        heads: query heads per layer.
        kv_heads: KV heads the cache stores per layer and token: ``num_key_value_heads`` for
            MHA/GQA/MQA; 1 for MLA (the one shared latent), whatever the config lists.
        head_dim: dimension of each cached K and V head (GQA/MHA/MQA); 0 for MLA, whose cache is
            ``latent_dim + rope_dim`` per layer instead.
        attention: "mha" (kv_heads == heads), "gqa", "mqa" (kv_heads == 1), "mla", or "csa"
            (DeepSeek-V4's compressed sparse attention).
        latent_dim, rope_dim: MLA only (``kv_lora_rank``, ``qk_rope_head_dim``); 0 otherwise.
        layer_kinds: one entry per layer: ("full", 0), ("sliding", window) or ("chunked", chunk);
            ("linear", 0) for a layer with a recurrent state instead of a KV cache, ("none", 0) for
            a layer that caches nothing.
        state, state_layers: the recurrent state one such layer keeps per sequence
            (:class:`RecurrentState`) and how many layers keep one (Falcon-H1: every layer, beside its
            attention); None and 0 for a pure transformer.
        indexer_head_dim: DeepSeek-V3.2's sparse-attention indexer key per layer and token (cached
            beside the MLA latent, in fp8 with a scale per 128 values); 0 without one.
        layer_specs: one :class:`.layer_specs.LayerSpec` per layer, each owning its geometry, its
            bytes per token and sequence, its page and what it holds per sequence. Built from the
            fields above when not given (one geometry for every layer); the derivation gives it
            for models whose layers differ (Gemma 4's two geometries, GLM-5.2's shared indexer,
            DeepSeek-V4's compressed layers). The KV properties below read it.

    Parameters (ints, counted from the shapes, text decoder only):
        total_params: everything memory holds: embeddings, LM head unless tied, attention (with
            biases and MLA's low-rank matrices), norms, dense MLPs, every expert, routers.
        active_params: what one token reads: the same, but only ``experts_per_token`` routed
            experts per MoE layer. Includes the input embedding table.
        embedding_params: the input embedding table(s) (token, plus learned positions where the
            model has them). Publishers differ on whether "active" counts it.
        experts, experts_per_token, shared_experts: routed experts per MoE layer, how many of them
            a token uses, and the always-on shared experts (0 for dense models).
        moe_layers: how many layers have routed experts.
        expert_params: parameters of one routed expert in one MoE layer.
        dense_params: what every token reads whatever the routing: active minus the routed
            experts' share (``experts_per_token * expert_params * moe_layers``).

    Other:
        vocab_size, tie_word_embeddings, max_position_embeddings: as the config says (or its
            model type's default; see ``traps``).
        model_type: the config's ``model_type`` (of ``text_config`` where nested), "" if absent.
        traps: plain-English messages, one per config trap met while reading (a misleading
            field, a default filled in, a rule the config leaves implicit).

    Weights as stored:
        tensors: every tensor of the checkpoint (:class:`.params.Tensor`: group, module path,
            shape, how vLLM shards it), () when a layer kind was counted without its tensors.
        quantization: the checkpoint's formats (:class:`.quantization.Scheme`, read from
            ``quantization_config`` and ``torch_dtype``).
        vision: the vision tower of a multimodal checkpoint whose tower vLLM's rules are modelled
            for (:class:`.vision.VisionTower`: Qwen3-VL's ViT), None otherwise. Its parameters are not
            in the counts above (the text decoder's) nor in ``tensors``: vLLM loads them only when it
            serves images or videos.
    """

    layers: int
    hidden_size: int
    heads: int
    kv_heads: int
    head_dim: int
    attention: str
    latent_dim: int
    rope_dim: int
    layer_kinds: tuple[tuple[str, int], ...]
    total_params: int
    active_params: int
    embedding_params: int
    experts: int
    experts_per_token: int
    shared_experts: int
    moe_layers: int
    expert_params: int
    dense_params: int
    vocab_size: int
    tie_word_embeddings: bool
    max_position_embeddings: int
    model_type: str = ""
    traps: tuple[str, ...] = ()
    state: RecurrentState | None = None
    state_layers: int = 0
    indexer_head_dim: int = 0
    layer_specs: tuple[LayerSpec, ...] = field(default=(), repr=False)
    tensors: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    quantization: Any = field(default=None, compare=False)
    vision: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.layer_specs:
            built = specs_.from_kinds(
                self.layer_kinds, mla=self.attention == "mla", kv_heads=self.kv_heads, head_dim=self.head_dim,
                latent_dim=self.latent_dim, rope_dim=self.rope_dim, indexer_dim=self.indexer_head_dim,
                state=self.state, state_layers=self.state_layers)
            object.__setattr__(self, "layer_specs", built)
        elif len(self.layer_specs) != self.layers:
            raise ValueError(f"{len(self.layer_specs)} layer specs for {self.layers} layers")

    @property
    def kv_specs(self) -> tuple[LayerSpec, ...]:
        """The specs of the layers that cache per token (attention, MLA, compressed)."""
        return specs_.kv_specs(self.layer_specs)

    @property
    def uniform_geometry(self) -> bool:
        """Every KV layer caches the same per-token geometry (the one ``kv_heads``/``head_dim`` or
        latent describe): what a one-geometry reading of the shape assumes."""
        return specs_.uniform_geometry(self.layer_specs) and not any(
            s.kind == "compressed" for s in self.layer_specs)

    @property
    def geometry_gap(self) -> str:
        """"" when one geometry (``kv_heads`` × ``head_dim``, or one latent) describes every KV
        layer; else what a one-geometry reading would get wrong, named (for a refusal)."""
        kinds = dict.fromkeys(s.attention if isinstance(s, specs_.ParallelMixers) else s for s in self.kv_specs)
        compressed = [s for s in kinds if s.kind == "compressed"]
        if compressed:
            ratios = sorted({s.compress_ratio for s in compressed if s.compressed})
            return (f"its layers cache a compressed copy of the context (DeepSeek-V4's compressed sparse attention, "
                    f"compress ratios {', '.join(map(str, ratios))}, beside a {compressed[0].sliding_window}-token "
                    f"window), which one KV-head geometry cannot describe")
        if self.uniform_geometry:
            return ""
        shown = "; ".join(f"{sum(1 for s in self.kv_specs if s.geometry == g)} layers {_describe(g)}"
                          for g in dict.fromkeys(s.geometry for s in kinds))
        return f"its layers cache different geometries ({shown}), which one KV-head geometry cannot describe"

    @property
    def kv_elements_per_layer(self) -> int:
        """Cached numbers one token adds to one layer: K and V heads, or MLA's latent + RoPE key
        (the first KV layer's, for a model whose layers differ: see ``layer_specs``)."""
        kv = self.kv_specs
        return kv[0].elements_per_token() if kv else 0

    @property
    def kv_layers(self) -> int:
        """Layers that cache keys and values (full, windowed, chunked, latent or compressed)."""
        return len(self.kv_specs)

    @staticmethod
    def _bytes_at_width(spec: LayerSpec, bytes_per_element: float) -> float:
        if spec.kind == "compressed":  # its own fp8 layout, whatever width is asked
            return spec.bytes_per_token("fp8")
        return spec.elements_per_token() * bytes_per_element

    def kv_bytes_per_token(self, bytes_per_element: float = 2) -> float:
        """Bytes one token adds to the cache over all KV layers, windows ignored (2 = bf16); the
        layers with a recurrent state add nothing per token."""
        return sum(self._bytes_at_width(s, bytes_per_element) for s in self.kv_specs)

    def kv_bytes_per_token_by_kind(self, bytes_per_element: float = 2) -> dict[tuple[str, int], float]:
        """The same bytes split by layer kind, e.g. {("full", 0): …, ("sliding", 4096): …}.

        The split is what a cache calculator needs: full layers grow with the context, windowed
        and chunked ones stop at their window or chunk.
        """
        split: dict[tuple[str, int], float] = {}
        for spec in self.kv_specs:
            split[spec.legacy] = split.get(spec.legacy, 0) + self._bytes_at_width(spec, bytes_per_element)
        return split

    def kv_bytes_per_sequence(self, context: float, kv_dtype: str = "bf16") -> float:
        """One sequence's cache over all layers at ``context`` tokens, each layer by its spec."""
        return sum(s.bytes_per_sequence(context, kv_dtype) for s in self.kv_specs)

    @property
    def is_hybrid(self) -> bool:
        """Some layers keep a recurrent state per sequence (linear attention, Mamba)."""
        return self.state_layers > 0

    @property
    def is_moe(self) -> bool:
        return self.moe_layers > 0

    def signature(self) -> tuple:
        """The fields that identify a shape (for matching a pasted config with the catalogue):
        everything but the traps and the context length, which fine-tunes change freely."""
        return (
            self.layers, self.hidden_size, self.heads, self.kv_heads, self.head_dim, self.attention,
            self.latent_dim, self.rope_dim, self.layer_kinds, self.total_params, self.active_params,
            self.experts, self.experts_per_token, self.shared_experts, self.moe_layers,
            self.vocab_size, self.tie_word_embeddings, self.state, self.state_layers, self.indexer_head_dim,
            self.layer_specs,
        )
