"""vLLM's vision tower at startup: whether it loads, what its profiling run encodes, and the memory
that encoder pass holds — computed the way vLLM computes it, for the Qwen3-VL vision transformer.

Read in the source of the 0.24.0 (``ee0da84ab``) and 0.25.1 (``752a3a504``) wheels on PyPI; every
file cited is the same in both for what is used here (``multimodal/encoder_budget.py`` and
``v1/core/encoder_cache_manager.py`` identical, ``profile_run`` identical, ``qwen3_vl.py`` and
``qwen2_5_vl.py`` differ only in weight loading):

1. **The tower.** ``Qwen3_5MoeForConditionalGeneration`` (vllm/model_executor/models/qwen3_5.py) builds
   ``self.visual = Qwen3_VisionTransformer(config.vision_config, quant_config=...)`` inside
   ``_mark_tower_model(vllm_config, {"image", "video"})`` (models/interfaces.py), which swaps it for
   an empty ``StageMissingLayer`` "when ``--limit-mm-per-prompt`` is set to zero for all of its
   modalities"; ``MultiModalConfig.get_limit_per_prompt`` (config/multimodal.py) returns 0 for every
   modality under ``--language-model-only`` and 999 for a modality the flag leaves out. So the tower
   is loaded unless the image *and* the video limits are 0 (:func:`tower_loaded`).
2. **What is profiled.** ``MultiModalBudget`` (multimodal/encoder_budget.py) takes the modalities
   whose limit is above 0, their most tokens per item (``get_mm_max_tokens_per_item``: for Qwen3-VL
   one image at ``get_image_size_with_most_features`` and one 2-frame video at the video processor's
   ``longest_edge // temporal_patch_size``, models/qwen2_vl.py and qwen3_vl.py), an encoder budget of
   max(``max_num_batched_tokens``, most tokens per item) (``compute_mm_encoder_budget``,
   v1/core/encoder_cache_manager.py; both scheduler fields equal ``max_num_batched_tokens``,
   config/scheduler.py), and per modality ``mm_max_items_per_batch`` = max(1, min(budget ÷ tokens,
   max_num_seqs × max(1, min(limit, max_model_len ÷ tokens)))) (``_get_max_items``; chunked prefill
   on, the V1 default). ``GPUModelRunner.profile_run`` (v1/worker/gpu_model_runner.py, 0.24.0 line
   6239) encodes that many items of the modality with the most tokens (``get_modality_with_max_tokens``)
   with ``model.embed_multimodal``, stores the outputs in ``encoder_cache`` and keeps them — and the
   dummy batch of pixel values, a local of ``profile_run`` — through the text dummy run; only then is
   the peak read (``allocated_bytes.all.peak``, v1/worker/gpu_worker.py). The runs of the evidence
   table log it: "Encoder cache will be initialized with a budget of 16384 tokens, and profiled with
   1 image items of the maximum feature size."
3. **The encoder pass's peak** (:func:`forward_peak_bytes`): ``Qwen3_VisionTransformer.forward`` runs
   eagerly (no ``support_torch_compile`` on its blocks; ``compile_mm_encoder`` and
   ``cudagraph_mm_encoder`` off by default), so its peak is the tensors alive at once, counted from the
   code: the pixel values (cast to the model's dtype by ``InputProcessingContext._postprocess_output``,
   multimodal/processing/context.py), the interpolated position embeddings and the rotary cos/sin of
   ``prepare_encoder_metadata`` (alive through every block), then in ``Qwen2_5_VisionAttention.forward``
   (qwen2_5_vl.py) the residual, the norm's output, the fused qkv, a contiguous copy of q and k, their
   rotated copy (``ApplyRotaryEmb.forward_cuda``: vllm_flash_attn's ``apply_rotary_emb``, not in
   place), the attention output (FlashAttention's varlen kernel, no copy of q, k, v: their last
   dimension is contiguous) and the projection's output — all locals until the method returns. The
   MLP (fc1, GELU, fc2) and the merger hold less. What the attention kernel allocates beyond its output
   (FlashAttention's fp32 log-sum-exp, 4 MiB for one 4096 × 4096 image) and cuBLAS workspaces are
   left out; under tensor parallelism the all-reduce's buffers too.

Which checkpoints this covers: the architectures whose vLLM class builds ``Qwen3_VisionTransformer`` with
``Qwen3VLProcessingInfo`` (:data:`QWEN3_VL_ARCHITECTURES`). Other towers (Gemma 3's SigLIP, Llama 4's,
LLaVA's CLIP) are loaded and profiled too, by other code: not modelled here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

__all__ = [
    "QWEN3_VL_ARCHITECTURES", "DEFAULT_LIMIT_PER_PROMPT", "QWEN3_VL_IMAGE_MAX_PIXELS", "QWEN3_VL_VIDEO_MAX_PIXELS",
    "DUMMY_VIDEO_FRAMES", "VisionEncoder", "EncoderBudget", "EncoderProfile", "tower_loaded",
    "image_size_with_most_features", "vision_tokens", "max_tokens_per_item", "encoder_budget",
    "forward_peak_bytes", "profile", "activation_peak",
]

#: The architectures whose vLLM model class builds ``Qwen3_VisionTransformer`` and reads its images with
#: ``Qwen3VLProcessingInfo`` (qwen3_vl.py, qwen3_vl_moe.py, qwen3_5.py of 0.24.0 and 0.25.1).
QWEN3_VL_ARCHITECTURES = frozenset({
    "Qwen3VLForConditionalGeneration", "Qwen3VLMoeForConditionalGeneration",
    "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",
})

#: ``MultiModalConfig.get_limit_per_prompt``: "Unspecified modality is set to 999 by default".
DEFAULT_LIMIT_PER_PROMPT = 999

#: The image processor's ``size["longest_edge"]`` (pixels) as the Qwen3.5 and Qwen3.6 checkpoints ship
#: it in preprocessor_config.json, ``{"longest_edge": 16777216, "shortest_edge": 65536}`` (4096²): the
#: file is not in config.json; the copies read are a session log that prints
#: Qwen/Qwen3.5-2B-Base/preprocessor_config.json (search-index id 54877551029) and a test that reads
#: "Qwen/Qwen3.6-35B-A3B-FP8 ships this" (search-index id 66291497997). The logs of the evidence table
#: confirm it: their "budget of 16384 tokens" is this image's 16,384 tokens (max_num_batched_tokens
#: 8,192).
QWEN3_VL_IMAGE_MAX_PIXELS = 16_777_216
#: The video processor's ``size["longest_edge"]``, ``{"longest_edge": 25165824, "shortest_edge": 4096}`` in
#: video_preprocessor_config.json: read in copies quoting Qwen3.5-architecture checkpoints (a report on
#: Qwen/Qwen3.8-27B, search-index id 61447885604; a test's copy of that snapshot's file, id 70150572438; a
#: test of Qwen/Qwen3.5-4B's, id 58496177140), no copy of Qwen3.6-35B-A3B's own being stored. It counts the
#: two frames a temporal patch merges, so one frame may have half of it. The video's 12,288 tokens stay
#: below the image's 16,384, so it is not what these runs profile.
QWEN3_VL_VIDEO_MAX_PIXELS = 25_165_824
#: ``get_max_video_tokens`` of Qwen3VLProcessingInfo and its dummy videos take two frames.
DUMMY_VIDEO_FRAMES = 2
#: ``get_image_size_with_most_features`` avoids aspect ratios above 200 (qwen2_vl.py).
_MAX_ASPECT_RATIO = 200


@dataclass(frozen=True)
class VisionEncoder:
    """A Qwen3-VL vision tower as vLLM builds it, from the checkpoint's ``vision_config``, and the
    largest image and video its processor accepts (pixels)."""

    depth: int
    hidden_size: int
    intermediate_size: int
    num_heads: int
    patch_size: int
    temporal_patch_size: int
    spatial_merge_size: int
    in_channels: int
    out_hidden_size: int
    num_position_embeddings: int
    deepstack_layers: int = 0
    image_max_pixels: int = QWEN3_VL_IMAGE_MAX_PIXELS
    video_max_pixels: int = QWEN3_VL_VIDEO_MAX_PIXELS

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_heads

    @property
    def merge_unit(self) -> int:
        """Patches merged into one output token: spatial_merge_size²."""
        return self.spatial_merge_size ** 2

    @property
    def patch_values(self) -> int:
        """Pixel values of one patch: channels × temporal patch × patch² (1,536 for 3 × 2 × 16²)."""
        return self.in_channels * self.temporal_patch_size * self.patch_size ** 2

    @property
    def output_width(self) -> int:
        """An output token's width: out_hidden_size × (1 + deepstack layers), as embed_multimodal returns it."""
        return self.out_hidden_size * (1 + self.deepstack_layers)


