"""physics.cache_layout asks the layer specs: every catalogue model's pool layout is what it was
before the specs (catalogue_layouts_fe84d0c.json); a model whose KV layers differ in page size has
its smaller pages' blocks grown as vLLM's unify_kv_cache_spec_page_size grows them; a cache that is
compressed is named as not modelled, with nothing computed from a substitute."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..models.test_compressed_attention import cache_side

from llm_inference.models import derive
from llm_inference.models.data import ENTRIES
from llm_inference.physics import Layout, Model
from llm_inference.physics.cache_layout import layout
from llm_inference.physics.placement import place
from llm_inference.scenario import catalogue_model, catalogue_values, model_from_inputs

BEFORE = json.loads(Path(__file__).with_name("catalogue_layouts_fe84d0c.json").read_text())["layouts"]
FIXTURES = Path(__file__).parents[1] / "models" / "fixtures_2026"


#: Rows the fp8_ds_mla rule changed on purpose (engines.vllm_kv_dtypes.stored_kv_dtype): DeepSeek-V3.2
#: with --kv-cache-dtype fp8 on an H100 (FLASHMLA_SPARSE) stores 656 latent bytes + 132 indexer bytes a token
#: and layer, not 576 + 132; on a B200 at 0.19.1 FlashInfer's sparse backend keeps plain fp8 (unchanged).
SPARSE_FP8 = {"deepseek-v3.2": (64 * 788, 788)}


def _expected(key: str) -> list:
    row = list(BEFORE[key])
    model_id, _, dtype, gpu = key.split("|")[:4]
    if dtype == "fp8" and model_id in SPARSE_FP8 and gpu == "H100":
        row[1], row[2] = SPARSE_FP8[model_id]
    return row


def _row(cache) -> list:
    return [cache.block_size, cache.page_bytes, cache.attn_page_per_token, cache.layers_per_group,
            [[g.kind, g.count, g.window] for g in cache.groups], cache.state_page_bytes, cache.cache_mode,
            cache.problem, cache.unmodelled, cache.request_blocks(131072, 8192), cache.request_blocks(4096, 2048)]


@pytest.mark.parametrize("entry", [e for e in ENTRIES if any(k.startswith(f"{e.id}|") for k in BEFORE)],
                         ids=lambda e: e.id)
def test_catalogue_layouts_unchanged(entry):
    """The entries the snapshot holds; later ones are checked against their derivations by hand
    (tests/unit/llm_inference/models/test_models_2026.py)."""
    model = model_from_inputs(dict(catalogue_values(entry.id)))
    for gpus in (1, 8):
        placement = place(model, Layout(gpus=gpus), "bf16")
        for dtype in ("bf16", "fp8"):
            for gpu, version in (("H100", "0.33.0"), ("B200", "0.19.1")):
                key = f"{entry.id}|{gpus}|{dtype}|{gpu}|{version}"
                row, expected = _row(layout(model, placement, dtype, gpu_name=gpu, version=version)), _expected(key)
                windowed = any(kind in ("sliding", "chunked") for kind, _, _ in expected[4])
                if windowed and version >= "0.26":  # the in-flight rule: checked by hand below
                    row, expected = row[:9], expected[:9]
                assert row == expected, key


@pytest.mark.parametrize("name, words", [
    ("deepseek-ai--DeepSeek-V4-Flash.json", "groups DeepSeek-V4's caches otherwise"),
])
def test_layers_that_differ_are_named_not_modelled(name, words):
    """At the newest release DeepSeek-V4's grouping is one not read (physics.multi_page_pool); at
    0.26.0 the pasted config gives the catalogue's pool (tests/.../test_multi_page_pool.py)."""
    config = json.loads((FIXTURES / name).read_text())
    if name.startswith("deepseek-ai--DeepSeek-V4"):  # its weights' keys refuse the config (test_compressed_attention)
        config = cache_side(config)
    shape = derive(config)
    model = Model(layers=shape.layers, kv_heads=shape.kv_heads, head_dim=shape.head_dim, heads=shape.heads,
                  hidden_size=shape.hidden_size, total_params=shape.total_params, layer_specs=shape.layer_specs)
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H100")
    assert words in cache.unmodelled
    assert cache.attn_page_per_token == 0
    read = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H100", version="0.26.0")
    assert (read.unmodelled, read.page_bytes, read.request_blocks(131072, 8192)) == ("", 1_039_680, 6429)


