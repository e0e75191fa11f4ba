"""Public startup logs of hybrid models rebuilt through the calculators' physics: from the logged
"Available KV cache memory" (or, for pages that quote only the two lines, from some whole number
of blocks) to "GPU KV cache size" and "Maximum concurrency", within 2 %."""

from __future__ import annotations

import json

import pytest

from llm_inference import physics, scenario
from llm_inference.engines.hybrid_logs import CONFIGS, HYBRID_LOGS, HybridLog
from llm_inference.models import catalogue_shape, get_entry, parse_config
from llm_inference.physics.cache_layout import CacheLayout, from_available, layout
from llm_inference.physics.placement import Layout

GiB = 1 << 30
TOLERANCE = 0.02


def cache_of(log: HybridLog) -> CacheLayout:
    if log.config.startswith("catalogue:"):
        model_id = log.config.split(":", 1)[1]
        shape, config = catalogue_shape(model_id), get_entry(model_id).config
    else:
        config = CONFIGS[log.config].config
        shape = parse_config(json.dumps(config))
    model = scenario.model_from_shape(shape, config)
    placement = physics.place(model, Layout(log.tensor_parallel), "bf16")
    return layout(model, placement, log.kv_dtype, gpu_name=log.gpu, version=log.release,
                  prefix_caching=log.prefix_caching, num_spec=log.num_spec,
                  draft_attention_layers=log.draft_attention_layers)


def test_the_logs_cite_their_pages_and_quote_their_lines():
    assert len(HYBRID_LOGS) >= 3
    for log in HYBRID_LOGS:
        assert log.url.startswith("https://github.com/") and log.where and log.release
        text = "\n".join(log.lines)
        assert f"GPU KV cache size: {log.kv_tokens:,} tokens" in text
        assert f"Maximum concurrency for {log.max_model_len:,} tokens per request: {log.concurrency:.2f}x" in text
        if log.available_gib is not None:
            assert f"Available KV cache memory: {log.available_gib:g} GiB" in text
    for copy in CONFIGS.values():
        assert copy.repo and copy.path.endswith(".json") and len(copy.commit) == 40


@pytest.mark.parametrize("log", [g for g in HYBRID_LOGS if g.available_gib is not None], ids=lambda g: g.id)
def test_tokens_and_concurrency_from_the_logged_memory(log):
    cache = cache_of(log)
    assert not cache.problem and not cache.unmodelled
    _, concurrency, tokens = from_available(cache, log.available_gib * GiB, log.max_model_len, log.batched_tokens)
    assert tokens == pytest.approx(log.kv_tokens, rel=TOLERANCE)
    assert concurrency == pytest.approx(log.concurrency, rel=TOLERANCE)


@pytest.mark.parametrize("log", [g for g in HYBRID_LOGS if g.available_gib is None], ids=lambda g: g.id)
def test_one_block_count_prints_both_lines(log):
    cache = cache_of(log)
    per_request = cache.request_blocks(log.max_model_len, log.batched_tokens)
    fitting = [n for n in range(1, 200_000)
               if round(n / per_request, 2) == log.concurrency
               and cache.logged_tokens(n, n / per_request, log.max_model_len) == log.kv_tokens]
    assert fitting, f"{log.id}: no block count gives both lines (block {cache.block_size}, {per_request} per request)"


def test_the_qwen36_layout_is_the_one_the_notes_give():
    cache = cache_of(HYBRID_LOGS[0])
    assert (cache.block_size, cache.state_page_bytes, cache.cache_mode, len(cache.groups), cache.layers_per_group) == (
        2096, 2146304, "align", 4, 10)
    assert cache.request_blocks(131072, 8192) == 63 + 3 * 2
    blocks, concurrency, tokens = from_available(cache, 5.98 * GiB, 131072)
    assert (blocks, tokens) == (299, 567978) and round(concurrency, 2) == 4.33


def test_the_version_changes_what_is_logged():
    """The same pool, 0.19 against 0.24: ≤ 0.20 prints blocks // groups × the smallest block."""
    log = next(g for g in HYBRID_LOGS if g.id.startswith("qwen3.5-27b"))
    cache = cache_of(log)
    assert (cache.block_size, cache.cache_mode, cache.request_blocks(32768, 16384)) == (784, "none", 42 + 3)
    assert cache.logged_tokens(1487, 1487 / 45, 32768) == 371 * 784 == 290864
    newer = cache_of(HybridLog(**{**log.__dict__, "release": "0.24.0"}))
    assert newer.logged_tokens(1487, 1487 / 45, 32768) == int(1487 / 45 * 32768)


def test_nemotron_3_super_on_gb10_its_block_and_the_drafters_layer():
    """The printed attention block (8,432 tokens: the Mamba-2 page with 3 speculative conv columns over
    a 512-byte token) and the groups of nine that the MTP drafter's attention layer makes."""
    from dataclasses import replace

    log = next(g for g in HYBRID_LOGS if g.id == "nemotron-3-super-nvfp4-gb10-mtp")
    cache = cache_of(log)
    assert (cache.block_size, cache.layers_per_group, cache.state_page_bytes) == (8432, 9, 4317184)
    assert "Setting attention block size to 8432 tokens" in log.lines[0]
    _, _, without = from_available(cache_of(replace(log, draft_attention_layers=0)), log.available_gib * GiB,
                                   log.max_model_len, log.batched_tokens)
    assert without / log.kv_tokens - 1 > 0.12  # the drafter left out: 8 a group, 12.7 % too many tokens
