"""The budget terms vLLM measures on the machine rather than sizes: what its source allocates for each,
in which releases the allocation falls inside the KV budget, and what public logs show where only
the hardware can give the figure.

vLLM's KV budget is ``requested − weights − torch-peak increase − non-torch increase`` (from 0.20 also
minus a CUDA-graph estimate), the increases read from the driver between the worker's first memory
snapshot and the end of the profile run (``memory_profiling``, vllm/utils/mem_utils.py). Three terms
of it are not functions of the model and settings alone:

* **tensor parallelism's communication buffers** (:func:`custom_all_reduce_bytes`,
  :data:`NCCL_MEASURED`): counted only where the distributed set-up happens after that snapshot, up
  to 0.10.x (``vllm_releases.Rules.nccl_in_budget``; 0.11.0's ``init_device`` sets up NCCL first,
  "BEFORE taking memory snapshot" in 0.29.0's words). Custom all-reduce's buffers are sized by the
  source; NCCL's by NCCL itself, from the topology it detects, per version: a measurement;
* **what a unified-memory GPU reports free** (:func:`free_memory_reading`): on a GB10 (DGX Spark)
  or Jetson the "GPU memory" vLLM reads is the host's, so what the host does between the two
  snapshots enters the budget;
* **the CUDA-graph estimate** (:func:`cudagraph_capture_sizes`, :data:`PRINTED_CUDA_GRAPH_ESTIMATES`):
  the source fixes which batch sizes are captured, but the figure is the drop in free memory the
  driver reports around two captures, extrapolated.

Read in the wheels on PyPI (``pip download vllm==X --no-deps``, the ``.py`` files only): 0.10.0,
0.11.0, 0.12.0, 0.13.0, 0.14.0, 0.16.0, 0.17.0, 0.18.0, 0.19.1, 0.20.0, 0.24.0, 0.27.1, 0.29.0.
Nothing here is fitted: the bands are what the logs print or leave, quoted with their addresses.
"""

from __future__ import annotations

from dataclasses import dataclass

from .vllm_releases import parse_version, rules

__all__ = ["MiB", "CUDA_MALLOC_GRANULARITY", "CUSTOM_AR_MAX_SIZE", "CUSTOM_AR_RANK_DATA", "CUSTOM_AR_WORLD_SIZES",
           "custom_all_reduce_enabled", "custom_all_reduce_bytes", "communication_in_budget", "MeasuredPoint",
           "NCCL_MEASURED", "TP_COMMUNICATOR_MEASURED", "TP_COMMUNICATOR_SAME_AS", "tp_communicator_bytes",
           "tp_communicator_note", "UMA_COMPUTE_CAPABILITIES", "free_memory_reading", "UMA_POOL_BANDS",
           "unified_memory_note", "cudagraph_capture_sizes",
           "graphs_profiled", "PRINTED_CUDA_GRAPH_ESTIMATES", "printed_cuda_graph_band"]

MiB = 1 << 20
GiB = 1 << 30

# -- tensor parallelism's buffers -------------------------------------------------------------------------

#: cudaMalloc hands out device memory in 2 MiB pages for allocations of that size and above, so the
#: driver's free memory drops by whole pages.
CUDA_MALLOC_GRANULARITY = 2 * MiB
#: ``CustomAllreduce.__init__(max_size=8192 * 1024)`` (vllm/distributed/device_communicators/
#: custom_all_reduce.py, 0.10.0 l.57): the largest tensor it reduces, and the size of its IPC buffers.
CUSTOM_AR_MAX_SIZE = 8192 * 1024
#: ``self.rank_data = torch.empty(8 * 1024 * 1024, dtype=torch.uint8)`` (l.168): the registered
#: pointer tuples, a torch tensor.
CUSTOM_AR_RANK_DATA = 8 * MiB
#: ``CustomAllreduce._SUPPORTED_WORLD_SIZES`` (l.51).
CUSTOM_AR_WORLD_SIZES = (2, 4, 6, 8)
#: ``ops.meta_size()`` is ``sizeof(vllm::Signal)``, the synchronisation flags (a few KiB): it shares
#: the metadata allocation with a ``max_size`` scratch buffer, so that allocation takes one more page.
_SIGNAL_BYTES_UPPER = 64 * 1024