def _gemma4(gpus: int, version: str = "0.33.0", dtype: str = "bf16"):
    model = catalogue_model("gemma-4-31b-nvfp4")
    return layout(model, place(model, Layout(gpus=gpus), "bf16"), dtype, gpu_name="H100", version=version)


def test_gemma4_pages_made_equal_by_growing_the_global_blocks():
    """Gemma 4 31B at TP 1: a sliding page is 16 tokens x 16 heads x (256 + 256) x 2 bytes = 262,144;
    a global page 16 x 4 x (512 + 512) x 2 = 131,072, so vLLM runs the global layers in 32-token
    blocks (262,144 / 131,072 x 16). 50 sliding and 10 global layers: groups of 10, five sliding
    and one global. A 128K request at 0.33: 131,072 / 32 = 4,096 global blocks and, per sliding group,
    with two batches of 8,192 in flight, cdiv(1,023 + 16,384, 16) + 1 = 1,089."""
    cache = _gemma4(1)
    assert (cache.page_bytes, cache.layers_per_group, cache.unmodelled, cache.problem) == (262_144, 10, "", "")
    assert sorted((g.kind, g.block_size or cache.block_size) for g in cache.groups) == [("full", 32)] + [
        ("sliding", 16)] * 5
    assert cache.request_blocks(131072, 8192) == 4096 + 5 * 1089


def test_gemma4_pages_already_equal_at_tp8():
    """At TP 8 a sliding page keeps 2 of 16 heads and a global page 1 of 4 (replicated): 16 x 2 x 512
    x 2 = 16 x 1 x 1,024 x 2 = 32,768 bytes, so no block grows."""
    cache = _gemma4(8)
    assert cache.page_bytes == 32_768 and {g.block_size for g in cache.groups} == {0}
    assert cache.request_blocks(131072, 8192) == 8192 + 5 * 1089


def test_gemma4_tokens_line_of_a_public_log():
    """vllm-project/vllm#43308: gemma-4-31B-it-AWQ on an A100 80GB printed "~55k tokens" at 0.20.0
    from about 50 GiB of KV cache memory: 0.20's line is num_blocks // groups x the smallest block,
    50 GiB // (262,144 x 10) = 20,480 blocks, // 6 groups x 16 = 54,608."""
    cache = _gemma4(1, version="0.20.0")
    blocks = 50 * 2**30 // cache.page_bytes // cache.layers_per_group
    assert blocks == 20_480 and len(cache.groups) == 6
    assert cache.logged_tokens(blocks, 0.0, 131072) == 54_608


def test_pages_that_do_not_divide_are_vllms_refusal():
    from llm_inference.models import layer_specs as ls
    from llm_inference.physics.cache_layout import unified_pages
    kinds = (ls.SlidingWindow(kv_heads=3, head_dim=128, size=1024), ls.FullAttention(kv_heads=2, head_dim=128))
    page, grown, problem = unified_pages(kinds, 16, "bf16", 1)
    assert page == 16 * 3 * 256 * 2 and grown == {} and "refuses to start" in problem


