"""What vLLM allocates on every GPU when it serves LoRA adapters (``--enable-lora``), as its source does.

Read from the wheels on PyPI (``pip download vllm==X --no-deps --only-binary :all:``) of 0.12.0,
0.14.0, 0.15.0, 0.17.0, 0.20.0, 0.23.0, 0.26.0, 0.28.0 and 0.33.0 (commit 4ba787ec9); the fused-MoE
wrapper in those but 0.14.0, and in 0.11.1 (absent from 0.11.0); DeepSeek's and GLM-4.5's model files,
the MLA layers and the LoRA manager also in 0.14.0, 0.18.0, 0.19.0, 0.21.0 and 0.22.0; the files and
lines are :data:`EVIDENCE`.
The tensor shapes are the same in all of them; what moved is which
architectures wrap their embeddings (:func:`layout_of`), the LM head's vocabulary bound
(:func:`logits_vocab_limit`) and one index vector (:func:`token_index_vectors`). 0.11 and older add an
extra-vocabulary slot to the embeddings (``lora_extra_vocab_size``, gone in 0.12), which is not
modelled: the calculators refuse LoRA before :data:`FIRST_RELEASE`.

**When.** ``GPUModelRunner.load_model`` wraps the model in its LoRA manager right after the weights
load (``load_lora_model``, v1/worker/lora_model_runner_mixin.py), inside the memory it measures as
"Model loading took", so the slots are held before ``determine_available_memory`` profiles: every
byte of them comes off the KV cache.

**Which layers.** With no ``--lora-target-modules`` every module whose name ends like a
``LinearBase`` of the model, or like a key of the architecture's ``embedding_modules``, is wrapped
(lora/utils.py ``get_supported_lora_modules``, ``is_supported_lora_module``); ``lm_head`` wraps the
logits processor (lora/model_manager.py ``_create_lora_modules``). So a dense transformer gets, per
layer, ``qkv_proj``, ``o_proj``, ``gate_up_proj`` and ``down_proj``, and, where the architecture lists
them, ``embed_tokens`` and ``lm_head``.

**Shapes** (``create_lora_weights``; M = ``max_loras``, R = ``max_lora_rank``, p = TP size; each
tensor ``torch.zeros(..., dtype=lora_dtype)``, "auto" = the model's dtype, vllm/config/lora.py):

* column-parallel (``qkv_proj``, ``gate_up_proj``; lora/layers/column_parallel_linear.py): per slice
  A (M, 1, R, hidden) — *replicated*, every GPU holds all of it — and B (M, 1, out_slice / p, R).
  A packed layer has one slice per packed checkpoint module (``packed_modules_mapping``): Llama's
  q/k/v are three slices, Q of heads/p × head_dim and K, V of max(1, kv_heads/p) × head_dim
  (``MergedQKVParallelLinearWithLoRA``), gate/up two of intermediate/p; Phi-3's fused checkpoint
  keeps one slice each (``QKVParallelLinearWithLoRA``, ``ColumnParallelLinearWithLoRA``).
* row-parallel (``o_proj``, ``down_proj``; lora/layers/row_parallel_linear.py, base_linear.py): A
  (M, 1, R, in / p) — *sharded* — and B (M, 1, hidden, R), replicated.
* the embedding (lora/layers/vocab_parallel_embedding.py): A (M, vocab, R) and B (M, 1, hidden, R),
  whole on every GPU; the LM head (lora/layers/logits_processor.py): A (M, 1, R, hidden) and B (M, 1,
  vocab, R), whole too, plus under TP an int64 map of the padded vocabulary
  (``sharded_to_full_mapping_gpu``, ``pad_vocab_size(vocab, 64)`` entries). It refuses a vocabulary
  over 257,024 up to 0.15.0, over 258,048 from 0.17.0.

**Mixtures of experts** (lora/layers/fused_moe.py; from 0.11.1, absent from 0.11.0). Every
``FusedMoE`` layer (``MoERunner`` from 0.26.0) is wrapped whole: ``FusedMoEWithLoRA`` when the
checkpoint keeps w1 and w3 apart (``packed_modules_list`` ["w1", "w3"]), ``FusedMoE3DWithLoRA`` when
the model sets ``is_3d_moe_weight`` (gpt-oss: one fused w13). With E_l = ``local_num_experts`` and
I_p = ``intermediate_size_per_partition`` it holds, per MoE layer::

    w13 A  slices × (M, E_l, R, hidden)      (2 slices; 1 for the 3D form)
    w13 B  slices × (M, E_l, I_p, R)         (the 3D form: one (M, E_l, 2 × I_p, R))
    w2  A  (M, E_l, R, I_p)
    w2  B  (M, E_l, hidden, R)

and an int32 ``adapter_enabled`` of M + 1; hidden and I_p are the experts' own, after their quant method
rounds them up (gpt-oss's MXFP4 on MARLIN, :data:`GPT_OSS`). Without expert parallelism E_l = E and I_p =
``moe_intermediate_size`` / p, so A of w13 and B of w2 are whole on every GPU and the rest split.
With it, up to 0.20.0 the wrapper asserts "EP support for Fused MoE LoRA is not implemented yet";
from 0.23.0 it runs with ``all2all_backend`` "allgather_reducescatter" (the default) and the MoE
layer's own TP size of 1: E_l is the rank's share of the experts (``determine_expert_map``) and I_p
the whole width. The router (``self.gate``, a ``ReplicatedLinear`` of hidden → E; ``GateLinear``, a
subclass, in 0.33.0) is a linear layer like the others, wrapped by ``ReplicatedLinearWithLoRA``: A
(M, 1, R, hidden) and B (M, 1, E, R), whole on every GPU. It is wrapped once but in 0.21.0: up to
0.20.0 the MoE layer's reference to it is no second match (0.17.0's ``experts._gate`` does not end in
``.gate``; 0.20.0's runner is no module), in 0.21.0 the runner is a module whose ``gate`` gets a
second wrapper where the model hands the router over (:data:`ROUTER_IN_RUNNER`), and from 0.22.0
the runner's ``gate`` is rewired to the same wrapper (``wrapped_by_id``). The punica wrapper
allocates nothing more for the experts when the model loads: their alignment buffers
(``moe_lora_align_block_size``) come and go in the forward pass.

**Dense layers, shared experts, MLA** (:data:`MLA_ARCHITECTURES`, :data:`SHARED_EXPERT_ARCHITECTURES`).
DeepSeek-V2/V3 and GLM-4.5 run a dense MLP in their first ``first_k_dense_replace`` layers and a
shared-expert MLP beside the routed experts in the others: plain ``MergedColumnParallelLinear``
gate_up_proj and ``RowParallelLinear`` down_proj, wrapped like a dense model's. DeepSeek's MLA
projections are linear layers too (q_proj or fused_qkv_a_proj and q_b_proj, kv_a_proj_with_mqa,
kv_b_proj, o_proj), each wrapped by the class of its type; the fused_qkv_a_proj, built with
``disable_tp``, has a TP size of 1 and keeps both its sides whole, also with ``--fully-sharded-loras``.
The MLA wrapper keeps second references to them and ``MLAAttention`` a third to kv_b_proj
(:data:`MLA_WRAPPERS`): up to 0.21.0 each reference gets a wrapper with slots of its own, from 0.22.0
they reach the same wrapper. In 0.17.0–0.19.0 vLLM stops at startup on DeepSeek's router
(:data:`MLA_ROUTER_REFUSED`); in 0.21.0 the fused-MoE runner's reference to the router gets a second
wrapper (:data:`ROUTER_IN_RUNNER`).

``--fully-sharded-loras`` (off by default; the ``*WithShardedLoRA`` classes, chosen by
``_fully_sharded_can_replace``, keep their parents' ``create_lora_weights``) shards R of
column-parallel A (``divide(max_lora_rank, tp_size)``) and the output of row-parallel B
(``divide(output_size, tp_size)``) instead; in the fused-MoE wrapper R of w13 A and the hidden
width of w2 B. ``ReplicatedLinear`` (the router), the embedding and the LM head ignore it.

**Index buffers** (lora/punica_wrapper/punica_base.py, punica_gpu.py,
ops/triton_ops/lora_kernel_metadata.py): int64 vectors of ``max_num_batched_tokens`` (five up to
0.28.0, ``_embeddings_indices`` being two rows; four in 0.33.0) and three of ``max_num_seqs``, and two
``LoRAKernelMeta`` of two int32 vectors of ``max_num_batched_tokens`` and three of M + 1, M + 1 and
M + 2 int32.

Not counted: the caching allocator's rounding of each tensor, and the float32 shrink buffers (tokens
× R per slice) the profiling run's forward pass allocates and frees.
"""

