"""The budget terms vLLM measures (llm_inference.engines.vllm_measured), against derivations by hand
from vLLM's source and against what its logs print."""

from __future__ import annotations

import pytest

from llm_inference.engines import vllm_measured as m
from llm_inference.engines.vllm_releases import NON_TORCH_TP_BYTES

MiB = 1 << 20


def test_custom_all_reduce_allocates_two_ipc_buffers_in_whole_pages():
    # metadata: meta_size() (a few KiB) + 8 MiB -> 5 pages of 2 MiB; input buffer: 8 MiB -> 4 pages;
    # rank_data: an 8 MiB torch tensor
    assert m.custom_all_reduce_bytes(2) == (18 * MiB, 8 * MiB)
    assert m.custom_all_reduce_bytes(8) == (18 * MiB, 8 * MiB)


@pytest.mark.parametrize("world, same_node, nvlink, p2p, on", [
    (1, True, True, True, False),  # nothing to reduce
    (3, True, True, True, False),  # not a supported world size
    (4, False, True, True, False),  # spans nodes
    (4, True, False, True, False),  # more than two PCIe-only GPUs
    (2, True, False, True, True),  # two PCIe GPUs with working P2P
    (2, True, False, False, False),  # the P2P test fails
    (8, True, True, True, True),
])
def test_when_custom_all_reduce_sets_itself_up(world, same_node, nvlink, p2p, on):
    assert m.custom_all_reduce_enabled(world, same_node, nvlink, p2p) is on
    assert (m.custom_all_reduce_bytes(world, same_node, nvlink, p2p)[0] > 0) is on


def test_the_communication_buffers_count_up_to_0_10_only():
    assert m.communication_in_budget("0.10.1.1")
    assert not m.communication_in_budget("0.11.0")
    assert not m.communication_in_budget("0.29.0")


def test_the_measured_nccl_share_holds_custom_all_reduce():
    a100 = m.NCCL_MEASURED[0]
    assert a100.gib == pytest.approx(NON_TORCH_TP_BYTES / (1 << 30))
    # custom all-reduce is 18 MiB of the 0.12 GiB the two-GPU A100 logs leave; the rest is NCCL's
    assert m.custom_all_reduce_bytes(2)[0] < NON_TORCH_TP_BYTES
    nvls = m.NCCL_MEASURED[1]
    assert nvls.gib == pytest.approx(8 * 301989888 / (1 << 30))  # nHeads x nvlsPerRankSize
    for point in m.NCCL_MEASURED:
        assert point.url.startswith("https://") and point.shows


@pytest.mark.parametrize("version, cc, integrated, reading", [
    ("0.11.0", (12, 1), True, "cudaMemGetInfo"),  # before any unified-memory path
    ("0.12.0", (12, 1), True, "MemAvailable"),  # GB10 by its compute capability
    ("0.19.1", (8, 7), True, "MemAvailable"),  # Jetson Orin
    ("0.19.1", (9, 0), True, "cudaMemGetInfo"),  # a 9.0 UMA part is not in the tuple
    ("0.20.0", (9, 0), True, "MemAvailable"),  # is_integrated from 0.20.0
    ("0.20.0", (12, 1), False, "cudaMemGetInfo"),
    ("0.29.0", (12, 1), True, "MemAvailable"),
])
def test_where_the_free_memory_comes_from(version, cc, integrated, reading):
    assert m.free_memory_reading(version, cc, integrated) == reading


def test_unified_memory_note_names_the_reading_and_the_band():
    """MemorySnapshot.measure (mem_utils.py at a6d5c390): on an integrated GPU free memory is the host's
    MemAvailable (0.12 on), so the host's allocations between the snapshots come off the pool; the
    note quotes the two boots of one GB10 recipe (18.67 and 16.53 GiB: (16.53 - 18.67) / 18.67 = -11 %).
    A GPU with memory of its own gets none."""
    from llm_inference.hardware import GPUS
    note = m.unified_memory_note(GPUS["gb10"], "0.33.0")
    assert "MemAvailable" in note and "18.67 and 16.53 GiB (-11 %)" in note
    assert "page cache" in m.unified_memory_note(GPUS["gb10"], "0.11.0")
    assert m.unified_memory_note(GPUS["h100-sxm"], "0.33.0") == "" and GPUS["gb10"].integrated


