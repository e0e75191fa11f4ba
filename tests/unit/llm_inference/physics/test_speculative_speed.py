"""physics/speculative_speed.py: Leviathan et al. (2023)'s tokens per step and speed-up, and a step's
cost on the ceilings (the target verifying k + 1 tokens per sequence + k draft steps), by hand."""

from __future__ import annotations

import pytest

from llm_inference import speculative_decoding
from llm_inference.decode_roofline import SPEC as ROOFLINE
from llm_inference.hardware import GPUS
from llm_inference.models.quantization import SHIPPED
from llm_inference.physics.budget import Engine
from llm_inference.physics.deployment import deploy
from llm_inference.physics.placement import Layout
from llm_inference.physics.speculation import DRAFT_MODEL, MTP, Speculation
from llm_inference.physics.speculative_speed import (SpeculativeStep, speculative_step, speedup, tokens_per_pass,
                                                     verify_s)
from llm_inference.physics.speed import decode_step
from llm_inference.scenario import _catalogue_plan, catalogue_model


@pytest.mark.parametrize("alpha,k,expected", [(0.7, 3, 1 + 0.7 + 0.49 + 0.343), (1.0, 4, 5.0), (0.0, 4, 1.0),
                                              (0.8, 1, 1.8)])
def test_tokens_per_step_is_the_geometric_sum(alpha, k, expected):
    assert tokens_per_pass(alpha, k) == pytest.approx(expected)
    if alpha < 1:
        assert tokens_per_pass(alpha, k) == pytest.approx((1 - alpha ** (k + 1)) / (1 - alpha))


def test_one_formula_for_both_calculators():
    assert speculative_decoding.tokens_per_pass is tokens_per_pass
    assert speculative_decoding.speedup is speedup
    # Leviathan et al.'s walltime improvement (1 − α^(k+1)) / ((1 − α)(kc + 1))
    assert speedup(0.8, 4, 0.05) == pytest.approx((1 - 0.8**5) / (0.2 * (4 * 0.05 + 1)))


def test_a_step_verifying_at_a_plain_steps_cost_gives_leviathans_speedup():
    step = SpeculativeStep(k=4, acceptance=0.8, plain_s=0.01, verify_s=0.01, draft_s=0.0005)
    assert step.draft_cost == pytest.approx(0.05)
    assert step.speedup == pytest.approx(speedup(0.8, 4, 0.05))
    assert step.tokens_per_s == pytest.approx(tokens_per_pass(0.8, 4) / (0.01 + 4 * 0.0005))


def deployment(model_id, gpu, gpus, spec):
    return deploy(catalogue_model(model_id), GPUS[gpu], Layout(gpus=gpus), Engine(speculation=spec),
                  _catalogue_plan(model_id, "", SHIPPED), "bf16")


def test_llama_70b_with_an_8b_draft_by_hand():
    spec = Speculation(DRAFT_MODEL, 3, draft=catalogue_model("llama-3.1-8b"),
                       draft_weights=_catalogue_plan("llama-3.1-8b", "", SHIPPED))
    d = deployment("llama-3.1-70b", "h100-sxm", 4, spec)
    pool, gpu = d.pool, d.gpu
    plain = decode_step(d.model, pool.placement, gpu, d.weights, "bf16", 1, 1024)
    # batch 1: 4 tokens stream the same weights and read the same KV as one; 4× the FLOPs stay under the
    # memory time, so verifying costs exactly a plain step
    assert verify_s(d.model, pool.placement, gpu, d.weights, "bf16", 1, 1024, 3) == pytest.approx(plain.roofline_s)
    # a draft step: the 8B's own step on the same 4 GPUs (its 4.02 GB and 32 layers' KV per GPU)
    small = decode_step(pool.drafter.model, pool.drafter.placement, gpu, pool.drafter.weights, "bf16", 1, 1024)
    step = speculative_step(pool.drafter, 3, 0.7, d.model, pool.placement, gpu, d.weights, "bf16", 1, 1024)
    assert step.draft_s == pytest.approx(small.roofline_s)
    assert step.draft_cost == pytest.approx(small.roofline_s / plain.roofline_s)
    assert step.draft_cost == pytest.approx(0.115, abs=0.002)  # ~ 4.02 GB / 35.3 GB streamed per GPU
    assert step.speedup == pytest.approx(2.533 / (1 + 3 * step.draft_cost))
    assert step.speedup == pytest.approx(1.88, abs=0.01)


def test_at_a_large_batch_verifying_turns_compute_bound_and_the_gain_shrinks():
    spec = Speculation(DRAFT_MODEL, 3, draft=catalogue_model("llama-3.1-8b"),
                       draft_weights=_catalogue_plan("llama-3.1-8b", "", SHIPPED))
    d = deployment("llama-3.1-70b", "h100-sxm", 4, spec)
    small = speculative_step(d.pool.drafter, 3, 0.7, d.model, d.pool.placement, d.gpu, d.weights, "bf16", 1, 1024)
    large = speculative_step(d.pool.drafter, 3, 0.7, d.model, d.pool.placement, d.gpu, d.weights, "bf16", 256, 1024)
    assert large.verify_s > large.plain_s and large.speedup < small.speedup


def test_mtp_draft_step_is_one_target_layer_plus_its_head():
    d = deployment("deepseek-v3", "h200", 8, Speculation(MTP, 1, mtp_layers=1))
    pool = d.pool
    plain = decode_step(d.model, pool.placement, d.gpu, d.weights, "bf16", 1, 1024).roofline_s
    step = speculative_step(pool.drafter, 1, 0.8, d.model, pool.placement, d.gpu, d.weights, "bf16", 1, 1024)
    extra = (129280 // 8 * 7168 * 2 + 2 * 7168 * 7168 * 2) / d.gpu.bandwidth
    assert step.draft_s == pytest.approx(plain / 61 + extra)
    assert step.tokens_per_step == pytest.approx(1.8)


def test_the_roofline_shows_the_speedup_and_is_one_without_speculation():
    raw = {**ROOFLINE.preset("h100-70b-bf16").values, "gpus": 4, "batch": 1, "context": 1024}
    off = ROOFLINE.run(raw).values
    assert (off["spec_tokens_per_step"], off["spec_speedup"]) == (1.0, 1.0)
    assert off["spec_tokens_per_s"] == off["tokens_per_s"]
    on = ROOFLINE.run({**raw, "speculation": "draft_model", "draft_model": "llama-3.1-8b",
                       "num_speculative_tokens": 3, "spec_acceptance": 0.7}).values
    assert on["spec_tokens_per_step"] == pytest.approx(2.533)
    assert on["spec_speedup"] > 1.5
    refused = ROOFLINE.run({**raw, "speculation": "mtp"}).values  # a custom Llama shape has no MTP layers
    assert refused["spec_speedup"] is None