def _pages(nbytes: int) -> int:
    return -(-nbytes // CUDA_MALLOC_GRANULARITY) * CUDA_MALLOC_GRANULARITY


def custom_all_reduce_enabled(world_size: int, same_node: bool = True, fully_connected: bool = True,
                              p2p: bool = True, vendor: str = "nvidia") -> bool:
    """Whether ``CustomAllreduce`` sets itself up (0.10.0 l.69–151): a supported world size, all ranks on
    one node, NVLink between every pair when there are more than two GPUs ("not supported on more than
    two PCIe-only GPUs"), and a working peer-to-peer test (not run on ROCm)."""
    if world_size == 1 or world_size not in CUSTOM_AR_WORLD_SIZES or not same_node:
        return False
    if world_size > 2 and not fully_connected:
        return False
    return p2p or vendor == "amd"


def custom_all_reduce_bytes(world_size: int, same_node: bool = True, fully_connected: bool = True,
                            p2p: bool = True) -> tuple[int, int]:
    """What custom all-reduce allocates on each GPU, as (non-torch bytes, torch bytes), 0.10.x.

    Two IPC buffers through ``ops.allocate_shared_buffer_and_handle`` (cudaMalloc, outside torch's
    allocator, so in the budget's non-torch increase when set up after the snapshot): the metadata
    (``meta_size() + max_size``, l.157) and the pre-registered input buffer (``max_size``, l.162); the
    peers' buffers are only mapped (``open_mem_handle``), not allocated. ``rank_data`` is a torch tensor
    allocated before the model loads: in torch's reserved memory, so in neither the weights, the
    activation peak nor the non-torch increase.
    """
    if not custom_all_reduce_enabled(world_size, same_node, fully_connected, p2p):
        return 0, 0
    meta = _pages(_SIGNAL_BYTES_UPPER + CUSTOM_AR_MAX_SIZE)
    buffer = _pages(CUSTOM_AR_MAX_SIZE)
    return meta + buffer, CUSTOM_AR_RANK_DATA


def communication_in_budget(version: str) -> bool:
    """Whether the distributed set-up (NCCL, custom all-reduce, from 0.11 also symmetric memory) is
    allocated after the worker's first memory snapshot, so that the KV budget pays for it: up to 0.10.x
    (``init_device``: ``MemorySnapshot()`` then ``init_worker_distributed_environment``, 0.10.0
    v1/worker/gpu_worker.py l.163–181; the other way round from 0.11.0, l.169–182)."""
    return rules(version).nccl_in_budget


@dataclass(frozen=True)
class MeasuredPoint:
    """One figure only the machine gives, as a public page shows it."""

    url: str
    where: str
    release: str
    hardware: str
    gib: float  # per GPU
    shows: str


#: NCCL's own memory per GPU. NCCL sizes its buffers from the topology it detects (channels, peers,
#: protocols, NVLink SHARP where the switch has it and cuMem is on) and its version; up to 0.10.x,
#: the releases whose budget counts it, vLLM sets ``NCCL_CUMEM_ENABLE=0`` (vllm/env_override.py,
#: 0.10.0; gone in 0.11.0) unless the node has multi-node NVLink, which also turns NVLink SHARP off
#: (NCCL allocates NVLS buffers with cuMemCreate). So no rule from vLLM's source sizes it: these are
#: the figures public pages give.
NCCL_MEASURED: tuple[MeasuredPoint, ...] = (
    MeasuredPoint(
        "https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/log/"
        "vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log",
        "the two-GPU logs against the one-GPU logs at the same settings (startup_log_table rows "
        "qwen2-7b-2xa100-80-tp2-*)", "0.10.1.1", "2x A100 80GB, one node", 0.12,
        "0.12 GiB less pool a rank than one GPU: NCCL and custom all-reduce (18 MiB of it by the source, "
        "custom_all_reduce_bytes(2)); vllm_releases.NON_TORCH_TP_BYTES"),
    MeasuredPoint(
        "https://github.com/vllm-project/vllm/issues/9699", "issue description: NCCL's INFO line",
        "0.6.3 (the issue's date, 2024-10-25; V0 engine)", "8x H200, NVSwitch", 2415919104 / GiB,
        "'NVLS comm ... nHeads 8 buffSize 4194304 memSize 2097152 nvlsPerRankSize 301989888 nvlsTotalSize "
        "2415919104': NVLink SHARP's buffers, 2.25 GiB a GPU (NCCL's nvls.cc allocates nvlsTotalSize of "
        "unicast memory on each), and fewer GPU blocks than with NCCL_NVLS_ENABLE=0"),
    MeasuredPoint(
        "https://github.com/vllm-project/vllm/pull/18242", "PR description, 'GPU Memory Buffer and Tensor Memory "
        "Pool'", "0.9 (the PR's date)", "one NCCL group, any GPU", 100 / 1024,
        "'When NCCL_MAX_NCHANNELS=16, an NCCL group typically occupies 100MB, while when NCCL_MAX_NCHANNELS=8, "
        "it usually takes up 52MB'"),
)

#: From 0.11.0 vLLM sets NCCL up before its first memory snapshot (``communication_in_budget``), but not all
#: of it: the tensor-parallel group's torch device group is made without a ``device_id``
#: (``torch.distributed.new_group`` in vllm/distributed/parallel_state.py, 0.11.0 l.220 and l.1062, 0.19.0
#: l.1422), so PyTorch creates its NCCL communicator at the group's first collective, the logits all-gather of
#: the profile run's sampler pass (model_executor/layers/logits_processor.py l.77 / l.83,
#: device_communicators/base_device_communicator.py ``all_gather`` → ``torch.distributed.all_gather_into_tensor``,
#: l.143 / l.196 in 0.11.0 / 0.19.0; from 0.25.0 CudaCommunicator.all_gather runs on PyNccl's communicator, made
#: before the snapshot: ``Rules.lazy_tp_communicator``). That communicator's buffers are inside ``memory_profiling`` and count as
#: non-torch increase. Their size is NCCL's (channels, peers, NVLink SHARP buffers where the switch has them and
#: cuMem is on, as it is from 0.11.0): measured, per GPU and link. llm-d-planner's H100 SXM sweep under vLLM
#: 0.19.0 prints the non-torch increase of each run (DEBUG "Memory profiling takes ..."): 0.24–0.27 GiB at TP 1,
#: 2.06–2.21 GiB at TP 2 and 4, 0.07 GiB under pipeline parallelism (no TP group). The figure is taken from the
#: two models run at TP 1, 2 and 4 (Llama-3.1-8B-Instruct: 0.25 → 2.07, 2.13; Qwen2.5-7B-Instruct: 0.24 →
#: 2.06, 2.13): the increase over TP 1, 1.82–1.89 GiB, median 1.85; the sweep's other TP 2 / TP 4 runs are the
#: test (engines.startup_log_table, rows llmd-*). Two L40S over PCIe (0.16.0) rebuild without any such term.
_LLMD = ("https://github.com/llm-d-incubation/llm-d-planner/blob/d3121e059da8/accuracy/results/v0.19.0/logs/")
TP_COMMUNICATOR_MEASURED: dict[str, MeasuredPoint] = {
    "h100-sxm": MeasuredPoint(
        _LLMD + "meta-llama-llama-3-1-8b---h100-80gb--tp2pp1dp1--8192.log",
        "DEBUG 'non-torch forward increase memory' of the TP 1, 2 and 4 runs of Llama-3.1-8B-Instruct and "
        "Qwen2.5-7B-Instruct (the same directory, *--tp1pp1dp1--8192.log, *--tp4pp1dp1--8192.log)", "0.19.0",
        "H100 80GB HBM3 (SXM; accuracy/k8s/vllm-job-reference.yaml's node label NVIDIA-H100-80GB-HBM3)", 1.85,
        "the non-torch increase at TP 2 / TP 4 less the same model's at TP 1: 1.82 / 1.89 GiB (Llama-3.1-8B), "
        "1.82 / 1.89 GiB (Qwen2.5-7B); the sweep's other TP 2 and TP 4 runs print 2.07–2.21 GiB against "
        "0.24–0.27 at TP 1 (1.81–1.96 over it)"),
}
#: The same platform (Hopper SXM on NVSwitch, NVLink SHARP) without a measurement of its own: the H100's figure.
TP_COMMUNICATOR_SAME_AS = {"h200": "h100-sxm"}


def _tp_communicator_counted(tensor_parallel: int, version: str) -> bool:
    """Whether this release makes the TP group's torch communicator inside the profile run (0.11.0 to 0.24.x:
    ``Rules.lazy_tp_communicator``; before, the whole distributed set-up is in ``NON_TORCH_TP_BYTES``; from 0.25.0
    the all-gather runs on PyNccl's communicator, made before the snapshot)."""
    return tensor_parallel >= 2 and rules(version).lazy_tp_communicator


def _tp_communicator_point(gpu_id: str) -> MeasuredPoint | None:
    """The measurement that stands for this GPU (its own, or its platform's); None where none was made."""
    return TP_COMMUNICATOR_MEASURED.get(TP_COMMUNICATOR_SAME_AS.get(gpu_id, gpu_id))


def tp_communicator_bytes(gpu_id: str, tensor_parallel: int, version: str) -> float:
    """NCCL's buffers for the TP group's torch communicator that the budget counts on this GPU, where the release
    makes it in the profile run and the GPU's figure is measured."""
    point = _tp_communicator_point(gpu_id)
    return point.gib * GiB if point and _tp_communicator_counted(tensor_parallel, version) else 0.0


def tp_communicator_note(gpu, tensor_parallel: int, version: str) -> str:
    """What the reader is told of the TP group's NCCL communicator on ``gpu`` (a hardware.GPU): counted at
    its measured size, or not measured on this GPU; "" when the release does not count it."""
    if not _tp_communicator_counted(tensor_parallel, version):
        return ""
    h100 = TP_COMMUNICATOR_MEASURED["h100-sxm"]
    why = (f"vLLM {version} makes the tensor-parallel group's torch NCCL communicator at its first collective, in "
           f"the profile run, so its buffers come off the KV budget (0.11.0 to 0.24.x; from 0.25.0 that collective "
           f"runs on PyNccl's communicator, made earlier). Their size is NCCL's, from the link and its version")
    if _tp_communicator_point(gpu.id):
        return (f"{why}: {h100.gib:.2f} GiB a GPU is counted, as measured on H100 SXM under 0.19.0 (1.81–1.96 GiB "
                f"over TP 1 in llm-d-planner's sweep)"
                + (", taken for the H200 on the same NVSwitch platform." if gpu.id != "h100-sxm" else "."))
    return (f"{why}; not measured on the {gpu.name}, so not counted here: on H100 SXM it is {h100.gib:.2f} GiB a "
            f"GPU (1.81–1.96), which over NVSwitch the pool here would be short of; over PCIe two L40S show none.")


# -- unified memory ----------------------------------------------------------------------------------------

#: The compute capabilities whose free memory vLLM read from the host, 0.12.0 to 0.19.1
#: (``shared_sysmem_device_mem_sms = ((8, 7), (11, 0), (12, 1))  # Orin, Thor, Spark``,
#: vllm/utils/mem_utils.py 0.12.0 l.86, 0.19.1 l.105).
UMA_COMPUTE_CAPABILITIES = ((8, 7), (11, 0), (12, 1))


def free_memory_reading(version: str, compute_capability: tuple = (), integrated: bool = False) -> str:
    """Where vLLM's memory snapshot takes the free memory from on this device: "cudaMemGetInfo" or
    "MemAvailable" (``psutil.virtual_memory().available``, the host's /proc/meminfo).

    Up to 0.11.x every GPU reads cudaMemGetInfo (0.11.0 vllm/utils/__init__.py l.2734), which on a
    unified-memory device counts the page cache as used; 0.12.0–0.19.1 read MemAvailable on the three
    compute capabilities of :data:`UMA_COMPUTE_CAPABILITIES`; from 0.20.0 on every device whose CUDA
    attribute ``is_integrated`` is set (``Platform.is_integrated_gpu``, vllm PR #35356, opened
    2026-02-26, which names GH200 beside DGX Spark and Jetson; the GH200's attribute was not read here).
    """
    v = parse_version(version)
    if v >= (0, 20):
        return "MemAvailable" if integrated else "cudaMemGetInfo"
    if v >= (0, 12):
        return "MemAvailable" if tuple(compute_capability) in UMA_COMPUTE_CAPABILITIES else "cudaMemGetInfo"
    return "cudaMemGetInfo"


#: What public logs show of the pools a host leaves a unified-memory GPU: the same recipe booted
#: twice on one GB10 pair printed two pools 2.14 GiB apart, "leftover UMA moves a bit with graph
#: estimate / cache pressure" in the kit's words.
UMA_POOL_BANDS: tuple[MeasuredPoint, ...] = (
    MeasuredPoint("https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/47",
                  "comment by MiaAI-Lab, 2026-08-30", "an EXL3 fork of vLLM (is_integrated path)",
                  "2 x GB10, utilization 0.87, max_model_len 1,000,000", 16.53,
                  "'KV on that same boot (vision on): 16.53 GiB available' where 'The README 18.67 GiB / 1.75M / "
                  "690 blocks was an earlier boot of the same recipe'"),
    MeasuredPoint("https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/47",
                  "comment by MiaAI-Lab, 2026-08-30 (the README's boot)", "an EXL3 fork of vLLM (is_integrated path)",
                  "2 x GB10, utilization 0.87, max_model_len 1,000,000", 18.67, "'The README 18.67 GiB'"),
)


def unified_memory_note(gpu, version: str) -> str:
    """What the KV pool of ``gpu`` (a hardware.GPU) owes to the host, for release ``version``; "" on a
    GPU with memory of its own.

    vLLM's budget is ``requested − (weights + peak + non-torch increase)``, each increase the change in
    ``total − free`` between the worker's first snapshot and the end of the profile run
    (``MemorySnapshot.measure`` and ``memory_profiling``, vllm/utils/mem_utils.py at a6d5c390,
    https://github.com/vllm-project/vllm/blob/a6d5c39009eb73797b276cc557ca9659c396ca14/vllm/utils/mem_utils.py).
    On an integrated GPU ``free`` is the host's MemAvailable (:func:`free_memory_reading`), so whatever the
    host allocates between the two snapshots — the engine's own CPU-side memory included — counts as
    non-torch memory and comes off the pool; before 0.12 the driver's free memory also counted the page
    cache as used. The size depends on the host: no rule gives it, the note quotes the band logs show.
    """
    if not getattr(gpu, "integrated", False):
        return ""
    reading = free_memory_reading(version, gpu.compute_capability, True)
    low = min(p.gib for p in UMA_POOL_BANDS)
    high = max(p.gib for p in UMA_POOL_BANDS)
    source = "the host's available memory (MemAvailable)" if reading == "MemAvailable" else (
        "the driver's free memory, which on unified memory counts the host's page cache as used")
    return (f"Unified memory: vLLM {version} reads this GPU's free memory from {source}, so whatever the host "
            f"allocates while vLLM loads and profiles (its own CPU-side memory included) comes off this pool; "
            f"the figure here is a host that does nothing else. One recipe booted twice on the same GB10 pair "
            f"printed {high:.2f} and {low:.2f} GiB ({(low - high) / high * 100:+.0f} %).")


# -- CUDA graphs -------------------------------------------------------------------------------------------

def cudagraph_capture_sizes(max_num_seqs: int, max_num_batched_tokens: int,
                            data_center_blackwell: bool = False) -> list[int]:
    """The batch sizes vLLM captures by default (``VllmConfig._set_cudagraph_sizes``, vllm/config/vllm.py
    0.29.0 l.1940): 1, 2, 4, multiples of 8 below 256, multiples of 16 from 256, up to
    min(max_num_seqs × 2, 512 — 1,024 on data-centre Blackwell), none above
    max_num_batched_tokens, which is added when it falls below that ceiling off the stride. Without
    speculative decoding (one token a request); with it 0.29.0 adds request-count multiples of the
    query length, not modelled here."""
    ceiling = 1024 if data_center_blackwell else 512
    largest = min(max_num_seqs * 2, ceiling)
    sizes = [1, 2, 4] + list(range(8, 256, 8)) + list(range(256, largest + 1, 16))
    sizes = [s for s in sizes if s <= largest and s <= max_num_batched_tokens]
    if max_num_batched_tokens <= largest and max_num_batched_tokens not in sizes:
        sizes.append(max_num_batched_tokens)
    return sorted(sizes)


def graphs_profiled(max_num_seqs: int, max_num_batched_tokens: int,
                    data_center_blackwell: bool = False) -> tuple[int, int]:
    """(PIECEWISE graphs, FULL decode graphs) as "Profiling CUDA graph memory: PIECEWISE=n (largest=a),
    FULL=m (largest=b)" prints them: every capture size for the mixed batches, and the sizes up to
    max_num_seqs for the uniform decode batches (``FULL_AND_PIECEWISE``, the default
    mode). ``profile_cudagraph_memory`` captures the two largest of each for real and extrapolates
    the rest from the second's drop in free memory: the estimate is measured, not sized."""
    sizes = cudagraph_capture_sizes(max_num_seqs, max_num_batched_tokens, data_center_blackwell)
    full = [s for s in sizes if s <= max_num_seqs]
    return len(sizes), len(full)


#: "Estimated CUDA graph memory: X GiB total" as public logs print it, per GPU, with the settings that
#: fix the capture sizes. The same model, GPU and release print 0.08 GiB at 51 + 35 sizes and 1.21 GiB
#: at 11 + 7 (NOTES.md): the second capture's drop, multiplied by n − 1, is whatever the allocator did
#: then, so the figure does not follow the sizes.
PRINTED_CUDA_GRAPH_ESTIMATES: tuple[MeasuredPoint, ...] = (
    MeasuredPoint("https://github.com/noonghunna/club-3090/issues/652", "issue description: the startup log",
                  "0.24.0", "RTX 5090, max_num_seqs 1 (capture sizes [1, 2])", 0.41,
                  "'Estimated CUDA graph memory: 0.41 GiB total' (startup_log_table row qwen36-35b-nvfp4-5090-652)"),
    MeasuredPoint("https://github.com/gpustack/runner/pull/251", "turn 4: the startup log",
                  "0.27.1", "2 GPUs, TP 2", 0.36,
                  "'Profiling CUDA graph memory: PIECEWISE=16 (largest=16)' then 'Estimated CUDA graph memory: "
                  "0.36 GiB total'"),
    MeasuredPoint("https://github.com/noonghunna/club-3090/issues/127", "issue description: the startup log",
                  "0.21 or later (the log: 'default since v0.21.0')", "4 of 6 RTX 3090, TP 4", 0.17,
                  "'Estimated CUDA graph memory: 0.17 GiB total'"),
    MeasuredPoint("https://github.com/djangodevreng/dgx-spark-benchmarks/blob/"
                  "5636536703fb6fe6a4992f68162b93fa03e7f15e/results/", "the Qwen3.6-35B-A3B run's log",
                  "0.19.2rc1.dev134", "GB10, 51 + 35 sizes", 0.93,
                  "'Estimated CUDA graph memory: 0.93 GiB total'"),
    MeasuredPoint("https://github.com/djangodevreng/dgx-spark-benchmarks/blob/"
                  "5636536703fb6fe6a4992f68162b93fa03e7f15e/results/", "the Nemotron-3-Nano-4B run's log",
                  "0.19.2rc1.dev134", "GB10, 51 + 35 sizes (a Mamba-2 hybrid)", 2.44,
                  "'Estimated CUDA graph memory: 2.44 GiB total'"),
)


def printed_cuda_graph_band() -> tuple[float, float]:
    """The lowest and highest estimate the public logs print (GiB a GPU)."""
    values = [p.gib for p in PRINTED_CUDA_GRAPH_ESTIMATES]
    return min(values), max(values)
