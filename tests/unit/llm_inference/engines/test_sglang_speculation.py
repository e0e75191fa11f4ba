"""SGLang's speculative flags and the tokens they add (engines/sglang_speculation.py), by hand."""

from __future__ import annotations

import pytest

from llm_inference.engines import sglang
from llm_inference.engines import sglang_speculation
from llm_inference.engines import sglang_token_pool
from llm_inference.scenario import catalogue_model

GIB = 1 << 30


def _numbers(p: sglang_speculation.SpeculativeParams) -> tuple[int, int, int]:
    return p.num_steps, p.eagle_topk, p.num_draft_tokens


def test_speculative_params_as_server_args_leaves_them():
    """_handle_speculative_decoding / auto_choose_speculative_params: NEXTN is EAGLE; (3, 1, 4) for DeepSeek (0.5.3
    on also gpt-oss) and STANDALONE, else (5, 4, 8); topk 1 forces steps + 1 draft tokens; 48 running requests."""
    p = sglang_speculation.speculative_params("NEXTN", "0.5.6", "deepseek_v3")
    assert (p.algorithm, *_numbers(p), p.max_running_requests) == ("EAGLE", 3, 1, 4, 48)
    assert _numbers(sglang_speculation.speculative_params("EAGLE3", "0.5.6", "llama")) == (5, 4, 8)
    assert _numbers(sglang_speculation.speculative_params("EAGLE", "0.5.6", "gpt_oss")) == (3, 1, 4)
    assert _numbers(sglang_speculation.speculative_params("EAGLE", "0.4.10", "gpt_oss")) == (5, 4, 8)  # 0.4.x: DeepSeek only
    assert _numbers(sglang_speculation.speculative_params("STANDALONE", "0.5.3", "llama")) == (3, 1, 4)
    given = sglang_speculation.speculative_params("EAGLE", "0.5.6", num_steps=2, eagle_topk=1, num_draft_tokens=9)
    assert given.num_draft_tokens == 3
    with pytest.raises(ValueError, match="STANDALONE"):
        sglang_speculation.speculative_params("STANDALONE", "0.4.10")
    with pytest.raises(ValueError, match="not read"):
        sglang_speculation.speculative_params("EAGLE", "0.4.6")


def test_speculative_headroom_and_the_pool_by_hand():
    """init_memory_pool: the count grows by reqs × steps × topk + reqs × draft tokens + 100 before the page
    rounding; NGRAM adds nothing. Qwen3-14B on T = 47.24, W = 27.57 GiB, f = 0.8, EAGLE (5, 4, 8)."""
    eagle = sglang_speculation.speculative_params("EAGLE", "0.5.6", "qwen3")
    assert sglang_speculation.speculative_headroom(eagle) == 48 * 5 * 4 + 48 * 8 + 100 == 1444
    assert sglang_speculation.speculative_headroom(sglang_speculation.speculative_params("NGRAM", "0.5.6")) == 0
    t, w, f = 47.24, 27.57, 0.8
    profiled = int(((t - w) - t * (1 - f)) * GIB // (40 * 8 * 128 * 2 * 2))
    pool = sglang_token_pool.token_pool(catalogue_model("qwen3-14b"), 0.0, 1, "0.5.6", weight_gib_per_gpu=w,
                             mem_fraction_static=f, free_at_start_gib=t, page_size=64, speculative=eagle)
    assert pool.max_total_num_tokens == (profiled + 1444) // 64 * 64


def test_speculative_keeps_its_share_of_the_automatic_fraction():
    """0.5.6 on an H100 (81,559 MiB, TP 1): 512 + 1.5 × 8,192 + 2 × 256 + 128 MiB, + 2 GiB for an EAGLE draft,
    + 6 GiB for a STANDALONE one, nothing for NGRAM."""
    base = 512 + 1.5 * 8192 + 2 * 256 + 128
    for algorithm, extra in (("EAGLE", 2048), ("STANDALONE", 6144), ("NGRAM", 0)):
        assert sglang.default_mem_fraction_static(81559, "0.5.6", 1, speculative=algorithm).mem_fraction_static == \
            round((81559 - base - extra) / 81559, 3)