@dataclass(frozen=True)
class EncoderBudget:
    """What ``profile_run`` encodes: ``items`` items of ``modality`` of ``tokens_per_item`` tokens each,
    within an encoder budget of ``budget`` tokens."""

    modality: str
    tokens_per_item: int
    items: int
    budget: int

    @property
    def tokens(self) -> int:
        return self.tokens_per_item * self.items


@dataclass(frozen=True)
class EncoderProfile:
    """The encoder pass of ``profile_run`` on one GPU: its ``budget``, the ``patches`` the tower runs
    on, the bytes alive at its peak (``peak_bytes``) and those still held through the text dummy run
    (``kept_bytes``: the encoder outputs and the dummy pixel values)."""

    budget: EncoderBudget
    patches: int
    peak_bytes: float
    output_bytes: float
    pixel_bytes: float

    @property
    def kept_bytes(self) -> float:
        return self.output_bytes + self.pixel_bytes


def tower_loaded(image_limit: int = DEFAULT_LIMIT_PER_PROMPT, video_limit: int = DEFAULT_LIMIT_PER_PROMPT) -> bool:
    """Whether vLLM builds the vision tower: unless every one of its modalities (image, video) has a
    limit of 0 (``_mark_tower_model``; ``--language-model-only`` sets every limit to 0)."""
    return image_limit > 0 or video_limit > 0


