"""vLLM's vision tower at startup (llm_inference.engines.vllm_encoder), one rule at a time, each
against the source it mirrors (0.24.0 and 0.25.1) and worked out by hand."""

from __future__ import annotations

import pytest

from llm_inference.engines import vllm_encoder as enc
from llm_inference.engines.vllm import GIB

#: Qwen3.5 / Qwen3.6's tower (vision_config of nvidia/Qwen3.6-35B-A3B-NVFP4 and Qwen/Qwen3.5-35B-A3B).
QWEN36 = enc.VisionEncoder(depth=27, hidden_size=1152, intermediate_size=4304, num_heads=16, patch_size=16,
                           temporal_patch_size=2, spatial_merge_size=2, in_channels=3, out_hidden_size=2048,
                           num_position_embeddings=2304)


def test_the_tower_loads_unless_every_modality_is_zero():
    # _mark_tower_model: skipped only when get_limit_per_prompt is 0 for image and video;
    # --language-model-only makes every limit 0, and a modality left out of the flag is 999
    assert enc.DEFAULT_LIMIT_PER_PROMPT == 999
    assert enc.tower_loaded()
    assert enc.tower_loaded(2, 999) and enc.tower_loaded(0, 999) and enc.tower_loaded(2, 0)
    assert not enc.tower_loaded(0, 0)


def test_the_dummy_image_is_the_largest_the_processor_takes():
    # get_image_size_with_most_features: 16,777,216 pixels / 32² = 16,384 merged patches = 128 × 128
    assert enc.image_size_with_most_features(16_777_216, 16, 2) == (4096, 4096)
    # Qwen2-VL's 12,845,056 pixels (16,384 × 28²): 3584 × 3584
    assert enc.image_size_with_most_features(12_845_056, 14, 2) == (3584, 3584)
    # 401 (a prime) merged patches would be 1 × 401, an aspect ratio above 200: 400 = 20 × 20 instead
    assert enc.image_size_with_most_features(401 * 32 * 32, 16, 2) == (640, 640)
    # 12,288 = 96 × 128: the closest pair, not a square
    assert enc.image_size_with_most_features(12_288 * 1024, 16, 2) == (4096, 3072)


def test_an_image_is_16384_tokens_and_a_video_12288():
    # image: 256 × 256 patches / 4; video: two frames of 4096 × 3072 (25,165,824 // 2 pixels), one
    # temporal patch, 256 × 192 patches / 4
    assert enc.vision_tokens(4096, 4096, 16, 2, 2) == 256 * 256 // 4 == 16384
    assert enc.vision_tokens(4096, 3072, 16, 2, 2, frames=2) == 256 * 192 // 4 == 12288
    assert enc.vision_tokens(4096, 3072, 16, 2, 2, frames=3) == 2 * 12288  # padded to 4 frames
    assert enc.max_tokens_per_item(QWEN36) == {"image": 16384, "video": 12288}


def test_the_budget_profiles_one_image_at_8192_batched_tokens():
    # the evidence table's runs: "Encoder cache will be initialized with a budget of 16384 tokens,
    # and profiled with 1 image items of the maximum feature size."
    for limits, seqs in (({"image": 999}, 8), ({"image": 2, "audio": 0}, 1), (None, 1024)):
        budget = enc.encoder_budget(QWEN36, 8192, seqs, 131072, limits)
        assert budget == enc.EncoderBudget("image", 16384, 1, 16384)


def test_without_images_the_video_is_profiled_and_without_both_nothing():
    assert enc.encoder_budget(QWEN36, 8192, 1, 131072, {"image": 0}) == enc.EncoderBudget("video", 12288, 1, 12288)
    assert enc.encoder_budget(QWEN36, 8192, 1, 131072, {"image": 0, "video": 0}) is None
    assert enc.profile(QWEN36, 8192, 1, 131072, {"image": 0, "video": 0}) is None
    assert enc.profile(None, 8192, 1) is None


