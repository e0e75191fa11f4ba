"""How accuracy.inputs_of maps a log's data parallelism onto the kv-cache calculator's layouts, and how
rebuild compares what each data-parallel engine prints.

vLLM's rules (vllm/model_executor/layers/fused_moe/config.py, ``FusedMoEParallelConfig.make``): a dense
model's DP ranks are independent replicas; a mixture of experts' MoE layers span all DP × TP GPUs,
whole experts with ``--enable-expert-parallel`` (the calculator's data-parallel attention layout when
TP is 1), sliced otherwise. Each DP engine sizes and prints its own pool ("Maximum concurrency" of one
pool), so the figure compared is one pool's.
"""

from __future__ import annotations

import pytest

from llm_inference import accuracy
from llm_inference.engines.startup_log_record import FITS, Log


def _log(**kw) -> Log:
    base = dict(id="synthetic", url="https://example.invalid", where="-", vllm_version="0.11.0", release="0.11.0",
                model="-", gpu="NVIDIA H200", gpu_id="h200", lines=("-",), verdict=FITS, max_model_len=32768)
    return Log(**{**base, **kw})


def test_dp_with_expert_parallelism_at_tp1_is_the_data_parallel_attention_layout():
    inputs = accuracy.inputs_of(_log(model_id="deepseek-v3", data_parallel=8, expert_parallel=True))
    assert inputs["gpus"] == 8 and inputs["attention_parallel"] == "dp"
    assert "expert_parallel" not in inputs  # DP attention spreads the experts itself


def test_tensor_parallel_expert_parallelism_keeps_tp_attention():
    inputs = accuracy.inputs_of(_log(model_id="deepseek-v3", tensor_parallel=8, expert_parallel=True))
    assert inputs["gpus"] == 8 and inputs.get("attention_parallel") is None and inputs["expert_parallel"] == "on"


def test_a_dense_models_data_parallel_ranks_are_replicas():
    one = accuracy.inputs_of(_log(model_id="llama-3.1-8b"))
    four = accuracy.inputs_of(_log(model_id="llama-3.1-8b", data_parallel=4))
    assert four == one  # each replica's GPU is the log's GPU


@pytest.mark.parametrize("kw, words", [
    (dict(data_parallel=8), "without expert parallelism"),
    (dict(data_parallel=2, tensor_parallel=4, expert_parallel=True), "DP × TP"),
    (dict(data_parallel=2, pipeline_parallel=2, expert_parallel=True), "PP 2"),
])
def test_moe_data_parallel_layouts_the_calculator_lacks_are_not_run(kw, words):
    log = _log(model_id="deepseek-v3", **kw)
    assert accuracy.inputs_of(log) is None
    assert words in accuracy.layout_problem(log)
    r = accuracy.rebuild(log)
    assert not r.ran and words in r.reason


def test_each_dp_engine_prints_its_own_pools_concurrency():
    # an MLA model at 32,768 tokens a request in 16-token blocks: vLLM prints blocks × 16 tokens and
    # blocks ÷ 2,048 requests for one pool, so concurrency = tokens ÷ 32,768 on every DP rank
    log = _log(model_id="deepseek-v3", data_parallel=8, expert_parallel=True, kv_tokens=1, concurrency=1.0)
    r = accuracy.rebuild(log)
    tokens, concurrency = r.figures["kv_tokens"][1], r.figures["concurrency"][1]
    assert concurrency == pytest.approx(tokens / 32768, rel=1e-6)


def test_the_page_names_the_layout(monkeypatch):
    monkeypatch.setattr(accuracy, "LOGS", (_log(model_id="deepseek-v3", data_parallel=8, expert_parallel=True),
                                           _log(model_id="llama-3.1-8b", max_loras=4, max_lora_rank=16,
                                                release="0.12.0")))
    page = accuracy.table_html()
    assert "DP 8 EP" in page and "LoRA 4×r16" in page


def test_a_setting_that_leaves_the_pool_out_is_not_run_and_says_why():
    # LoRA before 0.12: the calculator names what it does not model instead of a pool
    r = accuracy.rebuild(_log(model_id="llama-3.1-8b", max_loras=4, max_lora_rank=16, available_gib=10.0))
    assert not r.ran and not r.figures and "LoRA" in r.reason


def test_model_loading_counts_the_lora_slots():
    # GPUModelRunner.load_model wraps the model in its LoRA manager inside the DeviceMemoryProfiler whose
    # consumed memory it prints as "Model loading took" (engines.vllm_lora.EVIDENCE), so the slots are in it
    from dataclasses import replace

    from llm_inference import kv_cache

    lora = _log(model_id="llama-3.1-8b", release="0.12.0", gpu_id="l4", max_model_len=4096, max_loras=4,
                max_lora_rank=64, loading_gib=16.0)
    plain = replace(lora, max_loras=0, max_lora_rank=0)
    prepared, _errors = kv_cache.SPEC.prepare(accuracy.inputs_of(lora))
    slots = kv_cache.compute(prepared).details["pool"].lora_bytes / (1 << 30)
    assert slots > 1.0  # 4 slots of rank 64 on Llama-3.1-8B: 1.38 GiB
    grown = accuracy.rebuild(lora).figures["loading_gib"][1] - accuracy.rebuild(plain).figures["loading_gib"][1]
    assert grown == pytest.approx(slots, rel=1e-6)
