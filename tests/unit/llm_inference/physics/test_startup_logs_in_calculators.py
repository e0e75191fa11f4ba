"""Real vLLM startup logs reproduced within 2 % by the calculators' own path: the kv-cache
calculator run with the log's model, GPU, utilization and scheduler settings gives the logged
"Available KV cache memory", "GPU KV cache size" and "Maximum concurrency".

Each case names the log (llm_inference.engines.startup_logs) and says which settings it takes from
the log's own lines.
"""

from __future__ import annotations

import pytest

from llm_inference import kv_cache
from llm_inference.engines.startup_logs import BY_ID
from llm_inference.hardware import GPUS
from course_calculators.units import GiB

SPEC = kv_cache.SPEC
TOLERANCE = 0.02

CASES = [
    # vLLM 0.31.0 on an A100 80GB, all defaults: utilization 0.92 (printed), 2,048 batched tokens and
    # 256 sequences (an A100's), max_model_len 131,072 (printed).
    ("llama31-8b-a100-v031", {"model": "llama-3.1-8b", "gpu": "a100-80g", "gpu_memory_utilization": 0.92,
                              "context": 131072}),
    # vLLM 0.10.2 (0.9.1's rules), offline LLM class on an H100: utilization 0.9, 16,384 batched
    # tokens and 1,024 sequences (printed); 0.10.2 does not subtract CUDA graphs, so the runtime is
    # the release's non-torch estimate (0.15 GiB; the log printed 0.07). LLaVA-1.6-Mistral-7B is not in the catalogue: its language model's
    # shape (Mistral 7B, vocabulary 32,064) with the 14.08 GiB of weights it printed (vision tower
    # included) as parameters.
    ("llava-mistral-h100", {"model": "custom", "layers": 32, "heads": 32, "kv_heads": 8, "head_dim": 128,
                            "hidden_size": 4096, "intermediate_size": 14336, "vocab_size": 32064,
                            "params_b": 14.08 * GiB / 2e9, "gpu": "h100-sxm", "gpu_memory_utilization": 0.9,
                            "max_num_batched_tokens": 16384, "max_num_seqs": 1024, "vllm_version": "0.9.1",
                            "context": 4096}),
    # vLLM V0 (about 0.6.4) on an RTX 3090, with 0.9.1's rules (the same budget, non-torch measured
    # from a snapshot, no CUDA graphs): utilization 0.90 and non-torch 0.35 GiB (printed: 0.20 on top
    # of the release's 0.15 estimate); V0 profiles max_model_len tokens at once (29,000) over 256 sequences.
    ("llama31-8b-rtx3090-v0-29k", {"model": "llama-3.1-8b", "gpu": "rtx-3090", "gpu_memory_utilization": 0.9,
                                   "max_num_batched_tokens": 29000, "max_num_seqs": 256, "vllm_version": "0.9.1",
                                   "overhead_gib": 0.35 - 0.15, "context": 29000}),
]


def _close(got: float, want: float) -> bool:
    return abs(got / want - 1) <= TOLERANCE


@pytest.mark.parametrize("log_id, inputs", CASES, ids=[c[0] for c in CASES])
def test_log_reproduced_by_the_kv_cache_calculator(log_id, inputs):
    log = BY_ID[log_id]
    SPEC.check_overrides(inputs)
    v = SPEC.run(inputs).values
    assert _close(v["kv_cache_memory"], log.parsed["available_gib"] * GiB), v["kv_cache_memory"] / GiB
    assert _close(v["kv_cache_tokens"], log.parsed["kv_tokens"]), v["kv_cache_tokens"]
    if "concurrency" in log.parsed:
        assert _close(v["max_concurrency"], log.parsed["concurrency"]), v["max_concurrency"]
    # the visible memory the calculator starts from is the log's own
    if "total_gib" in log.parsed:
        assert GPUS[inputs["gpu"]].visible == pytest.approx(log.parsed["total_gib"] * GiB)
    assert inputs["gpu_memory_utilization"] == log.parsed.get("utilization", inputs["gpu_memory_utilization"])


def test_at_least_three_logs_with_memory_and_tokens():
    assert len(CASES) >= 3
    for log_id, _ in CASES:
        parsed = BY_ID[log_id].parsed
        assert "available_gib" in parsed and "kv_tokens" in parsed


def test_the_v0_log_that_refused_a_sequence_is_refused():
    """29,000-token sequences do not fit the RTX 3090's 2.89 GiB of cache: vLLM said so, and so do we."""
    _, inputs = CASES[2]
    result = SPEC.run(inputs)
    assert result.values["fits"] is False and result.values["max_sequences"] == 0
    assert any("not 1" in n for n in result.notes)


def test_decode_roofline_shares_the_budget():
    """The same budget reaches decode-roofline: one physics, two calculators."""
    from llm_inference import decode_roofline

    _, inputs = CASES[0]
    v = decode_roofline.SPEC.run({**inputs, "batch": 1}).values
    assert v["kv_cache_memory"] == SPEC.run(inputs).values["kv_cache_memory"]
