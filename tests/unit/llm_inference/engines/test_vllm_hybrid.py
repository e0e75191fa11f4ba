"""vLLM's hybrid allocator, the KV layouts and DCP, rule by rule, against numpy arrays shaped like
vLLM's state tensors and the figures read in the sdists (/work/src/vllm-<version>)."""

from __future__ import annotations

import numpy as np
import pytest

from llm_inference.engines import vllm_hybrid as h
from llm_inference.engines.vllm_kv_dtypes import (KV_LAYOUTS, layout_problem, mla_token_bytes, stored_kv_dtype,
                                                  vector_bytes)

QWEN3_NEXT = h.Mixer(h.GATED_DELTANET, heads=32, head_dim=128, state_dim=128, conv_channels=2 * 16 * 128 + 32 * 128,
                     conv_kernel=4)
NEMOTRON_NANO = h.Mixer(h.MAMBA2, heads=64, head_dim=64, state_dim=128, conv_channels=64 * 64, groups=8, conv_kernel=4)
JAMBA = h.Mixer(h.MAMBA1, heads=8192, head_dim=1, state_dim=16, conv_channels=8192, conv_kernel=4)
KIMI_LINEAR = h.Mixer(h.KDA, heads=32, head_dim=128, state_dim=128, conv_channels=3 * 32 * 128, conv_kernel=4)
MINIMAX_01 = h.Mixer(h.LIGHTNING, heads=64, head_dim=96, state_dim=96)
H100, B200, RTX5090 = (9, 0), (10, 0), (12, 0)


# -- state shapes and dtypes ---------------------------------------------------------------------

