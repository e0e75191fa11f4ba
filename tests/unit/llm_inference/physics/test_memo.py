"""The caches of what a run repeats return what the uncached functions build, and fall back to a
plain call when an argument cannot be hashed."""

from __future__ import annotations

from dataclasses import replace

import llm_inference.kv_cache as kv_cache
from llm_inference.engines import vllm_releases
from llm_inference.physics import fleet
from llm_inference.physics.memo import pure_cache


def test_an_unhashable_argument_is_computed_uncached():
    calls = []

    @pure_cache(maxsize=8)
    def f(x):
        calls.append(x)
        return len(x)

    assert f((1, 2)) == f((1, 2)) == 2 and calls == [(1, 2)]
    assert f([1, 2, 3]) == f([1, 2, 3]) == 3 and calls[1:] == [[1, 2, 3], [1, 2, 3]]


def test_cached_runs_equal_fresh_ones():
    inputs = [{"model": "deepseek-v3", "gpu": "h200", "gpus": 8}, {"model": "qwen3-next-80b-a3b", "context": 65536},
              {"model": "gpt-oss-120b", "gpu": "a100-80g", "vllm_version": "0.10.1"}]
    warm = [kv_cache.SPEC.run(raw).values for raw in inputs + inputs]
    fleet.deployment_pool.cache_clear()
    fleet._sized_pools.cache_clear()
    fresh = [kv_cache.SPEC.run(raw).values for raw in inputs]
    assert warm[:3] == warm[3:] == fresh


def test_release_rules_and_versions_are_the_same_objects():
    assert vllm_releases.rules("0.20.0") is vllm_releases.rules("0.20.0")
    assert vllm_releases.parse_version("v0.10.1.1") == (0, 10, 1, 1)
    assert vllm_releases.parse_version((0, 9)) == (0, 9)
    assert vllm_releases.rules((0, 20, 0)).gpu_memory_utilization == 0.92
    assert replace(vllm_releases.rules("0.9.0")).gpu_memory_utilization == 0.9
