"""physics/multi_page_pool.py: DeepSeek-V4's and GLM-5.2's pools, derived by hand from vLLM's source
(0.20.0–0.26.0 wheels: vllm/v1/core/kv_cache_utils.py, vllm/v1/kv_cache_interface.py, the DeepSeek-V4
attention, SWA-cache and compressor files, deepseek_v2.py's indexer) and checked on public logs."""

from __future__ import annotations

import pytest

from llm_inference.physics import Layout, multi_page_pool as mpp
from llm_inference.physics.cache_layout import layout
from llm_inference.physics.kv import layer_specs
from llm_inference.physics.placement import place
from llm_inference.scenario import catalogue_model

GiB = 2**30


def _round_up(n, m):
    return -(-n // m) * m


# -- DeepSeek-V4-Flash by hand --------------------------------------------------------------------
# 43 layers (compress_ratios [0, 0] + [4, 128] × 20 + [4]): 21 C4, 20 C128, 2 window-only; fp8_ds_mla
# (584 bytes a token or entry: 448 fp8 + 64 bf16 RoPE + 8 scale bytes), pages padded to 576 bytes.
WINDOW = _round_up(64 * 584, 576)            # DeepseekV4SWACache, 64-token blocks: 37,440
C4 = _round_up(256 // 4 * 584, 576)          # MLAAttentionSpec(compress_ratio=4), 256-token blocks: 37,440
C4_KEYS = _round_up(256 // 4 * 132, 576)     # the indexer's fp8 keys + fp32 scale: 8,448 -> 8,640
C128 = _round_up(256 // 128 * 584, 576)      # 1,168 -> 1,728
C4_STATE = _round_up(4 * 2 * 2 * 512 * 4, 576)    # 4-token blocks of 2 x coff 2 x 512 fp32: 32,768 -> 32,832
C4_KEY_STATE = _round_up(4 * 2 * 2 * 128 * 4, 576)  # the indexer's compressor, head 128: 8,192 -> 8,640
C128_STATE = _round_up(8 * 2 * 1 * 512 * 4, 576)    # 8-token blocks, coff 1: 32,768 -> 32,832


def _flash():
    model = catalogue_model("deepseek-v4-flash")
    return [s for s in layer_specs(model) if s.caches_kv]


def test_flash_pages_by_hand():
    assert (WINDOW, C4, C4_KEYS, C128, C4_STATE, C4_KEY_STATE, C128_STATE) == (
        37_440, 37_440, 8_640, 1_728, 32_832, 8_640, 32_832)
    c4 = next(s for s in _flash() if s.compress_ratio == 4)
    assert {c.name: (c.page, c.block_size, c.window) for c in mpp.v4_caches(c4)} == {
        "window": (WINDOW, 64, 128), "C4 entries": (C4, 256, 0), "C4 state": (C4_STATE, 4, 8),
        "C4 indexer keys": (C4_KEYS, 256, 0), "C4 indexer state": (C4_KEY_STATE, 4, 8)}


def test_flash_groups_tuples_and_block_by_hand():
    """group_and_unify_kv_cache_specs: the compressed group (21 C4 entries, 21 C4 keys, 20 C128
    entries: 21 tuples, the commonest page's count), the windows (64, 128): 43, the C4 states (4, 8):
    21, the C128 states (8, 128): 20. _approximate_gcd([21, 43, 21, 20], from 21): 22 pads 1+1+1+2 = 5
    (21 pads 0+20+0+1 = 21), so 22 tuples; the windows split round-robin into 22 + 21 layers; each
    state page pads up to the nearest compressed page (32,832 -> 37,440; 8,640 stays). The packed
    block (0.23 on): 37,440 x 22 + 8,640 x 21 + 1,728 x 20 = 1,039,680 bytes."""
    assert mpp.approximate_gcd([21, 43, 21, 20], 21) == 22
    pool, problem = mpp.v4_pool(_flash(), "0.25.0")
    assert problem == "" and pool.layer_tuples == 22
    assert [(len(g.pages), g.page, g.block_size, g.window) for g in pool.groups] == [
        (62, 21 * C4 + 21 * C4_KEYS + 20 * C128, 256, 0),  # 1,002,240
        (22, 22 * WINDOW, 64, 128), (21, 21 * WINDOW, 64, 128),
        (42, 21 * C4 + 21 * C4_KEY_STATE, 4, 8),           # the C4 states, padded
        (20, 20 * C4, 8, 128)]
    assert pool.block_bytes == 37_440 * 22 + 8_640 * 21 + 1_728 * 20 == 1_039_680
    # 0.20-0.22 (_get_kv_cache_config_deepseek_v4): 22 of each of the three compressed-group pages
    assert mpp.v4_pool(_flash(), "0.22.0")[0].block_bytes == 22 * (37_440 + 8_640 + 1_728) == 1_051_776


def _flash_request_blocks(length, in_flight):
    """get_max_concurrency_for_kv_cache_config (0.20-0.26): cdiv(sum of pages x group page, the
    compressed group's page); a window or state holds min(window - 1 + in flight, length) tokens + 1 block."""
    def windowed(window, block):
        return -(-min(window - 1 + in_flight, length) // block) + 1
    pages = [(-(-length // 256), 1_002_240), (windowed(128, 64), 22 * WINDOW), (windowed(128, 64), 21 * WINDOW),
             (windowed(8, 4), 21 * C4 + 21 * C4_KEY_STATE), (windowed(128, 8), 20 * C4)]
    return -(-sum(n * page for n, page in pages) // 1_002_240), [n for n, _ in pages]


@pytest.mark.parametrize("version, in_flight", [("0.25.0", 8192), ("0.26.0", 16384)])
def test_flash_blocks_per_request_by_hand(version, in_flight):
    """At 128K with 8,192 batched tokens: 512 compressed pages; 0.25 holds 8,192 tokens in flight
    (131 window pages, 2,051 C4-state and 1,041 C128-state pages), 0.26 twice that (async
    scheduling's two batches, VllmConfig.max_in_flight_tokens)."""
    expected, pages = _flash_request_blocks(131072, in_flight)
    pool, _ = mpp.v4_pool(_flash(), version)
    assert pool.group_pages(131072, 8192) == tuple(pages)
    assert pool.request_blocks(131072, 8192) == expected == {"0.25.0": 3481, "0.26.0": 6429}[version]


def test_flash_in_027_by_hand():
    """0.27.0 keeps each window and state page unpadded (the C4 states 21 x 32,832 + 21 x 8,640 =
    870,912; the C128 states 20 x 32,832 = 656,640), lays each group densely in one slab the groups
    overlap (_get_packed_kv_cache_layout: a block is the largest group, the compressed one,
    1,002,240 bytes) and counts a request as every group's pages summed: 512 + 259 + 259 + 4,099 +
    2,065 = 7,194 at 128K. The start check is unchanged."""
    pool, _ = mpp.v4_pool(_flash(), "0.27.0")
    assert [g.page for g in pool.groups] == [1_002_240, 22 * WINDOW, 21 * WINDOW, 21 * C4_STATE + 21 * C4_KEY_STATE,
                                             20 * C128_STATE]
    assert pool.block_bytes == 1_002_240 and pool.layer_tuples == 22
    assert pool.request_blocks(131072, 8192) == 512 + 259 + 259 + 4099 + 2065 == 7194
    assert pool.start_bytes(131072, 8192) == 22 * 7194 * 47_808


def test_flash_on_8_h200_tp8_by_hand():
    """The figures the chapter quotes: one H200 of a TP-8 deployment at 128K (vLLM 0.26.0) keeps the
    whole pool (every cache is replicated), 1,039,680 bytes a block and 6,429 blocks a request."""
    model = catalogue_model("deepseek-v4-flash")
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H200", version="0.26.0")
    assert (cache.block_size, cache.page_bytes, cache.layers_per_group, cache.problem, cache.unmodelled) == (
        256, 1_039_680, 1, "", "")
    assert cache.request_blocks(131072, 8192) == 6429
    blocks = int(100 * GiB // 1_039_680)
    assert cache.logged_tokens(blocks, blocks / 6429, 131072) == int(blocks / 6429 * 131072)


def test_pro_tuples_by_hand():
    """V4-Pro: 61 layers, 30 C4 and 31 C128 ([128, 128] + [4, 128] x 29 + [4]). Tuples: compressed
    31 (the 31 C128 pages), windows 61, C4 states 30, C128 states 31; _approximate_gcd from 31: 31
    pads 0 + 1 + 1 + 0. Windows split 31 + 30. Block: 37,440 x 31 + 8,640 x 30 + 1,728 x 31."""
    model = catalogue_model("deepseek-v4-pro")
    pool, _ = mpp.v4_pool([s for s in layer_specs(model) if s.caches_kv], "0.25.0")
    assert pool.layer_tuples == 31 and sorted(len(g.pages) for g in pool.groups) == [30, 31, 31, 60, 91]
    assert pool.block_bytes == 37_440 * 31 + 8_640 * 30 + 1_728 * 31 == 1_473_408



# -- DeepSeek-V4's MTP layer ------------------------------------------------------------------------

def test_the_mtp_layer_caches_one_window_by_hand():
    """deepseek_v4.py (0.20.0 l.900-903, 0.21.0 l.956-961) and deepseek_v4/attention.py (0.23.0
    l.176-181, 0.27.0 l.208-213): a layer at or past num_hidden_layers (the MTP layer, model.layers.43)
    takes compress_ratio 1, so it builds no compressor (only "if self.compress_ratio > 1") and no
    indexer (only at 4), its DeepseekV4MLAAttention registers no spec ("compress_ratio <= 1: SWA part.
    Allocated separately as DeepseekV4SWACache") and it keeps one DeepseekV4SWACache: 64-token blocks,
    the 128-token window, 37,440 bytes a page, as every target layer's window."""
    c4 = next(s for s in _flash() if s.compress_ratio == 4)
    mtp = mpp.v4_mtp_layer(c4)
    assert {c.name: (c.page, c.block_size, c.window) for c in mpp.v4_caches(mtp)} == {"window": (WINDOW, 64, 128)}


def test_flash_with_its_mtp_layer_by_hand():
    """44 windows (43 + the MTP layer's). _approximate_gcd([21, 44, 21, 20], from 21): 22 pads 1+0+1+2 = 4
    (21 pads 0+19+0+1), so still 22 tuples; the windows split round-robin 22 + 22; the block is unchanged
    (1,039,680 from 0.23, 1,051,776 in 0.20-0.22), and a request takes one window page more per window
    page it holds: at 200,000 tokens and 8,192 batched (0.21.0: 782 compressed pages, 131 window pages,
    2,051 C4-state and 1,041 C128-state pages) cdiv(782 x 1,002,240 + 131 x 2 x 22 x 37,440 + 2,051 x
    967,680 + 1,041 x 748,800, 1,002,240) = cdiv(3,763,768,320, 1,002,240) = 3,756 (3,751 without)."""
    assert mpp.approximate_gcd([21, 44, 21, 20], 21) == 22
    specs = _flash() + [mpp.v4_mtp_layer(_flash()[-1])]
    for version, block in (("0.21.0", 1_051_776), ("0.25.0", 1_039_680)):
        pool, problem = mpp.v4_pool(specs, version)
        assert problem == "" and pool.layer_tuples == 22 and pool.block_bytes == block
        assert [(len(g.pages), g.window) for g in pool.groups] == [(62, 0), (22, 128), (22, 128), (42, 8), (20, 128)]
    pool, _ = mpp.v4_pool(specs, "0.21.0")
    total = 782 * 1_002_240 + 131 * 2 * 22 * WINDOW + 2051 * 967_680 + 1041 * 748_800
    assert total == 3_763_768_320
    assert pool.group_pages(200000, 8192) == (782, 131, 131, 2051, 1041)
    assert pool.request_blocks(200000, 8192) == -(-total // 1_002_240) == 3756
    assert mpp.v4_pool(_flash(), "0.21.0")[0].request_blocks(200000, 8192) == 3751


def test_pro_with_its_mtp_layer_by_hand():
    """V4-Pro: 62 windows; _approximate_gcd([31, 62, 30, 31], from 31): 31 pads 0+0+1+0, so 31 tuples,
    the windows 31 + 31 (30 + 31 without it), the C4 states 60 (30 tuples), the C128 states 31, the
    compressed group 91 (30 C4, 30 keys, 31 C128); the block unchanged (1,473,408 bytes)."""
    model = catalogue_model("deepseek-v4-pro")
    specs = [s for s in layer_specs(model) if s.caches_kv]
    pool, _ = mpp.v4_pool(specs + [mpp.v4_mtp_layer(specs[-1])], "0.25.0")
    assert pool.layer_tuples == 31 and pool.block_bytes == 1_473_408
    assert sorted(len(g.pages) for g in pool.groups) == [31, 31, 31, 60, 91]


def test_the_layout_takes_the_mtp_window_and_refuses_other_drafters():
    model = catalogue_model("deepseek-v4-flash")
    placed = place(model, Layout(gpus=2), "bf16")
    on = layout(model, placed, "fp8", gpu_name="GB10", version="0.21.0", num_spec=2, draft_window_layers=1)
    assert on.unmodelled == "" and on.page_bytes == 1_051_776
    assert on.request_blocks(200000, 8192) == 3756
    ngram = layout(model, placed, "fp8", gpu_name="GB10", version="0.21.0", num_spec=2)
    assert "other than its own MTP layer" in ngram.unmodelled
    assert "0.20" in layout(model, placed, "fp8", gpu_name="GB10", version="0.28.0", num_spec=2,
                            draft_window_layers=1).unmodelled


def test_the_99sono_spark_log_per_byte():
    """99sono/DockerBuildFiles, deepseek-v4-flash-dgx-spark-cluster (vLLM 0.21.1rc1.dev339, TP 2, MTP 2,
    kv fp8, 200,000, 8,192 batched): 'Available KV cache memory: 18.65 GiB', '1,001,650 tokens', '5.01x'.
    The printed pool in 1,051,776-byte blocks is 19,039 blocks; over 3,756 blocks a request: 5.069x,
    1,013,791 tokens (+1.2 %), kept as the row's check (startup_log_table_speculation.py)."""
    specs = _flash() + [mpp.v4_mtp_layer(_flash()[-1])]
    pool, _ = mpp.v4_pool(specs, "0.21.0")
    blocks = int(18.65 * GiB // pool.block_bytes)
    assert blocks == 19039
    tokens = mpp.tokens_line(pool, blocks, blocks / 3756, 200000)
    assert tokens == 1_013_791 and tokens == pytest.approx(1_001_650, rel=0.013)

# -- public logs ------------------------------------------------------------------------------------

def test_gh200_start_check_of_vllm_44376():
    """vllm-project/vllm#44376 (vLLM 0.22, DeepSeek-V4-Flash, 2 x GH200, TP 2, the LLM class: 16,384
    batched tokens): "To serve at least one request with the model's max seq len (30000), (6.66 GiB KV
    cache is needed, which is larger than the available KV cache memory (5.44 GiB) ... the estimated
    maximum model length is 13528". By hand: 22 tuples x (118 + 259 + 259 + 4,099 + 2,065 pages) x
    47,808 (37,440 + 8,640 + 1,728) = 7,152,076,800 bytes = 6.66 GiB, exactly; 13,528 tokens need
    5,841,563,904 bytes and 13,529 a C4-state and a C128-state page more: the available memory that
    prints "5.44 GiB" and gives 13,528 lies between the two."""
    pool, _ = mpp.v4_pool(_flash(), "0.22.0")
    assert pool.start_bytes(30000, 16384) == 22 * (118 + 259 + 259 + 4099 + 2065) * 47_808 == 7_152_076_800
    assert f"{7_152_076_800 / GiB:.2f}" == "6.66"
    low, high = pool.start_bytes(13528, 16384), pool.start_bytes(13529, 16384)
    assert (low, high) == (5_841_563_904, 5_843_667_456)
    assert f"{low / GiB:.2f}" == f"{(high - 1) / GiB:.2f}" == "5.44"
    for available in (low, high - 1):
        assert pool.longest_start(available, 16384, 30000) == 13528


def test_h20_title_of_vllm_51041():
    """vllm-project/vllm#51041 (vLLM 0.26.0, DeepSeek-V4-Flash-0731, H20 TP 2, 8,192 batched tokens,
    max_model_len 121,344): "KV cache holds only 150K tokens in 7.7 GiB". By hand: 7.7 GiB // 1,039,680
    = 7,952 blocks; a request 474 compressed pages and 259 + 259 + 4,099 + 2,065 window and state pages
    (16,384 tokens in flight) = 6,391 blocks; int(7,952 / 6,391 x 121,344) = 150,982 tokens. The title's
    figures are rounded (7.695-7.705 GiB): within 1 %."""
    pool, _ = mpp.v4_pool(_flash(), "0.26.0")
    blocks = int(7.7 * GiB // pool.block_bytes)
    request = pool.request_blocks(121344, 8192)
    assert (blocks, request) == (7952, 6391)
    tokens = mpp.tokens_line(pool, blocks, blocks / request, 121344)
    assert tokens == 150_982 and tokens == pytest.approx(150_000, rel=0.01)


# -- GLM-5.2 ----------------------------------------------------------------------------------------

def test_glm52_one_uniform_group_by_hand():
    """GLM-5.2 (78 layers, the indexer on 21 from 0.24.0: index_topk_freq 4 from index_skip_topk_offset 3), bf16
    KV: every layer's latent page 64 x (512 + 64) x 2 = 73,728 and 21 indexer pages of 64 x 132 =
    8,448 in one UniformTypeKVCacheSpecs group: 5,928,192 bytes a block. At 128K a request takes
    131,072 / 64 = 2,048 blocks."""
    model = catalogue_model("glm-5.2")
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "bf16", gpu_name="H200", version="0.26.0")
    assert (cache.block_size, cache.page_bytes, cache.layers_per_group) == (64, 78 * 73_728 + 21 * 8_448, 1)
    assert cache.page_bytes == 5_928_192 and (cache.problem, cache.unmodelled) == ("", "")
    assert cache.request_blocks(131072, 8192) == 2048
    assert cache.multi_page.start_bytes(131072, 8192) == 2048 * 5_928_192


def test_glm52_fp8_is_stored_as_fp8_ds_mla_by_hand():
    """GLM-5.2 with --kv-cache-dtype fp8 on H200s (vLLM 0.26.0): FLASHMLA_SPARSE serves it as fp8_ds_mla, so
    every layer's latent page is 64 x 656 = 41,984 bytes (not 64 x 576 = 36,864) beside the 21 indexer
    pages of 64 x 132 = 8,448: 78 x 41,984 + 21 x 8,448 = 3,452,160 bytes a block (3,052,800 before)."""
    model = catalogue_model("glm-5.2")
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H200", version="0.26.0")
    assert cache.page_bytes == 78 * 64 * 656 + 21 * 64 * 132 == 3_452_160
    assert (cache.problem, cache.unmodelled) == ("", "")


@pytest.mark.parametrize("model_id, version, words", [
    ("deepseek-v4-flash", "0.19.1", "does not serve DeepSeek-V4"),
    ("deepseek-v4-flash", "0.28.0", "not read here"),
    ("deepseek-v4-flash", "0.33.0", "not read here"),
    ("glm-5.2", "0.20.0", "builds an indexer, and caches its keys, on every layer"),
    ("glm-5.2", "0.23.0", "builds an indexer, and caches its keys, on every layer"),
    ("glm-5.2", "0.28.0", "not read here"),
    ("glm-5.2", "0.33.0", "not read here"),
])
def test_releases_not_read_are_named(model_id, version, words):
    model = catalogue_model(model_id)
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H200", version=version)
    assert words in cache.unmodelled and cache.multi_page is None


def test_v4_other_layouts_named():
    model = catalogue_model("deepseek-v4-flash")
    staged = layout(model, place(model, Layout(gpus=8, pipeline_stages=2), "bf16"), "fp8", gpu_name="H200",
                    version="0.26.0")
    assert "pipeline stages" in staged.unmodelled
    assert "256-token blocks" in layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H200",
                                        version="0.26.0", block_size=64).unmodelled
    assert "only in its fp8 layout" in layout(model, place(model, Layout(gpus=8), "bf16"), "bf16",
                                              gpu_name="H200", version="0.26.0").problem


def test_approximate_gcd_is_vllms():
    """The chunk from the lower bound that pads least; ties go to the larger."""
    assert mpp.approximate_gcd([4, 8], 4) == 4  # 4 pads 0, 8 pads 4
    assert mpp.approximate_gcd([2, 3], 2) == 3  # 2 and 3 both pad 1
    assert mpp.approximate_gcd([5, 9], 5) == 5  # 5 pads 1, 9 pads 4
