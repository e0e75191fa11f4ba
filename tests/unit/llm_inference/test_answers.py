"""Each calculator's sentence: in the reader's terms, from the outputs' own text, and never a
number where an output was not computed."""

from __future__ import annotations

import json

import pytest

import course_calculators
from llm_inference import answers, decode_roofline, kv_cache, unit_economics
from llm_inference.hardware import GPUS

CALCS = sorted(course_calculators.CALCULATORS)


@pytest.mark.parametrize("calc_id", CALCS)
def test_every_calculator_answers_in_one_sentence_with_its_answer_outputs(calc_id):
    spec = course_calculators.get(calc_id)
    assert spec.answer is not None and 3 <= len(spec.answers) <= 4
    r = spec.run()
    assert r.answer.endswith(".") and r.answer.count(". ") == 0, r.answer
    for name in spec.answers[:2]:
        if spec.output_map[name].unit not in ("bool",):
            assert r.text[name].split(" ")[0].rstrip("×%") in r.answer or name == "tv_distance", (name, r.answer)


def test_kv_cache_says_how_many_requests_fit_as_vllm_logs_it():
    r = kv_cache.SPEC.run({"model": "llama-3.1-70b", "weight_dtype": "fp8", "gpus": 2, "gpu": "h100-sxm",
                           "context": 8192})
    assert r.answer == (f"Llama 3.1 70B in fp8 on 2 × H100 SXM 80GB holds {r.text['max_sequences']} requests of "
                        f"8,192 tokens at once — vLLM would log {r.text['max_concurrency']}.")
    assert kv_cache.SPEC.answers == ("fits", "max_sequences", "max_concurrency", "max_context")


def test_kv_cache_says_when_it_does_not_fit_and_how_many_gpus_would():
    r = kv_cache.SPEC.run({"model": "llama-3.1-70b", "weight_dtype": "bf16", "gpus": 1})
    assert "does not fit: vLLM would not start" in r.answer and f"{r.values['gpus_needed']} GPUs would" in r.answer
    r = kv_cache.SPEC.run({"model": "llama-3.1-8b", "concurrency": 4096, "context": 131072})
    assert "not the 4,096 asked" in r.answer


def test_an_unreadable_config_gives_a_sentence_without_numbers():
    for spec in (kv_cache.SPEC, decode_roofline.SPEC):  # unit economics takes no pasted config
        r = spec.run({"config": "{not json"})
        words = r.answer.replace(" 1 × ", " ")  # the GPU count is the reader's own input
        assert "could not be computed" in r.answer, (spec.id, r.answer)
        assert not any(ch.isdigit() for ch in words.replace("H100 SXM 80GB", "")), (spec.id, r.answer)


def test_an_unmodelled_weight_format_is_not_computed_in_the_sentence():
    cfg = json.dumps({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
                      "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
                      "num_key_value_heads": 8, "vocab_size": 128256, "quantization_config": {"quant_method": "hqq"}})
    r = kv_cache.SPEC.run({"config": cfg})
    assert "could not be computed" in r.answer


def test_the_decode_sentence_puts_the_measured_band_beside_the_ceiling():
    r = decode_roofline.SPEC.run({"model": "llama-3.1-8b", "gpus": 1})
    assert "tokens/s" in r.answer and "at the ceiling" in r.answer
    if r.values["tokens_per_s_measured"][0].isdigit():
        assert f"≈ {r.text['tokens_per_s_measured']} per stream measured" in r.answer


def test_unit_economics_answers_per_million_tokens_for_the_replica():
    r = unit_economics.SPEC.run({"gpus": 2, "model": "llama-3.1-70b"})
    assert f"self-hosted on 2 × {GPUS['h100-sxm'].name.removeprefix('NVIDIA ')} per replica" in r.answer
    assert r.text["usd_per_m_input_selfhosted"] in r.answer and r.text["usd_per_m_output_selfhosted"] in r.answer


def test_the_memory_bar_stacks_what_one_gpu_holds():
    r = kv_cache.SPEC.run({"model": "llama-3.1-8b"})
    parts = r.bars[answers.MEMORY_PER_GPU]["parts"]
    assert [p["label"] for p in parts] == list(answers.MEMORY_BAR_NAMES)
    assert abs(sum(p["share"] for p in parts) - 100) < 0.3
    gpu = GPUS["h100-sxm"]
    held = sum(r.values[n] for n in answers.MEMORY_BAR)
    assert abs(held - gpu.visible_bytes) / gpu.visible_bytes < 1e-9  # the parts make up the memory shown


def test_every_output_of_the_chapters_calculators_has_a_heading_or_is_an_answer():
    for calc_id in CALCS:
        spec = course_calculators.get(calc_id)
        lonely = [o.name for o in spec.outputs if not o.group and o.name not in spec.answers]
        assert not lonely, (calc_id, lonely)
