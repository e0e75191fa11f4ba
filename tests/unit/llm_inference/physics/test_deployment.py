"""llm_inference/physics/deployment.py: one deployment per run, built once and resized by the searches.

A kv-cache run is watched from outside: the placement and pool functions are wrapped, and each call
records which GPU, count and release it was asked for. One run places and sizes each (GPU, count)
once — its own, and each one the fewest-GPUs and cheapest-GPU searches try — every one at the
release the reader picked, with the weights of the verdict; the "Engine rules" text names the model
runner the budget used.
"""

from __future__ import annotations

from collections import Counter

import pytest

from course_calculators.units import GiB
from llm_inference import decode_roofline, kv_cache, physics, scenario
from llm_inference.engines import vllm, vllm_releases
from llm_inference.hardware import GPUS
from llm_inference.physics import budget, deployment, fleet, placement
from llm_inference.physics.deployment import deploy
from llm_inference.physics.placement import Layout


def _clear_caches() -> None:
    """Forget what earlier runs placed and sized: the run counted starts cold."""
    for cached in (fleet.deployment_pool, fleet._sized_pools, getattr(placement, "_legal_tp_sizes", None),
                   getattr(placement, "_candidate_sizes", None)):
        if cached is not None:
            cached.cache_clear()


def _watched_run(monkeypatch, calc, raw):
    """Run ``calc`` on ``raw`` cold, recording every placement (GPU, count, release of the weights),
    every pool sizing (GPU, count) and every computation of the legal TP sizes."""
    _clear_caches()
    placed, sized, legal = [], [], []
    place, pool, legal_tp = placement.place, budget.pool, vllm.legal_tp_sizes

    def watched_place(model, layout, weights):
        placed.append((getattr(weights, "gpu_name", ""), layout.gpus, getattr(weights, "version", "")))
        return place(model, layout, weights)

    def watched_pool(model, gpu, where, engine, kv_dtype, experts="", weights=None):
        sized.append((gpu.id, where.layout.gpus))
        return pool(model, gpu, where, engine, kv_dtype, experts, weights)

    def watched_legal(*args, **kwargs):
        legal.append(args)
        return legal_tp(*args, **kwargs)

    for module in (physics, placement, fleet, deployment):
        if hasattr(module, "place"):
            monkeypatch.setattr(module, "place", watched_place)
    for module in (physics, budget, fleet, deployment):
        if hasattr(module, "pool"):
            monkeypatch.setattr(module, "pool", watched_pool)
    monkeypatch.setattr(vllm, "legal_tp_sizes", watched_legal)
    result = calc.SPEC.run(raw)
    return result, placed, sized, legal


@pytest.mark.parametrize("raw", [{}, {"model": "gpt-oss-120b", "vllm_version": "0.11.0"},
                                 {"model": "deepseek-v3", "gpu": "h200", "gpus": 8, "context": 131072}],
                         ids=["default", "gpt-oss-120b-0.11.0", "deepseek-v3-8xh200"])
def test_one_kv_cache_run_places_and_sizes_each_gpu_and_count_once(monkeypatch, raw):
    result, placed, sized, legal = _watched_run(monkeypatch, kv_cache, raw)
    gpu, gpus = result.inputs["gpu"], result.inputs["gpus"]
    repeated = {key: n for key, n in Counter(sized).items() if n > 1}
    assert not repeated, f"pools sized more than once: {repeated}"
    assert len(placed) == len(sized) == len(set(sized))  # one placement per pool, none on the side
    assert (gpu, gpus) in sized  # the reader's own deployment, among those the searches try
    # the searches tried several GPUs and counts, each once
    assert len({g for g, _ in sized}) > 1 and len({n for g, n in sized if g == gpu}) > 1
    assert len(legal) == 1  # the legal TP sizes of the model, worked out once


def test_one_decode_roofline_run_sizes_each_count_once(monkeypatch):
    _, placed, sized, _ = _watched_run(monkeypatch, decode_roofline, {})
    assert len(placed) == len(sized) == len(set(sized))