from __future__ import annotations

from dataclasses import dataclass

from .vllm import parse_version

#: The releases whose LoRA source was read; earlier ones are refused.
FIRST_RELEASE = "0.12.0"
READ_RELEASES = ("0.12.0", "0.14.0", "0.15.0", "0.17.0", "0.20.0", "0.23.0", "0.26.0", "0.28.0", "0.33.0")
#: ``MaxLoRARanks`` (vllm/config/lora.py, every release read): the ranks ``--max-lora-rank`` accepts.
MAX_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
#: ``LoRAConfig`` defaults: ``max_loras`` 1, ``max_lora_rank`` 16.
DEFAULT_MAX_LORAS = 1
DEFAULT_MAX_LORA_RANK = 16
#: int64 and int32 index entries (the vocabulary's padding is vllm_weights.padded_vocab).
INDEX_BYTES, INT32_BYTES = 8, 4


@dataclass(frozen=True)
class LoraLayout:
    """How one architecture's modules are wrapped: slices of ``qkv_proj`` and ``gate_up_proj``
    (its ``packed_modules_mapping``), whether ``embed_tokens`` and ``lm_head`` are (its
    ``embedding_modules``), and for a mixture of experts the w13 A slices of its fused-MoE wrapper
    (2: ``FusedMoEWithLoRA``, 1: ``FusedMoE3DWithLoRA``; 0: a dense MLP) and whether its router is
    wrapped; ``mla``: the attention is DeepSeek's multi-head latent attention (its projections in
    place of ``qkv_proj``); ``sides``: the dense layers' and shared experts' MLPs of a mixture of
    experts were read (packed in ``gate_up_slices``); ``router_wrappers``: how many wrappers, each with
    its slots, the router gets (:func:`router_wrappers`)."""

    qkv_slices: int
    gate_up_slices: int
    embeddings: bool
    moe_w13_slices: int = 0
    router: bool = False
    mla: bool = False
    sides: bool = False
    router_wrappers: int = 1

    @property
    def moe(self) -> bool:
        return self.moe_w13_slices > 0