def image_size_with_most_features(max_pixels: int, patch_size: int, merge_size: int) -> tuple[int, int]:
    """(width, height) of the dummy image (``get_image_size_with_most_features``, qwen2_vl.py): the
    most merged patches of ``(patch × merge)²`` pixels that fit in ``max_pixels``, factored into the
    closest pair with an aspect ratio of at most 200, fewer patches if none."""
    unit = patch_size * merge_size
    most = max_pixels // (unit * unit)
    height, width = 1, most
    for n in range(most, 0, -1):
        height, width = 1, n
        for d in range(math.isqrt(n), 0, -1):
            if n % d == 0:
                height, width = d, n // d
                break
        if width / height <= _MAX_ASPECT_RATIO:
            break
    return unit * width, unit * height


def vision_tokens(width: int, height: int, patch_size: int, merge_size: int, temporal_patch_size: int,
                  frames: int = 1) -> int:
    """Output tokens of one item (``_get_vision_info``, qwen3_vl.py): frames padded to the temporal
    patch, (frames ÷ temporal patch) × (height ÷ patch) × (width ÷ patch) patches, ÷ merge². The
    dummy sizes are multiples of patch × merge whose area fits the processor's maximum, so its
    ``smart_resize`` keeps them."""
    padded = -(-frames // temporal_patch_size) * temporal_patch_size
    grid_t = max(padded // temporal_patch_size, 1)
    patches = grid_t * (height // patch_size) * (width // patch_size)
    return patches // (merge_size ** 2)


def max_tokens_per_item(encoder: VisionEncoder) -> dict[str, int]:
    """{"image": tokens, "video": tokens} of the largest item (``get_mm_max_tokens_per_item``): an
    image at ``image_max_pixels``; a video of two frames, each at ``video_max_pixels ÷ temporal patch``
    (``Qwen3VLProcessingInfo.get_max_video_tokens``). 16,384 and 12,288 for Qwen3.5/3.6."""
    p, m, t = encoder.patch_size, encoder.spatial_merge_size, encoder.temporal_patch_size
    image = vision_tokens(*image_size_with_most_features(encoder.image_max_pixels, p, m), p, m, t)
    frame = image_size_with_most_features(encoder.video_max_pixels // t, p, m)
    video = vision_tokens(*frame, p, m, t, frames=DUMMY_VIDEO_FRAMES)
    return {"image": image, "video": video}


def encoder_budget(encoder: VisionEncoder, max_num_batched_tokens: int, max_num_seqs: int,
                   max_model_len: int = 0, limits: Mapping[str, int] | None = None) -> EncoderBudget | None:
    """What ``profile_run`` encodes (``MultiModalBudget``), or None when the tower is not loaded.

    ``limits``: ``--limit-mm-per-prompt`` per modality (999 for one left out); ``max_model_len`` 0: not
    limiting (the items per prompt are then the limit)."""
    limits = {m: DEFAULT_LIMIT_PER_PROMPT for m in ("image", "video")} | dict(limits or {})
    per_item = {m: t for m, t in max_tokens_per_item(encoder).items() if limits.get(m, 0) > 0}
    if not per_item:
        return None
    modality, tokens = max(per_item.items(), key=lambda kv: (kv[1], kv[0]))
    budget = max(max_num_batched_tokens, max(per_item.values()))
    per_prompt = limits[modality] if max_model_len <= 0 else min(limits[modality], max_model_len // tokens)
    items = max(1, min(budget // tokens, max(1, max_num_seqs) * max(1, per_prompt)))
    return EncoderBudget(modality, tokens, items, budget)


def forward_peak_bytes(encoder: VisionEncoder, patches: int, tensor_parallel: int = 1,
                       dtype_bytes: float = 2) -> tuple[float, float]:
    """(peak bytes, pixel bytes) of ``Qwen3_VisionTransformer.forward`` over ``patches`` patches on one
    rank, counted from the code (see the module's docstring). With S = patches × hidden × dtype:

    * alive through every block: the pixel values (patches × patch values), the position embeddings
      (S), the rotary cos and sin (patches × head_dim), the deepstack features already merged;
    * the attention, at its projection: residual and norm (2S), qkv 3S, q and k contiguous 2S, rotated
      2S, the attention output S — those six over the TP ranks — and the projection's output S;
    * the MLP, at its GELU: residual and norm (2S) and fc1's output and the GELU's (intermediate each);
    * the merger: the last block's output and its norm (2S), fc1's output and the GELU's (S each).
    """
    tp = max(1, tensor_parallel)
    s = patches * encoder.hidden_size * dtype_bytes
    merged = patches // encoder.merge_unit
    pixels = patches * encoder.patch_values * dtype_bytes
    rotary = patches * encoder.head_dim * dtype_bytes
    deepstack = encoder.deepstack_layers * merged * encoder.out_hidden_size * dtype_bytes
    alive = pixels + s + rotary + deepstack
    attention = 2 * s + 8 * s / tp + s
    mlp = 2 * s + 2 * patches * encoder.intermediate_size * dtype_bytes / tp
    merger = 2 * s + 2 * s / tp
    return alive + max(attention, mlp, merger), pixels


def profile(encoder: VisionEncoder | None, max_num_batched_tokens: int, max_num_seqs: int,
            max_model_len: int = 0, limits: Mapping[str, int] | None = None, *, tensor_parallel: int = 1,
            dtype_bytes: float = 2) -> EncoderProfile | None:
    """The encoder pass of ``profile_run`` on one rank, or None without a modelled tower (or when it
    is not loaded). All items run in one forward (``_get_mm_dummy_batch`` batches them)."""
    if encoder is None:
        return None
    budget = encoder_budget(encoder, max_num_batched_tokens, max_num_seqs, max_model_len, limits)
    if budget is None:
        return None
    patches = budget.tokens * encoder.merge_unit
    peak, pixels = forward_peak_bytes(encoder, patches, tensor_parallel, dtype_bytes)
    output = budget.tokens * encoder.output_width * dtype_bytes
    return EncoderProfile(budget, patches, peak, output, pixels)


def activation_peak(text_peak_bytes: float, encoder: EncoderProfile | None) -> float:
    """The profile run's peak: the encoder pass, or the text dummy run with the encoder outputs and
    the dummy pixel values still held, whichever is larger (``profile_run`` measures one peak over
    both)."""
    if encoder is None:
        return text_peak_bytes
    return max(encoder.peak_bytes, text_peak_bytes + encoder.kept_bytes)
