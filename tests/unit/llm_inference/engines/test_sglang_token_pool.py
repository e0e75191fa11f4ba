"""One rank's SGLang pool put together (engines/sglang_token_pool.py), from the book's models and GPUs."""

from __future__ import annotations

import pytest

from llm_inference.engines import sglang
from llm_inference.engines import sglang_token_pool
from llm_inference.engines.sglang_logs import BY_ID
from llm_inference.hardware import GPUS
from llm_inference.scenario import catalogue_model

from .book_weights import book_weights_gib

GIB = 1 << 30


def test_token_pool_from_the_books_model_and_weights():
    """The Qwen3-14B log rebuilt from the book's model and weights: only T comes from the log."""
    log = BY_ID["qwen3-14b-48gb-v046"]
    model = catalogue_model("qwen3-14b")
    weights = book_weights_gib("qwen3-14b", 1, "h100-sxm")
    free_at_start = log.parsed["free_after_gib"] + log.parsed["weights_gib"]
    pool = sglang_token_pool.token_pool(model, 0.0, 1, "0.4.6.post1", weight_gib_per_gpu=weights, gpu_mem_mib=49140,
                             free_at_start_gib=free_at_start)
    assert pool.mem_fraction_static == 0.88 and not pool.free_estimated and not pool.problem
    assert pool.max_total_num_tokens == pytest.approx(log.parsed["tokens"], rel=0.01)
    assert pool.k_size_gib == pytest.approx(pool.v_size_gib)


def test_token_pool_estimates_t_and_refuses_with_the_smallest_fraction():
    model = catalogue_model("qwen3-14b")
    h100 = GPUS["h100-sxm"].visible / GIB
    pool = sglang_token_pool.token_pool(model, h100, 1, "0.5.6", weight_gib_per_gpu=27.51,
                             gpu_mem_mib=sglang.NVIDIA_SMI_MIB["h100-sxm"])
    assert pool.free_estimated and pool.free_at_start_gib == pytest.approx(h100 - 0.53)
    assert pool.mem_fraction_static == 0.835
    assert pool.rest_gib == pytest.approx(pool.free_at_start_gib * 0.835 - 27.51)
    refused = sglang_token_pool.token_pool(model, 22.46, 1, "0.4.6", weight_gib_per_gpu=20.0, mem_fraction_static=0.8,
                                free_at_start_gib=22.46)
    assert refused.max_total_num_tokens == 0 and "0.8905" in refused.problem
    with pytest.raises(ValueError, match="nvidia-smi"):
        sglang_token_pool.token_pool(model, h100, 1, "0.5.6", weight_gib_per_gpu=27.51)


def test_pool_on_a_book_gpu():
    """The call the calculators can make: the book's model, GPU and weights; T estimated."""
    model = catalogue_model("llama-3.1-70b")
    weights = book_weights_gib("llama-3.1-70b", 8, "h200")
    pool = sglang_token_pool.pool_on(model, GPUS["h200"], 8, "0.5.3", weight_gib_per_gpu=weights)
    assert pool.mem_fraction_static == 0.897 and pool.free_estimated
    # the H200 log printed T = 137.29 GiB and 2,795,207 tokens; the estimate of T moves the count by its share
    log = BY_ID["llama70b-h200-tp8-v053"]
    assert pool.max_total_num_tokens == pytest.approx(log.parsed["tokens"], rel=0.03)
    with pytest.raises(ValueError, match="nvidia-smi"):
        sglang_token_pool.pool_on(model, GPUS["a100-40g"], 8, "0.5.3", weight_gib_per_gpu=16.4)


# --- speculative decoding -----------------------------------------------------------------------------------