#: The dense text architectures read in vllm/model_executor/models, each release above: Llama lists
#: ``embedding_modules`` (embed_tokens, lm_head) throughout and Phi-3 inherits them with one-slice
#: packing; Qwen2 and Gemma 2 have none; Qwen3 has them from 0.17.0 (not in 0.15.0); Mistral is
#: Llama's class up to 0.15.0, a subclass inheriting them from 0.17.0 to 0.28.0, and empties them in
#: 0.33.0 ("We don't support LoRA on the embedding layers"). (qkv slices, gate_up slices, first
#: release with the embeddings wrapped, first release without them again: "" for never.)
ARCHITECTURES: dict[str, tuple[int, int, str, str]] = {
    "LlamaForCausalLM": (3, 2, FIRST_RELEASE, ""),
    "Phi3ForCausalLM": (1, 1, FIRST_RELEASE, ""),
    "Qwen3ForCausalLM": (3, 2, "0.17.0", ""),
    "MistralForCausalLM": (3, 2, FIRST_RELEASE, "0.33.0"),
    "Qwen2ForCausalLM": (3, 2, "", ""),
    "Gemma2ForCausalLM": (3, 2, "", ""),
}


#: The mixtures of experts read in vllm/model_executor/models, each release above: both pack q/k/v
#: (three slices), keep w1 and w3 apart (``FusedMoEWithLoRA``) and route through a ``ReplicatedLinear``
#: ``self.gate``; every layer of the checkpoints modelled is an MoE layer (Qwen3-MoE's
#: ``mlp_only_layers`` empty). Mixtral lists ``embedding_modules`` throughout; Qwen3-MoE from 0.17.0
#: (not in 0.12.0 or 0.15.0), as dense Qwen3. (qkv slices, w13 A slices, first release with the
#: embeddings wrapped, first release without them again.)
MOE_ARCHITECTURES: dict[str, tuple[int, int, str, str]] = {
    "MixtralForCausalLM": (3, 2, FIRST_RELEASE, ""),
    "Qwen3MoeForCausalLM": (3, 2, "0.17.0", ""),
}
#: The first release read whose fused-MoE wrapper accepts expert parallelism (0.20.0 asserts it
#: off; 0.21 and 0.22 were not read) and the last read that refuses it.
MOE_EP_SINCE = "0.23.0"
MOE_EP_REFUSED_UNTIL = "0.20.0"
#: The mixtures of experts with MLA attention, dense leading layers and shared experts read in
#: model_executor/models/deepseek_v2.py and layers/mla.py of each release above (DeepseekV3ForCausalLM
#: is a subclass; Kimi K2 is served by it). ``packed_modules_mapping`` gate_up_proj: [gate_proj,
#: up_proj], and fused_qkv_a_proj: [q_a_proj, kv_a_proj_with_mqa] when ``q_lora_rank`` is set; no
#: ``embedding_modules`` in any release. Per decoder layer ``DeepseekV2MLAAttention`` holds q_proj
#: (``ColumnParallelLinear``) and kv_a_proj_with_mqa (``ReplicatedLinear``), or, with ``q_lora_rank``,
#: fused_qkv_a_proj (``DeepSeekV2FusedQkvAProjLinear``, a ``MergedColumnParallelLinear`` with
#: ``disable_tp``: its own TP size 1) and q_b_proj (``ColumnParallelLinear``); kv_b_proj
#: (``ColumnParallelLinear``) and o_proj (``RowParallelLinear``). Layers from ``first_k_dense_replace``
#: on are MoE layers: the router ``gate``, the shared experts' ``DeepseekV2MLP`` (gate_up_proj and
#: down_proj of ``moe_intermediate_size × n_shared_experts``, TP-split like a dense MLP) and the
#: routed experts' ``FusedMoE``; the layers before have a dense ``DeepseekV2MLP`` of
#: ``intermediate_size``. (gate_up slices, w13 A slices.)
MLA_ARCHITECTURES: dict[str, tuple[int, int]] = {
    "DeepseekV2ForCausalLM": (2, 2),
    "DeepseekV3ForCausalLM": (2, 2),
}
#: The mixtures of experts with GQA attention, dense leading layers and shared experts read in
#: model_executor/models/glm4_moe.py of each release above (GLM-4.5, GLM-4.5-Air): ``packed_modules_mapping``
#: qkv_proj: [q_proj, k_proj, v_proj], gate_up_proj: [gate_proj, up_proj]; no ``embedding_modules``.
#: Layers from ``first_k_dense_replace`` on run ``Glm4MoE``: the router, the shared experts'
#: ``Glm4MoeMLP`` (``moe_intermediate_size × n_shared_experts``, TP-split, no ``disable_tp``) and the
#: routed experts' ``FusedMoE`` (``SharedFusedMoE`` up to 0.17.0, a subclass); the layers before a dense
#: ``Glm4MoeMLP`` of ``intermediate_size``. The router is a plain ``nn.Linear`` up to 0.28.0, which no
#: LoRA class wraps (not a ``LinearBase``), and a ``GateLinear`` (a ``ReplicatedLinear``) in 0.33.0.
#: The fused-MoE layer's reference to the shared experts (``_shared_experts``) is the same module,
#: reached after its projections were replaced, so it adds no slots. (qkv slices, gate_up slices, w13
#: A slices, first release with the router wrapped.)
SHARED_EXPERT_ARCHITECTURES: dict[str, tuple[int, int, int, str]] = {
    "Glm4MoeForCausalLM": (3, 2, 2, "0.33.0"),
}
#: gpt-oss, read at 0.33.0 (model_executor/models/gpt_oss.py): ``packed_modules_mapping`` qkv_proj: [q_proj,
#: k_proj, v_proj], o_proj, no ``embedding_modules``; the router ``GateLinear(hidden, E, bias=True)``
#: (not handed to the fused-MoE layer); ``is_3d_moe_weight``, so the experts get
#: ``FusedMoE3DWithLoRA``: one w13 A slice (M, E_l, R, hidden) and w13 B (M, E_l, 2 × I_p, R). Those
#: take ``moe_config.hidden_dim`` and ``intermediate_size_per_partition`` after the experts' quant
#: method rounds them up (routed_experts.py ``maybe_roundup_sizes``). With LoRA on, MXFP4's automatic
#: choice (layers/fused_moe/oracle/mxfp4.py ``select_mxfp4_moe_backend``) skips every kernel whose
#: ``supports_lora()`` is False (modular_kernel.py ``is_supported_config``: TRT-LLM's, the fused OAI
#: Triton, CUTLASS, FlashInfer, Humming) and takes MARLIN (``MarlinExperts``, ``LoRAExpertsMixin``; CUDA
#: from compute capability 7.5), which rounds the width per partition up to 128 and the hidden size up
#: to 256 (``mxfp4_round_up_hidden_size_and_intermediate_size``). bf16 experts are not rounded with
#: LoRA on (``_trtllm_bf16_lora_supported`` takes FlashInfer's TRT-LLM LoRA experts only for a width a
#: multiple of 128, else Triton). (release read, qkv slices, w13 A slices, MXFP4 hidden and width
#: alignments.)
GPT_OSS: dict[str, tuple[str, int, int, int, int]] = {
    "GptOssForCausalLM": ("0.33.0", 3, 1, 256, 128),
}
#: Why a mixture of experts that vLLM does wrap is still not modelled, by architecture.
#: gpt-oss (model_executor/models/gpt_oss.py, 0.12.0–0.33.0) sets ``is_3d_moe_weight``, so its experts
#: get ``FusedMoE3DWithLoRA``, whose w13 and w2 slots take the experts' ``hidden_dim`` and
#: ``intermediate_size_per_partition`` after the MXFP4 backend rounds them up
#: (``mxfp4_round_up_hidden_size_and_intermediate_size`` in layers/fused_moe/oracle/mxfp4.py at 0.33.0:
#: 128 or 256 by backend, none for some), and which backend LoRA gets on which GPU in each release
#: was not read; its router is a bare ``torch.nn.Linear`` in 0.12.0 (not wrapped), a ``ReplicatedLinear``
#: in 0.20.0 and a ``GateLinear`` in 0.33.0.
UNMODELLED_MOE: dict[str, str] = {
    "GptOssForCausalLM": ("its fused 3D experts' slots (FusedMoE3DWithLoRA) take the hidden size and width its "
                          "MXFP4 backend rounds up, and which backend LoRA gets was read for 0.33.0 on NVIDIA GPUs "
                          "only"),
}
#: How many wrappers, each with slots of its own, every MLA projection gets. ``MultiHeadLatentAttentionWrapper``
#: (layers/mla.py, every release read) keeps second references to q_proj (or fused_qkv_a_proj and
#: q_b_proj), kv_a_proj_with_mqa, kv_b_proj and o_proj, and ``MLAAttention`` a third to kv_b_proj from
#: 0.17.0 (layers/attention/mla_attention.py; up to 0.15.0 it hands kv_b_proj to its impl, no module).
#: ``_create_lora_modules`` walks ``named_modules(remove_duplicate=False)`` and wraps every path whose
#: suffix matches, replacing the layer on that path's parent: a reference held by another parent is
#: wrapped again, up to 0.21.0. From 0.22.0 its ``wrapped_by_id`` points a reference to a layer already
#: wrapped at the same wrapper. (first release, last release, copies of the other projections, copies
#: of kv_b_proj), for the releases read: 0.12.0, 0.14.0 and 0.15.0; 0.17.0–0.21.0; 0.22.0 on.
MLA_WRAPPERS: tuple[tuple[str, str, int, int], ...] = (
    ("0.12.0", "0.15.0", 2, 2),
    ("0.17.0", "0.21.0", 2, 3),
    ("0.22.0", "", 1, 1),
)
#: The releases read in which DeepSeek's router stops vLLM at startup: ``GateLinear`` (from 0.17.0, a
#: ``ReplicatedLinear`` subclass) is a ``LinearBase``, so its suffix ``gate`` is a LoRA target, but
#: ``ReplicatedLinearWithLoRA.can_replace_layer`` takes only ``type(source_layer) is ReplicatedLinear``
#: up to 0.19.0 (``isinstance`` from 0.20.0), and ``register_module`` asserts a LoRA layer (as the
#: ``DeepSeekV2FusedQkvAProj[Linear]`` subclass does for ``MergedColumnParallelLinearWithLoRA``'s
#: ``type(source_layer) is MergedColumnParallelLinear``).
MLA_ROUTER_REFUSED = ("0.17.0", "0.19.0")
#: The architectures that hand their router to the fused-MoE layer (``gate=self.gate``): in 0.21.0
#: that layer's ``MoERunner`` is a module (a ``PluggableLayer``; no module in 0.20.0) keeping it as
#: ``runner.gate``, a second path wrapped again before ``wrapped_by_id`` (0.22.0). Mixtral does not
#: hand it over; Qwen3-MoE and DeepSeek do (qwen3_moe.py, deepseek_v2.py at 0.21.0).
ROUTER_IN_RUNNER = ("Qwen3MoeForCausalLM", "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM")
ROUTER_TWICE = "0.21.0"
#: The first release with a fused-MoE LoRA wrapper (lora/layers/fused_moe.py is absent in 0.11.0).
MOE_FIRST_RELEASE = "0.11.1"


