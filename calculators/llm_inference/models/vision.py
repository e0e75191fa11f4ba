"""A multimodal checkpoint's vision tower, read from its ``vision_config``: the Qwen3-VL vision
transformer (Qwen3-VL, Qwen3.5, Qwen3.6), tensor by tensor as vLLM builds it.

``Qwen3_VisionTransformer`` (vllm/model_executor/models/qwen3_vl.py, 0.24.0 and 0.25.1) holds:

* ``patch_embed.proj``: a Conv3d of kernel = stride = (temporal_patch, patch, patch) from
  ``in_channels`` to ``hidden_size``, with a bias (``Conv3dLayer``: never a quantized Linear);
* ``pos_embed``: an ``nn.Embedding`` of ``num_position_embeddings`` × ``hidden_size``;
* ``depth`` blocks (``Qwen3_VisionBlock``): two LayerNorms (weight and bias), ``attn.qkv`` (a
  ``QKVParallelLinear`` of 3 × hidden, with biases), ``attn.proj`` (row-parallel, bias),
  ``mlp.linear_fc1`` (column-parallel, hidden → intermediate, bias) and ``mlp.linear_fc2`` (row-parallel,
  back, bias);
* ``merger`` (``Qwen3_VisionPatchMerger``): a LayerNorm over ``hidden_size``, then ``linear_fc1``
  (4 × hidden → 4 × hidden, column-parallel, bias) and ``linear_fc2`` (4 × hidden → ``out_hidden_size``,
  row-parallel, bias) on each 2 × 2 merged group (spatial_merge_size²);
* one more merger per ``deepstack_visual_indexes`` entry, its norm over the merged 4 × hidden
  (``use_postshuffle_norm``).

The linear layers get the checkpoint's ``quant_config``, so its quantization scheme decides their
format (ModelOpt ``MIXED_PRECISION`` keeps every layer it does not list unquantized: "Layer not in
quantized_layers — leave unquantized", quantization/modelopt.py, 0.24.0); under tensor parallelism
they split like the text model's (``mm_encoder_tp_mode`` "weights", the default). The module paths are
the checkpoint's (``model.visual.blocks.0.attn.qkv``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..engines.vllm_encoder import QWEN3_VL_ARCHITECTURES, VisionEncoder
from .errors import ConfigError
from .params import COLUMN, ROW, VISION, Params, Tensor, join, linear, norm

__all__ = ["VisionTower", "read_vision", "vision_tensors"]

_PREFIX = "model.visual"
#: The vision_config fields the tower's shape needs, and the two it may leave to Qwen3-VL's defaults
#: (transformers' Qwen3VLVisionConfig: in_channels 3, temporal_patch_size 2; no deepstack).
_REQUIRED = ("depth", "hidden_size", "intermediate_size", "num_heads", "patch_size", "spatial_merge_size",
             "out_hidden_size", "num_position_embeddings")
_DEFAULTS = {"in_channels": 3, "temporal_patch_size": 2}


@dataclass(frozen=True)
class VisionTower:
    """The tower's shape (``encoder``, what the engine rules read) and its tensors, group ``VISION``."""

    encoder: VisionEncoder
    tensors: tuple[Tensor, ...]

    @property
    def params(self) -> int:
        return sum(t.params for t in self.tensors)


def _merger(hidden: int, merged: int, out: int, module: str, postshuffle: bool) -> Params:
    return join(norm(merged if postshuffle else hidden, f"{module}.norm", bias=True),
                linear(merged, merged, True, module=f"{module}.linear_fc1", split=COLUMN),
                linear(merged, out, True, module=f"{module}.linear_fc2", split=ROW))


