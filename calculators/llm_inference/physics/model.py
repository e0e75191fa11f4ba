"""Model: what the physics reads of a model, as plain numbers.

Built from a catalogue shape (:func:`from_shape`), a pasted config (the same, after
:func:`llm_inference.models.parse_config`), or a calculator's parameters
(:func:`llm_inference.scenario.model_from_inputs`). Everything here is a count; precision and
placement are the other modules' business.

A mixture of experts (MoE) is described by its totals and the routing, not by layer plans:
with E routed experts per MoE layer, k of them per token, T parameters in all and A read by one
token, one routed expert *index* (the expert with that index in every MoE layer) holds

    X = (T − A) / (E − k)     parameters,

and every token reads the rest, D = A − k·X (attention, embeddings, dense layers, shared experts)
whatever the routing. That is all a decode step's bytes need (:mod:`.weights`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines.vllm_encoder import VisionEncoder
from ..engines.vllm_hybrid import Mixer

#: The attention kinds the physics distinguishes: MHA and MQA are GQA with kv_heads = heads or 1.
GQA, MLA = "gqa", "mla"
#: Windowed layers: a sliding window (Mistral, Gemma, gpt-oss, Phi-3) or chunked local attention
#: (Llama 4), which vLLM sizes slightly differently (:mod:`.budget`).
SLIDING, CHUNKED = "sliding", "chunked"


@dataclass(frozen=True)
class SideModules:
    """What a mixture of experts or an MLA model holds beside what :class:`Model`'s counts give, read
    from the derived shape's tensors (``llm_inference.scenario``): the LoRA slots wrap each of these
    projections (:mod:`.lora`).

    ``dense_layers`` layers run a dense MLP of ``dense_width`` instead of the experts (DeepSeek's
    ``first_k_dense_replace`` and ``intermediate_size``); every other layer a shared-expert MLP of
    ``shared_width`` beside them (``n_shared_experts × moe_intermediate_size``; 0: none). MLA:
    ``q_lora_rank`` (0: queries straight from the hidden state), and per head the query/key width
    ``qk_head_dim`` (``qk_nope_head_dim + qk_rope_head_dim``) and the value width ``v_head_dim``.
    """

    dense_layers: int = 0
    dense_width: int = 0
    shared_width: int = 0
    q_lora_rank: int = 0
    qk_head_dim: int = 0
    v_head_dim: int = 0


@dataclass(frozen=True)
class Model:
    """A decoder-only transformer as the physics sees it.

    ``window``/``window_layers``: how many layers attend through a window of ``window`` tokens
    (``window_kind`` sliding or chunked); the others attend to the whole context.
    ``hidden_size``, ``intermediate_size`` (the MLP's width; for MoE one expert's) and
    ``vocab_size`` set the activation peak and the legal tensor-parallel sizes; ``heads`` too.
    ``active_params`` 0 means dense (all parameters read by every token).

    Hybrid models: ``kv_free_layers`` of the ``layers`` keep no KV cache (linear-attention and
    state-space layers, Nemotron-H's MLP blocks); ``state_layers`` keep a fixed recurrent ``state``
    per sequence (an engines.vllm_hybrid.Mixer) with its SSM part in ``ssm_dtype`` — beside their
    attention in Falcon-H1, instead of it elsewhere. ``mamba_chunk`` is Mamba-2's scan chunk.
    ``indexer_dim``: DeepSeek-V3.2's indexer key, cached per token and layer beside the latent.
    ``vision``: a multimodal checkpoint's vision tower as vLLM's profiling run sees it (None: none,
    or one whose rules are not modelled); whether it is served is the engine's setting.
    ``layer_specs``: one llm_inference.models.layer_specs spec per layer, for a model whose layers
    differ (Gemma 4, DeepSeek-V4); () when the fields above describe every layer (physics.kv
    builds the specs from them). ``sides``: the dense layers, shared experts and MLA projections a
    derived shape shows (None: a custom shape, whose fields do not give them). ``model_type``: the
    config's (of its text model where nested), which some engine rules key on (SGLang's SWA pool); ""
    for a custom shape.
    """

    layers: int
    attention: str = GQA
    kv_heads: int = 8
    head_dim: int = 128
    latent_dim: int = 0
    rope_dim: int = 0
    heads: int = 0
    hidden_size: int = 0
    intermediate_size: int = 0
    vocab_size: int = 0
    total_params: float = 0.0
    active_params: float = 0.0
    experts: int = 0
    experts_per_token: int = 0
    window: int = 0
    window_layers: int = 0
    window_kind: str = SLIDING
    kv_free_layers: int = 0
    state: Mixer | None = None
    state_layers: int = 0
    ssm_dtype: str = "auto"
    mamba_chunk: int = 0
    indexer_dim: int = 0
    vision: VisionEncoder | None = None
    layer_specs: tuple = ()
    sides: SideModules | None = None
    model_type: str = ""

    @property
    def is_mla(self) -> bool:
        return self.attention == MLA

    @property
    def kv_layers(self) -> int:
        """Layers that cache keys and values (all but the linear/state-space and MLP-only ones)."""
        return max(0, self.layers - self.kv_free_layers)

    @property
    def windowed_layers(self) -> int:
        """Layers that attend through the window (0 when there is no window)."""
        return min(self.window_layers, self.kv_layers) if self.window else 0

    @property
    def full_layers(self) -> int:
        return self.kv_layers - self.windowed_layers

    @property
    def is_hybrid(self) -> bool:
        """Some layers keep a fixed recurrent state per sequence."""
        return self.state is not None and self.state_layers > 0

    @property
    def active(self) -> float:
        """Parameters one token reads: ``active_params``, or all of them for a dense model."""
        if self.active_params <= 0:
            return self.total_params
        return min(self.active_params, self.total_params)

    @property
    def is_moe(self) -> bool:
        """Routed experts with fewer per token than there are, and fewer active than total."""
        return self.experts > self.experts_per_token > 0 and self.active < self.total_params

    @property
    def expert_index_params(self) -> float:
        """X: parameters of one routed expert index over all MoE layers (0 for a dense model).

        Counts that cannot belong to one model (a token reading a smaller share of the parameters
        than of the experts, A/T < k/E) are read as all-expert: X = A/k, nothing dense.
        """
        if not self.is_moe:
            return 0.0
        return min((self.total_params - self.active) / (self.experts - self.experts_per_token),
                   self.active / self.experts_per_token)

    @property
    def dense_params(self) -> float:
        """D: what every token reads whatever the routing (for a dense model: everything)."""
        return self.active - self.experts_per_token * self.expert_index_params

    @property
    def mlp_width_per_token(self) -> int:
        """MLP width one token's activations span: top-k experts' widths for MoE (the activation
        estimate's ``intermediate_size``, engines.vllm.activation_peak_estimate)."""
        if self.is_moe:
            return self.intermediate_size * self.experts_per_token
        return self.intermediate_size