def test_minimax_m3_pools_its_two_kinds_as_one_uniform_type_group():
    """MiniMax-M3's 3 full-attention and 57 sparse layers (K/V plus a bf16 index key) are all
    FullAttentionSpec-family specs of one block size: vLLM's UniformTypeKVCacheSpecs, one group whose
    page is the sum of every layer's page (kv_cache_interface.py), 128-token blocks (the sparse
    backends' only kernel block). By hand, TP 8 (one KV head a rank, replicated): a token is 3 x 512 +
    57 x (512 + 256) bytes; TP 1: 3 x 2,048 + 57 x 2,304."""
    model = catalogue_model("minimax-m3")
    for gpus, per_token in ((8, 3 * 512 + 57 * 768), (1, 3 * 2048 + 57 * 2304)):
        cache = layout(model, place(model, Layout(gpus=gpus), "bf16"), "bf16", gpu_name="H200")
        assert (cache.problem, cache.unmodelled) == ("", "")
        assert cache.block_size == 128
        assert (cache.page_bytes, cache.layers_per_group) == (128 * per_token, 1)
        assert [(g.kind, g.count) for g in cache.groups] == [("full", 1)]
        assert cache.request_blocks(131072, 8192) == 1024
    fp8 = layout(model, place(model, Layout(gpus=8), "fp8"), "fp8", gpu_name="H200")
    assert fp8.page_bytes == 128 * (3 * 256 + 57 * (256 + 256))  # K/V in fp8, the index key still bf16


def test_minimax_m3_under_pipeline_parallelism_counts_the_heaviest_stage():
    """Two stages of 30 layers on TP 4 (one KV head a rank): the second stage holds 30 sparse layers
    (the dense ones come first), the most loaded GPU's pool."""
    model = catalogue_model("minimax-m3")
    placement = place(model, Layout(gpus=8, pipeline_stages=2), "bf16")
    cache = layout(model, placement, "bf16", gpu_name="H200")
    assert cache.page_bytes == 128 * 30 * (1 * 128 * 2 * 2 + 256)


def test_minimax_m3_with_a_drafter_beside_it_is_not_modelled():
    model = catalogue_model("minimax-m3")
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "bf16", gpu_name="H200", draft_attention_layers=1)
    assert "drafter" in cache.unmodelled


FP8_DS_MLA, PLAIN_FP8 = 512 + 4 * 4 + 64 * 2 + 128 + 4, 576 + 128 + 4  # 788 and 708 bytes a token and layer


@pytest.mark.parametrize("model_id", ["deepseek-v3.2", "glm-5", "glm-5.1"])
@pytest.mark.parametrize("gpu, gpus, version, dtype, per_token", [
    # 0.11-0.17: DeepseekV32ForCausalLM.verify_and_update_config rewrites every "fp8*", on every GPU
    ("H200", 8, "0.11.0", "fp8", FP8_DS_MLA), ("H200", 8, "0.11.0", "fp8_e5m2", FP8_DS_MLA),
    ("B200", 8, "0.17.0", "fp8_e4m3", FP8_DS_MLA),
    # from 0.18 by backend: FLASHMLA_SPARSE (the one sparse backend for fp8 on SM90) turns fp8 into fp8_ds_mla
    ("H200", 8, "0.18.0", "fp8", FP8_DS_MLA), ("H200", 8, "0.33.0", "fp8", FP8_DS_MLA),
    # SM100, 0.19 on: FLASHINFER_MLA_SPARSE first for fp8, which keeps plain fp8
    ("B200", 8, "0.19.0", "fp8", PLAIN_FP8), ("B200", 1, "0.33.0", "fp8", PLAIN_FP8),
    # SM12x, 0.24 on: FLASHINFER_MLA_SPARSE_SM120 turns fp8 into fp8_ds_mla
    ("GB10", 1, "0.24.0", "fp8", FP8_DS_MLA),
])
def test_sparse_mla_fp8_by_release_and_backend(model_id, gpu, gpus, version, dtype, per_token):
    """The latent a token and layer is 512 fp8 NoPE + 4 x 4 scale bytes + 64 x 2 bf16 RoPE = 656 in
    fp8_ds_mla, 576 in plain fp8; beside it the indexer's 128 fp8 + 4 scale bytes = 132 whatever the
    dtype. A block is 64 tokens: 64 x 788 = 50,432 bytes, or 64 x 708 = 45,312."""
    model = catalogue_model(model_id)
    cache = layout(model, place(model, Layout(gpus=gpus), "bf16"), dtype, gpu_name=gpu, version=version)
    assert (cache.block_size, cache.attn_page_per_token, cache.page_bytes) == (64, per_token, 64 * per_token)


