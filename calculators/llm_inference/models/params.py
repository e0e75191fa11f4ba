"""Parameters from shapes: every tensor a checkpoint stores, by group, and their counts.

Each builder returns :class:`Params`, a parameter count (an ``int``: every caller that adds
counts keeps working) that also lists the :class:`Tensor` objects it counts. A tensor knows its
group (embeddings, LM head, attention projections, dense MLP, routed experts, shared experts,
router, norms and biases), its module path in the checkpoint (``self_attn.q_proj``), its shape
as the checkpoint stores it (``(out, in)`` for a matrix) and how vLLM shards it under tensor
parallelism. The weight formats (:mod:`llm_inference.physics.formats`) size each tensor from
that; nothing here knows a byte.

The one modelling choice is what a token *reads*: all of every layer except the routed experts it
was not sent to (the embedding row lookup included, by convention of this module; publishers
differ, see the catalogue's ``active_excludes_embedding``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable

# -- tensor groups: the rows of the weights breakdown -------------------------------------------

EMBEDDING, LM_HEAD, ATTENTION, DENSE_MLP = "embedding", "lm_head", "attention", "dense_mlp"
ROUTED_EXPERTS, SHARED_EXPERTS, ROUTER, NORMS_BIASES = "routed_experts", "shared_experts", "router", "norms_biases"
#: The token mixers that are not attention: Gated DeltaNet, Mamba, KDA, lightning attention.
MIXER = "mixer"
#: A latent MoE's projections into and out of the experts' narrower width (Nemotron 3 Super's
#: fc1_latent_proj / fc2_latent_proj): every token runs them, whichever experts it is sent to.
MOE_LATENT = "moe_latent"
#: A multimodal checkpoint's vision tower (Qwen3-VL's ViT: patch embedding, blocks, mergers): vLLM
#: loads it beside the text decoder unless told to serve text only (engines.vllm_encoder).
VISION = "vision_tower"
#: The groups in the order the breakdown lists them, with the words it uses.
GROUPS = (
    (EMBEDDING, "Embeddings"),
    (LM_HEAD, "LM head"),
    (ATTENTION, "Attention projections"),
    (MIXER, "Linear-attention and SSM mixers"),
    (DENSE_MLP, "Dense MLP"),
    (ROUTED_EXPERTS, "Routed experts"),
    (MOE_LATENT, "MoE latent projections"),
    (SHARED_EXPERTS, "Shared experts"),
    (ROUTER, "Router"),
    (NORMS_BIASES, "Norms and biases"),
    (VISION, "Vision tower"),
)
GROUP_LABELS = dict(GROUPS)

# -- how vLLM shards a tensor over tensor-parallel ranks (vllm/model_executor/layers/linear.py) ---

#: ColumnParallelLinear: the output rows split over the ranks.
COLUMN = "column"
#: RowParallelLinear: the input columns split over the ranks.
ROW = "row"
#: ReplicatedLinear, norms, routers: every rank holds all of it.
REPLICATED = "replicated"
#: VocabParallelEmbedding / ParallelLMHead: vocabulary rows (padded to 64) split over the ranks.
VOCAB = "vocab"
#: K and V projections (QKVParallelLinear): KV heads split, replicated once TP exceeds them.
KV_HEADS = "kv_heads"
#: A routed expert's gate/up (column) and down (row) projections: split like the dense ones under
#: tensor parallelism, whole experts spread over ranks under expert parallelism.
EXPERT_COLUMN, EXPERT_ROW = "expert_column", "expert_row"


@dataclass(frozen=True)
class Tensor:
    """One tensor of a checkpoint (or ``count`` identical ones: the routed experts of a layer).

    ``module`` is the path inside a decoder layer (``self_attn.q_proj``) or the model
    (``model.embed_tokens``, ``lm_head``); ``layer`` the decoder layer's index, None outside the
    layers. ``param`` is "weight" (a matrix a quantization method may replace), "bias", "norm"
    or another vector name. ``head_dim`` is set on K/V projections, whose rows are KV heads.
    ``quantizable`` is False where vLLM builds the layer with ``quant_config=None`` whatever the
    checkpoint (a Mamba conv1d, DeepSeek-V3.2's fused indexer ``wk_weights_proj``). ``dtype`` names
    the stored dtype of a tensor vLLM creates at its own ("float32", "int32": DeepSeek-V4's
    hyper-connection mixers and hash table), "" for the checkpoint's dtype or format.
    """

    group: str
    module: str
    shape: tuple[int, ...]
    split: str = REPLICATED
    param: str = "weight"
    count: int = 1
    layer: int | None = None
    head_dim: int = 0
    quantizable: bool = True
    dtype: str = ""

    @property
    def elements(self) -> int:
        """Numbers in one copy."""
        return math.prod(self.shape)

    @property
    def params(self) -> int:
        return self.elements * self.count

    @property
    def is_linear(self) -> bool:
        """A Linear layer's weight matrix: what weight quantization applies to."""
        return self.param == "weight" and len(self.shape) == 2 and self.group != EMBEDDING

    @property
    def path(self) -> str:
        """The module path as the checkpoint names it (``model.layers.3.self_attn.q_proj``)."""
        return self.module if self.layer is None else f"model.layers.{self.layer}.{self.module}"


class Params(int):
    """A parameter count that also lists the tensors it counts.

    Arithmetic on it gives a plain int (a sum of counts is only a count); :func:`join` and
    :func:`repeat` keep the tensors.
    """

    tensors: tuple[Tensor, ...]

    def __new__(cls, tensors: Iterable[Tensor] = ()) -> "Params":
        tensors = tuple(tensors)
        self = super().__new__(cls, sum(t.params for t in tensors))
        self.tensors = tensors
        return self

    def __reduce__(self):  # pickling keeps the tensors
        return (Params, (self.tensors,))


def tensors_of(count: int) -> tuple[Tensor, ...] | None:
    """The tensors behind a count, or None when it is a bare number (a count made elsewhere)."""
    return count.tensors if isinstance(count, Params) else (() if count == 0 else None)


def join(*parts: int) -> Params:
    """One Params of several; a bare non-zero int among them is an error (its tensors are unknown)."""
    tensors: list[Tensor] = []
    for part in parts:
        known = tensors_of(part)
        if known is None:
            raise TypeError(f"a count of {part} parameters has no tensors to join")
        tensors.extend(known)
    return Params(tensors)


def repeat(part: Params, count: int) -> Params:
    """``count`` copies of every tensor of ``part`` (the routed experts of one layer)."""
    return Params(replace(t, count=t.count * count) for t in part.tensors)


# -- builders -----------------------------------------------------------------------------------

def linear(inputs: int, outputs: int, bias: bool = False, *, module: str = "linear", group: str = ATTENTION,
           split: str = REPLICATED, head_dim: int = 0, quantizable: bool = True) -> Params:
    """A Linear layer's weight (out × in) and its bias. A column-parallel layer's bias splits
    with its rows; a row-parallel layer's bias is added once, after the all-reduce: replicated."""
    tensors = [Tensor(group, module, (outputs, inputs), split, head_dim=head_dim, quantizable=quantizable)]
    if bias:
        bias_split = {COLUMN: COLUMN, KV_HEADS: KV_HEADS, EXPERT_COLUMN: EXPERT_COLUMN}.get(split, REPLICATED)
        tensors.append(Tensor(NORMS_BIASES, module, (outputs,), bias_split, param="bias", head_dim=head_dim))
    return Params(tensors)


def norm(width: int, module: str, *, bias: bool = False, split: str = REPLICATED) -> Params:
    """An RMSNorm (one weight vector) or a LayerNorm (weight and bias): every rank holds it, but
    for the gated norms inside a mixer, split with its channels (``split=COLUMN``)."""
    tensors = [Tensor(NORMS_BIASES, module, (width,), split, param="norm")]
    if bias:
        tensors.append(Tensor(NORMS_BIASES, module, (width,), split, param="bias"))
    return Params(tensors)


def vector(group: str, module: str, width: int, param: str, split: str = COLUMN) -> Params:
    """A learned vector that is not a norm (a mixer's A_log, D, dt_bias): split with its heads."""
    return Params([Tensor(group, module, (width,), split, param=param)])


def conv1d(channels: int, kernel: int, module: str, *, bias: bool = False, group: str = MIXER) -> Params:
    """A depthwise causal convolution as checkpoints store it, (channels, 1, kernel), and its bias:
    split by channels; vLLM never quantizes it (quant_config=None in MambaMixer2, 0.33.0)."""
    tensors = [Tensor(group, module, (channels, 1, kernel), COLUMN, param="conv", quantizable=False)]
    if bias:
        tensors.append(Tensor(NORMS_BIASES, module, (channels,), COLUMN, param="bias"))
    return Params(tensors)


def gqa_attention(hidden: int, heads: int, kv_heads: int, head_dim: int, *, qkv_bias: bool,
                  o_bias: bool, qk_norm: bool = False, sinks: bool = False) -> Params:
    """q, k, v and o projections (+ per-head q/k RMSNorm weights, + gpt-oss's per-head sinks)."""
    q, kv = heads * head_dim, kv_heads * head_dim
    parts = [
        linear(hidden, q, qkv_bias, module="self_attn.q_proj", split=COLUMN),
        linear(hidden, kv, qkv_bias, module="self_attn.k_proj", split=KV_HEADS, head_dim=head_dim),
        linear(hidden, kv, qkv_bias, module="self_attn.v_proj", split=KV_HEADS, head_dim=head_dim),
        linear(q, hidden, o_bias, module="self_attn.o_proj", split=ROW),
    ]
    if qk_norm:
        parts += [norm(head_dim, "self_attn.q_norm"), norm(head_dim, "self_attn.k_norm")]
    if sinks:  # one learned logit per query head, split with the heads
        parts.append(Params([Tensor(NORMS_BIASES, "self_attn.sinks", (heads,), COLUMN, param="sinks")]))
    return join(*parts)


def mla_attention(hidden: int, heads: int, *, q_lora_rank: int | None, kv_lora_rank: int,
                  nope_dim: int, rope_dim: int, v_head_dim: int, bias: bool) -> Params:
    """DeepSeek's multi-head latent attention, as its checkpoints store it.

    Queries: q_proj (hidden -> heads x (nope + rope)), or, with q_lora_rank, q_a_proj to the rank,
    its RMSNorm, and q_b_proj up to the heads. Keys and values: kv_a_proj_with_mqa to the latent
    plus the shared RoPE key, its RMSNorm over the latent, kv_b_proj up to heads x (nope + v).
    vLLM keeps q_a_proj and kv_a_proj_with_mqa whole on every rank (ReplicatedLinear,
    vllm/model_executor/models/deepseek_v2.py, 0.33.0) and splits the others by heads.
    """
    q_width = heads * (nope_dim + rope_dim)
    if q_lora_rank:
        queries = join(linear(hidden, q_lora_rank, bias, module="self_attn.q_a_proj"),
                       norm(q_lora_rank, "self_attn.q_a_layernorm"),
                       linear(q_lora_rank, q_width, module="self_attn.q_b_proj", split=COLUMN))
    else:
        queries = linear(hidden, q_width, module="self_attn.q_proj", split=COLUMN)
    keys_values = join(linear(hidden, kv_lora_rank + rope_dim, bias, module="self_attn.kv_a_proj_with_mqa"),
                       norm(kv_lora_rank, "self_attn.kv_a_layernorm"),
                       linear(kv_lora_rank, heads * (nope_dim + v_head_dim), module="self_attn.kv_b_proj",
                              split=COLUMN))
    return join(queries, keys_values,
                linear(heads * v_head_dim, hidden, bias, module="self_attn.o_proj", split=ROW))


def gated_mlp(hidden: int, intermediate: int, bias: bool = False, *, prefix: str = "mlp",
              group: str = DENSE_MLP) -> Params:
    """gate and up projections to ``intermediate``, down back (SwiGLU / GeGLU)."""
    return join(linear(hidden, intermediate, bias, module=f"{prefix}.gate_proj", group=group, split=COLUMN),
                linear(hidden, intermediate, bias, module=f"{prefix}.up_proj", group=group, split=COLUMN),
                linear(intermediate, hidden, bias, module=f"{prefix}.down_proj", group=group, split=ROW))


def plain_mlp(hidden: int, intermediate: int) -> Params:
    """GPT-2's fc and proj, with biases."""
    return join(linear(hidden, intermediate, True, module="mlp.c_fc", group=DENSE_MLP, split=COLUMN),
                linear(intermediate, hidden, True, module="mlp.c_proj", group=DENSE_MLP, split=ROW))


def routed_expert(hidden: int, intermediate: int, *, bias: bool = False, prefix: str = "mlp.experts",
                  gated: bool = True) -> Params:
    """One routed expert: gate and up (fused w13 in vLLM's FusedMoE) and down (w2), with gpt-oss's
    biases; ``gated=False`` for Nemotron-H's relu² experts (up and down only). The layer holds
    ``experts`` of them (:func:`repeat`)."""
    gate = (linear(hidden, intermediate, bias, module=f"{prefix}.gate_proj", group=ROUTED_EXPERTS,
                   split=EXPERT_COLUMN),) if gated else ()
    return join(
        *gate,
        linear(hidden, intermediate, bias, module=f"{prefix}.up_proj", group=ROUTED_EXPERTS, split=EXPERT_COLUMN),
        linear(intermediate, hidden, bias, module=f"{prefix}.down_proj", group=ROUTED_EXPERTS, split=EXPERT_ROW),
    )


def ungated_mlp(hidden: int, intermediate: int, *, prefix: str = "mlp", group: str = DENSE_MLP) -> Params:
    """Up and down projections, no gate, no bias (Nemotron-H's relu² MLP, NemotronHMLP)."""
    return join(linear(hidden, intermediate, module=f"{prefix}.up_proj", group=group, split=COLUMN),
                linear(intermediate, hidden, module=f"{prefix}.down_proj", group=group, split=ROW))


def router(hidden: int, experts: int, *, bias: bool = False, module: str = "mlp.gate") -> Params:
    """The router's logits matrix: vLLM's GateLinear, replicated and never quantized (it passes no
    quant_config: vllm/model_executor/layers/fused_moe/router/gate_linear.py, 0.33.0)."""
    return linear(hidden, experts, bias, module=module, group=ROUTER)


def embedding_table(vocab: int, hidden: int, module: str = "model.embed_tokens") -> Params:
    return Params([Tensor(EMBEDDING, module, (vocab, hidden), VOCAB)])


def lm_head(vocab: int, hidden: int) -> Params:
    return Params([Tensor(LM_HEAD, "lm_head", (vocab, hidden), VOCAB)])


# -- counting -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class LayerPlan:
    """One layer's parameters by part. ``expert`` is one routed expert; ``experts`` how many;
    ``latent`` a latent MoE's projections to and from the experts' width (run for every token)."""

    attention: int
    norms: int
    dense_mlp: int = 0
    router: int = 0
    shared: int = 0
    expert: int = 0
    experts: int = 0
    latent: int = 0

    @property
    def _always(self) -> int:
        """What every token reads: all but the routed experts."""
        return self.attention + self.norms + self.dense_mlp + self.router + self.shared + self.latent

    @property
    def total(self) -> int:
        return self._always + self.expert * self.experts

    def active(self, experts_per_token: int) -> int:
        return self._always + self.expert * min(experts_per_token, self.experts)

    def tensors(self, layer: int) -> tuple[Tensor, ...] | None:
        """Every tensor of this layer (the routed experts as ``count`` copies), or None when a part
        is a bare count whose tensors are not known."""
        parts = [tensors_of(p) for p in (self.attention, self.norms, self.dense_mlp, self.router, self.shared,
                                         self.latent)]
        experts = tensors_of(self.expert) if self.experts else ()
        if experts is None or any(p is None for p in parts):
            return None
        routed = tuple(replace(t, count=t.count * self.experts) for t in experts)
        return tuple(replace(t, layer=layer) for part in (*parts, routed) for t in part)


@dataclass(frozen=True)
class Counts:
    total: int
    active: int
    embedding: int
    expert: int
    experts_per_token: int
    moe_layers: int

    @property
    def dense(self) -> int:
        return self.active - self.expert * self.experts_per_token * self.moe_layers


def count(plans: list[LayerPlan], *, embedding: int, lm_head: int, final_norm: int,
          experts_per_token: int) -> Counts:
    """Totals over the layers plus the embedding table, the LM head (0 when tied) and the last norm."""
    outside = embedding + lm_head + final_norm
    moe = [p for p in plans if p.experts]
    return Counts(
        total=outside + sum(p.total for p in plans),
        active=outside + sum(p.active(experts_per_token) for p in plans),
        embedding=embedding,
        expert=moe[0].expert if moe else 0,
        experts_per_token=min(experts_per_token, moe[0].experts) if moe else 0,
        moe_layers=len(moe),
    )


def model_tensors(plans: list[LayerPlan], *, embedding: int, lm_head: int,
                  final_norm: int) -> tuple[Tensor, ...]:
    """Every tensor of the model, layer by layer, or () when some part was counted without its
    tensors (a layer kind whose builder gives a bare count): the weights breakdown then says so."""
    outside = [tensors_of(p) for p in (embedding, lm_head, final_norm)]
    layers = [plan.tensors(i) for i, plan in enumerate(plans)]
    if any(part is None for part in (*outside, *layers)):
        return ()
    head, tail = outside[0], outside[1] + outside[2]
    return tuple(t for part in (head, *layers, tail) for t in part)
