"""The Qwen3-VL vision tower read from a vision_config (llm_inference.models.vision): its tensors as
vLLM's Qwen3_VisionTransformer holds them, counted independently here."""

from __future__ import annotations

import copy

import pytest

from llm_inference.models import ConfigError, catalogue_shape, derive, get_entry
from llm_inference.models.params import COLUMN, REPLICATED, ROW, VISION
from llm_inference.models.vision import read_vision


def _qwen36_config() -> dict:
    return copy.deepcopy(dict(get_entry("qwen3.6-35b-a3b-nvfp4").config))


def test_qwen36s_tower_is_446_571_248_parameters():
    h, i, depth, out = 1152, 4304, 27, 2048
    patch_embed = h * 3 * 2 * 16 * 16 + h
    pos_embed = 2304 * h
    block = 2 * 2 * h + (3 * h * h + 3 * h) + (h * h + h) + (i * h + i) + (h * i + h)
    merger = 2 * h + (4 * h * 4 * h + 4 * h) + (4 * h * out + out)
    expected = patch_embed + pos_embed + depth * block + merger
    tower = catalogue_shape("qwen3.6-35b-a3b-nvfp4").vision
    assert tower.params == expected == 446_571_248
    assert expected * 2 / 2**30 == pytest.approx(0.832, abs=0.001)  # "0.83 GiB in bf16"
    assert {t.group for t in tower.tensors} == {VISION}


def test_the_tower_is_not_in_the_text_counts():
    shape = catalogue_shape("qwen3.6-35b-a3b")
    without = _qwen36_config()
    del without["vision_config"]
    assert derive(without).total_params == shape.total_params
    assert sum(t.params for t in shape.tensors) == shape.total_params
    assert derive(without).vision is None


def test_each_tensor_splits_as_vllm_splits_it():
    tensors = {t.module + "." + t.param: t for t in catalogue_shape("qwen3.6-35b-a3b").vision.tensors}
    assert tensors["model.visual.blocks.0.attn.qkv.weight"].split == COLUMN
    assert tensors["model.visual.blocks.0.attn.qkv.bias"].split == COLUMN
    assert tensors["model.visual.blocks.26.attn.proj.weight"].split == ROW
    assert tensors["model.visual.blocks.26.attn.proj.bias"].split == REPLICATED  # added after the all-reduce
    assert tensors["model.visual.blocks.3.mlp.linear_fc1.weight"].shape == (4304, 1152)
    assert tensors["model.visual.merger.linear_fc2.weight"].shape == (2048, 4608)
    assert tensors["model.visual.merger.norm.norm"].shape == (1152,)
    conv = tensors["model.visual.patch_embed.proj.conv"]
    assert conv.shape == (1152, 3, 2, 16, 16) and not conv.is_linear and not conv.quantizable
    assert not tensors["model.visual.pos_embed.embedding"].is_linear


def test_deepstack_mergers_norm_the_merged_width():
    config = _qwen36_config()
    config["vision_config"]["deepstack_visual_indexes"] = [5, 11, 17]
    tower = derive(config).vision
    assert tower.encoder.deepstack_layers == 3
    norms = [t for t in tower.tensors if t.module.endswith("deepstack_merger_list.2.norm")]
    assert [t.shape for t in norms] == [(4608,), (4608,)]
    assert tower.params - catalogue_shape("qwen3.6-35b-a3b").vision.params == 3 * (
        2 * 4608 + 4608 * 4608 + 4608 + 4608 * 2048 + 2048)


def test_other_towers_are_named_and_not_modelled():
    shape = catalogue_shape("gemma-3-27b")
    assert shape.vision is None
    assert any("vision tower" in t and "Qwen3-VL's tower only" in t for t in shape.traps)


def test_a_vision_config_short_of_a_field_is_not_modelled():
    config = _qwen36_config()
    del config["vision_config"]["out_hidden_size"]
    traps: list[str] = []
    assert read_vision(config, traps) is None
    assert "without out_hidden_size" in traps[0]
    config = _qwen36_config()
    del config["vision_config"]["in_channels"]  # Qwen3-VL's default, 3
    assert read_vision(config, []).encoder.in_channels == 3


@pytest.mark.parametrize("field, value", [("depth", 0), ("hidden_size", "1152"), ("num_heads", 7)])
def test_a_wrong_vision_field_is_refused(field, value):
    config = _qwen36_config()
    config["vision_config"][field] = value
    with pytest.raises(ConfigError, match="vision_config"):
        derive(config)


def test_the_trap_says_how_to_serve_text_only():
    trap = next(t for t in catalogue_shape("qwen3.6-35b-a3b").traps if "vision tower" in t)
    assert "27 blocks of 1152" in trap and "0.45B" in trap and "--language-model-only" in trap
