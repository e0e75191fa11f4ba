"""The KV-cache budget of one GPU as vLLM computes it, and the pool of blocks it becomes.

vLLM's startup (``gpu_worker.determine_available_memory``, kv_cache_utils.py; the rules and their
sources are in :mod:`llm_inference.engines.vllm`), per GPU:

    available = ceil(visible × gpu_memory_utilization)
                − weights on this GPU − activation peak − non-torch and CUDA-graph memory

* ``visible`` is what the driver reports (hardware.GPU.visible: 79.19 GiB on an H100 80GB);
* the activation peak is that of a profiling run at ``max_num_batched_tokens`` tokens and
  ``max_num_seqs`` dummy requests, estimated from the model's shapes
  (engines.vllm.activation_peak_estimate: for most models the sampler's logits, sequences ×
  vocabulary × 39 bytes, dominate);
  a mixture of experts adds the fused-MoE workspace vLLM keeps from 0.14 (engines.vllm.moe_workspace_bytes,
  sized by the experts backend of engines.vllm_releases.Rules.moe_experts_backend), held under both passes;
  with ``--speculative-config`` the sampler pass is followed by a verification pass over the same
  requests (the rejection sampler: engines.vllm_speculation point 13), and the larger of the two counts;
  a multimodal model whose vision tower is served first runs its encoder on the largest image
  (engines.vllm_encoder), and the peak is the larger of that pass and the text pass with the
  encoder's outputs still held;
* non-torch memory (CUDA context, NCCL and cuBLAS buffers) and the CUDA-graph estimate are one
  parameter, ``overhead_bytes`` (0.07–0.30 GiB and 0.23–0.67 GiB in the logs of
  engines.startup_logs);
* with ``--enable-lora``, the adapter slots and their index buffers (:mod:`.lora`): allocated
  when the model loads, before the profile, so they come off the KV cache like the weights.

The available memory is cut into blocks of 16 tokens, one page per layer; hybrid models group
windowed and full layers (engines.vllm.kv_cache_groups), and a model with linear-attention or
state-space layers serves their fixed per-sequence states from the same pool, in pages padded to
the attention page, with a block grown to hold one (:mod:`.cache_layout`). A request of ``max_model_len`` tokens
takes a block per 16 tokens in full layers and, in windowed layers, only what its window needs
(window − 1 + batched tokens, plus a block: engines.vllm.sliding_window_tokens). "Maximum
concurrency for N tokens" is the blocks ÷ the blocks one such request takes.

Under tensor parallelism every GPU holds every sequence (its share of heads, or the whole MLA
latent), so the group's concurrency is one GPU's; under data-parallel attention each GPU has its
own pool, and the concurrencies add up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from ..engines import vllm, vllm_encoder, vllm_hybrid, vllm_measured, vllm_releases, vllm_speculation
from ..engines.vllm import LayerGroup
from ..hardware import GPU
from .cache_layout import CacheLayout, async_scheduling_default, layout
from .kv import stored_kv_dtype, token_bytes_on
from .lora import LoraMemory, LoraSlots, memory as lora_memory
from .model import Model
from .placement import Placement, kv_layers_per_gpu
from .speculation import NONE as NO_DRAFTER, Drafter, Speculation, drafter

#: The vLLM release whose rules and defaults the calculators follow unless told otherwise: the
#: newest in the source read (engines.vllm_releases lists every release whose rules differ).
VERSION = vllm_releases.NEWEST
#: ``gpu_memory_utilization`` of that release (0.9 up to 0.19.x, 0.92 from 0.20.0, PR #38284).
DEFAULT_UTILIZATION = vllm.default_gpu_memory_utilization(VERSION)
#: Memory beyond what vLLM's own accounting covers (another process, a fragmented allocator): 0.
DEFAULT_OVERHEAD_BYTES = 0.0
#: Activations are computed in the model's dtype (bf16) whatever the weights are stored in.
ACTIVATION_DTYPE_BYTES = 2
#: How vLLM was installed: the pip wheel, or the vllm-openai image (which bundles FlashInfer).
INSTALLS = ("pip", "docker")


@dataclass(frozen=True)
class Engine:
    """vLLM's settings. 0 for the utilization or the scheduler limits means the release's default
    (for this GPU); ``overhead_bytes`` is memory beyond the release's own non-torch and CUDA-graph
    accounting, which :meth:`runtime_bytes` adds."""

    gpu_memory_utilization: float = 0.0
    max_num_batched_tokens: int = 0
    max_num_seqs: int = 0
    overhead_bytes: float = DEFAULT_OVERHEAD_BYTES
    block_size: int = vllm.DEFAULT_BLOCK_SIZE
    version: str = VERSION
    install: str = "pip"
    enforce_eager: bool = False
    #: What picks the model runner (V1 or V2) in 0.22–0.28, and so whether a CUDA-graph estimate comes
    #: off the budget: the config's first architecture, and whether the weights are quantized or the
    #: model a hybrid (the MoE flag comes from the model).
    architecture: str = ""
    quantized: bool = False
    hybrid: bool = False

    @cached_property
    def rules(self) -> vllm_releases.Rules:
        """The release's rules (looked up once per engine: a run asks for them at every step)."""
        return vllm_releases.rules(self.version)

    @property
    def utilization(self) -> float:
        """The utilization in force: the engine's, or its release's default."""
        return self.gpu_memory_utilization or self.rules.gpu_memory_utilization

    @property
    def sampler(self) -> str:
        """The profile run's sampler path ("flashinfer", "triton", "native" or "v2") for this release,
        install and model runner (a dense model's), at a batch of 8 requests or more."""
        return self.rules.sampler(self.install, runner=self.runner())

    def sampler_for(self, requests: int, is_moe: bool = False, vendor: str = "nvidia") -> str:
        """The sampler path for a dummy batch of ``requests`` rows (the Triton kernel needs 8) on the
        model runner this release picks for the model."""
        return self.rules.sampler(self.install, requests, self.runner(is_moe, vendor))

    def runner(self, is_moe: bool = False, vendor: str = "nvidia") -> str:
        """"v1" or "v2": the model runner chosen for the deployment (``model_runner``), else the one
        this release picks for the model."""
        return self.model_runner or self.rules.model_runner(self.architecture, is_moe, self.quantized, self.hybrid,
                                                            vendor)

    def runtime_bytes(self, gpu: GPU, tensor_parallel: int = 1, is_moe: bool = False) -> float:
        """Non-torch memory (with the CUDA context up to 0.9.0, NCCL's share under tensor
        parallelism up to 0.10.x, from 0.11.0 the TP group's lazily made NCCL communicator where it is measured:
        engines.vllm_measured.tp_communicator_bytes), the CUDA-graph estimate where the release subtracts it on this
        GPU's vendor and model runner, and the extra ``overhead_bytes``."""
        return (self.rules.overhead_bytes(gpu.vendor, self.enforce_eager, self.runner(is_moe, gpu.vendor),
                                          tensor_parallel)
                + vllm_measured.tp_communicator_bytes(gpu.id, tensor_parallel, self.version) + self.overhead_bytes)

    #: None: the release's default (on for hybrid models from 0.26.0, engines.vllm_hybrid).
    prefix_caching: bool | None = None
    #: ``--decode-context-parallel-size`` (MLA models: each TP rank stores 1/dcp of every request).
    dcp: int = 1
    #: Speculative tokens per step (``num_speculative_tokens``): hybrid models' state grows with them.
    num_spec: int = 0
    #: ``--limit-mm-per-prompt`` for images and videos (999: vLLM's default for a modality left out; both
    #: 0 is what ``--language-model-only`` does): a vision tower is loaded and profiled unless both are 0.
    image_limit: int = vllm_encoder.DEFAULT_LIMIT_PER_PROMPT
    video_limit: int = vllm_encoder.DEFAULT_LIMIT_PER_PROMPT
    #: max_model_len, which caps the items of a prompt the encoder budget counts (0: not limiting).
    max_model_len: int = 0
    #: The model runner ("v1" or "v2") once a deployment has chosen it for its model and GPU
    #: (physics.deployment): every figure and text of the run then follows that one runner. "": chosen
    #: by the release's rules at each question.
    model_runner: str = ""
    #: ``--speculative-config`` (physics.speculation): the drafter's weights and KV layers come out of
    #: the pool. Off by default: every figure as without it.
    speculation: Speculation = Speculation()

    #: ``--enable-lora`` with its slots (None: LoRA off, vLLM's default).
    lora: LoraSlots | None = None

    @property
    def mm_limits(self) -> dict[str, int]:
        return {"image": self.image_limit, "video": self.video_limit}

    @property
    def serves_vision(self) -> bool:
        """Whether a vision tower is loaded (and profiled): unless every modality's limit is 0."""
        return vllm_encoder.tower_loaded(self.image_limit, self.video_limit)


