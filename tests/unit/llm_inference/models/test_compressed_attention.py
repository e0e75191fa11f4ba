"""DeepSeek-V4's compressed sparse attention, derived by hand from its config and vLLM's source.

The config: deepseek-ai/DeepSeek-V4-Flash (fixtures_2026/deepseek-ai--DeepSeek-V4-Flash.json; its
attention fields are those of nvidia/DeepSeek-V4-Flash-NVFP4 as published in
https://github.com/ai-dynamo/aiconfigurator/blob/main/aic-core/src/aiconfigurator_core/model_configs/nvidia--DeepSeek-V4-Flash-NVFP4_config.json):
43 layers, ``compress_ratios`` [0, 0, 4, 128, 4, …, 128, 4, 0] (the last entry is the MTP
layer's), head_dim 512 with 64 RoPE dims, a 128-token window, index_head_dim 128.

The bytes (vLLM, vllm/model_executor/layers/deepseek_v4_attention.py and
deepseek_compressor.py): a token or compressed entry is 448 fp8 + 64 × 2 bf16 + 7 scales + 1 pad =
584 bytes; an indexer key 128 fp8 + one fp32 scale = 132 bytes (68 in MXFP4); a compressor state
is fp32, 2 × coff × head_dim wide over coff × ratio tokens (coff 2 for ratio 4, 1 for 128).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference.models.errors import ConfigError

from llm_inference.models import derive
from llm_inference.models import compressed_attention as ca

CONFIG = json.loads((Path(__file__).with_name("fixtures_2026") / "deepseek-ai--DeepSeek-V4-Flash.json").read_text())
CONTEXT = 131072
GIB = 2**30


def test_the_layouts_bytes():
    assert ca.token_bytes(512, 64) == 448 + 128 + 7 + 1 == 584
    assert ca.indexer_key_bytes(128) == 132
    assert ca.indexer_key_bytes(128, fp4=True) == 64 + 4 == 68


def test_one_c4_layer_by_hand():
    spec = ca.CompressedSparseAttention(compress_ratio=4, indexer_dim=128)
    assert spec.bytes_per_sequence(CONTEXT, "fp8") == 128 * 584 + CONTEXT // 4 * (584 + 132)
    assert spec.bytes_per_sequence(100, "fp8") == 100 * 584 + 25 * (584 + 132)
    assert spec.bytes_per_token("fp8") == 584 + (584 + 132) / 4
    # the attention's compressor (8 tokens x 2 x 2 x 512 fp32) and the indexer's (8 x 2 x 2 x 128)
    assert spec.state_bytes() == 8 * 2048 * 4 + 8 * 512 * 4 == 81920
    # pages as vLLM's specs pad them to 576 bytes: 64-token window blocks, 256 // 4 entries a block
    assert spec.pages(256) == {"window": 37440, "compressed": 37440, "indexer": 8640}


def test_c128_and_window_only_layers_by_hand():
    c128 = ca.CompressedSparseAttention(compress_ratio=128)
    assert c128.bytes_per_sequence(CONTEXT, "fp8") == 128 * 584 + 1024 * 584
    assert c128.state_bytes() == 128 * 1024 * 4
    assert c128.pages(256)["compressed"] == 1728  # 2 entries x 584 = 1168, padded to 3 x 576
    window = ca.CompressedSparseAttention(compress_ratio=0)
    assert window.bytes_per_sequence(CONTEXT, "fp8") == 128 * 584
    assert window.state_bytes() == 0 and window.legacy == ("compressed", 0)


def test_only_fp8_is_served():
    spec = ca.CompressedSparseAttention(compress_ratio=4, indexer_dim=128)
    for dtype in ("fp8", "fp8_e4m3", "fp8_ds_mla"):
        assert ca.fp8_layout_problem(dtype) == ""
        assert spec.bytes_per_token(dtype) > 0
    with pytest.raises(ValueError, match="only supports fp8"):
        spec.bytes_per_token("auto")
    with pytest.raises(ValueError, match="ratio"):
        ca.CompressedSparseAttention(compress_ratio=16)
    with pytest.raises(NotImplementedError, match="not modelled"):
        spec.page_bytes(256)


def cache_side(config: dict) -> dict:
    """The config whole: DeepSeek-V4's weight-side keys (hyper-connections, hash layers, the grouped
    output, the indexer's queries) are read now (models/deepseek_v4.py), so nothing is set aside;
    kept for the physics tests that import it."""
    return config


def test_v4_is_read_whole():
    """Every key of the published config is read (the weight side in models/deepseek_v4.py,
    tests/unit/llm_inference/models/test_deepseek_v4.py); one unknown key still refuses, named."""
    assert derive(CONFIG).attention == "csa"
    with pytest.raises(ConfigError, match="compress_block_bias"):
        derive({**CONFIG, "compress_block_bias": True})


def test_deepseek_v4_flash_stack_by_hand():
    shape = derive(CONFIG)
    ratios = CONFIG["compress_ratios"][:43]
    assert (ratios.count(4), ratios.count(128), ratios.count(0)) == (21, 20, 2)
    assert shape.attention == "csa" and shape.kv_layers == 43
    specs = shape.layer_specs
    assert [s.compress_ratio for s in specs] == ratios
    assert all(s.indexer_dim == (128 if s.compress_ratio == 4 else 0) for s in specs)
    window = 43 * 128 * 584
    c4 = 21 * (CONTEXT // 4) * (584 + 132)
    c128 = 20 * (CONTEXT // 128) * 584
    hand = window + c4 + c128
    assert shape.kv_bytes_per_sequence(CONTEXT, "fp8") == hand
    assert hand / GIB == pytest.approx(0.473, abs=0.001)  # the "about 0.47 GiB"
    states = 21 * (8 * 2048 * 4 + 8 * 512 * 4) + 20 * 128 * 1024 * 4
    assert sum(s.state_bytes() for s in specs) == states == 12_206_080
    assert "compressed" in shape.geometry_gap
    assert any("compress_ratios" in t for t in shape.traps)
