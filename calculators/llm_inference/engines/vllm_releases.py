"""vLLM's memory rules release by release: which rule changed, in which release, and from what.

Every rule here was read by diffing the released source archives on PyPI (``pip download
vllm==X --no-binary`` unpacks the same files as ``vllm-X.tar.gz``), release after release, from
0.8.5 to 0.33.0; the commit of each release is the one its ``vllm/_version.py`` records (the
archives of 0.8.5–0.10.1 record none). 0.15.x has no source archive on PyPI; the fused-MoE rules
(0.14–0.33) were read from the wheels, 0.15.0's included (``pip download vllm==X --no-deps``).

:data:`RELEASES` lists the releases whose rules differ from the release before (the reader's
``vllm_version`` choice); :func:`rules` gives every rule of any release, a pre-release such as
"0.29.1rc1" taking the rules of the release it leads to. :data:`CHANGES` says what changed, where
(file, release) and, where the code or its log names one, the pull request.

Nothing here reads a model catalogue or a GPU table: callers pass names, capabilities and vendors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

__all__ = ["MOE_FORMATS", "MOE_BACKENDS", "Release", "RELEASES", "VERSIONS", "NEWEST", "VERSION_CHOICES", "Change", "CHANGES", "Rules",
           "rules", "parse_version", "release_of", "TpPoint", "NON_TORCH_TP_EVIDENCE"]


def parse_version(version: str | Sequence[int]) -> tuple[int, ...]:
    """"0.10.2" → (0, 10, 2); tuples pass through. Suffixes such as "rc1" or ".post1" are dropped."""
    if not isinstance(version, str):
        return tuple(version)
    return _parse_version(version)


@lru_cache(maxsize=1024)  # a run compares release strings thousands of times
def _parse_version(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.strip().lstrip("v").split("."):
        digits = ""
        for ch in piece:  # leading digits only: "2rc1" is 2
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) < len(piece):
            break
    return tuple(parts)


#: The routed experts' weight formats the MoE backend choice tells apart: unquantized ("bf16", fp16 too);
#: fp8 with per-channel scales and dynamic per-token activations (compressed-tensors FP8-dynamic), with
#: one static scale per tensor and a static input scale (ModelOpt FP8), with 128 x 128 block scales;
#: NVFP4; MXFP4 (gpt-oss); int4/int8 weight-only (GPTQ, compressed-tensors WNA16); AWQ; int8 W8A8;
#: bitsandbytes nf4 (never in the modular kernel).
MOE_FORMATS = ("bf16", "fp8", "fp8-tensor", "fp8-block", "nvfp4", "mxfp4", "int4", "awq", "w8a8-int8", "nf4")
#: The experts backends :meth:`Rules.moe_experts_backend` names ("" : no workspace kept).
MOE_BACKENDS = ("", "triton", "marlin", "vllm-cutlass", "vllm-cutlass-fp4", "oai-triton", "flashinfer-cutlass")


@dataclass(frozen=True)
class Release:
    """A release whose memory rules differ from the one before it."""

    version: str
    commit: str  # ``__commit_id__`` of vllm/_version.py in the release's source archive; "" if none
    summary: str  # what changed in it, in a few words


#: The releases whose rules differ, oldest first (each a choice of ``vllm_version``).
RELEASES: tuple[Release, ...] = (
    Release("0.8.5", "", "the oldest release modelled: the V1 engine by default"),
    Release("0.9.0", "", "A100s leave the H100 scheduler tier (PR #17885)"),
    Release("0.9.1", "", "the hybrid KV-cache allocator; non-torch memory measured from a snapshot"),
    Release("0.11.0", "f71952c1c", "NCCL set up before the memory snapshot: TP's NCCL memory no longer counted"),
    Release("0.11.1", "439368496", "FlashInfer's sampler becomes opt-in: the PyTorch sort path for everyone"),
    Release("0.12.0", "4fd9d6a85", "gpt-oss's MXFP4 experts on OpenAI's Triton kernels on Hopper (shipped in the wheel)"),
    Release("0.14.0", "b17039bcc", "the bf16 and fp8 MoE experts keep their buffers in the worker's workspace"),
    Release("0.15.0", "f17644344", "FlashInfer's fp8 and NVFP4 MoE kernels by default"),
    Release("0.17.0", "b31e9326a", "top-k/top-p by a Triton kernel from 8 requests: a third of the sampler peak"),
    Release("0.18.0", "bcf2be961", "hybrid group size: the largest type under 1.5 × the smallest"),
    Release("0.19.0", "2a69949bd", "the wheel requires flashinfer-cubin: FlashInfer runs without nvcc"),
    Release("0.20.0", "b8160878f", "CUDA graphs subtracted, utilization 0.92 (PR #38284)"),
    Release("0.21.0", "9da56fd18", "'GPU KV cache size' = concurrency × max_model_len; FlashInfer sampler on again"),
    Release("0.22.0", "", "Model Runner V2 by default for dense Qwen3: no CUDA-graph estimate on it"),
    Release("0.23.0", "0fc695fc6", "bf16 MoE experts on Hopper back on Triton (FlashInfer's are slower there)"),
    Release("0.26.0", "f2654939e", "the CUDA-graph estimate on ROCm too (PR #44825); windows reserve two batches"),
    Release("0.27.0", "4bdc8a788", "weights and non-torch memory measured together ('consumed memory')"),
    Release("0.28.0", "2cf0a6915", "GPUs of 160 GiB and more: 16,384 batched tokens for vllm serve"),
    Release("0.33.0", "4ba787ec9", "GB10 (DGX Spark) kept on the small scheduler tier"),
)
VERSIONS: tuple[str, ...] = tuple(r.version for r in RELEASES)
#: The newest release on PyPI when these rules were read: the calculators' default.
NEWEST = VERSIONS[-1]
VERSION_CHOICES = tuple((r.version, f"{r.version} — {r.summary}") for r in reversed(RELEASES))


def release_of(version: str | Sequence[int]) -> Release:
    """The listed release whose rules ``version`` follows: the newest listed one not after it."""
    v = parse_version(version)
    chosen = RELEASES[0]
    for release in RELEASES:
        if parse_version(release.version) <= v:
            chosen = release
    return chosen


@dataclass(frozen=True)
class Change:
    """One rule that changed: before ``since`` it was ``before``, from ``since`` on ``after``."""

    rule: str
    since: str
    before: str
    after: str
    source: str  # file and releases compared
    pr: str = ""  # the pull request, where the code, its log or its docstring names one


CHANGES: tuple[Change, ...] = (
    Change("scheduler: A100 on the H100 tier", "0.9.0",
           "≥ 70 GiB → 16,384 (LLM) / 8,192 (serve) batched tokens, 1,024 sequences, A100 80GB included",
           "A100s keep 8,192 / 2,048 and 256 sequences ('\"a100\" not in device_name')",
           "vllm/engine/arg_utils.py, 0.8.5 l.1596 vs 0.9.0 l.1495", "#17885"),
    Change("non-torch memory", "0.9.1",
           "everything the driver shows in use minus torch's allocations after the profile run, the CUDA "
           "context included (gpu_worker.py 0.8.5 l.~190: total_allocated_bytes − torch_allocated_bytes)",
           "the increase since the worker's first snapshot (memory_profiling's non_torch_increase): the "
           "CUDA context is no longer counted",
           "vllm/v1/worker/gpu_worker.py determine_available_memory, 0.9.0 vs 0.9.1; vllm/utils.py "
           "memory_profiling (0.9.1)"),
    Change("hybrid models", "0.9.1",
           "sliding-window layers converted to full attention when both kinds are present "
           "(unify_hybrid_kv_cache_specs): one group, every layer caching max_model_len",
           "the hybrid allocator: one group per layer type, windows kept "
           "(--disable-hybrid-kv-cache-manager restores the old rule)",
           "vllm/v1/core/kv_cache_utils.py, 0.9.0 l.657 vs 0.9.1; vllm/config.py 0.9.1 l.2120"),
    Change("'GPU KV cache size' line", "0.9.1",
           "num_blocks × block_size", "num_blocks // len(kv_cache_groups) × min block size",
           "vllm/v1/core/kv_cache_utils.py, 0.9.0 l.635 vs 0.9.1 l.867"),
    Change("tensor parallelism's non-torch memory", "0.11.0",
           "counted: init_device takes the first snapshot, then init_worker_distributed_environment sets up "
           "the NCCL communicators and the custom all-reduce buffers, so they come out of the budget as "
           "non-torch memory (NON_TORCH_TP_BYTES)",
           "not counted: the distributed environment is set up first ('Initialize the distributed "
           "environment BEFORE taking memory snapshot'), so its memory is gone before the snapshot the "
           "budget is measured from, whatever the link (NVLink or PCIe)",
           "vllm/v1/worker/gpu_worker.py init_device, 0.10.2 l.175/193 vs 0.11.0 l.169/182 (and 0.27.1)",
           "#25359"),
    Change("the TP group's torch NCCL communicator", "0.25.0",
           "counted (from 0.11.0): the logits all-gather of the profile run goes through the base device "
           "communicator's torch.distributed.all_gather_into_tensor on a device group made without device_id, so "
           "PyTorch creates that group's NCCL communicator inside memory_profiling (vllm_measured."
           "tp_communicator_bytes: 1.85 GiB a GPU measured on H100 SXM at 0.19.0)",
           "not counted: CudaCommunicator.all_gather sends it through PyNccl, whose communicator was made before "
           "the snapshot",
           "vllm/distributed/device_communicators/cuda_communicator.py: no all_gather in 0.19.0 and 0.24.0, "
           "all_gather through pynccl_comm in 0.25.0, 0.26.0, 0.27.0, 0.30.0 and 0.33.0; "
           "vllm/distributed/parallel_state.py new_group without device_id (0.11.0 l.220, 0.19.0 l.1422)"),
    Change("sampler path of the profile run", "0.11.1",
           "FlashInfer's top-k/top-p kernel when FlashInfer is installed (the vllm-openai image bundles "
           "it; the pip wheel does not require it), else the PyTorch sort",
           "the PyTorch sort unless VLLM_USE_FLASHINFER_SAMPLER=1 ('Users must opt in explicitly')",
           "vllm/v1/sample/ops/topk_topp_sampler.py, 0.11.0 l.39 vs 0.11.1 l.34; requirements/cuda.txt"),
    Change("MXFP4 experts on Hopper (gpt-oss)", "0.12.0",
           "Marlin, weights padded (hidden to 3,072, intermediate to 2,944 for gpt-oss): 0.10.1 pins torch 2.7.1, "
           "and 0.10.2-0.11.2 take OpenAI's Triton kernels only when the triton_kernels package is installed "
           "beside vLLM ('not has_triton_kernels() ... Using Marlin backend'), which the wheel neither ships "
           "nor requires",
           "OpenAI's Triton kernels: the wheel ships them (vllm/third_party/triton_kernels, which "
           "has_triton_kernels also looks for), so the experts keep their width in the Hopper layouts",
           "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend (0.11.0 l.95) and "
           "vllm/utils/import_utils.py has_triton_kernels, 0.11.2 vs 0.12.0 (the wheels' file lists)"),
    Change("fused-MoE workspace", "0.14.0",
           "the bf16 and fp8 experts call fused_experts, whose intermediate caches are allocated per call and "
           "freed after each layer (only the forward pass's peak holds them)",
           "they run through the modular kernel (FusedMoEModularKernel), which takes its buffers from the "
           "worker's WorkspaceManager (v1/worker/workspace.py, init_workspace_manager in gpu_worker.py): one "
           "buffer, grown to the largest request and kept, so the profile run's buffer at max_num_batched_tokens "
           "stays allocated through the sampler pass. Its size is modular_kernel.py _allocate_buffers: "
           "max(workspace13, output) + workspace2 of the experts' workspace_shapes, in the activation dtype "
           "(moe_experts_backend, vllm.moe_workspace_bytes). NVFP4 joins with the 0.14 oracle (oracle/nvfp4.py); "
           "MXFP4 with Marlin in 0.17 and with OpenAI's Triton kernels in 0.19 (quantization/mxfp4.py: 0.16 and 0.18 "
           "still call fused_marlin_moe / triton_kernel_moe_forward); GPTQ, compressed-tensors WNA16 and int8 "
           "in 0.20 (oracle/int_wna16.py, oracle/int8.py; 0.19.1 calls fused_marlin_moe / fused_experts); AWQ in "
           "0.22 (awq_marlin.py select_wna16_moe_backend; 0.21.0 calls fused_marlin_moe); bitsandbytes never",
           "vllm/model_executor/layers/fused_moe/unquantized_fused_moe_method.py and oracle/fp8.py, 0.13.0 vs "
           "0.14.0 (b17039bcc); modular_kernel.py _allocate_buffers (0.14.0 l.766, 0.27.1 l.1113); "
           "workspace.py WorkspaceManager._ensure_workspace_size (0.27.1 l.119)"),
    Change("fused-MoE workspace: chunking", "0.18.0",
           "the modular kernel splits a batch into chunks of VLLM_FUSED_MOE_CHUNK_SIZE (16,384) tokens when the "
           "experts allow it (_chunk_info), so the workspace is sized for at most 16,384 tokens",
           "no chunking: M_chunk = M_full, the whole profile batch",
           "vllm/model_executor/layers/fused_moe/modular_kernel.py, 0.17.0 (b31e9326a) vs 0.18.0 (bcf2be961)"),
    Change("MoE experts backend: FlashInfer for fp8 and NVFP4", "0.15.0",
           "FlashInfer's MoE kernels only with VLLM_USE_FLASHINFER_MOE_FP8=1 / VLLM_USE_FLASHINFER_MOE_FP4=1 "
           "(both default 0): fp8 on Triton (Marlin below SM89, DeepGEMM for block fp8 where installed), NVFP4 on "
           "vLLM's CUTLASS (SM100/SM120) or Marlin",
           "an ordered list, the first supported backend wins (select_fp8_moe_backend / select_nvfp4_moe_backend): "
           "FlashInfer TRT-LLM (SM100 family: block fp8, per-tensor fp8, NVFP4; monolithic, no workspace), "
           "FlashInfer CUTLASS (per-tensor static fp8 on SM90+, block fp8 on SM90 only, NVFP4 on SM100+ "
           "including SM120/121: a workspace of M x H), DeepGEMM, vLLM CUTLASS (compressed-tensors fp8 on "
           "SM90/SM100), Triton, Marlin; FlashInfer only where it is usable (has_flashinfer: the package and "
           "flashinfer-cubin or nvcc)",
           "vllm/model_executor/layers/fused_moe/oracle/fp8.py and oracle/nvfp4.py, 0.14.0 (b17039bcc) vs "
           "0.15.0 (f17644344), unchanged in order through 0.33.0 (4ba787ec9)"),
    Change("MoE experts backend: block fp8 on Hopper", "0.17.0",
           "FlashInfer CUTLASS first, as for every fp8 scheme it supports",
           "Triton first under tensor parallelism ('On Hopper for Block Fp8, prefer Triton for TP and FI CUTLASS "
           "for EP')", "vllm/model_executor/layers/fused_moe/oracle/fp8.py _get_priority_backends, 0.16.0 vs "
           "0.17.0 (b31e9326a)"),
    Change("MoE experts backend: MXFP4", "0.17.0",
           "Marlin's experts through fused_marlin_moe, buffers freed after each layer",
           "Marlin's experts through the modular kernel (MarlinExperts in a FusedMoEKernel), a workspace of "
           "M x top_k x (max(I, H) + max(2I, H)); OpenAI's Triton kernels on Hopper follow in 0.19 "
           "(make_mxfp4_moe_kernel, OAITritonExperts: M x (H + top_k x I)); FlashInfer TRT-LLM on SM100 is "
           "monolithic (none)",
           "vllm/model_executor/layers/quantization/mxfp4.py, 0.16.0 l.904 vs 0.17.0 l.443; "
           "fused_moe/oracle/mxfp4.py make_mxfp4_moe_kernel (0.19.1 l.815)"),
    Change("FlashInfer in the pip wheel", "0.19.0",
           "flashinfer-python is required (from 0.11.2) but FlashInfer counts as usable only with nvcc on the "
           "PATH to JIT-compile it (vllm/utils/flashinfer.py has_flashinfer)",
           "the wheel also requires flashinfer-cubin, so FlashInfer is usable without nvcc; 0.26.0 drops the "
           "cubin requirement again",
           "the wheels' METADATA (Requires-Dist): 0.18.0 flashinfer-python==0.6.6 only, 0.19.0 (2a69949bd) to "
           "0.25.1 with flashinfer-cubin, 0.26.0 to 0.33.0 without; vllm/utils/flashinfer.py has_flashinfer "
           "(0.27.1 l.48: 'not has_flashinfer_cubin() and shutil.which(\"nvcc\") is None')"),
    Change("MoE experts backend: bf16", "0.20.0",
           "Triton (FlashInfer CUTLASS only with VLLM_USE_FLASHINFER_MOE_FP16=1, default 0, and expert "
           "parallelism)",
           "FlashInfer TRT-LLM (SM100 family: monolithic, no workspace), then FlashInfer CUTLASS (SM90, SM100, "
           "SM110 until 0.20, SM120/121: a workspace of M x H), then Triton; FlashInfer CUTLASS moves behind "
           "Triton under data parallelism ('Qwen3.5 has crash with FLASHINFER_CUTLASS BF16 if DEP')",
           "vllm/model_executor/layers/fused_moe/oracle/unquantized.py, 0.19.1 (b1388b1fb) vs 0.20.0 "
           "(b8160878f); FlashInferExperts._supports_current_device (flashinfer_cutlass_moe.py: family 110 in "
           "0.20.0, gone in 0.21.0)"),
    Change("MoE experts backend: bf16 on Hopper", "0.23.0",
           "FlashInfer CUTLASS", "Triton ('On Hopper (SM90), the FlashInfer unquantized MoE kernels are slower "
           "than Triton, so prefer Triton by default')",
           "vllm/model_executor/layers/fused_moe/oracle/unquantized.py _get_priority_backends, 0.22.0 vs 0.23.0 "
           "(0fc695fc6)"),
    Change("sampler path of the profile run", "0.17.0",
           "PyTorch's sort of the whole vocabulary (sorted values, int64 indices, masks: ~39 bytes a logit)",
           "a Triton top-k/top-p kernel when the batch has 8 or more rows (``apply_top_k_top_p``: "
           "'if HAS_TRITON and logits.shape[0] >= 8'), in place on the fp32 logits with one buffer row per "
           "program: ~13.3 bytes a logit (fitted to the RTX 3090 logs of the evidence table); Model Runner "
           "V2 (0.22 on) samples with its own code, whose profile peak is ~39 bytes a logit (the A100 log of "
           "0.31.0 in startup_logs, the RTX 5090 page of 0.28.0 in the evidence table)",
           "vllm/v1/sample/ops/topk_topp_sampler.py and topk_topp_triton.py, 0.16.0 vs 0.17.0"),
    Change("hybrid group size", "0.18.0",
           "the smallest layer type's count", "the largest type's count when it is under 1.5 × the "
           "smallest ('gpt-oss-20b + eagle, with 12 sw + 13 full')",
           "vllm/v1/core/kv_cache_utils.py, 0.17.0 vs 0.18.0 l.1043 (kv_cache_planning.py l.524 in 0.33.0)"),
    Change("CUDA-graph estimate", "0.20.0",
           "measured (0.18–0.19) but not subtracted: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0",
           "subtracted from the KV budget on CUDA (the variable defaults to 1); not on ROCm",
           "vllm/envs.py and vllm/v1/worker/gpu_worker.py, 0.19.1 vs 0.20.0", "#38284 (the opt-in: #30515)"),
    Change("default gpu_memory_utilization", "0.20.0", "0.9", "0.92, to make up for the CUDA graphs",
           "vllm/config/cache.py, 0.19.1 l.41 vs 0.20.0 l.66", "#38284"),
    Change("'GPU KV cache size' line", "0.21.0",
           "num_blocks // groups × block size", "int(max_concurrency × max_model_len)",
           "vllm/v1/core/kv_cache_utils.py _report_kv_cache_config, 0.20.0 l.1694 vs 0.21.0 l.1708"),
    Change("sampler path of the profile run", "0.21.0",
           "the PyTorch sort", "FlashInfer by default, then forward_native again as a warm-up: the peak is "
                              "the PyTorch path's",
           "vllm/envs.py (VLLM_USE_FLASHINFER_SAMPLER defaults to True) and gpu_model_runner.py "
           "_dummy_sampler_run ('Also warm forward_native'), 0.21.0"),
    Change("model runner", "0.22.0", "the V1 GPU model runner for every model",
           "Model Runner V2 by default for some models (``_is_default_v2_model_runner_model``): dense, unquantized "
           "Qwen3ForCausalLM in 0.22; + Llama and Mistral in 0.23; six listed architectures, quantized too, in "
           "0.24; from 0.25 any non-MoE model that is not a hybrid, and listed MoE architectures; every model "
           "from 0.29. V2's ``profile_cudagraph_memory`` returns 0 up to 0.28 ('It is TBD whether we keep "
           "this API'), so no CUDA-graph estimate comes off the budget on it; 0.29 estimates it "
           "(gpu/cudagraph_utils.py)",
           "vllm/config/vllm.py (DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES, use_v2_model_runner) and "
           "vllm/v1/worker/gpu/model_runner.py, 0.21.0–0.29.0"),
    Change("windowed layers' blocks per request", "0.26.0",
           "window − 1 + max_num_batched_tokens tokens (a chunked-local layer: chunk + max_num_batched_tokens)",
           "window − 1 + max_in_flight_tokens: max_concurrent_batches × max_num_batched_tokens, two batches "
           "under async scheduling (the default) without pipeline parallelism, for every SlidingWindowSpec "
           "(gpt-oss, Gemma, MiMo, DeepSeek-V4's windows) and ChunkedLocalAttentionSpec (Llama 4)",
           "vllm/v1/kv_cache_interface.py SlidingWindowSpec and ChunkedLocalAttentionSpec, 0.25.0 "
           "(max_num_batched_tokens) vs 0.26.0 (max_admission_blocks_per_request(max_in_flight_tokens)); "
           "VllmConfig.max_in_flight_tokens, vllm/config/vllm.py 0.26.0"),
    Change("CUDA-graph estimate on ROCm", "0.26.0", "0 on ROCm ('current_platform.is_cuda()')",
           "measured and subtracted on ROCm too ('is_cuda_alike()')",
           "vllm/v1/worker/gpu_worker.py, 0.25.0 vs 0.26.0", "#44825"),
    Change("what the log calls weights", "0.27.0",
           "'… GiB for weight, … for peak activation, … for non-torch memory'",
           "'… GiB for consumed memory (weights + non-torch)', the peak activation including the "
           "CUDA-graph estimate; the budget is unchanged",
           "vllm/v1/worker/gpu_worker.py and vllm/utils/mem_utils.py (total_consumed), 0.26.0 vs 0.27.0"),
    Change("scheduler: 160 GiB tier", "0.28.0", "B200, B300, MI300X, MI325X, MI355X on the H100 tier",
           "≥ 160 GiB: 16,384 batched tokens for vllm serve too, 1,024 sequences",
           "vllm/engine/arg_utils.py get_batch_defaults, 0.27.0 vs 0.28.0"),
    Change("free memory on unified-memory GPUs", "0.12.0",
           "cudaMemGetInfo on every GPU, which on a GB10 or a Jetson counts the host's page cache as used",
           "psutil's MemAvailable on compute capabilities 8.7, 11.0 and 12.1 (Orin, Thor, Spark): the budget's "
           "consumed memory is the drop in the host's available memory (engines.vllm_measured)",
           "vllm/utils/__init__.py MemorySnapshot.measure (0.11.0 wheel) vs vllm/utils/mem_utils.py l.86 (0.12.0 wheel)"),
    Change("free memory on unified-memory GPUs", "0.20.0",
           "MemAvailable chosen by compute capability (8.7, 11.0, 12.1)",
           "MemAvailable on every device whose CUDA attribute is_integrated is set (Platform.is_integrated_gpu)",
           "vllm/utils/mem_utils.py l.105 (0.19.1 wheel) vs l.109 (0.20.0 wheel)", "#35356"),
    Change("scheduler: GB10", "0.33.0", "GB10 (121.69 GiB) on the H100 tier",
           "GB10 (compute capability 12.1) on the small tier: 2,048 / 256",
           "vllm/engine/arg_utils.py get_batch_defaults, 0.32.0 vs 0.33.0"),
)


#: Non-torch memory vLLM measures during its profile run on one GPU (cuBLAS workspaces, NCCL
#: buffers, allocator fragments), from 0.9.1 on: 0.07 GiB (H100 and B200, 0.10.x), 0.26 GiB (A100,
#: 0.31.0), 0.20–0.35 GiB (V0 logs). Fitted by the startup-log table (engines.startup_log_table).
NON_TORCH_BYTES = 0.15 * (1 << 30)
#: The CUDA context and PyTorch's own start-up, which 0.8.5–0.9.0 counted as non-torch memory:
#: "Free memory on device (78.66/79.19 GiB) on startup" (H100), 78.84/79.25 (A100), 177.66/178.36
#: (B200) — 0.41–0.70 GiB before vLLM allocates anything.
CUDA_CONTEXT_BYTES = 0.5 * (1 << 30)
#: vLLM's CUDA-graph estimate (``profile_cudagraph_memory``: the first capture plus (n − 1) × the
#: second, per mode) on Model Runner V2, from 0.29: 0.22 GiB (L40-class, 0.29), 0.23 GiB (A100,
#: 0.31.0), 0.42 GiB (a 4B AWQ model on a 47 GiB SM89 card, 0.30: vllm PR #57047's log). Per GPU
#: at one GPU; divided by the tensor-parallel size.
CUDA_GRAPH_BYTES = 0.35 * (1 << 30)
#: The same estimate on the V1 model runner (0.20–0.28): about 0.9 GiB at one GPU —
#: "Estimated CUDA graph memory: 0.93 GiB total" (Qwen3.6-35B-A3B on a GB10), 0.9 GiB inferred from the
#: A10G logs of the evidence table (Qwen2.5-7B, 0.22.0: the budget less weights, activation and
#: non-torch memory leaves 0.9 GiB more than the 4.76 GiB printed), 0.73 GiB (a Qwen3.5 GGUF, vllm PR
#: #39559); 0.36 GiB at TP 2 (gpustack/runner#251) and 0.17 GiB at TP 4 (club-3090#127), hence ÷ TP.
#: Mamba hybrids capture more (2.44 GiB for Nemotron-3-Nano-4B on a GB10): not modelled.
CUDA_GRAPH_BYTES_V1 = 0.9 * (1 << 30)
#: Non-torch memory beyond one GPU's when the layer is split over several (NCCL communicators and
#: their buffers): the two-GPU A100 logs of the evidence table (vLLM 0.10.1.1) leave 0.12 GiB less
#: than the one-GPU logs at the same settings. Counted before 0.11.0 only (``Rules.nccl_in_budget``).
NON_TORCH_TP_BYTES = 0.12 * (1 << 30)


@dataclass(frozen=True)
class TpPoint:
    """One startup log under tensor parallelism that the non-torch rule is checked against: its row
    in engines.startup_log_table (``log_id``: the row holds the URL, release, GPU and layout), what
    its GPUs talk over, and what it shows."""

    log_id: str
    link: str  # what the TP group talks over, as the source states it
    shows: str
    rebuilt: bool = True  # False: the pool is outside the tolerance for a reason the rule does not cover


#: The logs with TP > 1 behind NON_TORCH_TP_BYTES and its end at 0.11.0 (every one a row of the
#: evidence table). Before 0.11.0 the distributed set-up fell inside the measured budget: 0.12 GiB
#: on A100s. From 0.11.0 it happens before the snapshot, so the link does not enter the budget: two
#: L40S over PCIe rebuild to -0.5 % without the 0.12 GiB (-1.1 % with it). The four RTX PRO 6000
#: over PCIe (0.27.1) consume 1.70 GiB beside the weights, but 1.0 GiB of it is the fused-MoE
#: workspace of the Triton experts (Rules.moe_experts_backend), a torch buffer vLLM keeps, not
#: NCCL, and custom all-reduce is off on four PCIe GPUs: no interconnect term is fitted to the rest
#: (see that row's needs). tests/unit/llm_inference/engines/test_vllm_releases.py rebuilds each point.
NON_TORCH_TP_EVIDENCE: tuple[TpPoint, ...] = (
    TpPoint("qwen2-7b-2xa100-80-tp2-025-v0101", "one node (link not stated)",
            "Available KV cache memory 12.02 GiB at utilization 0.25"),
    TpPoint("qwen2-7b-2xa100-80-tp2-050-v0101", "one node (link not stated)",
            "Available KV cache memory 31.83 GiB at utilization 0.5"),
    TpPoint("qwen2-7b-2xa100-40-tp2-native-v0101", "two nodes over the network (Ray)",
            "Available KV cache memory 11.03 GiB at utilization 0.5"),
    TpPoint("gpt-oss-120b-4xa100-tp4-v0101", "Ray across nodes",
            "Available KV cache memory 45.32 GiB at utilization 0.8"),
    TpPoint("llama3-70b-awq-2xl40s-v0160", "PCIe (the L40S has no NVLink)",
            "Available KV cache memory 20.16 GiB at the default 0.9"),
    TpPoint("qwen3-235b-fp8-4xrtxpro6000-v0271", "PCIe across sockets ('SYS'), no NVLink",
            "consumed 56.89 GiB for 55.19 GiB of weights: 1.70 GiB, of which 1.0 GiB the Triton experts' "
            "workspace (modelled) and 0.06 GiB the model runner's buffers",
            rebuilt=False),
)
#: Architectures that defaulted to Model Runner V2 (``DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES``,
#: vllm/config/vllm.py), by the release that set the list.
V2_ARCHITECTURES = (
    ("0.22.0", frozenset({"Qwen3ForCausalLM"})),
    ("0.23.0", frozenset({"LlamaForCausalLM", "MistralForCausalLM", "Qwen3ForCausalLM"})),
    ("0.24.0", frozenset({"Qwen3ForCausalLM", "DeepseekV2ForCausalLM", "Qwen2MoeForCausalLM",
                          "GraniteMoeForCausalLM", "LlamaForCausalLM", "MistralForCausalLM"})),
    ("0.25.0", frozenset({"DeepseekV2ForCausalLM", "Qwen2MoeForCausalLM", "GraniteMoeForCausalLM"})),
    ("0.26.0", frozenset({"DeepseekV2ForCausalLM", "GraniteMoeForCausalLM", "InklingForCausalLM",
                          "InklingForConditionalGeneration", "LongcatFlashNgramForCausalLM",
                          "Qwen2MoeForCausalLM"})),
)


@dataclass(frozen=True)
class Rules:
    """Every memory rule of one release (see :data:`CHANGES` for where each changed)."""

    version: str
    release: Release
    gpu_memory_utilization: float
    a100_on_large_tier: bool
    tier_160_gib: bool
    gb10_small_tier: bool
    non_torch_includes_context: bool
    nccl_in_budget: bool  # NCCL and custom all-reduce set up after the first snapshot (before 0.11.0)
    lazy_tp_communicator: bool  # the TP group's torch NCCL communicator made inside the profile (0.11.0–0.24.x)
    hybrid_allocator: bool
    group_size_largest_under_1_5: bool
    tokens_line: str  # "blocks", "blocks_per_group" or "concurrency"
    flashinfer_sampler: str  # "if-installed", "opt-in" or "default-with-native-warmup"
    cuda_graphs_on_cuda: bool
    cuda_graphs_on_rocm: bool
    consumed_together: bool
    triton_top_k_top_p: bool
    mxfp4_triton_on_hopper: bool  # OpenAI's Triton kernels ship in the wheel (else Marlin on SM90)
    #: Weight formats (vllm_releases.MOE_FORMATS) whose experts keep their buffers in the worker's workspace.
    moe_workspace_formats: frozenset = frozenset()
    moe_flashinfer_formats: frozenset = frozenset()  # formats whose default backend list starts with FlashInfer's
    moe_flashinfer_bf16_on_hopper: bool = False  # 0.20-0.22
    moe_flashinfer_on_sm110: bool = False  # FlashInferExperts accepts SM110 (up to 0.20)
    moe_fp8_block_triton_on_hopper: bool = False  # 0.17 on
    moe_chunk_tokens: int = 0  # VLLM_FUSED_MOE_CHUNK_SIZE where the modular kernel chunks (up to 0.17)
    moe_oai_triton_modular: bool = False  # gpt-oss's Triton experts on Hopper in the modular kernel (0.19 on)
    flashinfer_cubin_in_wheel: bool = False  # 0.19-0.25: FlashInfer usable from the pip wheel alone
    #: windowed layers hold window − 1 + max_in_flight_tokens (0.26 on), not + max_num_batched_tokens
    windows_hold_in_flight: bool = False

    def cuda_graphs_subtracted(self, vendor: str = "nvidia") -> bool:
        """Whether the CUDA-graph estimate comes off the budget on this vendor's GPUs."""
        return self.cuda_graphs_on_rocm if vendor == "amd" else self.cuda_graphs_on_cuda

    def sampler(self, install: str = "pip", requests: int = 256, runner: str = "v1") -> str:
        """The sampler path whose peak the profile run records: "flashinfer", "triton", "native" or
        "v2".

        ``install`` is "pip" (the wheel, which does not pull FlashInfer before 0.11.1) or "docker"
        (the vllm-openai image, which bundles it, or FlashInfer installed beside the wheel);
        ``requests`` the rows of the dummy sampler batch (min(max_num_batched_tokens, max_num_seqs));
        ``runner`` the model runner ("v2" has a sampler of its own, vllm/v1/worker/gpu/sample).
        On V1, from 0.21 the FlashInfer pass is followed by PyTorch's path as a warm-up, whose peak
        is the larger: that path sorts, or from 0.17 runs the Triton kernel from 8 rows."""
        if runner == "v2":
            return "v2"
        if self.flashinfer_sampler == "if-installed" and install == "docker":
            return "flashinfer"
        if self.triton_top_k_top_p and requests >= 8:
            return "triton"
        return "native"

    def model_runner(self, architecture: str = "", is_moe: bool = False, quantized: bool = False,
                     hybrid: bool = False, vendor: str = "nvidia") -> str:
        """"v1" or "v2": the GPU model runner this release picks by default for a model
        (``VllmConfig.use_v2_model_runner`` and ``_is_default_v2_model_runner_model``)."""
        v = parse_version(self.version)
        if v >= (0, 29):
            return "v2"
        listed = frozenset()
        for since, archs in V2_ARCHITECTURES:
            if v >= parse_version(since):
                listed = archs
        if not listed:
            return "v1"
        in_list = architecture in listed
        if v < (0, 24):
            return "v2" if in_list and not is_moe and not quantized else "v1"
        if v < (0, 25):
            return "v2" if in_list else "v1"
        if hybrid and not (v >= (0, 28) and in_list):
            return "v1"
        return "v2" if in_list or not is_moe else "v1"

    def cuda_graph_bytes(self, vendor: str = "nvidia", enforce_eager: bool = False, runner: str | None = None,
                         tensor_parallel: int = 1) -> float:
        """The CUDA-graph estimate that comes off the KV budget, per GPU: none before 0.20 (0.26 on
        ROCm) or with --enforce-eager; none on Model Runner V2 up to 0.28 (it returns 0); else
        :data:`CUDA_GRAPH_BYTES_V1` or, on V2 from 0.29, :data:`CUDA_GRAPH_BYTES`, ÷ the TP size.
        ``runner`` None: the runner this release picks for a dense, unquantized model."""
        if not self.cuda_graphs_subtracted(vendor) or enforce_eager:
            return 0.0
        runner = runner or self.model_runner(vendor=vendor)
        if runner == "v2":
            if parse_version(self.version) < (0, 29):
                return 0.0
            return CUDA_GRAPH_BYTES / max(1, tensor_parallel)
        return CUDA_GRAPH_BYTES_V1 / max(1, tensor_parallel)

    def overhead_bytes(self, vendor: str = "nvidia", enforce_eager: bool = False, runner: str | None = None,
                       tensor_parallel: int = 1) -> float:
        """Memory outside the weights and activations that this release takes from the budget, per
        GPU: non-torch memory (with the CUDA context up to 0.9.0, and NCCL's share under tensor
        parallelism up to 0.10.x, which set NCCL up after its first snapshot) plus the CUDA-graph
        estimate where the release subtracts it."""
        total = NON_TORCH_BYTES + (CUDA_CONTEXT_BYTES if self.non_torch_includes_context else 0)
        if tensor_parallel > 1 and self.nccl_in_budget:
            total += NON_TORCH_TP_BYTES
        return total + self.cuda_graph_bytes(vendor, enforce_eager, runner, tensor_parallel)

    def flashinfer_usable(self, install: str = "pip") -> bool:
        """Whether vLLM's ``has_flashinfer()`` holds: the vllm-openai image ("docker") brings FlashInfer
        ready to run; the wheel ("pip", with no CUDA toolkit beside it) only where it requires
        flashinfer-cubin (0.19-0.25), else FlashInfer wants nvcc to JIT-compile its kernels."""
        return install == "docker" or self.flashinfer_cubin_in_wheel

    def moe_experts_backend(self, fmt: str, compute_capability: tuple[int, int] | tuple = (),
                            install: str = "pip", data_parallel: bool = False) -> str:
        """The fused-MoE experts backend this release picks by default for routed experts stored in
        ``fmt`` (one of :data:`MOE_FORMATS`) on a CUDA GPU of ``compute_capability``, with FlashInfer
        usable or not (:meth:`flashinfer_usable`); "" when the experts keep no workspace (before the
        format runs through the modular kernel, or a monolithic FlashInfer TRT-LLM kernel).
        ``data_parallel``: data-parallel attention with expert parallelism (dp_size and ep_size > 1),
        which sends bf16 experts off FlashInfer CUTLASS and block fp8 on Hopper onto it.

        Returns "triton", "marlin", "vllm-cutlass" (vLLM's CUTLASS fp8 grouped GEMM), "vllm-cutlass-fp4",
        "oai-triton" (OpenAI's Triton kernels, gpt-oss on Hopper), "flashinfer-cutlass" or "". The
        selection follows the oracles (fused_moe/oracle/*.py): the first backend of the release's list
        whose ``is_supported_config`` accepts the device, the FlashInfer install and the quantization
        scheme. Not modelled: environment overrides (VLLM_USE_DEEP_GEMM, --moe-backend ...), LoRA,
        DeepGEMM (never first by default where FlashInfer is usable; its workspace is the Triton one),
        AMD's AITER, and FlashInfer TRT-LLM's mxint4 for group-32 int4 on SM100."""
        if fmt not in self.moe_workspace_formats:
            return ""
        cc = tuple(compute_capability)[:2]
        major = cc[0] if cc else 0
        fi = self.flashinfer_usable(install)
        sm90, sm100, sm110, sm120 = cc == (9, 0), major == 10, major == 11, major == 12
        fi_first = fi and fmt in self.moe_flashinfer_formats
        if fmt == "bf16":
            if fi_first and sm100:
                return ""  # TrtLlmBf16ExpertsMonolithic
            cutlass_gpu = sm120 or sm100 or (sm110 and self.moe_flashinfer_on_sm110) or (
                sm90 and self.moe_flashinfer_bf16_on_hopper)
            if fi_first and cutlass_gpu and not data_parallel:
                return "flashinfer-cutlass"
            return "triton"
        if fmt in ("fp8", "fp8-tensor", "fp8-block"):
            if major and cc < (8, 9):
                return "marlin"  # no fp8 tensor cores: weight-only Marlin
            if fi_first and sm100 and fmt in ("fp8-tensor", "fp8-block"):
                return ""  # TrtLlmFp8ExpertsMonolithic
            if fi_first and fmt == "fp8-tensor" and (sm90 or sm100 or sm120):
                return "flashinfer-cutlass"
            if fi_first and fmt == "fp8-block" and sm90 and (data_parallel or not self.moe_fp8_block_triton_on_hopper):
                return "flashinfer-cutlass"
            if fmt == "fp8" and (sm90 or sm100):
                return "vllm-cutlass"  # compressed-tensors passes allow_vllm_cutlass=True
            return "triton"
        if fmt == "nvfp4":
            if sm100 or sm110 or sm120:
                if fi_first and sm100:
                    return ""  # TrtLlmNvFp4ExpertsMonolithic
                if fi_first and (sm100 or sm120):
                    return "flashinfer-cutlass"
                return "vllm-cutlass-fp4"  # CutlassExpertsFp4 (cutlass_moe.py)
            return "marlin"
        if fmt == "mxfp4":
            if sm100:
                return ""  # FlashInfer TRT-LLM, monolithic
            if sm90 and self.mxfp4_triton_on_hopper:
                return "oai-triton" if self.moe_oai_triton_modular else ""
            return "marlin"
        if fmt in ("int4", "awq"):
            return "marlin"
        if fmt == "w8a8-int8":
            return "triton"
        return ""

    def scheduler_limits(self, device_memory_bytes: float, device_name: str = "",
                         compute_capability: tuple[int, int] | tuple = (),
                         usage_context: str = "api_server") -> tuple[int, int]:
        """(max_num_batched_tokens, max_num_seqs) when neither is given
        (``EngineArgs._set_default_max_num_seqs_and_batched_tokens`` / ``get_batch_defaults``,
        vllm/engine/arg_utils.py): "llm" for the offline ``LLM`` class, "api_server" for ``vllm serve``."""
        if usage_context not in ("llm", "api_server"):
            raise ValueError(f"usage_context must be 'llm' or 'api_server', not {usage_context!r}")
        gib = device_memory_bytes / (1 << 30)
        is_a100 = "a100" in device_name.lower() and not self.a100_on_large_tier
        is_gb10 = self.gb10_small_tier and tuple(compute_capability) == (12, 1)
        if gib >= 160 and self.tier_160_gib:
            return 16384, 1024
        if gib >= 70 and not is_a100 and not is_gb10:
            return (16384 if usage_context == "llm" else 8192), 1024
        return (8192 if usage_context == "llm" else 2048), 256