def test_sparse_mla_on_sm100_at_018_follows_the_heads_per_gpu():
    """vLLM 0.18.0 on SM100: FLASHINFER_MLA_SPARSE first at 16 query heads a GPU or fewer (plain fp8),
    FLASHMLA_SPARSE first above (fp8_ds_mla). DeepSeek-V3.2's 128 heads: 16 a GPU at TP 8, 32 at TP 4."""
    model = catalogue_model("deepseek-v3.2")
    tp8 = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="B200", version="0.18.0")
    tp4 = layout(model, place(model, Layout(gpus=4), "bf16"), "fp8", gpu_name="B200", version="0.18.0")
    assert (tp8.attn_page_per_token, tp4.attn_page_per_token) == (PLAIN_FP8, FP8_DS_MLA)


def test_dense_mla_keeps_plain_fp8():
    """DeepSeek-V3 (no indexer) is not rewritten: 576 fp8 bytes a token and layer."""
    model = catalogue_model("deepseek-v3")
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H200", version="0.33.0")
    assert cache.attn_page_per_token == 576


@pytest.mark.parametrize("model_id, version, blocks", [
    # gpt-oss-20b: one sliding group (window 128) and one full group, 16-token blocks, 8,192 batched
    # tokens, 131,072-token requests. Up to 0.25: cdiv(127 + 8,192, 16) + 1 = 521 window blocks, from
    # 0.26 two batches in flight: cdiv(127 + 16,384, 16) + 1 = 1,033; the full group 131,072 / 16 = 8,192.
    ("gpt-oss-20b", "0.25.0", 521 + 8192),
    ("gpt-oss-20b", "0.26.0", 1033 + 8192),
    # Gemma 3 12B: five sliding groups (window 1,024) and one full: 5 x (cdiv(1,023 + 16,384, 16) + 1)
    # = 5 x 1,089 = 5,445 from 0.26 (5 x 577 = 2,885 before), plus 8,192.
    ("gemma-3-12b", "0.25.0", 5 * 577 + 8192),
    ("gemma-3-12b", "0.33.0", 5 * 1089 + 8192),
    # Llama 4 Scout, chunked local attention (chunks of 8,192): cdiv(8,192 + 16,384, 16) = 1,536 a
    # chunked group from 0.26 (1,024 before): three chunked groups and one full.
    ("llama-4-scout", "0.25.0", 3 * 1024 + 8192),
    ("llama-4-scout", "0.26.0", 3 * 1536 + 8192),
])
def test_windows_reserve_every_batch_in_flight_from_026(model_id, version, blocks):
    """vllm.in_flight_tokens: from 0.26 a sliding-window or chunked-local layer holds window − 1 +
    max_concurrent_batches × max_num_batched_tokens (two batches under async scheduling)."""
    model = catalogue_model(model_id)
    cache = layout(model, place(model, Layout(gpus=1), "bf16"), "bf16", gpu_name="H100", version=version)
    assert cache.request_blocks(131072, 8192) == blocks


def test_a_draft_model_turns_async_scheduling_off_and_the_window_holds_one_batch():
    """VllmConfig.__post_init__ (0.26.0 l.1071-1082): a draft-model or CPU n-gram --speculative-config
    turns async scheduling off, so max_concurrent_batches is pp_size = 1 and gpt-oss-20b's window
    holds cdiv(127 + 8,192, 16) + 1 = 521 blocks again; EAGLE and MTP keep it on (1,033)."""
    from llm_inference.physics.cache_layout import async_scheduling_default
    assert [async_scheduling_default(m) for m in ("", "eagle", "eagle3", "mtp", "draft_model", "ngram")] == [
        True, True, True, True, False, False]
    model = catalogue_model("gpt-oss-20b")
    placement = place(model, Layout(gpus=1), "bf16")
    sync = layout(model, placement, "bf16", gpu_name="H100", version="0.26.0", async_scheduling=False)
    assert sync.concurrent_batches == 1 and sync.request_blocks(131072, 8192) == 521 + 8192