def scheduler_limits(engine: Engine, gpu: GPU) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs): the engine's, or ``vllm serve``'s defaults for this
    GPU in the engine's release (8,192 / 1,024 on an H100 or H200, 2,048 / 256 on an A100 or L40S,
    16,384 / 1,024 from 160 GiB from 0.28.0)."""
    tokens, seqs = engine.rules.scheduler_limits(gpu.visible, gpu.name, gpu.compute_capability, "api_server")
    return engine.max_num_batched_tokens or tokens, engine.max_num_seqs or seqs


@dataclass(frozen=True)
class Pool:
    """One GPU's budget and block pool."""

    placement: Placement
    visible_bytes: float
    requested_bytes: float
    weight_bytes: float
    activation_bytes: float
    overhead_bytes: float
    available_bytes: float  # "Available KV cache memory" (negative: vLLM refuses to start)
    # overhead_bytes: the release's non-torch and CUDA-graph memory plus the engine's extra
    bytes_per_token: float  # one token over this GPU's layers (its heads, or the whole latent)
    page_bytes: int  # one block in one layer
    layers_per_group: int
    groups: tuple[LayerGroup, ...]
    num_blocks: int
    batched_tokens: int
    block_size: int
    version: str = VERSION
    layout: CacheLayout | None = None
    #: The vision encoder's pass in the profiling run (None: no tower, or text only), and the text
    #: pass's own estimate; ``activation_bytes`` is the larger of the encoder's peak and the text
    #: pass with the encoder's outputs and pixel values still held.
    encoder: vllm_encoder.EncoderProfile | None = None
    text_activation_bytes: float = 0.0
    #: The fused-MoE experts backend vLLM picks (vllm_releases.Rules.moe_experts_backend; "" when the
    #: experts keep no workspace) and the workspace it keeps through the profile run, part of
    #: ``text_activation_bytes``.
    moe_backend: str = ""
    moe_workspace_bytes: float = 0.0
    #: The LoRA adapter slots and index buffers on this GPU, as physics.lora made them (None: LoRA off).
    lora: LoraMemory | None = None

    #: The speculative drafter on this GPU (physics.speculation): its weights, taken off the budget
    #: beside the target's, and its KV layers, counted in ``bytes_per_token`` and the cache groups.
    drafter: Drafter = NO_DRAFTER
    #: The dtype the cache stores, derived once here: vLLM keeps a sparse-MLA fp8 cache as fp8_ds_mla on
    #: some GPUs and releases (physics.kv.stored_kv_dtype); SGLang stores the dtype asked for.
    stored_kv_dtype: str = "bf16"

    @property
    def drafter_bytes(self) -> float:
        """The drafter's weights on this GPU (0 without speculative decoding)."""
        return self.drafter.weight_bytes

    @property
    def lora_bytes(self) -> float:
        """The LoRA slots and index buffers on this GPU (0 with LoRA off)."""
        return float(self.lora.total_bytes) if self.lora else 0.0

    @property
    def starts(self) -> bool:
        """Whether vLLM starts at all: a legal layout and memory left for at least one block (and,
        with LoRA on, slots this module models)."""
        return (self.placement.legal and not self.problem and self.num_blocks > 0
                and not (self.lora and self.lora.problem))

    @property
    def problem(self) -> str:
        """Why vLLM refuses this KV layout or cache layout, or these LoRA slots, or why its drafter is
        not computed ("" when none)."""
        return ((self.layout.problem if self.layout else "") or (self.lora.refusal if self.lora else "")
                or self.drafter.refusal)

    @property
    def unmodelled(self) -> str:
        """What this pool leaves out, so that none of its figures is given ("" when nothing): a
        cache layout's, or LoRA slots physics.lora refuses."""
        return (self.layout.unmodelled if self.layout else "") or (self.lora.problem if self.lora else "")

    def request_blocks(self, max_model_len: int) -> int:
        """Blocks one request of ``max_model_len`` tokens takes, over every cache group."""
        if self.layout is not None:
            return self.layout.request_blocks(max_model_len, self.batched_tokens)
        return vllm.blocks_per_request(self.groups, max_model_len, self.batched_tokens, self.block_size)

    def starts_at(self, max_model_len: int) -> bool:
        """Whether vLLM's start check passes at ``max_model_len``: one request's KV must fit. For
        most pools that is a block count a request fits in; GLM-5.2's and DeepSeek-V4's check asks
        more (physics.multi_page_pool: ``MultiPagePool.start_bytes``)."""
        pages = self.layout.multi_page if self.layout is not None else None
        return pages is None or pages.start_bytes(max_model_len, self.batched_tokens) <= self.available_bytes

    def concurrency_per_pool(self, max_model_len: int) -> float:
        if not (self.starts and self.starts_at(max_model_len)):
            return 0.0
        return vllm.max_concurrency(self.num_blocks, self.request_blocks(max_model_len))

    def concurrency(self, max_model_len: int) -> float:
        """"Maximum concurrency for max_model_len tokens per request", for the whole deployment."""
        return self.concurrency_per_pool(max_model_len) * self.placement.data_parallel

    def kv_cache_tokens(self, max_model_len: int) -> int:
        """"GPU KV cache size: N tokens" of one pool, as the engine's release prints it."""
        if not (self.starts and self.starts_at(max_model_len)):
            return 0
        if self.layout is not None:
            return self.layout.logged_tokens(self.num_blocks, self.concurrency_per_pool(max_model_len), max_model_len)
        return vllm.gpu_kv_cache_size_tokens(self.num_blocks, len(self.groups), self.request_blocks(max_model_len),
                                             max_model_len, self.block_size, self.version)

    def holds(self, max_model_len: int, sequences: int) -> bool:
        """Whether ``sequences`` requests of ``max_model_len`` tokens fit at once: vLLM starts, and
        each pool holds its share (under data-parallel attention, the busiest rank's
        ceil(sequences ÷ N))."""
        per_pool = -(-max(1, sequences) // self.placement.data_parallel)
        return self.starts and self.concurrency_per_pool(max_model_len) >= per_pool - 1e-9

    def sequences(self, max_model_len: int) -> int:
        """Whole sequences of ``max_model_len`` tokens the deployment holds at once."""
        if not self.starts:
            return 0
        per_pool = math.floor(self.concurrency_per_pool(max_model_len) + 1e-9)
        return per_pool * self.placement.data_parallel

    def longest_context(self, sequences: int, cap: int) -> int:
        """The largest max_model_len (≤ ``cap``) at which ``sequences`` requests fit at once."""
        if not self.starts:
            return 0
        per_pool = -(-max(1, sequences) // self.placement.data_parallel)
        budget = self.num_blocks / per_pool  # blocks each request may take

        def fits(length: int) -> bool:
            return self.request_blocks(length) <= budget and self.starts_at(length)

        if not fits(1):
            return 0
        if fits(cap):
            return cap
        low, high = 1, cap  # fits(low), not fits(high)
        while high - low > 1:
            mid = (low + high) // 2
            if fits(mid):
                low = mid
            else:
                high = mid
        return low


def moe_workspace(model: Model, gpu: GPU, placement: Placement, engine: Engine, experts: str,
                  tokens: int) -> tuple[str, float]:
    """(backend, bytes) of the fused-MoE workspace one rank keeps (engines.vllm.moe_workspace_bytes) for
    routed experts stored in ``experts`` (a vllm_releases.MOE_FORMATS name; "" for a dense model)."""
    if not (model.is_moe and experts and model.hidden_size and model.intermediate_size) or gpu.vendor != "nvidia":
        return "", 0.0
    rules = engine.rules
    backend = rules.moe_experts_backend(experts, gpu.compute_capability, engine.install,
                                        data_parallel=placement.data_parallel > 1)
    if placement.data_parallel > 1:
        # under expert parallelism the experts see the tokens the all-to-all gathers from every rank, and
        # 0.14-0.17 allocated the worst case in the profile run (modular_kernel.py _allocate_buffers,
        # 'Force worst-case allocation in profiling run'): not modelled, nothing added
        return backend, 0.0
    # the workspace is M × top_k rows of the expert's width on this rank: 1/TP of it, or all of it under
    # expert parallelism, whose MoE layer runs at tp_size 1 (FusedMoE.intermediate_size_per_partition);
    # every rank still sees all M tokens (TP attention, no all-to-all at DP 1), whatever experts it holds
    split = 1 if placement.expert_parallel > 1 else max(1, placement.tensor_parallel)
    size = vllm.moe_workspace_bytes(backend, tokens, model.hidden_size, model.intermediate_size // split,
                                    model.experts_per_token, ACTIVATION_DTYPE_BYTES, rules.moe_chunk_tokens)
    return backend, size


def verification_bytes_per_logit(engine: Engine, model: Model, gpu: GPU, requests: int, sampler: str) -> float:
    """Bytes a logit of the profile run's verification pass (engines.vllm_speculation point 13), 0 when
    ``engine.speculation`` is off. vLLM runs it whenever a ``--speculative-config`` is given, n-gram
    included: the dummy batch does not depend on the drafter. The top-k / top-p of its target rows is
    ``apply_top_k_top_p`` (v1/sample/ops/topk_topp_sampler.py), the Triton kernel from 0.17 and 8 rows
    whatever the plain pass's sampler (FlashInfer or not)."""
    if not engine.speculation.on:
        return 0.0
    layout = vllm_speculation.verification_layout(engine.version, engine.runner(model.is_moe, gpu.vendor))
    triton = engine.rules.triton_top_k_top_p and requests >= 8
    return vllm_speculation.verification_bytes_per_logit(layout, vllm.SAMPLER_BYTES_PER_LOGIT[sampler], triton,
                                                         ACTIVATION_DTYPE_BYTES)


def pool(model: Model, gpu: GPU, placement: Placement, engine: Engine, kv_dtype: str, experts: str = "",
         weights=None) -> Pool:
    """The budget and blocks of the most loaded GPU of ``placement``; ``experts`` is the routed
    experts' format (vllm_releases.MOE_FORMATS), which picks the fused-MoE backend and its workspace;
    ``weights`` the target's Weights placed on ``gpu`` (an MTP drafter's layer is one of the target's)."""
    tokens, seqs = scheduler_limits(engine, gpu)
    requested = vllm.requested_memory(gpu.visible, engine.utilization)
    text = 0.0
    backend, workspace = moe_workspace(model, gpu, placement, engine, experts, tokens)
    if model.hidden_size and model.vocab_size:
        # the workspace, kept from the first MoE layer on, sits under both the forward and the sampler peak
        sampler = engine.sampler_for(min(tokens, seqs), model.is_moe, gpu.vendor)
        text = workspace + vllm.activation_peak_estimate(
            model.hidden_size, model.mlp_width_per_token, model.vocab_size, tokens, seqs,
            tensor_parallel=placement.tensor_parallel, dtype_bytes=ACTIVATION_DTYPE_BYTES, sampler=sampler,
            verification_bytes_per_logit=verification_bytes_per_logit(engine, model, gpu, min(tokens, seqs),
                                                                      sampler))
    encoder = vllm_encoder.profile(model.vision, tokens, seqs, engine.max_model_len, engine.mm_limits,
                                   tensor_parallel=placement.tensor_parallel, dtype_bytes=ACTIVATION_DTYPE_BYTES)
    activation = vllm_encoder.activation_peak(text, encoder)
    runtime = engine.runtime_bytes(gpu, placement.tensor_parallel, model.is_moe)
    lora = None
    if engine.lora is not None:
        lora = lora_memory(model, engine.architecture, engine.version, engine.lora, placement.tensor_parallel,
                           tokens, seqs, ACTIVATION_DTYPE_BYTES, placement.pipeline_stages, placement.expert_parallel,
                           experts_format=experts, vendor=gpu.vendor)
    spec = drafter(engine.speculation, model, gpu, placement, kv_dtype, weights, engine.version)
    available = (requested - placement.weight_bytes_per_gpu - (lora.total_bytes if lora else 0.0)
                 - spec.weight_bytes - activation - runtime)
    cache = layout(model, placement, kv_dtype, gpu_name=gpu.name, block_size=engine.block_size,
                   version=engine.version, prefix_caching=engine.prefix_caching, dcp=engine.dcp,
                   num_spec=engine.num_spec, draft_attention_layers=spec.kv_layers - spec.window_layers,
                   draft_window_layers=spec.window_layers,
                   v2_runner=engine.runner(model.is_moe, gpu.vendor) == "v2",
                   async_scheduling=async_scheduling_default(
                       engine.speculation.method if engine.speculation.on else ""))
    page, size, groups = cache.page_bytes, cache.layers_per_group, cache.groups
    blocks = 0
    if available > 0 and size > 0:
        blocks, _ = vllm.blocks_and_tokens(available, page, size, len(groups), cache.block_size)
    full, windowed = kv_layers_per_gpu(model, placement)
    stored = stored_kv_dtype(model, kv_dtype, engine.version, vllm_hybrid.compute_capability(gpu.name),
                             placement.tensor_parallel)
    per_token = token_bytes_on(model, stored, placement, full + windowed) + spec.token_bytes
    return Pool(
        placement=placement, visible_bytes=gpu.visible, requested_bytes=requested,
        weight_bytes=placement.weight_bytes_per_gpu, activation_bytes=activation,
        overhead_bytes=runtime, available_bytes=available,
        bytes_per_token=per_token / (engine.dcp if model.is_mla and engine.dcp > 1 else 1),
        page_bytes=page, layers_per_group=size,
        groups=tuple(groups), num_blocks=blocks, batched_tokens=tokens, block_size=cache.block_size,
        version=engine.version, layout=cache, encoder=encoder, text_activation_bytes=text,
        moe_backend=backend, moe_workspace_bytes=workspace, lora=lora, drafter=spec, stored_kv_dtype=stored,
    )
