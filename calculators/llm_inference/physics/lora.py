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

What is not modelled is refused, with the reason, rather than guessed: mixtures of experts (vLLM's
fused-MoE LoRA slots), MLA, hybrid and per-layer models, vision towers, pipeline stages, an
architecture whose modules were not read, and releases before the extra vocabulary was removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines import vllm_lora
from ..engines.vllm_weights import padded_vocab
from ..engines.vllm import parse_version
from .model import Model


@dataclass(frozen=True)
class LoraSlots:
    """``--max-loras`` and ``--max-lora-rank``: what ``--enable-lora`` preallocates."""

    max_loras: int = vllm_lora.DEFAULT_MAX_LORAS
    max_rank: int = vllm_lora.DEFAULT_MAX_LORA_RANK


@dataclass(frozen=True)
class LoraMemory:
    """One GPU's LoRA memory: the slots' A and B tensors, vLLM's index buffers (and the TP logits
    map), and why it is not computed (``problem``: not modelled) or why vLLM refuses (``refusal``)."""

    slot_bytes: int = 0
    index_bytes: int = 0
    problem: str = ""
    refusal: str = ""

    @property
    def total_bytes(self) -> int:
        return self.slot_bytes + self.index_bytes


def problem(model: Model, architecture: str, version: str, pipeline_stages: int = 1) -> str:
    """Why the slots of ``model`` are not modelled ("" when they are)."""
    if parse_version(version) < parse_version(vllm_lora.FIRST_RELEASE):
        return (f"LoRA slots before vLLM {vllm_lora.FIRST_RELEASE} (whose embeddings add an extra-vocabulary "
                f"slot, lora_extra_vocab_size)")
    if model.is_moe:
        return "LoRA slots of a mixture of experts (vLLM's fused-MoE LoRA layers)"
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
        known = ", ".join(vllm_lora.ARCHITECTURES)
        return (f"LoRA slots of {architecture or 'a model without a named architecture'}: the modules vLLM wraps "
                f"depend on the architecture, and only {known} were read")
    if not (model.hidden_size and model.heads and model.intermediate_size and model.vocab_size):
        return "LoRA slots without the hidden size, query heads, MLP width and vocabulary"
    return ""


def refusal(model: Model, architecture: str, version: str, slots: LoraSlots) -> str:
    """Why vLLM refuses to start with these slots ("" when it starts)."""
    if slots.max_rank not in vllm_lora.MAX_LORA_RANKS:
        return f"--max-lora-rank {slots.max_rank} is not one of {', '.join(map(str, vllm_lora.MAX_LORA_RANKS))}"
    if slots.max_loras < 1:
        return "--max-loras must be at least 1"
    limit = vllm_lora.logits_vocab_limit(version)
    layout = vllm_lora.layout_of(architecture, version)
    if layout is not None and layout.embeddings and model.vocab_size > limit:
        return f"When using LoRA, vocab size must be <= {limit} (this vocabulary: {model.vocab_size:,})"
    return ""


def slot_elements(model: Model, layout: vllm_lora.LoraLayout, tensor_parallel: int, slots: LoraSlots) -> int:
    """Numbers in every slot's A and B tensors on one GPU (create_lora_weights of each wrapped module)."""
    m, r, p = slots.max_loras, slots.max_rank, tensor_parallel
    hidden, head_dim, inter = model.hidden_size, model.head_dim, model.intermediate_size
    q = model.heads // p * head_dim
    kv = max(1, model.kv_heads // p) * head_dim  # a KV head is copied, not split, when p exceeds them
    qkv = layout.qkv_slices * m * r * hidden + m * r * (q + 2 * kv)
    o_proj = m * r * (model.heads * head_dim // p) + m * hidden * r
    gate_up = layout.gate_up_slices * m * r * hidden + m * r * 2 * (inter // p)
    down = m * r * (inter // p) + m * hidden * r
    total = model.layers * (qkv + o_proj + gate_up + down)
    if layout.embeddings:
        vocab = model.vocab_size
        total += (m * vocab * r + m * hidden * r) + (m * r * hidden + m * vocab * r)  # embedding, LM head
    return total


def index_bytes(tokens: int, seqs: int, slots: LoraSlots, tensor_parallel: int, vocab: int, embeddings: bool,
                version: str) -> int:
    """The punica wrapper's index vectors and the kernels' metadata (``max_num_batched_tokens`` =
    ``tokens``, ``max_num_seqs`` = ``seqs``), and under TP the LM head's map of the padded vocabulary."""
    m = slots.max_loras
    punica = vllm_lora.INDEX_BYTES * (vllm_lora.token_index_vectors(version) * tokens + 3 * seqs)
    kernel_meta = 2 * vllm_lora.INT32_BYTES * (2 * tokens + (m + 1) + (m + 1) + (m + 2))
    mapping = vllm_lora.INDEX_BYTES * padded_vocab(vocab) if embeddings and tensor_parallel > 1 else 0
    return punica + kernel_meta + mapping


def memory(model: Model, architecture: str, version: str, slots: LoraSlots, tensor_parallel: int,
           tokens: int, seqs: int, dtype_bytes: int, pipeline_stages: int = 1) -> LoraMemory:
    """One GPU's LoRA memory for ``slots`` at ``tensor_parallel``, in ``dtype_bytes`` per number (the
    model's dtype: ``--lora-dtype auto``); nothing but the reason when it is not modelled."""
    why = problem(model, architecture, version, pipeline_stages)
    if why:
        return LoraMemory(problem=why)
    refused = refusal(model, architecture, version, slots)
    layout = vllm_lora.layout_of(architecture, version)
    return LoraMemory(slot_elements(model, layout, tensor_parallel, slots) * dtype_bytes,
                      index_bytes(tokens, seqs, slots, tensor_parallel, model.vocab_size, layout.embeddings, version),
                      refusal=refused)