def _embeddings_wrapped(since: str, until: str, version: str) -> bool:
    v = parse_version(version)
    return bool(since) and v >= parse_version(since) and not (until and v >= parse_version(until))


def layout_of(architecture: str, version: str) -> LoraLayout | None:
    """How ``architecture`` is wrapped at ``version`` (None: not read)."""
    if architecture in MLA_ARCHITECTURES:
        gate_up, w13 = MLA_ARCHITECTURES[architecture]
        return LoraLayout(0, gate_up, False, moe_w13_slices=w13, router=True, mla=True, sides=True,
                          router_wrappers=router_wrappers(architecture, version))
    if architecture in GPT_OSS:
        release, qkv, w13, _, _ = GPT_OSS[architecture]
        if parse_version(version)[:2] != parse_version(release)[:2]:
            return None
        return LoraLayout(qkv, 0, False, moe_w13_slices=w13, router=True)
    if architecture in SHARED_EXPERT_ARCHITECTURES:
        qkv, gate_up, w13, router_since = SHARED_EXPERT_ARCHITECTURES[architecture]
        return LoraLayout(qkv, gate_up, False, moe_w13_slices=w13,
                          router=parse_version(version) >= parse_version(router_since), sides=True)
    if architecture in MOE_ARCHITECTURES:
        qkv, w13, since, until = MOE_ARCHITECTURES[architecture]
        return LoraLayout(qkv, 0, _embeddings_wrapped(since, until, version), moe_w13_slices=w13, router=True,
                          router_wrappers=router_wrappers(architecture, version))
    if architecture not in ARCHITECTURES:
        return None
    qkv, gate_up, since, until = ARCHITECTURES[architecture]
    return LoraLayout(qkv, gate_up, _embeddings_wrapped(since, until, version))


