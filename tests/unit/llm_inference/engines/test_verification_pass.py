"""The profile run's verification pass with ``--speculative-config`` (engines/vllm_speculation.py point 13,
engines.vllm.activation_peak_estimate), against byte counts derived by hand from vLLM's source:
gpu_model_runner.py ``_dummy_sampler_run`` (one drafted token per dummy request; from 0.12
``torch.randn(num_tokens + num_reqs, vocab)`` in the logits' dtype), rejection_sampler.py (the bonus
rows sampled with ``max_num_logprobs=-1`` and ``raw_logits``, which keeps an fp32 copy; the target rows
made fp32, cloned from 0.14, top-k / top-p, then ``target_probs``, ``q`` and ``inv_q`` in fp32), and
Model Runner V2's ``_dummy_sampler_run`` (no verification pass)."""

from __future__ import annotations

import pytest

from llm_inference.engines import vllm
from llm_inference.engines.vllm_speculation import (BONUS_SAMPLED, BONUS_SAMPLED_CLONED, TARGET_PROBS,
                                                     verification_bytes_per_logit, verification_layout)
from llm_inference.hardware import GPUS
from llm_inference.models.data.eagle_heads import HEADS
from llm_inference.models.quantization import SHIPPED
from llm_inference.physics.budget import Engine
from llm_inference.physics.deployment import deploy
from llm_inference.physics.placement import Layout
from llm_inference.physics.speculation import EAGLE, NGRAM, Speculation
from llm_inference.scenario import _catalogue_plan, catalogue_model

#: Llama 3.1 8B's config: vocabulary 128,256, hidden 4,096, intermediate 14,336.
VOCAB, HIDDEN, INTERMEDIATE = 128_256, 4_096, 14_336


@pytest.mark.parametrize("version, runner, layout", [
    ("0.8.5", "v1", TARGET_PROBS), ("0.11.0", "v1", TARGET_PROBS), ("0.12.0", "v1", BONUS_SAMPLED),
    ("0.13.0", "v1", BONUS_SAMPLED), ("0.14.0", "v1", BONUS_SAMPLED_CLONED), ("0.19.1", "v1", BONUS_SAMPLED_CLONED),
    ("0.24.0", "v1", BONUS_SAMPLED_CLONED), ("0.24.0", "v2", ""), ("0.29.0", "v2", ""),
])
def test_the_layout_of_the_pass_by_release_and_runner(version, runner, layout):
    assert verification_layout(version, runner) == layout


def test_up_to_0_11_the_target_logits_are_sorted_in_bf16_beside_the_plain_logits():
    # logits (2) + target_logits (2) + the sort of bf16 rows: values 2, int64 indices 8, PyTorch's index
    # row 8, CUB's alternate keys 2 and values 8
    assert verification_bytes_per_logit(TARGET_PROBS, 39.0, False) == 2 + 2 + 2 + 8 + 8 + 2 + 8 == 32
    assert verification_bytes_per_logit(TARGET_PROBS, 10.0, False) == 32  # above FlashInfer's 10


def test_from_0_14_on_the_sort_path_the_target_rows_peak_at_50_bytes():
    # held: randn of 2 rows a request in bf16 (4), bonus_logits (2), the bonus pass's fp32 raw logits (4),
    # the target rows in fp32 (4) and their clone (4) = 18; the sort of fp32 rows: 4 + 8 + 8 + 4 + 8 = 32
    assert verification_bytes_per_logit(BONUS_SAMPLED_CLONED, 39.0, False) == 18 + 32 == 50
    # 0.12-0.13 have no clone: 14 + 32 = 46, under the bonus pass's 39 + 4 (randn) + 4 (fp32 copy) = 47
    assert verification_bytes_per_logit(BONUS_SAMPLED, 39.0, False) == 47
    # a FlashInfer plain pass (10) under the same rejection sampler: the target rows still sort
    assert verification_bytes_per_logit(BONUS_SAMPLED, 10.0, False) == 46


def test_with_the_triton_kernel_the_recovery_tensors_set_the_peak_at_30_bytes():
    # 18 held + target_probs, q and inv_q in fp32 (12); the bonus pass is 13.3 + 8 = 21.3
    assert verification_bytes_per_logit(BONUS_SAMPLED_CLONED, 13.3, True) == 18 + 12 == 30
    assert verification_bytes_per_logit("", 13.3, True) == 0


def test_the_activation_peak_takes_the_larger_sampler_pass():
    tokens, seqs = 2_048, 256
    kept = tokens * HIDDEN * 2
    plain = vllm.activation_peak_estimate(HIDDEN, INTERMEDIATE, VOCAB, tokens, seqs, sampler="triton")
    assert plain == pytest.approx(kept + 256 * VOCAB * 13.3)
    with_pass = vllm.activation_peak_estimate(HIDDEN, INTERMEDIATE, VOCAB, tokens, seqs, sampler="triton",
                                              verification_bytes_per_logit=30)
    assert with_pass == pytest.approx(kept + 256 * VOCAB * 30)
    # 16.7 bytes × 256 × 128,256 = 548,320,051 bytes = 0.51 GiB: the L4 log's gap (3.51 GiB rebuilt
    # without the pass, 2.99 GiB logged)
    assert (with_pass - plain) / vllm.GIB == pytest.approx(0.5107, abs=1e-4)
    # a pass below the plain sampler's changes nothing
    assert vllm.activation_peak_estimate(HIDDEN, INTERMEDIATE, VOCAB, tokens, seqs, sampler="native",
                                         verification_bytes_per_logit=32) == pytest.approx(kept + 256 * VOCAB * 39)


def _pool(version, spec):
    e = Engine(speculation=spec, version=version)
    return deploy(catalogue_model("llama-3.1-8b"), GPUS["l4"], Layout(gpus=1), e,
                  _catalogue_plan("llama-3.1-8b", "", SHIPPED), "bf16").pool


def test_the_pool_counts_the_pass_for_any_drafter_on_the_v1_runner_only():
    plain = _pool("0.19.1", Speculation())
    assert (plain.batched_tokens, plain.drafter.weight_bytes) == (2_048, 0)
    extra = (30 - 13.3) * 256 * VOCAB
    eagle = _pool("0.19.1", Speculation(EAGLE, k=5, head=HEADS["eagle3-llama-3.1-8b"]))
    assert eagle.activation_bytes - plain.activation_bytes == pytest.approx(extra)
    ngram = _pool("0.19.1", Speculation(NGRAM, k=4))  # no drafter model, the same dummy batch
    assert ngram.activation_bytes - plain.activation_bytes == pytest.approx(extra)
    # Model Runner V2 (every model from 0.29): no verification pass in its profile run
    assert (_pool("0.29.0", Speculation(NGRAM, k=4)).activation_bytes
            == pytest.approx(_pool("0.29.0", Speculation()).activation_bytes))
