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

DeepSeek-V2/V3 (and Kimi K2, served by the same class) and GLM-4.5 add, per layer, what the counts
do not give apart (:class:`.model.SideModules`, read from the checkpoint's tensors): the first
``first_k_dense_replace`` layers run a dense MLP of width I_d instead of the experts, wrapped as a
dense model's gate_up_proj and down_proj, and every MoE layer a shared-expert MLP of width I_s
beside them, wrapped the same way (TP-split, under expert parallelism too: vLLM refuses LoRA on a
sequence-parallel MoE, the one case where DeepSeek's shared experts would be whole). DeepSeek's
attention is MLA, with N heads, r_q = ``q_lora_rank``, c = ``kv_lora_rank``, ρ =
``qk_rope_head_dim``, d_qk = nope + ρ and d_v the value head::

    q_proj        A: M × R × hidden                   B: M × R × N/p × d_qk      (no r_q)
    kv_a_proj     A: M × R × hidden                   B: M × R × (c + ρ)         (replicated, no r_q)
    fused_qkv_a   A: 2 × M × R × hidden               B: M × R × (r_q + c + ρ)   (TP size 1, with r_q)
    q_b_proj      A: M × R × r_q                      B: M × R × N/p × d_qk      (with r_q)
    kv_b_proj     A: M × R × c                        B: M × R × N/p × (d_qk − ρ + d_v)
    o_proj        A: M × R × N × d_v / p              B: M × hidden × R

each wrapped once from 0.22.0 (``wrapped_by_id``). Up to 0.21.0 the MLA wrapper's second references
to these projections, and from 0.17.0 ``MLAAttention``'s third to kv_b_proj, are wrapped again, each
with slots of its own: twice each in 0.12.0–0.15.0, twice and kv_b_proj three times in 0.17.0–0.21.0
(:func:`..engines.vllm_lora.mla_wrappers`). vLLM 0.17.0–0.19.0 stop at startup on DeepSeek's router
(a ``GateLinear`` no LoRA class takes there), and in 0.21.0 the fused-MoE runner's reference to the
router (DeepSeek's, Qwen3-MoE's) is wrapped a second time.

What is not modelled is refused, with the reason, rather than guessed: mixtures of experts other
than Mixtral, Qwen3-MoE, DeepSeek-V2/V3 and GLM-4.5, or with dense layers or shared experts on
another architecture (Qwen2-MoE's gated shared expert), gpt-oss but in 0.33.0 on NVIDIA, MLA on another
architecture (DeepSeek-V3.2's indexer, GLM-5) or in an unread release (0.16), hybrid and per-layer models,
vision towers, pipeline stages, an architecture whose modules were not read, expert parallelism in
0.21 and 0.22 (not read), and releases before the extra vocabulary was removed.

``--fully-sharded-loras`` (S-LoRA's sharding; base_linear.py, fused_moe.py) splits the side each
layer kept whole: column-parallel A (and the fused-MoE w13 A) keeps R / p of the rank, row-parallel
B (and w2 B) hidden / p of its output; the embeddings, the LM head and the router stay whole. vLLM
refuses it with a rank that p does not divide, and with expert parallelism on a mixture of experts.
Whether a quantized experts kernel accepts LoRA (0.12.0 asserts Triton's, or Marlin's and OpenAI's
for MXFP4) is not checked: the slots' shapes do not depend on the experts' format, but for
gpt-oss's. Nor is the experts kernel vLLM picks because LoRA is on (Triton for bf16, or FlashInfer's
TRT-LLM LoRA experts where they apply, in 0.33.0's ``select_unquantized_moe_backend``): the fused-MoE
workspace stays the budget's. gpt-oss's fused 3D experts (``FusedMoE3DWithLoRA``: one w13 A slice)
take the hidden size and width its MXFP4 backend rounds up: with LoRA on, 0.33.0 picks MARLIN, which
rounds the hidden size up to 256 and the width per partition up to 128
(``mxfp4_round_up_hidden_size_and_intermediate_size``; :data:`..engines.vllm_lora.GPT_OSS`), so
gpt-oss-20b's experts' slots are 3072 wide and 2944 deep at TP 1; other releases and AMD GPUs are
not read. A custom shape (fields edited away from a catalogue model or pasted config) of a mixture
of experts with dense layers or shared experts, or of MLA, is refused: its fields do not give those
widths.
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
    side_modules: str = ""  # the MLA projections, dense layers' and shared experts' MLPs wrapped, in words

    @property
    def total_bytes(self) -> int:
        return self.slot_bytes + self.index_bytes


def dense_layers(model: Model) -> int:
    """The layers whose MLP is dense in a mixture of experts (``first_k_dense_replace``; 0 without sides)."""
    return model.sides.dense_layers if model.sides else 0


def shared_width(model: Model) -> int:
    """The shared-expert MLP's width in each MoE layer (0: none, or no sides)."""
    return model.sides.shared_width if model.sides else 0


def _moe_layers_only(model: Model) -> bool:
    """Every MoE layer of gated experts and nothing else routed: one expert index holds
    L_moe × 3 × hidden × I parameters, L_moe the layers without a dense MLP."""
    expected = (model.layers - dense_layers(model)) * 3 * model.hidden_size * model.intermediate_size
    return expected > 0 and abs(model.expert_index_params / expected - 1) <= ALL_MOE_TOLERANCE


def problem(model: Model, architecture: str, version: str, pipeline_stages: int = 1, expert_parallel: int = 1,
            experts_format: str = "", vendor: str = "nvidia") -> str:
    """Why the slots of ``model`` are not modelled ("" when they are); ``experts_format``: the routed
    experts' weights (a vllm_releases.MOE_FORMATS name), ``vendor``: the GPUs'."""
    if parse_version(version) < parse_version(vllm_lora.FIRST_RELEASE):
        return (f"LoRA slots before vLLM {vllm_lora.FIRST_RELEASE} (whose embeddings add an extra-vocabulary "
                f"slot, lora_extra_vocab_size)")
    layout = vllm_lora.layout_of(architecture, version)
    if model.is_mla:
        if layout is None or not layout.mla:
            known = ", ".join(vllm_lora.MLA_ARCHITECTURES)
            return (f"LoRA slots of an MLA model of {architecture or 'no named architecture'} (its latent "
                    f"projections; only {known} were read)")
        if vllm_lora.mla_wrappers(version) is None:
            return f"LoRA slots of an MLA model in vLLM {version} (its MLA layers' wrapping was not read)"
        if model.sides is None or not (model.sides.qk_head_dim and model.sides.v_head_dim):
            return ("LoRA slots of an MLA model without its projections' widths (q_lora_rank, the query and value "
                    "head widths: a catalogue model or a pasted config gives them)")
    elif layout is not None and layout.mla:
        return f"LoRA slots of {architecture} without MLA attention (its layers were read with it)"
    if model.is_moe:
        if vllm_lora.expert_alignment(architecture, version, experts_format, vendor) is None:
            return f"LoRA slots of {architecture}: {vllm_lora.UNMODELLED_MOE[architecture]}"
        if layout is None or not layout.moe:
            known = ", ".join((*vllm_lora.MOE_ARCHITECTURES, *vllm_lora.SHARED_EXPERT_ARCHITECTURES,
                               *vllm_lora.MLA_ARCHITECTURES))
            return (f"LoRA slots of a mixture of experts of {architecture or 'no named architecture'} (only "
                    f"{known} were read)")
        if not layout.sides and (dense_layers(model) or shared_width(model)):
            known = ", ".join((*vllm_lora.MLA_ARCHITECTURES, *vllm_lora.SHARED_EXPERT_ARCHITECTURES))
            return (f"LoRA slots of a mixture of experts of {architecture} with dense layers or shared experts "
                    f"(read for {known} only)")
        if not _moe_layers_only(model):
            return ("LoRA slots of a mixture of experts whose layers the counts do not split into dense and MoE "
                    "layers (only models whose MoE layers route all their MLP but a shared expert through the "
                    "experts were read)")
        if expert_parallel > 1 and vllm_lora.moe_expert_parallel(version) == "unread":
            return f"LoRA on experts under expert parallelism in vLLM {version} (0.21 and 0.22 were not read)"
    elif layout is not None and layout.moe:
        return f"LoRA slots of {architecture} without routed experts (its fused-MoE layers need them)"
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
    layout = vllm_lora.layout_of(architecture, version)
    if layout is not None and layout.mla and vllm_lora.mla_router_refused(version):
        return (f"vLLM {version} stops at startup with LoRA on {architecture}: its router (GateLinear) is a LoRA "
                f"target that ReplicatedLinearWithLoRA does not take (type(layer) is ReplicatedLinear), and "
                f"register_module asserts a LoRA layer")
    limit = vllm_lora.logits_vocab_limit(version)
    if layout is not None and layout.embeddings and model.vocab_size > limit:
        return f"When using LoRA, vocab size must be <= {limit} (this vocabulary: {model.vocab_size:,})"
    return ""


def local_experts(model: Model, expert_parallel: int, version: str) -> int:
    """E_l: the routed experts whose adapters the fullest GPU holds (all of them without EP)."""
    return largest_share(model.experts, expert_parallel, version) if expert_parallel > 1 else model.experts


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def moe_elements(model: Model, layout: vllm_lora.LoraLayout, tensor_parallel: int, slots: LoraSlots,
                 expert_parallel: int = 1, version: str = vllm_lora.READ_RELEASES[-1],
                 alignment: tuple[int, int] = (1, 1)) -> int:
    """Numbers in one MoE layer's router and fused-MoE slots on the fullest GPU, the experts' hidden size
    and width per partition rounded up to ``alignment`` (:func:`..engines.vllm_lora.expert_alignment`)."""
    m, r, hidden = slots.max_loras, slots.max_rank, model.hidden_size
    experts = local_experts(model, expert_parallel, version)
    width = model.intermediate_size if expert_parallel > 1 else model.intermediate_size // tensor_parallel
    width, expert_hidden = _round_up(width, alignment[1]), _round_up(hidden, alignment[0])
    shard = tensor_parallel if slots.fully_sharded else 1  # R of w13 A and the hidden width of w2 B
    router = (m * r * hidden + m * model.experts * r) * layout.router_wrappers if layout.router else 0
    w13 = layout.moe_w13_slices * m * experts * (r // shard) * expert_hidden + 2 * m * experts * width * r
    w2 = m * experts * r * width + m * experts * (expert_hidden // shard) * r
    return router + w13 + w2


def side_module_words(model: Model, layout: vllm_lora.LoraLayout, version: str) -> str:
    """The modules beyond qkv_proj, o_proj, the MLP and the experts that the slots cover, in words
    ("" when none)."""
    parts = []
    if layout.mla and model.sides is not None:
        queries = "fused_qkv_a_proj, q_b_proj" if model.sides.q_lora_rank else "q_proj, kv_a_proj_with_mqa"
        copies, kv_b = vllm_lora.mla_wrappers(version) or (1, 1)
        times = {2: "twice", 3: "three times"}
        again = (f"; in this release each {times[copies]}, kv_b_proj {times[kv_b]}, through the MLA layer's "
                 f"further references" if copies > 1 else "")
        parts.append(f"the MLA projections of {model.layers} layers ({queries}, kv_b_proj, o_proj{again})")
    if layout.moe and dense_layers(model):
        dense = dense_layers(model)
        parts.append("the first layer's dense MLP" if dense == 1 else f"the dense MLPs of the first {dense} layers")
    if layout.moe and shared_width(model):
        parts.append(f"the shared experts' MLP of {model.layers - dense_layers(model)} MoE layers")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + (parts[-1] if parts else "")


def mlp_elements(width: int, slices: int, hidden: int, tensor_parallel: int, slots: LoraSlots) -> int:
    """Numbers in one gated MLP's slots (gate_up_proj of ``slices`` packed slices, down_proj)."""
    m, r, p = slots.max_loras, slots.max_rank, tensor_parallel
    a_rank, b_out = (r // p, hidden // p) if slots.fully_sharded else (r, hidden)
    gate_up = slices * m * a_rank * hidden + m * r * 2 * (width // p)
    down = m * r * (width // p) + m * b_out * r
    return gate_up + down


def mla_elements(model: Model, tensor_parallel: int, slots: LoraSlots,
                 version: str = vllm_lora.READ_RELEASES[-1]) -> int:
    """Numbers in one MLA layer's slots: q_proj and kv_a_proj_with_mqa, or fused_qkv_a_proj (two slices,
    its own TP size 1) and q_b_proj; kv_b_proj and o_proj; each as many times as ``version`` wraps it
    (:func:`..engines.vllm_lora.mla_wrappers`)."""
    copies, kv_b_copies = vllm_lora.mla_wrappers(version) or (1, 1)
    m, r, p = slots.max_loras, slots.max_rank, tensor_parallel
    hidden, heads, sides = model.hidden_size, model.heads, model.sides
    a_rank, b_out = (r // p, hidden // p) if slots.fully_sharded else (r, hidden)
    kv_a = model.latent_dim + model.rope_dim
    q_out = heads // p * sides.qk_head_dim
    if sides.q_lora_rank:
        queries = (2 * m * r * hidden + m * r * (sides.q_lora_rank + kv_a)  # fused_qkv_a_proj
                   + m * a_rank * sides.q_lora_rank + m * r * q_out)  # q_b_proj
    else:
        queries = (m * a_rank * hidden + m * r * q_out  # q_proj
                   + m * r * hidden + m * r * kv_a)  # kv_a_proj_with_mqa (replicated)
    nope = sides.qk_head_dim - model.rope_dim
    kv_b = m * a_rank * model.latent_dim + m * r * (heads // p) * (nope + sides.v_head_dim)
    o_proj = m * r * (heads * sides.v_head_dim // p) + m * b_out * r
    return copies * (queries + o_proj) + kv_b_copies * kv_b


def slot_elements(model: Model, layout: vllm_lora.LoraLayout, tensor_parallel: int, slots: LoraSlots,
                  expert_parallel: int = 1, version: str = vllm_lora.READ_RELEASES[-1],
                  alignment: tuple[int, int] = (1, 1)) -> int:
    """Numbers in every slot's A and B tensors on one GPU (create_lora_weights of each wrapped module)."""
    m, r, p = slots.max_loras, slots.max_rank, tensor_parallel
    hidden, head_dim, inter = model.hidden_size, model.head_dim, model.intermediate_size
    # --fully-sharded-loras: column-parallel A keeps R / p of the rank, row-parallel B hidden / p
    a_rank, b_out = (r // p, hidden // p) if slots.fully_sharded else (r, hidden)
    if layout.mla:
        attention = mla_elements(model, p, slots, version)
    else:
        q = model.heads // p * head_dim
        kv = max(1, model.kv_heads // p) * head_dim  # a KV head is copied, not split, when p exceeds them
        qkv = layout.qkv_slices * m * a_rank * hidden + m * r * (q + 2 * kv)
        attention = qkv + m * r * (model.heads * head_dim // p) + m * b_out * r
    if layout.moe:
        dense = dense_layers(model)
        moe = moe_elements(model, layout, p, slots, expert_parallel, version, alignment)
        if shared_width(model):
            moe += mlp_elements(shared_width(model), layout.gate_up_slices, hidden, p, slots)
        dense_mlp = mlp_elements(model.sides.dense_width, layout.gate_up_slices, hidden, p, slots) if dense else 0
        total = model.layers * attention + (model.layers - dense) * moe + dense * dense_mlp
    else:
        total = model.layers * (attention + mlp_elements(inter, layout.gate_up_slices, hidden, p, slots))
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
           tokens: int, seqs: int, dtype_bytes: int, pipeline_stages: int = 1, expert_parallel: int = 1,
           experts_format: str = "", vendor: str = "nvidia") -> LoraMemory:
    """One GPU's LoRA memory for ``slots`` at ``tensor_parallel`` (and an expert-parallel group of
    ``expert_parallel`` GPUs, 1: off), in ``dtype_bytes`` per number (the model's dtype: ``--lora-dtype
    auto``), the routed experts stored as ``experts_format`` on ``vendor``'s GPUs; nothing but the reason
    when it is not modelled."""
    ep = expert_parallel if model.is_moe else 1
    why = problem(model, architecture, version, pipeline_stages, ep, experts_format, vendor)
    if why:
        return LoraMemory(problem=why)
    refused = refusal(model, architecture, version, slots, ep, tensor_parallel)
    layout = vllm_lora.layout_of(architecture, version)
    moe_layers = model.layers - dense_layers(model) if layout.moe else 0
    alignment = vllm_lora.expert_alignment(architecture, version, experts_format, vendor) or (1, 1)
    experts = 0
    if layout.moe:
        routerless = vllm_lora.LoraLayout(layout.qkv_slices, 0, False, layout.moe_w13_slices, router=False)
        experts = moe_layers * moe_elements(model, routerless, tensor_parallel, slots, ep, version,
                                            alignment) * dtype_bytes
    return LoraMemory(slot_elements(model, layout, tensor_parallel, slots, ep, version, alignment) * dtype_bytes,
                      index_bytes(tokens, seqs, slots, tensor_parallel, model.vocab_size, layout.embeddings, version,
                                  moe_layers),
                      refusal=refused, expert_slot_bytes=experts,
                      local_experts=local_experts(model, ep, version) if layout.moe else 0,
                      side_modules=side_module_words(model, layout, version))
