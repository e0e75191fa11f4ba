"""The LoRA adapter slots vLLM holds on every GPU (``--enable-lora --max-loras M --max-lora-rank R``).

vLLM allocates M slots of rank R for every wrapped module when it loads the model, before it profiles
the memory, so they come off the KV cache whether or not an adapter is ever loaded. The shapes, the
modules an architecture wraps and the index buffers are vLLM's (:mod:`..engines.vllm_lora`, which
cites the source). Per decoder layer of a dense transformer, with p the tensor-parallel size:

    qkv_proj      A: slices × M × R × hidden          B: M × R × (heads/p + 2 × max(1, kv_heads/p)) × head_dim
    o_proj        A: M × R × heads × head_dim / p     B: M × hidden × R
    gate_up_proj  A: slices × M × R × hidden          B: M × R × 2 × intermediate / p
    down_proj     A: M × R × intermediate / p         B: M × hidden × R

and, where the architecture wraps them, the embedding (A: M × vocab × R, B: M × hidden × R) and the
LM head (A: M × R × hidden, B: M × vocab × R), whole on every GPU. Column-parallel layers keep A
whole and split B; row-parallel layers split A and keep B whole.

A mixture of experts (Mixtral, Qwen3-MoE) keeps the attention's four tensors and, instead of the
MLP's, its router and one fused-MoE wrapper per layer, with E_l experts on this GPU and I_p of each
expert's width I:

    router (gate) A: M × R × hidden                   B: M × E × R          (whole, replicated)
    w13 (w1, w3)  A: 2 × M × E_l × R × hidden         B: 2 × M × E_l × I_p × R
    w2            A: M × E_l × R × I_p                B: M × E_l × hidden × R

Under TP alone E_l = E and I_p = I / p: the adapters of all E experts sit on every GPU, A of w13
and B of w2 whole. Under expert parallelism (vLLM 0.23.0 on; earlier releases refuse it) the MoE
layer's TP is 1: I_p = I and E_l is the rank's share of the experts, the fullest rank's counting
(:func:`.expert_parallel.largest_share`). So the slots grow with E, not with the k experts a token
uses: 4 slots of rank 16 on Qwen3-30B-A3B hold 128 experts' adapters in every layer.

What is not modelled is refused, with the reason, rather than guessed: mixtures of experts other
than Mixtral and Qwen3-MoE or with dense layers or shared experts (DeepSeek, Qwen2-MoE, gpt-oss's
fused 3D experts), MLA, hybrid and per-layer models, vision towers, pipeline stages, an
architecture whose modules were not read, expert parallelism in 0.21 and 0.22 (not read), and
releases before the extra vocabulary was removed.

``--fully-sharded-loras`` (S-LoRA's sharding; base_linear.py, fused_moe.py) splits the side each
layer kept whole: column-parallel A (and the fused-MoE w13 A) keeps R / p of the rank, row-parallel
B (and w2 B) hidden / p of its output; the embeddings, the LM head and the router stay whole. vLLM
refuses it with a rank that p does not divide, and with expert parallelism on a mixture of experts.
Whether a quantized experts kernel accepts LoRA (0.12.0 asserts Triton's, or Marlin's and OpenAI's
for MXFP4) is not checked: the slots' shapes do not depend on the experts' format. Nor is the
experts kernel vLLM picks because LoRA is on (Triton for bf16, or FlashInfer's TRT-LLM LoRA experts
where they apply, in 0.33.0's ``select_unquantized_moe_backend``): the fused-MoE workspace stays the
budget's. gpt-oss is left out because its MXFP4 experts pad the width the slots take
(``mxfp4_round_up_hidden_size_and_intermediate_size``, by backend); DeepSeek-style MLA models
because the model here lacks their q/kv projection widths, dense layers and shared experts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines import vllm_lora
from ..engines.vllm_weights import padded_vocab
from ..engines.vllm import parse_version
from .expert_parallel import largest_share
from .model import Model

#: How far one routed expert index's parameters may be from L × 3 × hidden × I (every layer an MoE
#: layer of gated experts, nothing else routed) for the model to count as such.
ALL_MOE_TOLERANCE = 0.01


@dataclass(frozen=True)
class LoraSlots:
    """``--max-loras``, ``--max-lora-rank`` and ``--fully-sharded-loras``: what ``--enable-lora``
    preallocates."""

    max_loras: int = vllm_lora.DEFAULT_MAX_LORAS
    max_rank: int = vllm_lora.DEFAULT_MAX_LORA_RANK
    fully_sharded: bool = False  # --fully-sharded-loras


@dataclass(frozen=True)
class LoraMemory:
    """One GPU's LoRA memory: the slots' A and B tensors, vLLM's index buffers (and the TP logits
    map), and why it is not computed (``problem``: not modelled) or why vLLM refuses (``refusal``)."""

    slot_bytes: int = 0
    index_bytes: int = 0
    problem: str = ""
    refusal: str = ""
    expert_slot_bytes: int = 0  # the part of slot_bytes in the fused-MoE wrappers (w13 and w2)
    local_experts: int = 0  # the routed experts whose adapters this GPU holds per layer (0: dense)

    @property
    def total_bytes(self) -> int:
        return self.slot_bytes + self.index_bytes


def _every_layer_moe(model: Model) -> bool:
    """Every layer an MoE layer of gated experts and nothing else routed: one expert index holds
    L × 3 × hidden × I parameters."""
    expected = model.layers * 3 * model.hidden_size * model.intermediate_size
    return expected > 0 and abs(model.expert_index_params / expected - 1) <= ALL_MOE_TOLERANCE


def problem(model: Model, architecture: str, version: str, pipeline_stages: int = 1, expert_parallel: int = 1) -> str:
    """Why the slots of ``model`` are not modelled ("" when they are)."""
    if parse_version(version) < parse_version(vllm_lora.FIRST_RELEASE):
        return (f"LoRA slots before vLLM {vllm_lora.FIRST_RELEASE} (whose embeddings add an extra-vocabulary "
                f"slot, lora_extra_vocab_size)")
    if model.is_moe:
        layout = vllm_lora.layout_of(architecture, version)
        if layout is None or not layout.moe:
            known = ", ".join(vllm_lora.MOE_ARCHITECTURES)
            return (f"LoRA slots of a mixture of experts of {architecture or 'no named architecture'} (only "
                    f"{known} were read)")
        if not _every_layer_moe(model):
            return ("LoRA slots of a mixture of experts with dense layers or shared experts (only models whose "
                    "every layer routes all its MLP through the experts were read)")
        if expert_parallel > 1 and vllm_lora.moe_expert_parallel(version) == "unread":
            return f"LoRA on experts under expert parallelism in vLLM {version} (0.21 and 0.22 were not read)"
    elif getattr(vllm_lora.layout_of(architecture, version), "moe", False):
        return f"LoRA slots of {architecture} without routed experts (its fused-MoE layers need them)"
    if model.is_mla:
        return "LoRA slots of an MLA model (its latent projections)"
    if model.is_hybrid or model.kv_free_layers:
        return "LoRA slots of a hybrid model (linear-attention or state-space layers)"
    if model.vision is not None:
        return "LoRA slots of a multimodal model (its language model's wrapper and the tower's modules)"
    if model.layer_specs:
        return "LoRA slots of a model whose layers differ"
    if pipeline_stages > 1:
        return "LoRA slots under pipeline parallelism (which stage holds the embeddings and the LM head)"
    if vllm_lora.layout_of(architecture, version) is None:
        known = ", ".join((*vllm_lora.ARCHITECTURES, *vllm_lora.MOE_ARCHITECTURES))
        return (f"LoRA slots of {architecture or 'a model without a named architecture'}: the modules vLLM wraps "
                f"depend on the architecture, and only {known} were read")
    if not (model.hidden_size and model.heads and model.intermediate_size and model.vocab_size):
        return "LoRA slots without the hidden size, query heads, MLP width and vocabulary"
    return ""


def refusal(model: Model, architecture: str, version: str, slots: LoraSlots, expert_parallel: int = 1,
            tensor_parallel: int = 1) -> str:
    """Why vLLM refuses to start with these slots ("" when it starts)."""
    if model.is_moe and expert_parallel > 1 and vllm_lora.moe_expert_parallel(version) == "refused":
        return (f"vLLM {version} refuses LoRA on experts under expert parallelism ('EP support for Fused MoE LoRA is "
                f"not implemented yet'; from {vllm_lora.MOE_EP_SINCE})")
    if slots.max_rank not in vllm_lora.MAX_LORA_RANKS:
        return f"--max-lora-rank {slots.max_rank} is not one of {', '.join(map(str, vllm_lora.MAX_LORA_RANKS))}"
    if slots.max_loras < 1:
        return "--max-loras must be at least 1"
    if slots.fully_sharded and slots.max_rank % tensor_parallel:
        return (f"--fully-sharded-loras splits the rank over the {tensor_parallel} GPUs: --max-lora-rank "
                f"{slots.max_rank} does not divide (vLLM's divide() fails)")
    if slots.fully_sharded and model.is_moe and expert_parallel > 1:
        return ("Fused MoE LoRA does not support enable_expert_parallel=True together with fully_sharded_loras=True "
                "(vLLM refuses)")
    limit = vllm_lora.logits_vocab_limit(version)
    layout = vllm_lora.layout_of(architecture, version)
    if layout is not None and layout.embeddings and model.vocab_size > limit:
        return f"When using LoRA, vocab size must be <= {limit} (this vocabulary: {model.vocab_size:,})"
    return ""


def local_experts(model: Model, expert_parallel: int, version: str) -> int:
    """E_l: the routed experts whose adapters the fullest GPU holds (all of them without EP)."""
    return largest_share(model.experts, expert_parallel, version) if expert_parallel > 1 else model.experts


def moe_elements(model: Model, layout: vllm_lora.LoraLayout, tensor_parallel: int, slots: LoraSlots,
                 expert_parallel: int = 1, version: str = vllm_lora.READ_RELEASES[-1]) -> int:
    """Numbers in one MoE layer's router and fused-MoE slots on the fullest GPU."""
    m, r, hidden = slots.max_loras, slots.max_rank, model.hidden_size
    experts = local_experts(model, expert_parallel, version)
    width = model.intermediate_size if expert_parallel > 1 else model.intermediate_size // tensor_parallel
    shard = tensor_parallel if slots.fully_sharded else 1  # R of w13 A and the hidden width of w2 B
    router = (m * r * hidden + m * model.experts * r) if layout.router else 0
    w13 = layout.moe_w13_slices * m * experts * (r // shard) * hidden + 2 * m * experts * width * r
    w2 = m * experts * r * width + m * experts * (hidden // shard) * r
    return router + w13 + w2


def slot_elements(model: Model, layout: vllm_lora.LoraLayout, tensor_parallel: int, slots: LoraSlots,
                  expert_parallel: int = 1, version: str = vllm_lora.READ_RELEASES[-1]) -> int:
    """Numbers in every slot's A and B tensors on one GPU (create_lora_weights of each wrapped module)."""
    m, r, p = slots.max_loras, slots.max_rank, tensor_parallel
    hidden, head_dim, inter = model.hidden_size, model.head_dim, model.intermediate_size
    # --fully-sharded-loras: column-parallel A keeps R / p of the rank, row-parallel B hidden / p
    a_rank, b_out = (r // p, hidden // p) if slots.fully_sharded else (r, hidden)
    q = model.heads // p * head_dim
    kv = max(1, model.kv_heads // p) * head_dim  # a KV head is copied, not split, when p exceeds them
    qkv = layout.qkv_slices * m * a_rank * hidden + m * r * (q + 2 * kv)
    o_proj = m * r * (model.heads * head_dim // p) + m * b_out * r
    if layout.moe:
        mlp = moe_elements(model, layout, p, slots, expert_parallel, version)
    else:
        gate_up = layout.gate_up_slices * m * a_rank * hidden + m * r * 2 * (inter // p)
        down = m * r * (inter // p) + m * b_out * r
        mlp = gate_up + down
    total = model.layers * (qkv + o_proj + mlp)
    if layout.embeddings:
        vocab = model.vocab_size
        total += (m * vocab * r + m * hidden * r) + (m * r * hidden + m * vocab * r)  # embedding, LM head
    return total


def index_bytes(tokens: int, seqs: int, slots: LoraSlots, tensor_parallel: int, vocab: int, embeddings: bool,
                version: str, moe_layers: int = 0) -> int:
    """The punica wrapper's index vectors and the kernels' metadata (``max_num_batched_tokens`` =
    ``tokens``, ``max_num_seqs`` = ``seqs``), under TP the LM head's map of the padded vocabulary, and
    each fused-MoE wrapper's int32 ``adapter_enabled`` of M + 1."""
    m = slots.max_loras
    punica = vllm_lora.INDEX_BYTES * (vllm_lora.token_index_vectors(version) * tokens + 3 * seqs)
    kernel_meta = 2 * vllm_lora.INT32_BYTES * (2 * tokens + (m + 1) + (m + 1) + (m + 2))
    mapping = vllm_lora.INDEX_BYTES * padded_vocab(vocab) if embeddings and tensor_parallel > 1 else 0
    flags = moe_layers * vllm_lora.INT32_BYTES * (m + 1)
    return punica + kernel_meta + mapping + flags


def memory(model: Model, architecture: str, version: str, slots: LoraSlots, tensor_parallel: int,
           tokens: int, seqs: int, dtype_bytes: int, pipeline_stages: int = 1, expert_parallel: int = 1) -> LoraMemory:
    """One GPU's LoRA memory for ``slots`` at ``tensor_parallel`` (and an expert-parallel group of
    ``expert_parallel`` GPUs, 1: off), in ``dtype_bytes`` per number (the model's dtype: ``--lora-dtype
    auto``); nothing but the reason when it is not modelled."""
    ep = expert_parallel if model.is_moe else 1
    why = problem(model, architecture, version, pipeline_stages, ep)
    if why:
        return LoraMemory(problem=why)
    refused = refusal(model, architecture, version, slots, ep, tensor_parallel)
    layout = vllm_lora.layout_of(architecture, version)
    moe_layers = model.layers if layout.moe else 0
    experts = 0
    if layout.moe:
        routerless = vllm_lora.LoraLayout(layout.qkv_slices, 0, False, layout.moe_w13_slices, router=False)
        experts = moe_layers * moe_elements(model, routerless, tensor_parallel, slots, ep, version) * dtype_bytes
    return LoraMemory(slot_elements(model, layout, tensor_parallel, slots, ep, version) * dtype_bytes,
                      index_bytes(tokens, seqs, slots, tensor_parallel, model.vocab_size, layout.embeddings, version,
                                  moe_layers),
                      refusal=refused, expert_slot_bytes=experts,
                      local_experts=local_experts(model, ep, version) if layout.moe else 0)