def test_capture_sizes_as_the_source_lists_them():
    # max_num_seqs 1: largest min(2, 512): sizes [1, 2]; decode graphs up to 1
    assert m.cudagraph_capture_sizes(1, 8192) == [1, 2]
    assert m.graphs_profiled(1, 8192) == (2, 1)
    # 256 sequences: up to 512: 1, 2, 4, 8..248 (31), 256..512 (17) = 51; decode up to 256: 35
    assert m.graphs_profiled(256, 8192) == (51, 35)
    assert m.cudagraph_capture_sizes(256, 8192)[-1] == 512
    # data-centre Blackwell's ceiling is 1,024
    assert m.cudagraph_capture_sizes(1024, 16384, data_center_blackwell=True)[-1] == 1024
    # a batched-token limit below the ceiling caps the sizes and is itself captured
    assert m.cudagraph_capture_sizes(256, 300) == [1, 2, 4] + list(range(8, 256, 8)) + [256, 272, 288, 300]


def test_the_printed_estimates_do_not_follow_the_sizes():
    low, high = m.printed_cuda_graph_band()
    assert (low, high) == (0.17, 2.44)
    # two captured sizes print 0.41 GiB, 86 print 0.93 and 2.44: no rule in the count of graphs
    by_hardware = {p.hardware: p.gib for p in m.PRINTED_CUDA_GRAPH_ESTIMATES}
    assert by_hardware["RTX 5090, max_num_seqs 1 (capture sizes [1, 2])"] == 0.41


# -- the TP group's torch NCCL communicator (0.11.0-0.24.x) ------------------------------------------------------

GIB = 1 << 30


@pytest.mark.parametrize("gpu, tp, version, gib", [
    ("h100-sxm", 2, "0.19.0", 1.85), ("h100-sxm", 4, "0.11.0", 1.85), ("h100-sxm", 8, "0.24.0", 1.85),
    ("h200", 8, "0.19.0", 1.85),  # the same NVSwitch platform, no measurement of its own
    ("h100-sxm", 1, "0.19.0", 0.0),  # no TP group
    ("h100-sxm", 2, "0.10.1", 0.0),  # before 0.11 the whole set-up is NON_TORCH_TP_BYTES
    ("h100-sxm", 2, "0.25.0", 0.0),  # CudaCommunicator.all_gather runs on PyNccl from 0.25.0
    ("l40s", 2, "0.19.0", 0.0), ("b200", 8, "0.19.0", 0.0),  # not measured
])
def test_the_tp_communicator_is_counted_where_and_when_it_is_measured(gpu, tp, version, gib):
    assert m.tp_communicator_bytes(gpu, tp, version) == pytest.approx(gib * GIB)


def test_the_communicators_figure_is_the_non_torch_increase_over_tp1_of_the_runs_it_comes_from():
    """The four derivation runs print 2.07 / 2.13 (Llama-3.1-8B) and 2.06 / 2.13 GiB (Qwen2.5-7B) of non-torch
    increase at TP 2 / 4 against 0.25 and 0.24 at TP 1 (the same sweep): 1.82-1.89 GiB over TP 1, median 1.85."""
    from llm_inference.engines import startup_log_table_tensor_parallel as t
    import re
    tp1 = {"llama-3.1-8b": 0.25, "qwen2.5-7b": 0.24}
    over = sorted(float(re.search(r"non-torch forward increase memory: ([\d.]+)GiB", log.lines[-1]).group(1))
                  - tp1[log.model_id] for log in t.LOGS if log.notes == t._DERIVES)
    assert len(over) == 4 and over[0] == pytest.approx(1.82) and over[-1] == pytest.approx(1.89)
    assert (over[1] + over[2]) / 2 == pytest.approx(m.TP_COMMUNICATOR_MEASURED["h100-sxm"].gib, abs=0.005)


def test_the_reader_is_told_what_is_counted():
    from llm_inference.hardware import GPUS
    counted = m.tp_communicator_note(GPUS["h100-sxm"], 2, "0.19.0")
    assert "1.85 GiB a GPU is counted" in counted
    missing = m.tp_communicator_note(GPUS["b200"], 8, "0.19.0")
    assert "not measured on the" in missing and "not counted here" in missing
    assert m.tp_communicator_note(GPUS["h100-sxm"], 2, "0.25.0") == ""
    assert m.tp_communicator_note(GPUS["h100-sxm"], 1, "0.19.0") == ""