@pytest.mark.parametrize("tp", [1, 2, 4])
def test_gated_deltanet_state_is_vllms_two_tensors(tp):
    conv = np.zeros(((2 * 16 * 128 + 32 * 128) // tp, 3), np.float16)  # (conv_dim / TP, K − 1)
    ssm = np.zeros((32 // tp, 128, 128), np.float16)  # (Vh / TP, Vd, Kd)
    assert h.state_bytes(QWEN3_NEXT, tp) == conv.nbytes + ssm.nbytes
    assert h.state_bytes(QWEN3_NEXT, 1) == 1_097_728  # 1.05 MiB a layer, 36 layers: 37.7 MiB a sequence
    fp32 = np.zeros((32 // tp, 128, 128), np.float32)
    assert h.state_bytes(QWEN3_NEXT, tp, ssm_dtype="float32") == conv.nbytes + fp32.nbytes


def test_speculative_tokens_widen_the_convolution_window():
    assert h.state_bytes(QWEN3_NEXT, 1, num_spec=3) - h.state_bytes(QWEN3_NEXT, 1) == 3 * 8192 * 2
    assert h.state_bytes(JAMBA, 1, num_spec=3) == h.state_bytes(JAMBA, 1)  # Mamba-1's shape has no spec column


@pytest.mark.parametrize("tp, extra", [(1, 0), (2, 0), (8, 0), (16, 8)])
def test_mamba2_groups_are_widened_when_tp_exceeds_them(tp, extra):
    assert h.extra_groups_for_head_shards(8, tp) == extra
    groups = 8 + extra
    conv = np.zeros(((64 * 64 + 2 * groups * 128) // tp, 3), np.float16)
    ssm = np.zeros((64 // tp, 64, 128), np.float32)
    assert h.state_bytes(NEMOTRON_NANO, tp, ssm_dtype="float32") == conv.nbytes + ssm.nbytes


def test_nemotron_h_default_state_dtype_by_release():
    fp32 = h.state_bytes(NEMOTRON_NANO, 1, ssm_dtype=h.NEMOTRON_H, version="0.20.0")
    fp16 = h.state_bytes(NEMOTRON_NANO, 1, ssm_dtype=h.NEMOTRON_H, version="0.19.1")
    model = h.state_bytes(NEMOTRON_NANO, 1, ssm_dtype=h.NEMOTRON_H, version="0.12.0", model_dtype_bytes=2)
    assert fp32 - fp16 == 64 * 64 * 128 * 2 and fp16 == model


def test_kda_state_is_fp32_and_lightning_has_no_convolution():
    conv = np.zeros((3 * 32 * 128, 3), np.float16)
    assert h.state_bytes(KIMI_LINEAR, 1) == conv.nbytes + np.zeros((32, 128, 128), np.float32).nbytes
    assert h.state_shapes(MINIMAX_01) == (("ssm", 64 * 96 * 96),)
    assert h.state_bytes(MINIMAX_01, 1) == np.zeros((64, 96, 96), np.float16).nbytes


def test_mamba1_state():
    conv, ssm = np.zeros((8192, 3), np.float16), np.zeros((8192, 16), np.float16)
    assert h.state_bytes(JAMBA, 1) == conv.nbytes + ssm.nbytes


def test_a_state_that_does_not_split_is_refused():
    with pytest.raises(ValueError, match="do not split over TP 3"):
        h.state_bytes(QWEN3_NEXT, 3)


def test_which_releases_serve_which_mixers():
    assert h.state_served(h.LIGHTNING, "0.23.0") == "" and "0.23.0" in h.state_served(h.LIGHTNING, "0.24.0")
    assert h.state_served(h.KDA, "0.12.0") == "" and "0.12.0" in h.state_served(h.KDA, "0.11.0")
    assert h.state_served(h.MAMBA2, "0.10.2") == ""


# -- modes, blocks and alignment -----------------------------------------------------------------

@pytest.mark.parametrize("kind, caching, version, mode", [
    (h.GATED_DELTANET, True, "0.11.0", "none"),  # prefix caching switched off for hybrids
    (h.MAMBA2, True, "0.12.0", "all"), (h.GATED_DELTANET, True, "0.18.0", "none"),
    (h.GATED_DELTANET, True, "0.19.1", "align"), (h.MAMBA2, True, "0.27.0", "all"),
    (h.MAMBA2, True, "0.28.0", "align"), (h.MAMBA2, False, "0.33.0", "none"),
])
def test_mamba_cache_mode(kind, caching, version, mode):
    assert h.mamba_cache_mode(kind, caching, version) == mode


def test_prefix_caching_is_a_hybrid_default_from_026():
    assert not h.hybrid_prefix_caching_default("0.25.0") and h.hybrid_prefix_caching_default("0.26.0")


@pytest.mark.parametrize("mode, version, spec, pages", [
    ("none", "0.11.0", 2, 1), ("none", "0.14.0", 2, 1), ("none", "0.16.0", 2, 3), ("align", "0.24.0", 0, 2),
    ("align", "0.24.0", 3, 5), ("all", "0.18.0", 3, 8), ("all", "0.19.1", 3, 11),
])
def test_state_pages_per_request(mode, version, spec, pages):
    assert h.state_blocks_per_request(mode, max_model_len=8192, block_size=1024, num_spec=spec,
                                      version=version) == pages


def test_checkpoint_pages_count_from_029():
    assert h.state_blocks_per_request("align", checkpoint_blocks=1, version="0.28.0") == 2
    assert h.state_blocks_per_request("align", checkpoint_blocks=1, version="0.33.0") == 3


@pytest.mark.parametrize("version, mla, cc, head, mode, ckpt, align", [
    ("0.11.0", False, B200, 256, "none", None, 16), ("0.17.0", False, B200, 256, "none", None, 32),
    ("0.18.0", False, B200, 256, "none", None, 16), ("0.19.1", True, H100, 576, "none", None, 64),
    ("0.19.1", True, B200, 576, "none", None, 128), ("0.24.0", True, H100, 576, "none", None, 64),
    ("0.27.0", True, H100, 576, "none", None, 128), ("0.33.0", False, H100, 256, "align", 64, 64),
    ("0.33.0", False, H100, 256, "align", 1, 16),
])
def test_alignment_by_release_and_gpu(version, mla, cc, head, mode, ckpt, align):
    assert h.alignment(version=version, mla=mla, cc=cc, head_size=head, cache_mode=mode,
                       checkpoint_alignment=ckpt) == align


def test_the_block_grows_until_an_attention_page_holds_a_state():
    # Qwen3-Next on TP 2 in fp8: 512 bytes a token and layer; the bf16 state 548,864 bytes
    state = h.state_bytes(QWEN3_NEXT, 2)
    assert state == 548_864
    block, page = h.hybrid_block_size(512, state, version="0.11.0")
    assert (block, page) == (1072, 1072 * 512) and page >= state  # 16 × cdiv(548864, 16 × 512)
    block, _ = h.hybrid_block_size(1024, h.state_bytes(QWEN3_NEXT, 2), version="0.33.0", cache_mode="align",
                                   checkpoint_alignment=64)
    assert block == 576  # a multiple of 64 (FlashInfer's GDN checkpoints)
    block, _ = h.hybrid_block_size(4096, 1 << 20, version="0.24.0", cache_mode="all", mamba_chunk_size=256)
    assert block % 256 == 0 and block * 4096 >= 1 << 20


def test_the_logged_tokens_changed_in_021():
    assert h.logged_tokens(1487, 4, [784, 32768], 1487 / 45, 32768, version="0.19.1") == 371 * 784
    assert h.logged_tokens(1487, 4, [784, 32768], 1487 / 45, 32768, version="0.21.0") == int(1487 / 45 * 32768)
    assert h.logged_tokens(1000, 1, [64], 3.0, 1000, version="0.20.0", dcp=4) == 1000 * 64 * 4


# -- DeepSeek-V3.2's indexer, DCP -----------------------------------------------------------------

def test_the_indexer_key_is_fp8_with_a_scale_per_128():
    assert h.indexer_bytes_per_token(128) == np.zeros(128, np.uint8).nbytes + np.zeros(1, np.float32).nbytes == 132
    assert h.indexer_bytes_per_token(0) == 0 and h.DEEPSEEK_V32_BLOCK_SIZE == 64


def test_deepseek_v32_auto_dtype_by_release():
    assert [h.deepseek_v32_auto_kv_dtype(v) for v in ("0.10.2", "0.11.0", "0.17.0", "0.18.0")] == [
        "auto", "fp8_ds_mla", "fp8_ds_mla", "auto"]


def test_sparse_mla_rewrites_fp8_where_flashmla_serves_it():
    """0.11-0.17: the model's config rewrites every "fp8*" (DeepseekV32ForCausalLM.verify_and_update_config);
    from 0.18 the attention layer does, for FLASHMLA_SPARSE and (0.24 on) FLASHINFER_MLA_SPARSE_SM120, not for
    FLASHINFER_MLA_SPARSE (SM100's first sparse backend for fp8 from 0.19). Never on a dense model, nor bf16."""
    H100, B200, GB10 = (9, 0), (10, 0), (12, 1)
    for dtype in ("fp8", "fp8_e4m3", "fp8_e5m2"):
        assert stored_kv_dtype(dtype, sparse_mla=True, version="0.11.0", cc=B200) == "fp8_ds_mla"
        assert stored_kv_dtype(dtype, sparse_mla=False, version="0.33.0") == dtype
    assert stored_kv_dtype("fp8", sparse_mla=True, version="0.10.2") == "fp8"
    assert stored_kv_dtype("fp8", sparse_mla=True, version="0.33.0", cc=H100) == "fp8_ds_mla"
    assert stored_kv_dtype("fp8", sparse_mla=True, version="0.19.0", cc=B200) == "fp8"
    assert [stored_kv_dtype("fp8", sparse_mla=True, version="0.18.0", cc=B200, heads_per_gpu=h) for h in (16, 32)] == [
        "fp8", "fp8_ds_mla"]
    assert [stored_kv_dtype("fp8", sparse_mla=True, version=v, cc=GB10) for v in ("0.23.0", "0.24.0")] == [
        "fp8", "fp8_ds_mla"]
    assert [stored_kv_dtype(d, sparse_mla=True) for d in ("bf16", "nvfp4_ds_mla")] == ["bf16", "nvfp4_ds_mla"]
    assert mla_token_bytes(512, 64, stored_kv_dtype("fp8", sparse_mla=True)) == 512 + 4 * 4 + 64 * 2 == 656


def test_dcp_stores_every_dcp_th_token():
    assert h.dcp_request_tokens(131072, 8) == 16384 and h.dcp_request_tokens(10, 4) == 3
    with pytest.raises(ValueError):
        h.dcp_request_tokens(10, 0)


# -- KV layouts ----------------------------------------------------------------------------------

def test_every_layout_is_sized_from_the_source():
    assert {k: vector_bytes(128, k) for k in ("bf16", "fp8", "fp8_e5m2", "int8_per_token_head",
                                              "int4_per_token_head", "nvfp4")} == {
        "bf16": 256, "fp8": 128, "fp8_e5m2": 128, "int8_per_token_head": 132, "int4_per_token_head": 68, "nvfp4": 72}
    assert mla_token_bytes(512, 64, "fp8_ds_mla") == 656 and mla_token_bytes(512, 64, "nvfp4_ds_mla") == 352
    assert all(k.backends for k in KV_LAYOUTS.values())


@pytest.mark.parametrize("kv, kw, refused", [
    ("int8_per_token_head", dict(mla=False, version="0.19.1"), "0.20"),
    ("int4_per_token_head", dict(mla=False, version="0.24.0"), "0.25"),
    ("int8_per_token_head", dict(mla=True), "no MLA attention backend"),
    ("nvfp4", dict(mla=False, version="0.31.0", cc=H100), "SM100"),
    ("nvfp4", dict(mla=False, version="0.32.0", cc=H100), ""),
    ("nvfp4", dict(mla=False, version="0.33.0", cc=RTX5090, head_dim=64), "head size 64"),
    ("nvfp4", dict(mla=False, version="0.33.0", cc=H100, sinks=True), "sink"),
    ("nvfp4", dict(mla=False, version="0.33.0", cc=B200), ""),
    ("nvfp4", dict(mla=True, version="0.33.0", cc=B200), "no MLA attention backend"),
    ("fp8_ds_mla", dict(mla=True, sparse_mla=False), "sparse-MLA"),
    ("fp8_ds_mla", dict(mla=True, sparse_mla=True, version="0.11.0"), "0.12"),
    ("fp8_ds_mla", dict(mla=False), "sparse-MLA"),
    ("nvfp4_ds_mla", dict(mla=True, sparse_mla=True, version="0.33.0", cc=H100), "SM100"),
    ("nvfp4_ds_mla", dict(mla=True, sparse_mla=True, version="0.29.0", cc=B200), "0.30"),
    ("nvfp4_ds_mla", dict(mla=True, sparse_mla=True, version="0.30.0", cc=B200), ""),
    ("fp8_e5m2", dict(mla=False), ""),
])
def test_which_layouts_vllm_accepts(kv, kw, refused):
    problem = layout_problem(kv, **kw)
    assert (refused in problem) if refused else problem == ""


def test_compute_capability_by_name_agrees_with_the_gpu_table():
    # the name match feeds the backend choice; the table holds the datasheet's figure
    from llm_inference.hardware import GPUS

    for gpu in GPUS.values():
        by_name = h.compute_capability(gpu.name)
        if gpu.vendor != "nvidia":
            assert by_name is None, gpu.id
            continue
        assert gpu.compute_capability, gpu.id
        assert by_name is not None and by_name[0] == gpu.compute_capability[0], (gpu.id, by_name)
    assert h.compute_capability("NVIDIA A100 40GB") == (8, 0)