def test_items_per_batch_are_the_budget_the_requests_and_the_prompt_allow():
    # _get_max_items: min(budget // tokens, max_num_seqs × max(1, min(limit, max_model_len // tokens)))
    assert enc.encoder_budget(QWEN36, 65536, 256, 131072).items == 4  # 65,536 // 16,384
    assert enc.encoder_budget(QWEN36, 65536, 2, 20000).items == 2  # one image per 20,000-token prompt
    assert enc.encoder_budget(QWEN36, 65536, 1, 20000).items == 1
    assert enc.encoder_budget(QWEN36, 65536, 1, 131072, {"image": 3}).items == 3
    assert enc.encoder_budget(QWEN36, 65536, 1, 8000).items == 1  # max(1, ...) even below one image


def test_the_encoder_pass_holds_13_4_hidden_widths_of_its_patches():
    # 65,536 patches of 1152 in bf16: S = 144 MiB. Alive through the blocks: pixels (1536 values a
    # patch: 4/3 S), position embeddings (S), rotary cos and sin (72 values a patch). At the attention's
    # projection: residual, norm, qkv (3), q and k contiguous (2), rotated (2), attention output,
    # projection output = 11 S.
    patches = 65536
    s = patches * 1152 * 2
    peak, pixels = enc.forward_peak_bytes(QWEN36, patches)
    assert pixels == patches * 3 * 2 * 16 * 16 * 2
    assert peak == pixels + s + patches * 72 * 2 + 11 * s
    assert round(peak / GIB, 4) == 1.8838
    # the MLP (2 S + two 4304-wide tensors, 9.47 S) and the merger (4 S) hold less
    assert 2 * s + 2 * patches * 4304 * 2 < 11 * s


def test_tensor_parallel_splits_the_attentions_own_tensors():
    patches, s = 65536, 65536 * 1152 * 2
    one, pixels = enc.forward_peak_bytes(QWEN36, patches, 1)
    two, _ = enc.forward_peak_bytes(QWEN36, patches, 2)
    assert one - two == 8 * s / 2  # qkv, the q/k copies, the rotated copies and the output, halved


def test_deepstack_features_stay_alive_to_the_end():
    deep = enc.VisionEncoder(24, 1024, 4096, 16, 16, 2, 2, 3, 2560, 2304, deepstack_layers=3)
    plain = enc.VisionEncoder(24, 1024, 4096, 16, 16, 2, 2, 3, 2560, 2304)
    patches = 4096
    assert (enc.forward_peak_bytes(deep, patches)[0] - enc.forward_peak_bytes(plain, patches)[0]
            == 3 * patches // 4 * 2560 * 2)
    assert deep.output_width == 4 * 2560


def test_the_profile_keeps_the_outputs_and_the_pixels_through_the_text_pass():
    p = enc.profile(QWEN36, 8192, 1, 131072, {"image": 2})
    assert p.patches == 65536
    assert p.output_bytes == 16384 * 2048 * 2  # 64 MiB in encoder_cache
    assert p.pixel_bytes == 65536 * 1536 * 2  # 192 MiB, a local of profile_run
    assert p.kept_bytes == pytest.approx(0.25 * GIB)


def test_the_peak_is_the_encoder_pass_or_the_text_pass_with_what_it_keeps():
    p = enc.profile(QWEN36, 8192, 1, 131072)
    assert enc.activation_peak(0.28 * GIB, None) == 0.28 * GIB
    assert enc.activation_peak(0.28 * GIB, p) == p.peak_bytes  # the 5090 runs: the encoder's 1.88 GiB
    assert enc.activation_peak(9.0 * GIB, p) == 9.0 * GIB + p.kept_bytes  # 1,024 sequences' logits


def test_the_architectures_are_those_that_build_qwen3s_vision_transformer():
    assert "Qwen3_5MoeForConditionalGeneration" in enc.QWEN3_VL_ARCHITECTURES
    assert "Gemma3ForConditionalGeneration" not in enc.QWEN3_VL_ARCHITECTURES
    assert (enc.QWEN3_VL_IMAGE_MAX_PIXELS, enc.QWEN3_VL_VIDEO_MAX_PIXELS) == (4096 ** 2, 2 * 4096 * 3072)