def vision_tensors(encoder: VisionEncoder) -> tuple[Tensor, ...]:
    """Every tensor of the tower, in group ``VISION``, with vLLM's split under tensor parallelism."""
    h, i = encoder.hidden_size, encoder.intermediate_size
    patch = encoder.patch_size
    parts = [
        Params([Tensor(VISION, f"{_PREFIX}.patch_embed.proj",
                       (h, encoder.in_channels, encoder.temporal_patch_size, patch, patch), param="conv",
                       quantizable=False),
                Tensor(VISION, f"{_PREFIX}.patch_embed.proj", (h,), param="bias")]),
        Params([Tensor(VISION, f"{_PREFIX}.pos_embed", (encoder.num_position_embeddings, h), param="embedding",
                       quantizable=False)]),
    ]
    for b in range(encoder.depth):
        block = f"{_PREFIX}.blocks.{b}"
        parts += [norm(h, f"{block}.norm1", bias=True), norm(h, f"{block}.norm2", bias=True),
                  linear(h, 3 * h, True, module=f"{block}.attn.qkv", split=COLUMN),
                  linear(h, h, True, module=f"{block}.attn.proj", split=ROW),
                  linear(h, i, True, module=f"{block}.mlp.linear_fc1", split=COLUMN),
                  linear(i, h, True, module=f"{block}.mlp.linear_fc2", split=ROW)]
    merged = h * encoder.merge_unit
    parts.append(_merger(h, merged, encoder.out_hidden_size, f"{_PREFIX}.merger", False))
    parts += [_merger(h, merged, encoder.out_hidden_size, f"{_PREFIX}.deepstack_merger_list.{k}", True)
              for k in range(encoder.deepstack_layers)]
    return tuple(replace(t, group=VISION) for t in join(*parts).tensors)


def _int(vision: Mapping[str, Any], name: str) -> int | None:
    value = vision.get(name, _DEFAULTS.get(name))
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"vision_config.{name} must be a positive integer, got {value!r}")
    return value


def read_vision(config: Mapping[str, Any], traps: list[str]) -> VisionTower | None:
    """The tower of a config whose architecture builds Qwen3-VL's vision transformer, or None (with a
    trap saying why when the config has a vision_config)."""
    vision = config.get("vision_config")
    if vision is None:
        return None
    archs = config.get("architectures")
    arch = archs[0] if isinstance(archs, list) and archs and isinstance(archs[0], str) else ""
    if arch not in QWEN3_VL_ARCHITECTURES or not isinstance(vision, Mapping):
        traps.append("The config has a vision tower (vision_config): it is not counted; the totals cover the "
                     "text decoder with its embeddings and head. vLLM loads and profiles it too, which the "
                     f"calculators model for Qwen3-VL's tower only{f', not {arch}' if arch else ''}.")
        return None
    values = {name: _int(vision, name) for name in (*_REQUIRED, *_DEFAULTS)}
    missing = [name for name, value in values.items() if value is None]
    if missing:
        traps.append(f"The config has a vision tower (vision_config) without {', '.join(missing)}: it is not "
                     f"counted nor modelled; the totals cover the text decoder.")
        return None
    deepstack = vision.get("deepstack_visual_indexes") or []
    if not isinstance(deepstack, list):
        raise ConfigError("vision_config.deepstack_visual_indexes must be a list of block indexes")
    if values["hidden_size"] % values["num_heads"]:
        raise ConfigError("vision_config.hidden_size must split evenly over vision_config.num_heads")
    encoder = VisionEncoder(
        depth=values["depth"], hidden_size=values["hidden_size"], intermediate_size=values["intermediate_size"],
        num_heads=values["num_heads"], patch_size=values["patch_size"],
        temporal_patch_size=values["temporal_patch_size"], spatial_merge_size=values["spatial_merge_size"],
        in_channels=values["in_channels"], out_hidden_size=values["out_hidden_size"],
        num_position_embeddings=values["num_position_embeddings"], deepstack_layers=len(deepstack))
    tower = VisionTower(encoder, vision_tensors(encoder))
    traps.append(
        f"The config has a vision tower (vision_config: Qwen3-VL's, {encoder.depth} blocks of "
        f"{encoder.hidden_size}, {tower.params / 1e9:.2f}B parameters): it is not counted in the totals, which "
        f"cover the text decoder. vLLM loads it and profiles one largest image before the KV cache is sized, "
        f"unless it serves text only (--language-model-only, or --limit-mm-per-prompt 0 for image and video).")
    return tower
