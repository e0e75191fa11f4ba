"""physics.cache_layout asks the layer specs: every catalogue model's pool layout is what it was
before the specs (catalogue_layouts_fe84d0c.json), and a model whose KV layers differ in page size
or whose cache is compressed is named as not modelled, with nothing computed from a substitute."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..models.test_compressed_attention import cache_side

from llm_inference.models import derive
from llm_inference.models.data import ENTRIES
from llm_inference.physics import Layout, Model
from llm_inference.physics.cache_layout import layout
from llm_inference.physics.placement import place
from llm_inference.scenario import catalogue_values, model_from_inputs

BEFORE = json.loads(Path(__file__).with_name("catalogue_layouts_fe84d0c.json").read_text())["layouts"]
FIXTURES = Path(__file__).parents[1] / "models" / "fixtures_2026"


def _row(cache) -> list:
    return [cache.block_size, cache.page_bytes, cache.attn_page_per_token, cache.layers_per_group,
            [[g.kind, g.count, g.window] for g in cache.groups], cache.state_page_bytes, cache.cache_mode,
            cache.problem, cache.unmodelled, cache.request_blocks(131072, 8192), cache.request_blocks(4096, 2048)]


@pytest.mark.parametrize("entry", [e for e in ENTRIES if any(k.startswith(f"{e.id}|") for k in BEFORE)],
                         ids=lambda e: e.id)
def test_catalogue_layouts_unchanged(entry):
    """The entries the snapshot holds; later ones are checked against their derivations by hand
    (tests/unit/llm_inference/models/test_models_2026.py)."""
    model = model_from_inputs(dict(catalogue_values(entry.id)))
    for gpus in (1, 8):
        placement = place(model, Layout(gpus=gpus), "bf16")
        for dtype in ("bf16", "fp8"):
            for gpu, version in (("H100", "0.33.0"), ("B200", "0.19.1")):
                key = f"{entry.id}|{gpus}|{dtype}|{gpu}|{version}"
                assert _row(layout(model, placement, dtype, gpu_name=gpu, version=version)) == BEFORE[key], key


@pytest.mark.parametrize("name, words", [
    ("nvidia--Gemma-4-31B-IT-NVFP4.json", "differ in geometry"),
    ("deepseek-ai--DeepSeek-V4-Flash.json", "DeepSeek-V4's compressed attention"),
])
def test_layers_that_differ_are_named_not_modelled(name, words):
    config = json.loads((FIXTURES / name).read_text())
    if name.startswith("deepseek-ai--DeepSeek-V4"):  # its weights' keys refuse the config (test_compressed_attention)
        config = cache_side(config)
    shape = derive(config)
    model = Model(layers=shape.layers, kv_heads=shape.kv_heads, head_dim=shape.head_dim, heads=shape.heads,
                  hidden_size=shape.hidden_size, total_params=shape.total_params, layer_specs=shape.layer_specs)
    cache = layout(model, place(model, Layout(gpus=8), "bf16"), "fp8", gpu_name="H100")
    assert words in cache.unmodelled
    assert cache.attn_page_per_token == 0
