"""SGLang's pool in budget.Pool's shape (physics/sglang_pool.py), against a derivation by hand from
SGLang's profile_max_num_token: pool = (T − W) − T(1 − f), cells = pool // cell."""

from __future__ import annotations

from dataclasses import replace

import pytest

from llm_inference.engines import sglang
from llm_inference.hardware import GPUS
from llm_inference.physics.sglang_pool import SGLangSettings, startup_lines
from llm_inference.scenario import deployment_from_inputs
from llm_inference.kv_cache import SPEC

GIB = 1 << 30


def _deployment(**inputs):
    resolved, _notes = SPEC.prepare({**SPEC.preset("llama3-8b").values, **inputs})
    return deployment_from_inputs(resolved)[0]


def test_pool_by_hand_on_one_h100():
    vllm = _deployment()
    d = replace(vllm, sglang=SGLangSettings(release="0.4.6", mem_fraction_static=0.88, free_at_start_gib=78.0))
    pool = d.pool
    weights = pool.placement.weight_bytes_per_gpu
    t = 78.0 * GIB
    rest = (t - weights) - t * 0.12
    cell = 32 * 8 * 128 * 2 * 2  # Llama 3.1 8B: layers × KV heads × head_dim × K,V × bf16
    assert pool.bytes_per_token == cell
    assert pool.available_bytes == pytest.approx(rest, rel=1e-12)
    assert pool.sglang.max_total_num_tokens == int(rest // cell)
    assert pool.kv_cache_tokens(8192) == int(rest // cell)
    assert pool.concurrency(8192) == pytest.approx(int(rest // cell) / 8192)
    assert pool.weight_bytes + pool.activation_bytes + pool.overhead_bytes + pool.available_bytes == pytest.approx(
        GPUS["h100-sxm"].visible)
    assert f"#tokens: {int(rest // cell)}, K size: " in startup_lines(pool)


def test_vllm_pool_unchanged_and_resizing_keeps_sglang():
    vllm = _deployment()
    assert vllm.sglang is None and type(vllm.pool).__name__ == "Pool"
    d = replace(vllm, sglang=SGLangSettings())
    assert d.resized(gpus=2).sglang == d.sglang
    assert type(d.pool).__name__ == "SGLangPool"


def test_too_little_memory_is_refused_with_sglangs_words():
    d = replace(_deployment(), sglang=SGLangSettings(mem_fraction_static=0.1, free_at_start_gib=78.0))
    assert not d.pool.starts and "increase" not in d.pool.problem and "smallest that starts" in d.pool.problem
    assert "Not enough memory" in startup_lines(d.pool)


def test_free_memory_beyond_the_gpu_is_refused_not_costed():
    # T is read on this GPU after the CUDA context: more than the GPU shows would make the runtime's
    # share negative, so the pool refuses and names the line to read instead.
    d = replace(_deployment(), sglang=SGLangSettings(mem_fraction_static=0.88, free_at_start_gib=500.0))
    assert not d.pool.starts and "Load weight begin" in d.pool.problem
    assert d.pool.overhead_bytes >= 0 and d.pool.kv_cache_tokens(8192) == 0


def test_a_kv_cell_of_no_bytes_is_refused():
    model = replace(_deployment().model, head_dim=0)
    with pytest.raises(ValueError, match="0 bytes"):
        sglang.token_pool(model, 79.0, 1, "0.4.6", weight_gib_per_gpu=15.0, mem_fraction_static=0.88)


def test_free_memory_above_what_the_gpu_shows_is_refused_not_a_negative_runtime():
    # found by test_properties once the LoRA inputs moved its draws: avail mem=1024 GB on an H100
    out = SPEC.run({**SPEC.preset("llama3-8b").values, "engine": "sglang", "sglang_free_gib": 1024.0})
    assert out.values["runtime_bytes"] >= 0 and out.values["max_concurrency"] == 0
    assert any("(1024.00 GiB) is more than the NVIDIA H100" in n for n in out.notes), out.notes