def expert_alignment(architecture: str, version: str, experts_format: str, vendor: str) -> tuple[int, int] | None:
    """(hidden, width) the fused-MoE slots' experts are rounded up to: (1, 1) where nothing is rounded,
    gpt-oss's MXFP4 (256, 128) on NVIDIA at 0.33.0 (:data:`GPT_OSS`); None where it was not read (gpt-oss
    in another release, on another vendor or in another format)."""
    if architecture not in GPT_OSS:
        return 1, 1
    release, _, _, hidden, width = GPT_OSS[architecture]
    if parse_version(version)[:2] != parse_version(release)[:2] or vendor != "nvidia":
        return None
    if experts_format == "mxfp4":
        return hidden, width
    return (1, 1) if experts_format == "bf16" else None


def mla_wrappers(version: str) -> tuple[int, int] | None:
    """(wrappers of each MLA projection but kv_b_proj, wrappers of kv_b_proj) at ``version``; None for a
    release not read (0.16)."""
    minor = parse_version(version)[:2]
    for first, last, others, kv_b in MLA_WRAPPERS:
        if parse_version(first)[:2] <= minor and (not last or minor <= parse_version(last)[:2]):
            return others, kv_b
    return None


def mla_router_refused(version: str) -> bool:
    """Whether vLLM stops at startup on DeepSeek's router with LoRA on (0.17.0–0.19.0)."""
    first, last = MLA_ROUTER_REFUSED
    return parse_version(first)[:2] <= parse_version(version)[:2] <= parse_version(last)[:2]


