"""Each layer's spec as the derivation reads it from a published config, checked against a
derivation by hand.

Configs (fixtures_2026/, the files collected for issue #34):
* nvidia/Gemma-4-31B-IT-NVFP4 (https://huggingface.co/nvidia/Gemma-4-31B-IT-NVFP4/blob/main/config.json):
  60 layers, ``layer_types`` 50 sliding (1024 tokens) and 10 full; sliding layers 16 KV heads x
  256, full layers ``num_global_key_value_heads`` 4 x ``global_head_dim`` 512 with
  ``attention_k_eq_v``. vLLM's Gemma4DecoderLayer (vllm/model_executor/models/gemma4.py at
  001cabc1) gives the full layers those heads and that size, and caches K and V apart.
* zai-org/GLM-5.2 (https://huggingface.co/zai-org/GLM-5.2/blob/main/config.json): 78 MLA layers
  (kv_lora_rank 512, qk_rope_head_dim 64), ``indexer_types`` "full" on layers 0, 1, 2 and every
  fourth from 6 (21 layers), "shared" elsewhere; index_head_dim 128.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from llm_inference.models import ConfigError, derive
from llm_inference.models import layer_specs as ls

FIXTURES = Path(__file__).with_name("fixtures_2026")
GEMMA4 = json.loads((FIXTURES / "nvidia--Gemma-4-31B-IT-NVFP4.json").read_text())
GLM52 = json.loads((FIXTURES / "zai-org--GLM-5.2.json").read_text())
CONTEXT = 131072
GIB = 2**30


def test_gemma4_31b_two_geometries_by_hand():
    shape = derive(GEMMA4)
    text = GEMMA4["text_config"]
    full = [i for i, t in enumerate(text["layer_types"]) if t == "full_attention"]
    assert len(full) == 10 and shape.layers == 60
    for i, spec in enumerate(shape.layer_specs):
        if i in full:
            assert type(spec) is ls.FullAttention
            assert (spec.kv_heads, spec.head_dim, spec.k_eq_v) == (4, 512, True)
        else:
            assert isinstance(spec, ls.SlidingWindow)
            assert (spec.kv_heads, spec.head_dim, spec.size) == (16, 256, 1024)
    # bf16, K and V: global 2 x 4 x 512 x 2 = 8192 bytes a token; sliding 2 x 16 x 256 x 2 = 16384
    hand = 10 * CONTEXT * 8192 + 50 * 1024 * 16384
    assert shape.kv_bytes_per_sequence(CONTEXT, "bf16") == hand
    assert hand / GIB == pytest.approx(10.78, abs=0.01)  # not 20.8: the sliding geometry on every layer
    assert shape.kv_bytes_per_token(2) == 10 * 8192 + 50 * 16384
    assert "4 KV heads x 512" in shape.geometry_gap and "16 KV heads x 256" in shape.geometry_gap


def test_gemma4_global_layers_weigh_with_their_geometry_and_no_v_proj():
    shape = derive(GEMMA4)
    count = Counter((t.module, t.shape) for t in shape.tensors if t.module.startswith("self_attn."))
    hidden = 5376
    assert count[("self_attn.q_proj", (32 * 512, hidden))] == 10  # 32 query heads of 512
    assert count[("self_attn.k_proj", (4 * 512, hidden))] == 10
    assert count[("self_attn.q_proj", (32 * 256, hidden))] == 50
    assert count[("self_attn.v_proj", (16 * 256, hidden))] == 50  # V only on the sliding layers
    assert sum(n for (m, _), n in count.items() if m == "self_attn.v_proj") == 50


def test_kv_shared_layers_cache_nothing():
    config = copy.deepcopy(GEMMA4)
    config["text_config"]["num_kv_shared_layers"] = 20
    shape = derive(config)
    assert all(isinstance(s, ls.NoCache) for s in shape.layer_specs[40:])
    assert shape.kv_layers == 40
    assert any("num_kv_shared_layers 20" in t for t in shape.traps)


def test_glm52_indexer_on_21_of_78_layers_by_hand():
    shape = derive(GLM52)
    owned = [i for i, t in enumerate(GLM52["indexer_types"]) if t == "full"]
    assert owned == [0, 1, 2, *range(6, 78, 4)] and len(owned) == 21
    assert [i for i, s in enumerate(shape.layer_specs) if s.indexer_dim] == owned
    # bf16 latent (512 + 64) x 2 = 1152 bytes a token on every layer; the indexer's 128 + 4 on 21
    hand = 78 * 1152 + 21 * 132
    assert sum(s.bytes_per_token("bf16") for s in shape.layer_specs) == hand
    every_layer = 78 * (1152 + 132)
    assert every_layer / hand == pytest.approx(1.081, abs=0.001)  # the "+8 % KV" when ignored
    assert any("21 of 78 layers own" in t for t in shape.traps)


def test_glm52_shared_layers_carry_no_indexer_weights():
    shape = derive(GLM52)
    count = Counter(t.module for t in shape.tensors if ".indexer." in t.module)
    # wq_b, wk, weights_proj and k_norm (a LayerNorm: weight and bias) on the 21 owning layers only
    assert count == {"self_attn.indexer.wq_b": 21, "self_attn.indexer.wk": 21,
                     "self_attn.indexer.weights_proj": 21, "self_attn.indexer.k_norm": 42}


@pytest.mark.parametrize("types, message", [
    (["full"] * 77, "lists 77 layers"),
    (["full"] * 77 + ["partial"], "'partial'"),
])
def test_indexer_types_refused_naming_the_field(types, message):
    config = dict(GLM52, indexer_types=types)
    with pytest.raises(ConfigError, match="indexer_types") as err:
        derive(config)
    assert message in str(err.value)