@lru_cache(maxsize=256)
def _rules(v: tuple[int, ...], label: str) -> Rules:
    return _make_rules(v, label)


def rules(version: str | Sequence[int] = NEWEST) -> Rules:
    """Every rule of ``version`` (any release string; pre-releases take the rules of the release
    they lead to only once it is out: "0.29.1rc1" follows 0.29.x, i.e. 0.28.0's rules)."""
    if isinstance(version, str):
        return _rules_of_string(version)
    return _rules_of(parse_version(version), version)


@lru_cache(maxsize=256)
def _rules_of_string(version: str) -> Rules:
    return _rules_of(parse_version(version), version)


def _rules_of(v: tuple[int, ...], version: str | Sequence[int]) -> Rules:
    if v < (0, 8, 5):
        raise ValueError(f"vLLM {version}: releases before 0.8.5 are not modelled (the V0 engine's rules differ)")
    return _rules(v, str(version) if isinstance(version, str) else ".".join(map(str, version)))


def _make_rules(v: tuple[int, ...], label: str) -> Rules:
    def since(s: str) -> bool:
        return v >= parse_version(s)

    return Rules(
        version=label,
        release=release_of(v),
        gpu_memory_utilization=0.92 if since("0.20.0") else 0.9,
        a100_on_large_tier=not since("0.9.0"),
        tier_160_gib=since("0.28.0"),
        gb10_small_tier=since("0.33.0"),
        non_torch_includes_context=not since("0.9.1"),
        nccl_in_budget=not since("0.11.0"),
        lazy_tp_communicator=since("0.11.0") and not since("0.25.0"),
        hybrid_allocator=since("0.9.1"),
        group_size_largest_under_1_5=since("0.18.0"),
        tokens_line="concurrency" if since("0.21.0") else "blocks_per_group" if since("0.9.1") else "blocks",
        flashinfer_sampler=("default-with-native-warmup" if since("0.21.0") else "opt-in" if since("0.11.1")
                            else "if-installed"),
        cuda_graphs_on_cuda=since("0.20.0"),
        cuda_graphs_on_rocm=since("0.26.0"),
        consumed_together=since("0.27.0"),
        triton_top_k_top_p=since("0.17.0"),
        mxfp4_triton_on_hopper=since("0.12.0"),
        moe_workspace_formats=frozenset(
            (("bf16", "fp8", "fp8-tensor", "fp8-block", "nvfp4") if since("0.14.0") else ())
            + (("mxfp4",) if since("0.17.0") else ())
            + (("int4", "w8a8-int8") if since("0.20.0") else ())
            + (("awq",) if since("0.22.0") else ())),
        moe_flashinfer_formats=frozenset(
            (("fp8", "fp8-tensor", "fp8-block", "nvfp4") if since("0.15.0") else ())
            + (("bf16",) if since("0.20.0") else ())),
        moe_flashinfer_bf16_on_hopper=since("0.20.0") and not since("0.23.0"),
        moe_flashinfer_on_sm110=not since("0.21.0"),
        moe_fp8_block_triton_on_hopper=since("0.17.0"),
        moe_chunk_tokens=0 if since("0.18.0") else 16384,
        moe_oai_triton_modular=since("0.19.0"),
        flashinfer_cubin_in_wheel=since("0.19.0") and not since("0.26.0"),
        windows_hold_in_flight=since("0.26.0"),
    )