def router_wrappers(architecture: str, version: str) -> int:
    """How many wrappers the router gets: two in 0.21.0 where the fused-MoE runner holds it too."""
    twice = parse_version(version)[:2] == parse_version(ROUTER_TWICE)[:2] and architecture in ROUTER_IN_RUNNER
    return 2 if twice else 1


def moe_expert_parallel(version: str) -> str:
    """Whether the fused-MoE wrapper runs under expert parallelism at ``version``: "yes", "refused"
    (the wrapper's assertion) or "unread" (0.21, 0.22)."""
    v = parse_version(version)
    if v >= parse_version(MOE_EP_SINCE):
        return "yes"
    return "refused" if v <= parse_version(MOE_EP_REFUSED_UNTIL) else "unread"


def logits_vocab_limit(version: str) -> int:
    """The largest vocabulary ``LogitsProcessorWithLoRA`` accepts: 257,024 up to 0.15.0, 258,048 from
    0.17.0."""
    return 258048 if parse_version(version) >= (0, 17) else 257024


def token_index_vectors(version: str) -> int:
    """int64 vectors of ``max_num_batched_tokens`` in ``PunicaWrapperBase``: ``_embeddings_indices``
    is (2, tokens) up to 0.28.0 and (tokens,) in 0.33.0."""
    return 4 if parse_version(version) >= (0, 33) else 5


_TREE = "https://github.com/vllm-project/vllm/blob/v0.33.0/vllm/"
#: The same files on the main branch, at the commits stored in the public GitHub index.
_MAIN = "https://github.com/vllm-project/vllm/blob/"

