"""A pasted config whose layers differ in what they cache (Gemma 4's two geometries, GLM-5.2's
shared indexer, DeepSeek-V4's compressed attention) reaches the calculators with its layers: the
scenario's Model carries the shape's layer specs, so each layer is sized by its own kind (Gemma 4
31B: 10.8 GiB a 128K sequence, where one geometry for all would give 20.8). Editing a field away
from the config makes a custom model of the one geometry the fields describe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference import decode_roofline, kv_cache, scenario

FIXTURES = Path(__file__).parent / "models" / "fixtures_2026"
CONTEXT = 131072
GIB = 2**30


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.json").read_text()


def run(spec, text: str, **inputs):
    return spec.run({"config": text, "gpu": "h200", "gpus": 8, "context": CONTEXT, "image_limit": 0,
                     "video_limit": 0, **inputs})


def test_gemma4_31b_sizes_each_geometry_by_hand():
    """50 sliding layers of 16 KV heads x 256 keep 1,024 tokens; 10 global layers of 4 x 512 (K = V,
    but vLLM caches K and V apart) keep all of them; bf16."""
    r = run(kv_cache.SPEC, fixture("nvidia--Gemma-4-31B-IT-NVFP4"))
    sliding = 50 * 16 * 256 * 2 * 2 * 1024
    full = 10 * 4 * 512 * 2 * 2 * CONTEXT
    assert r.values["kv_bytes_per_sequence"] == sliding + full
    assert (sliding + full) / GIB == pytest.approx(10.78, abs=0.01)
    # per GPU at TP 8: two of 16 sliding heads, and one of 4 global heads (replicated past 4 ranks)
    assert r.values["kv_bytes_per_token_per_gpu"] == 50 * 2 * 256 * 4 + 10 * 1 * 512 * 4


def test_glm52_caches_the_indexer_key_on_its_21_indexer_layers_only():
    r = run(kv_cache.SPEC, fixture("zai-org--GLM-5.2"))
    latent = 78 * (512 + 64) * 2
    indexer = 21 * (128 + 4)
    assert r.values["kv_bytes_per_token"] == latent + indexer
    assert r.values["kv_bytes_per_sequence"] == (latent + indexer) * CONTEXT


def test_editing_a_field_makes_a_custom_one_geometry_model():
    text = fixture("nvidia--Gemma-4-31B-IT-NVFP4")
    values, _ = scenario._pasted(text)
    p = {**kv_cache.SPEC.defaults(), **values, "config": text}
    assert scenario.model_from_inputs(p).layer_specs  # as pasted: the shape's layers
    edited = {**p, "kv_heads": 8}
    assert scenario.model_shape(edited) is None
    assert scenario.model_from_inputs(edited).layer_specs == ()  # the fields' one geometry


def test_a_one_geometry_model_keeps_the_fields_form():
    """Where the fields' one geometry gives the shape's layers, the Model is the fields' (no specs):
    the same numbers as before the specs travelled."""
    assert scenario.catalogue_model("llama-3.1-8b").layer_specs == ()


def test_deepseek_v4_compressed_cache_through_kv_cache_and_decode_roofline():
    """43 layers keep a 128-token window of 584-byte entries; 21 C4 layers one entry (and a 132-byte
    indexer key) per 4 tokens, 20 C128 layers one entry per 128: 0.473 GiB a 128K sequence. The
    decode step reads that and the compressors' fp32 state, read and written back."""
    hand = 43 * 128 * 584 + 21 * (CONTEXT // 4) * (584 + 132) + 20 * (CONTEXT // 128) * 584
    assert hand / GIB == pytest.approx(0.473, abs=0.001)
    r = run(kv_cache.SPEC, fixture("deepseek-ai--DeepSeek-V4-Flash"), kv_dtype="fp8")
    assert r.values["kv_bytes_per_sequence"] == hand
    d = run(decode_roofline.SPEC, fixture("deepseek-ai--DeepSeek-V4-Flash"), kv_dtype="fp8", batch=1)
    states = 21 * (8 * 2048 * 4 + 8 * 512 * 4) + 20 * 128 * 1024 * 4
    assert d.values["kv_bytes"] == hand + 2 * states
