"""The GPU-to-GPU links tensor parallelism runs over, for every GPU in llm_inference.hardware.

Tensor parallelism all-reduces the activations twice per layer per decode step (after attention
and after the MLP). At decode the messages are small — batch × hidden × 2 bytes, a few KiB to a
few MiB — so what limits the step is the link's *latency* per all-reduce, times 2 × layers, more
than its bandwidth. Bandwidths here are per GPU:

* ``link_bandwidth``: the vendor's per-GPU figure, both directions added (NVLink 4: 900 GB/s =
  18 links × 25 GB/s × 2 directions); ``per_direction`` is half of it.
* ``pcie_bandwidth``: the host link (PCIe x16), both directions added.
* ``allreduce_small_us``: a measured small-message all-reduce latency where a public measurement
  was found (None where none was: see ``latency_note``).

Bytes per second are decimal, as datasheets give them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["Link", "LINKS", "tp_allreduce_overhead_ms", "GPUS_PER_NODE", "CROSS_NODE_ALLREDUCE_US",
           "allreduce_latency_us", "allreduce_bandwidth"]

#: GPUs in one server (HGX/DGX boards, MI300X platforms): a tensor-parallel group larger than this
#: spans nodes and all-reduces over the network.
GPUS_PER_NODE = 8
#: Small all-reduces across two nodes over InfiniBand NDR: ~46–48 µs (NCCL issue #1244, 16 × H20).
CROSS_NODE_ALLREDUCE_US = 47.0


@dataclass(frozen=True)
class Link:
    gpu_id: str
    link: str  # what tensor parallelism between two such GPUs in one server goes over
    generation: str
    link_bandwidth: float  # bytes/s per GPU, both directions; 0 where there is no GPU-to-GPU link
    pcie: str
    pcie_bandwidth: float  # bytes/s per GPU, both directions
    allreduce_small_us: float | None
    latency_note: str
    sources: tuple[str, ...]

    @property
    def per_direction(self) -> float:
        return self.link_bandwidth / 2


_NCCL_1259 = "https://github.com/NVIDIA/nccl/issues/1259"
_NCCL_TESTS_212 = "https://github.com/NVIDIA/nccl-tests/issues/212"
_NCCL_1161 = "https://github.com/NVIDIA/nccl/issues/1161"
_NCCL_1244 = "https://github.com/NVIDIA/nccl/issues/1244"
_ROCM_XGMI = "https://rocm.blogs.amd.com/software-tools-optimization/mi300x-rccl-xgmi/README.html"
_TINYGRAD_P2P = "https://github.com/tinygrad/open-gpu-kernel-modules/issues/17"
_NCCL_1530 = "https://github.com/NVIDIA/nccl/issues/1530"
_NCCL_1439 = "https://github.com/NVIDIA/nccl/issues/1439"

_H100_SMALL = ("About 6 µs for 128 B–64 KiB all-reduces on 2 H100 SXM (NCCL 2.20.5, NVLSTree, CUDA "
               "graphs), rising with the GPU count (NCCL issue #1259). Effective NVLink bus "
               "bandwidth ~370 GB/s per direction of the 450 GB/s line rate; NVLink SHARP reaches "
               "~480 GB/s bus bandwidth on 8 GPUs (NCCL maintainer, nccl-tests #212). Across two "
               "nodes (InfiniBand NDR) small all-reduces take ~46–48 µs (NCCL issue #1244, 16 × H20).")

LINKS: dict[str, Link] = {
    link.gpu_id: link
    for link in (
        Link("h100-sxm", "NVLink through NVSwitch (HGX 8-GPU board)", "NVLink 4", 900e9,
             "PCIe Gen5 x16", 128e9, 6.0, _H100_SMALL,
             ("NVIDIA H100 Tensor Core GPU datasheet (SXM5): NVLink 900 GB/s, PCIe Gen5 128 GB/s",
              _NCCL_1259, _NCCL_TESTS_212, _NCCL_1244)),
        Link("h100-pcie", "PCIe, or an NVLink bridge between two cards", "PCIe Gen5 / NVLink 4 bridge",
             600e9, "PCIe Gen5 x16", 128e9, None,
             "No small-message figure found. A bridged pair all-reduced 1–8 GB at ~116 GB/s bus "
             "bandwidth (NCCL issue #1161, whose title reports it lower than on A100 SXM4). "
             "Without the bridge, traffic crosses PCIe (64 GB/s per direction).",
             ("NVIDIA H100 datasheet (PCIe): NVLink bridge 600 GB/s for 2 GPUs, PCIe Gen5 128 GB/s",
              _NCCL_1161)),
        Link("h200", "NVLink through NVSwitch (HGX 8-GPU board)", "NVLink 4", 900e9,
             "PCIe Gen5 x16", 128e9, 6.0,
             "Same NVLink 4 fabric as the H100 SXM; the H100 measurement applies. " + _H100_SMALL,
             ("NVIDIA H200 Tensor Core GPU datasheet (SXM): NVLink 900 GB/s, PCIe Gen5 128 GB/s",
              _NCCL_1259, _NCCL_TESTS_212)),
        Link("a100-80g", "NVLink through NVSwitch (HGX 8-GPU board)", "NVLink 3", 600e9,
             "PCIe Gen4 x16", 64e9, None,
             "No small-message figure found (nccl-tests prints one per size; the threads found were "
             "truncated before the small sizes).",
             ("NVIDIA A100 Tensor Core GPU datasheet: NVLink 600 GB/s (SXM), PCIe Gen4 64 GB/s",)),
        Link("a100-40g", "NVLink through NVSwitch (SXM); NVLink bridge pairs (PCIe card)", "NVLink 3",
             600e9, "PCIe Gen4 x16", 64e9, None,
             "No small-message figure found. hardware.py does not say SXM or PCIe: both list 600 GB/s "
             "of NVLink (the PCIe card only between two bridged cards).",
             ("NVIDIA A100 Tensor Core GPU datasheet: NVLink 600 GB/s (SXM; PCIe with bridge for 2 "
              "GPUs), PCIe Gen4 64 GB/s",)),
        Link("l40s", "PCIe (no NVLink)", "PCIe Gen4", 0.0, "PCIe Gen4 x16", 64e9, None,
             "No NVLink: all-reduces cross PCIe and usually the CPU's root complex. No measured "
             "small-message latency found.",
             ("NVIDIA L40S datasheet: PCIe Gen4 x16 64 GB/s bidirectional, NVLink not supported",)),
        Link("rtx-4090", "PCIe (no NVLink; peer-to-peer disabled by the GeForce driver)", "PCIe Gen4",
             0.0, "PCIe Gen4 x16", 64e9, 42.56,
             "No NVLink, and the stock driver refuses GPU peer-to-peer, so NCCL stages through host "
             "memory (tinygrad's patched open kernel modules re-enable P2P; its issue #17 benchmarks "
             "8 × 4090 both ways). An 8-byte all-reduce over 8 × RTX 4090 on PCIe took 42.56 µs "
             "(NCCL_ALGO=TREE, nccl-tests all_reduce_perf; NCCL issue #1530).",
             ("NVIDIA Ada Lovelace architecture whitepaper (RTX 4090): PCIe Gen4 x16, no NVLink",
              _TINYGRAD_P2P, _NCCL_1530)),
        Link("rtx-3090", "PCIe, or an NVLink bridge between two cards", "PCIe Gen4 / NVLink 3 bridge", 112.5e9,
             "PCIe Gen4 x16", 64e9, 54.18,
             "An 8-byte all-reduce over 8 × RTX 3090 took 54.18 µs (nccl-tests all_reduce_perf, NCCL issue "
             "#1439); the NVLink bridge (112.5 GB/s) joins pairs only.",
             ("NVIDIA Ampere GA102 whitepaper (RTX 3090): NVLink 3 bridge 112.5 GB/s, PCIe Gen4 x16", _NCCL_1439)),
        Link("b200", "NVLink through NVSwitch (HGX/DGX B200)", "NVLink 5", 1.8e12,
             "PCIe Gen5 x16", 128e9, None,
             "No small-message figure found.",
             ("NVIDIA DGX B200 / HGX B200 datasheet: NVLink 5, 1.8 TB/s per GPU (14.4 TB/s for 8)",)),
        Link("mi300x", "AMD Infinity Fabric (xGMI), fully connected 8-GPU mesh", "Infinity Fabric (xGMI)",
             896e9, "PCIe Gen5 x16", 128e9, None,
             "Each GPU has a direct xGMI link to each of its 7 peers, 64 GB/s per direction per link "
             "(7 × 64 × 2 = 896 GB/s); CRC and protocol overhead leave ~48 GB/s per link usable "
             "(AMD ROCm blog, 2025-03-02). One pair of GPUs talks over one link only. No "
             "small-message latency found.",
             ("AMD Instinct MI300X datasheet: 896 GB/s peak aggregate Infinity Fabric, PCIe Gen5 x16",
              _ROCM_XGMI)),
        # the GPUs added for issue #18: their datasheets' links; no small-message latency measured
        Link("t4", "PCIe (no NVLink)", "PCIe Gen3", 0.0, "PCIe Gen3 x16", 32e9, None,
             "No NVLink: all-reduces cross PCIe. No measured small-message latency found.",
             ("NVIDIA T4 datasheet: PCIe Gen3 x16 (32 GB/s bidirectional), no NVLink",)),
        Link("l4", "PCIe (no NVLink)", "PCIe Gen4", 0.0, "PCIe Gen4 x16", 64e9, None,
             "No NVLink: all-reduces cross PCIe. No measured small-message latency found.",
             ("NVIDIA L4 datasheet: PCIe Gen4 x16 64 GB/s, no NVLink",)),
        Link("a40", "PCIe (an optional NVLink bridge joins two boards only)", "PCIe Gen4", 0.0, "PCIe Gen4 x16",
             64e9, None,
             "Tensor parallelism over more than a bridged pair crosses PCIe; the bridge (112.5 GB/s) is not "
             "assumed. No measured small-message latency found.",
             ("NVIDIA A40 datasheet: PCIe Gen4 x16 64 GB/s; NVLink 112.5 GB/s bidirectional with a 2-way "
              "bridge",)),
        Link("a10g", "PCIe (no NVLink on AWS's A10G instances)", "PCIe Gen4", 0.0, "PCIe Gen4 x16", 64e9, None,
             "No GPU-to-GPU link on g5 instances: all-reduces cross PCIe. No measured latency found.",
             ("NVIDIA A10 datasheet: PCIe Gen4 x16 64 GB/s",)),
        Link("l40", "PCIe (no NVLink)", "PCIe Gen4", 0.0, "PCIe Gen4 x16", 64e9, None,
             "No NVLink: all-reduces cross PCIe. No measured small-message latency found.",
             ("NVIDIA L40 datasheet: PCIe Gen4 x16 64 GB/s, NVLink not supported",)),
        Link("rtx-5090", "PCIe (no NVLink)", "PCIe Gen5", 0.0, "PCIe Gen5 x16", 128e9, None,
             "No NVLink on GeForce Blackwell: all-reduces cross PCIe. No measured latency found.",
             ("NVIDIA RTX Blackwell architecture whitepaper (RTX 5090): PCIe Gen5 x16, no NVLink",)),
        Link("rtx-pro-6000", "PCIe (no NVLink)", "PCIe Gen5", 0.0, "PCIe Gen5 x16", 128e9, None,
             "No NVLink: all-reduces cross PCIe. No measured small-message latency found.",
             ("NVIDIA RTX PRO 6000 Blackwell datasheet: PCIe Gen5 x16 128 GB/s, no NVLink",)),
        Link("rtx-6000-ada", "PCIe (no NVLink)", "PCIe Gen4", 0.0, "PCIe Gen4 x16", 64e9, None,
             "No NVLink: all-reduces cross PCIe. No measured small-message latency found.",
             ("NVIDIA RTX 6000 Ada datasheet: PCIe Gen4 x16, no NVLink",)),
        Link("gh200", "NVLink 4 between superchips (NVLink Switch systems); NVLink-C2C to its Grace CPU",
             "NVLink 4", 900e9, "NVLink-C2C 900 GB/s (to the CPU)", 900e9, None,
             "No small-message figure found.",
             ("NVIDIA GH200 datasheet: NVLink 900 GB/s GPU-to-GPU, NVLink-C2C 900 GB/s CPU-GPU",)),
        Link("gb200", "NVLink through NVLink Switch trays (NVL72)", "NVLink 5", 1.8e12, "NVLink-C2C (to Grace)",
             900e9, None, "No small-message figure found.",
             ("NVIDIA GB200 NVL72 datasheet: NVLink 5, 1.8 TB/s per GPU",)),
        Link("b300", "NVLink through NVSwitch (HGX B300)", "NVLink 5", 1.8e12, "PCIe Gen6 x16", 256e9, None,
             "No small-message figure found.",
             ("NVIDIA HGX B300 datasheet: NVLink 5, 1.8 TB/s per GPU",)),
        Link("gb10", "ConnectX-7 network between two DGX Sparks (no NVLink)", "ConnectX-7 200 Gb/s", 0.0,
             "ConnectX-7 (200 Gb/s)", 25e9, None,
             "A second DGX Spark is reached over the network: tensor parallelism across two is slow.",
             ("NVIDIA DGX Spark datasheet: ConnectX-7 Smart NIC, 200 Gb/s",)),
        Link("h20", "NVLink through NVSwitch (HGX H20)", "NVLink 4", 900e9, "PCIe Gen5 x16", 128e9, None,
             "The H100's NVLink; no small-message figure for the H20 found (NCCL issue #1244 measured "
             "cross-node all-reduces on 16 × H20).",
             ("NVIDIA HGX H20 specifications: NVLink 900 GB/s", _NCCL_1244)),
        Link("mi325x", "AMD Infinity Fabric (xGMI), fully connected 8-GPU mesh", "Infinity Fabric (xGMI)",
             896e9, "PCIe Gen5 x16", 128e9, None,
             "The MI300X's fabric: 7 links × 64 GB/s per direction. No small-message latency found.",
             ("AMD Instinct MI325X datasheet: 896 GB/s peak aggregate Infinity Fabric",)),
        Link("mi355x", "AMD Infinity Fabric (xGMI), fully connected 8-GPU mesh", "Infinity Fabric (xGMI)",
             1075e9, "PCIe Gen5 x16", 128e9, None,
             "7 links, 153.6 GB/s each (both directions). No small-message latency found.",
             ("AMD Instinct MI355X datasheet: 1,075 GB/s peak aggregate Infinity Fabric",)),
    )
}
# The 48 GB RTX 4090 board is the same chip on the same PCIe Gen4 bus: the 24 GB card's link, named so.
LINKS["rtx-4090-48g"] = replace(LINKS["rtx-4090"], gpu_id="rtx-4090-48g")


def tp_allreduce_overhead_ms(layers: int, allreduce_us: float, allreduces_per_layer: int = 2) -> float:
    """Time a decode step spends in tensor-parallel all-reduces when each is latency-bound:
    layers × all-reduces per layer (2: after attention and after the MLP) × latency."""
    return layers * allreduces_per_layer * allreduce_us / 1e3


def allreduce_latency_us(gpu_id: str, gpus: int) -> tuple[float, str]:
    """(latency of one small all-reduce in µs, how the figure was chosen) for ``gpus`` GPUs.

    Measured where the table has a figure; across nodes (more than :data:`GPUS_PER_NODE` GPUs)
    the InfiniBand figure; otherwise an assumption, said in the returned note: NVLink- and
    xGMI-class GPUs take the H100's 6 µs (a lower bound: no slower fabric was measured), PCIe-only
    GPUs the RTX 4090's 42.56 µs.
    """
    if gpus <= 1:
        return 0.0, ""
    if gpus > GPUS_PER_NODE:
        return CROSS_NODE_ALLREDUCE_US, (f"{gpus} GPUs span nodes: {CROSS_NODE_ALLREDUCE_US:g} µs per "
                                         "all-reduce over InfiniBand (NCCL issue #1244)")
    link = LINKS[gpu_id]
    if link.allreduce_small_us is not None:
        return link.allreduce_small_us, ""
    if link.link_bandwidth > 0:
        h100 = LINKS["h100-sxm"].allreduce_small_us
        return h100, (f"no measured all-reduce latency for this GPU's {link.generation}: the H100's "
                      f"{h100:g} µs is assumed (a lower bound)")
    pcie = LINKS["rtx-4090"].allreduce_small_us
    return pcie, f"no measured all-reduce latency on this PCIe GPU: the RTX 4090's {pcie:g} µs is assumed"


def allreduce_bandwidth(gpu_id: str, gpus: int) -> float:
    """Bytes/s one GPU sends in an all-reduce: NVLink (or xGMI) per direction, else PCIe per
    direction; across nodes one 400 Gb/s NIC per GPU (50 GB/s, InfiniBand NDR)."""
    if gpus > GPUS_PER_NODE:
        return 50e9
    link = LINKS[gpu_id]
    return (link.link_bandwidth or link.pcie_bandwidth) / 2