#: (source, what it says) for every rule above, at 0.33.0; the same in every release read unless said.
EVIDENCE: tuple[tuple[str, str], ...] = (
    (_TREE + "lora/layers/base_linear.py",
     "create_lora_weights: ColumnParallelLinear A (M, 1, R, input_size), B (M, 1, output_size, R); "
     "RowParallelLinear A (M, 1, R, input_size), B (M, 1, output_size, R); fully sharded halves one side"),
    (_TREE + "lora/layers/column_parallel_linear.py",
     "output_size = output_size_per_partition; MergedColumnParallelLinearWithLoRA one slice per packed "
     "module, divide(output_size, tp_size); MergedQKVParallelLinearWithLoRA Q num_heads×head_size, K and V "
     "num_kv_heads×head_size (per partition)"),
    (_TREE + "lora/layers/row_parallel_linear.py", "input_size = input_size_per_partition; output_size = output_size"),
    (_TREE + "lora/layers/vocab_parallel_embedding.py",
     "lora_a_stacked (max_loras, org_vocab_size, max_lora_rank); lora_b_stacked (max_loras, 1, embedding_dim, "
     "max_lora_rank) (0.12.0: vocal_parallel_embedding.py)"),
    (_TREE + "lora/layers/logits_processor.py",
     "lora_a_stacked (max_loras, 1, max_lora_rank, hidden_size); lora_b_stacked (max_loras, 1, vocab_size, "
     "max_lora_rank); 'When using LoRA, vocab size must be <= 258048' (0.12.0-0.15.0: 257024); "
     "sharded_to_full_mapping_gpu"),
    (_TREE + "model_executor/layers/vocab_parallel_embedding.py",
     "get_sharded_to_full_mapping: None when tp_size < 2, else one index per padded entry; "
     "DEFAULT_VOCAB_PADDING_SIZE = 64"),
    (_TREE + "lora/utils.py", "get_supported_lora_modules: every LinearBase suffix and embedding_modules"),
    (_TREE + "lora/model_manager.py", "_create_lora_modules: from_layer(module, lora_slots, ...); lm_head → "
     "from_layer_logits_processor"),
    (_TREE + "lora/punica_wrapper/punica_base.py",
     "_token_lora_indices, _sampler_indices, _sampler_indices_padded, _embeddings_indices: "
     "max_num_batched_tokens int64 (0.12.0-0.28.0: _embeddings_indices (2, max_num_batched_tokens)); _seq_start_locs, _seq_lengths, _lora_indices_per_batch: max_batches int64"),
    (_TREE + "lora/ops/triton_ops/lora_kernel_metadata.py",
     "LoRAKernelMeta.make: two int32 of max_num_tokens, max_loras + 1 (twice), max_loras + 2; punica_gpu.py "
     "makes two (token_mapping_meta, prompt_mapping_meta)"),
    (_TREE + "config/lora.py",
     "MaxLoRARanks = Literal[1, 8, 16, 32, 64, 128, 256, 320, 512]; max_lora_rank = 16; max_loras = 1; "
     "fully_sharded_loras = False; lora_dtype 'auto' → model_config.dtype"),
    (_TREE + "v1/worker/gpu_model_runner.py",
     "load_model: self.model = self.load_lora_model(...) before model_memory_usage = m.consumed_memory"),
    (_TREE + "model_executor/models/llama.py",
     "LlamaForCausalLM.packed_modules_mapping qkv_proj: [q_proj, k_proj, v_proj], gate_up_proj: "
     "[gate_proj, up_proj]; embedding_modules embed_tokens, lm_head"),
    (_TREE + "model_executor/models/mistral.py", "MistralForCausalLM(LlamaForCausalLM): embedding_modules = {} "
     "(0.17.0-0.28.0: no override; 0.12.0-0.15.0: registry.py maps it to llama's LlamaForCausalLM)"),
    (_TREE + "model_executor/models/qwen3.py", "Qwen3ForCausalLM.embedding_modules embed_tokens, lm_head "
     "(absent in 0.15.0, present from 0.17.0)"),
    (_TREE + "model_executor/models/phi3.py", "Phi3ForCausalLM(LlamaForCausalLM): qkv_proj: [qkv_proj], "
     "gate_up_proj: [gate_up_proj]"),
    (_TREE + "lora/layers/fused_moe.py",
     "FusedMoEWithLoRA._create_lora_a_weights: w13_lora_a_stacked = _w13_slices × zeros(max_loras, "
     "local_num_experts, max_lora_rank (fully sharded: ÷ tp_size), hidden_size); w2_lora_a_stacked (max_loras, "
     "local_num_experts, max_lora_rank, intermediate_size_per_partition); _create_lora_b_weights: w13 "
     "(max_loras, local_num_experts, intermediate_size_per_partition, max_lora_rank) per slice, w2 (max_loras, "
     "local_num_experts, hidden_size (fully sharded: ÷ tp_size), max_lora_rank); adapter_enabled int of "
     "max_loras + 1; _w13_slices = 2 if is_act_and_mul else 1 (0.12.0: 2); FusedMoE3DWithLoRA: _w13_slices = 1, "
     "w13 B (…, intermediate_size_per_partition * 2, max_lora_rank). Same shapes in 0.12.0, 0.15.0, 0.17.0, "
     "0.20.0, 0.23.0, 0.26.0, 0.28.0 (0.28.0 on: w13 A's expert dimension 1 with enable_moe_shared_loras, "
     "default False); file absent in 0.11.0"),
    (_TREE + "lora/layers/fused_moe.py",
     "0.12.0-0.20.0 __init__: assert not self.base_layer.use_ep, 'EP support for Fused MoE LoRA is not "
     "implemented yet.'; 0.23.0 on _ep_check: assert all2all_backend == 'allgather_reducescatter'; tp_size = "
     "moe_parallel_config.tp_size ('when EP is active, MoERunner collapses moe_parallel_config.tp_size to 1'); "
     "_verify_ep_fs: EP and fully_sharded_loras refused together"),
    (_TREE + "config/parallel.py", "all2all_backend: All2AllBackend = 'allgather_reducescatter' (0.15.0 on)"),
    (_TREE + "lora/model_manager.py",
     "_create_lora_modules: isinstance(module, MoERunner) (FusedMoE up to 0.23.0): packed_moduled_lst = ['w13'] "
     "if self._is_3d_moe_model else ['w1', 'w3']; wrapped_by_id: the same gate reached through the MoE runner "
     "is rewired to the existing wrapper (0.22.0 on: wrapped_by_id[id(module)]; 0.23.0 on also the wrapper's id; "
     "0.12.0: lora/models.py, no such check); named_modules(remove_duplicate=False) in every release read"),
    (_TREE + "model_executor/layers/fused_moe/runner/moe_runner.py",
     "MoERunner: self.gate = gate (0.21.0: MoERunnerInterface(PluggableLayer, ABC), a module; 0.20.0: "
     "MoERunnerInterface(ABC)); qwen3_moe.py and deepseek_v2.py pass gate=self.gate, mixtral.py does not"),
    (_TREE + "lora/layers/replicated_linear.py",
     "ReplicatedLinearWithLoRA.can_replace_layer: isinstance(source_layer, ReplicatedLinear) (up to 0.17.0: "
     "type(source_layer) is ReplicatedLinear)"),
    (_TREE + "model_executor/models/qwen3_moe.py",
     "Qwen3MoeSparseMoeBlock: self.gate = GateLinear(hidden_size, num_experts) (ReplicatedLinear up to 0.28.0); "
     "Qwen3MoeForCausalLM.packed_modules_mapping qkv_proj: [q_proj, k_proj, v_proj] (gate_up_proj only with "
     "mlp_only_layers); embedding_modules embed_tokens, lm_head (absent in 0.12.0 and 0.15.0)"),
    (_TREE + "model_executor/models/deepseek_v2.py",
     "DeepseekV2ForCausalLM.packed_modules_mapping gate_up_proj: [gate_proj, up_proj]; fused_qkv_a_proj: "
     "[q_a_proj, kv_a_proj_with_mqa] when q_lora_rank is set; no embedding_modules (0.12.0-0.33.0); "
     "DeepseekV2MLAAttention: q_proj ColumnParallelLinear(hidden, heads × qk_head_dim) or fused_qkv_a_proj "
     "DeepSeekV2FusedQkvAProjLinear(hidden, [q_lora_rank, kv_lora_rank + qk_rope_head_dim], disable_tp=True) "
     "and q_b_proj ColumnParallelLinear(q_lora_rank, heads × qk_head_dim); kv_a_proj_with_mqa "
     "ReplicatedLinear(hidden, kv_lora_rank + qk_rope_head_dim); kv_b_proj ColumnParallelLinear(kv_lora_rank, "
     "heads × (qk_nope_head_dim + v_head_dim)); o_proj RowParallelLinear(heads × v_head_dim, hidden); "
     "DeepseekV2MoE: gate (ReplicatedLinear up to 0.15.0, GateLinear from 0.17.0), shared_experts "
     "DeepseekV2MLP(moe_intermediate_size × n_shared_experts, disable_tp=is_sequence_parallel), experts; "
     "DeepseekV2DecoderLayer: MoE from first_k_dense_replace on, DeepseekV2MLP(intermediate_size) before"),
    (_TREE + "model_executor/models/glm4_moe.py",
     "Glm4MoeForCausalLM.packed_modules_mapping qkv_proj, gate_up_proj; no embedding_modules; Glm4MoE: self.gate = "
     "GateLinear(hidden, n_routed_experts) (0.12.0-0.28.0: nn.Linear), shared_experts = "
     "Glm4MoeMLP(moe_intermediate_size × n_shared_experts), experts = FusedMoEFactory (SharedFusedMoE up to "
     "0.17.0, FusedMoE 0.20.0-0.26.0); "
     "Glm4MoeDecoderLayer: Glm4MoE from first_k_dense_replace on, Glm4MoeMLP(intermediate_size) before"),
    (_TREE + "lora/layers/fused_moe.py",
     "_ep_check (0.23.0 on): assert not moe_parallel_config.is_sequence_parallel: under expert parallelism the "
     "shared experts' MLP keeps its TP split (DeepseekV2MLP's disable_tp=is_sequence_parallel is False)"),
    (_TREE + "model_executor/models/gpt_oss.py",
     "GptOssForCausalLM: is_3d_moe_weight = True; packed_modules_mapping qkv_proj: [q_proj, k_proj, v_proj]; "
     "MLPBlock: self.router = GateLinear(hidden_size, num_local_experts, bias=True), experts = FusedMoEFactory "
     "(no gate handed over); is_sequence_parallel off when lora_config is set"),
    (_TREE + "model_executor/layers/fused_moe/oracle/mxfp4.py",
     "select_mxfp4_moe_backend ('auto'): the first of _get_priority_backends_for_gpt_oss whose kernel class "
     "is_supported_config (modular_kernel.py: is_lora_enabled and not supports_lora() → unsupported); "
     "MarlinExperts (experts/marlin_moe.py) mixes in LoRAExpertsMixin, the TRT-LLM, OAI Triton, CUTLASS, "
     "FlashInfer and Humming experts before it do not; mxfp4_round_up_hidden_size_and_intermediate_size: "
     "MARLIN intermediate round_up 128, hidden round_up 256 (not XPU)"),
    (_TREE + "model_executor/layers/fused_moe/routed_experts.py",
     "maybe_roundup_sizes → moe_config.hidden_dim, moe_config.intermediate_size_per_partition, which "
     "FusedMoEWithLoRA's hidden_size and intermediate_size_per_partition return (lora/layers/fused_moe.py)"),
    (_TREE + "model_executor/layers/mla.py",
     "MultiHeadLatentAttentionWrapper: self.fused_qkv_a_proj, kv_a_proj_with_mqa, q_b_proj, q_proj, kv_b_proj, "
     "o_proj = mla_modules.… (every release read); layers/attention/mla_attention.py MLAAttention: "
     "self.kv_b_proj = kv_b_proj"),
    (_TREE + "lora/layers/column_parallel_linear.py",
     "MergedColumnParallelLinearWithLoRA.can_replace_layer: a MergedColumnParallelLinear subclass only when "
     "its tp_size is 1 (0.20.0 on; 0.12.0-0.17.0: type(source_layer) is MergedColumnParallelLinear); "
     "base_linear.py: self.tp_size = self.base_layer.tp_size"),
    (_TREE + "config/parallel.py",
     "use_sequence_parallel_moe: all2all_backend in (allgather_reducescatter, …) and enable_expert_parallel and "
     "tensor_parallel_size > 1 and data_parallel_size > 1"),
    (_TREE + "model_executor/models/mixtral.py",
     "MixtralMoE: self.gate = GateLinear(hidden_size, num_experts) (ReplicatedLinear up to 0.28.0); "
     "MixtralForCausalLM.packed_modules_mapping qkv_proj; embedding_modules embed_tokens, lm_head"),
)

#: Main-branch snapshots of the fused-MoE files read beside the wheels (public GitHub index), which
#: agree with them on the shapes.
SNAPSHOT_EVIDENCE: tuple[tuple[str, str], ...] = (
    (_MAIN + "0002540ca51cbfdaf47fac94d875123ca6f30608/vllm/lora/layers/fused_moe.py",
     "a main-branch snapshot (still asserting 'EP support for Fused MoE LoRA is not implemented yet'): the "
     "same shapes as the wheels"),
    (_MAIN + "01533aa8f9c07da9766323fbaf4c8b81bb2aa958/vllm/lora/model_manager.py",
     "a main-branch snapshot: packed_moduled_lst = ['w13'] if self._is_3d_moe_model else ['w1', 'w3']; "
     "wrapped_by_id"),
)