def test_the_cheapest_gpu_search_keeps_the_readers_release(monkeypatch):
    # gpt-oss-120b's MXFP4 experts are laid out by the release: 65.89 GiB on an H100 at 0.11.0, 64.18 GiB
    # at the newest. The search used to place them at the newest whatever the reader picked.
    result, placed, _, _ = _watched_run(monkeypatch, kv_cache, {"model": "gpt-oss-120b", "vllm_version": "0.11.0"})
    assert {version for _, _, version in placed} == {"0.11.0"}
    assert result.values["weight_bytes_per_gpu"] / GiB == pytest.approx(65.89, abs=0.005)
    searched = fleet.deployment_pool(*_args(result.inputs))
    assert searched.weight_bytes == result.values["weight_bytes_per_gpu"]


def _args(inputs):
    d, _ = scenario.deployment_from_inputs(inputs)
    return d.model, d.gpu, d.layout, d.engine, d.weights, d.kv_dtype


@pytest.mark.parametrize("model_id, version", [("gpt-oss-120b", "0.28.0"), ("mixtral-8x22b", "0.28.0"),
                                               ("qwen3-235b-a22b-fp8", "0.28.0"), ("llama-3.1-8b", "0.28.0"),
                                               ("gpt-oss-120b", "0.33.0")])
def test_the_engine_rules_text_names_the_runner_the_budget_used(model_id, version):
    result = kv_cache.SPEC.run({"model": model_id, "vllm_version": version})
    d, _ = scenario.deployment_from_inputs(result.inputs)
    rules = vllm_releases.rules(version)
    runner = rules.model_runner(d.engine.architecture, d.model.is_moe, d.engine.quantized, d.engine.hybrid)
    text = result.values["engine_release"]
    assert f"model runner {runner.upper()}," in text
    graphs = rules.cuda_graph_bytes(d.gpu.vendor, False, runner) > 0
    assert ("CUDA graphs subtracted" in text) == graphs
    assert result.values["runtime_bytes"] == pytest.approx(rules.overhead_bytes(d.gpu.vendor, False, runner))


def test_an_moe_model_on_0_28_runs_on_v1_in_the_budget_and_the_text():
    # vLLM 0.28.0 keeps an MoE model whose architecture is not on its V2 list on model runner V1
    # (Rules.model_runner); the text used to ask for a dense model's runner and said V2.
    text = kv_cache.SPEC.run({"model": "gpt-oss-120b", "vllm_version": "0.28.0"}).values["engine_release"]
    assert "model runner V1" in text and "CUDA graphs subtracted" in text


def test_a_resized_deployment_keeps_release_format_and_runner():
    inputs = kv_cache.SPEC.run({"model": "gpt-oss-120b", "vllm_version": "0.28.0"}).inputs
    d, _ = scenario.deployment_from_inputs(inputs)
    assert d.runner == "v1" and d.weights.version == d.version == "0.28.0"
    other = d.resized(gpus=2, gpu=GPUS["b200"])
    assert (other.layout.gpus, other.gpu.id) == (2, "b200")
    assert other.weights.plan is d.weights.plan and other.weights.version == "0.28.0"
    assert other.engine == d.engine and other.runner == "v1"
    assert other.weights.gpu_name == GPUS["b200"].name
    # the pool a search reaches for this GPU and count is the deployment's own
    assert other.pool is fleet.deployment_pool(d.model, GPUS["b200"], Layout(2), d.engine, other.weights, d.kv_dtype)


def test_deploy_places_a_plan_at_the_engines_release():
    inputs = kv_cache.SPEC.run({"model": "gpt-oss-120b", "vllm_version": "0.11.0"}).inputs
    d, _ = scenario.deployment_from_inputs(inputs)
    again = deploy(d.model, d.gpu, d.layout, physics.Engine(version="0.11.0"), d.weights.plan, d.kv_dtype)
    assert again.weights is d.weights  # the plan placed once per GPU kind and release
    assert again.pool.weight_bytes == d.pool.weight_bytes


def test_weights_laid_out_for_another_release_are_placed_at_the_engines():
    inputs = kv_cache.SPEC.run({"model": "gpt-oss-120b", "vllm_version": "0.11.0"}).inputs
    d, _ = scenario.deployment_from_inputs(inputs)
    newest = d.weights.plan.on(d.gpu, vllm_releases.NEWEST)
    again = deploy(d.model, d.gpu, d.layout, d.engine, newest, d.kv_dtype)
    assert again.weights is d.weights and again.weights.version == "0.11.0"
