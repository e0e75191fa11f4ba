"""The sparse-MLA cache dtypes vLLM accepts, refuses and rewrites, GPU by GPU and release by release, as
read in the wheels (0.17.0, 0.18.0, 0.23.0, 0.24.0, 0.29.0, 0.30.0, 0.33.0): each backend's
``supported_kv_cache_dtypes`` and ``supports_compute_capability``, ``_get_backend_priorities`` and
``get_attn_backend_cls`` in vllm/platforms/cuda.py, ``_canonicalize_sparse_mla_kv_cache_dtype``."""

from __future__ import annotations

import pytest

from llm_inference.engines.vllm_kv_dtypes import (layout_problem, mla_token_bytes, sparse_mla_backend,
                                                  sparse_mla_refusal, stored_kv_dtype)

H100, B200, RTX5090, GB10, A100 = (9, 0), (10, 0), (12, 0), (12, 1), (8, 0)


@pytest.mark.parametrize("version", ["0.18.0", "0.23.0", "0.24.0", "0.29.0"])
def test_flashmla_sparse_takes_fp8_not_e4m3_nor_e5m2_on_hopper(version):
    """FLASHMLA_SPARSE lists "auto", "bfloat16", "fp8_ds_mla", "fp8"; it alone serves sparse MLA on SM 9.x for
    a quantized cache before 0.30 (0.25's FLASH_ATTN_MLA_SPARSE takes no fp8), so fp8_e4m3 finds no backend."""
    assert sparse_mla_backend("fp8", version, H100) == "FLASHMLA_SPARSE"
    for dtype in ("fp8_e4m3", "fp8_e5m2"):
        why = sparse_mla_refusal(dtype, version, H100)
        assert "No valid attention backend found for cuda" in why
        assert "FLASHMLA_SPARSE: [kv_cache_dtype not supported]" in why
        assert layout_problem(dtype, mla=True, sparse_mla=True, version=version, cc=H100) == why
    assert layout_problem("fp8", mla=True, sparse_mla=True, version=version, cc=H100) == ""


def test_flashinfer_sm90_serves_e4m3_on_hopper_from_030_as_plain_fp8():
    """0.30 appends FLASHINFER_MLA_SPARSE_SM90 ("auto", "bfloat16", "fp8", "fp8_e4m3"; FlashInfer 0.6.18.post1
    pinned) after FLASHMLA_SPARSE for a 576-wide head: fp8 still goes to FlashMLA (fp8_ds_mla), fp8_e4m3 to
    FlashInfer, which keeps it: 576 bytes a token and layer. fp8_e5m2 stays refused."""
    for version in ("0.30.0", "0.33.0"):
        assert sparse_mla_backend("fp8_e4m3", version, H100) == "FLASHINFER_MLA_SPARSE_SM90"
        assert layout_problem("fp8_e4m3", mla=True, sparse_mla=True, version=version, cc=H100) == ""
        assert stored_kv_dtype("fp8_e4m3", sparse_mla=True, version=version, cc=H100) == "fp8_e4m3"
        assert mla_token_bytes(512, 64, "fp8_e4m3") == 576
        assert stored_kv_dtype("fp8", sparse_mla=True, version=version, cc=H100) == "fp8_ds_mla"
        assert "FLASHINFER_MLA_SPARSE_SM90: [kv_cache_dtype not supported]" in sparse_mla_refusal("fp8_e5m2", version,
                                                                                                  H100)


def test_before_018_the_config_rewrites_every_fp8_so_hopper_serves_them_all():
    for dtype in ("fp8", "fp8_e4m3", "fp8_e5m2"):
        assert sparse_mla_refusal(dtype, "0.17.0", H100) == ""
        assert stored_kv_dtype(dtype, sparse_mla=True, version="0.17.0", cc=H100) == "fp8_ds_mla"


def test_b200_takes_e4m3_through_flashinfer_and_refuses_e5m2():
    """FLASHINFER_MLA_SPARSE lists "fp8_e4m3", FLASHMLA_SPARSE does not: in 0.18 above 16 heads a GPU FlashMLA
    comes first for fp8 (stored fp8_ds_mla) but fp8_e4m3 falls through to FlashInfer (plain)."""
    assert stored_kv_dtype("fp8", sparse_mla=True, version="0.18.0", cc=B200, heads_per_gpu=32) == "fp8_ds_mla"
    assert stored_kv_dtype("fp8_e4m3", sparse_mla=True, version="0.18.0", cc=B200, heads_per_gpu=32) == "fp8_e4m3"
    for version in ("0.18.0", "0.33.0"):
        assert "No valid attention backend" in sparse_mla_refusal("fp8_e5m2", version, B200)
        assert sparse_mla_refusal("fp8_e4m3", version, B200) == ""


@pytest.mark.parametrize("version", ["0.17.0", "0.18.0", "0.23.0"])
@pytest.mark.parametrize("gpu", [RTX5090, GB10])
def test_sm12x_has_no_sparse_backend_before_024(version, gpu):
    for dtype in ("bf16", "fp8"):
        why = layout_problem(dtype, mla=True, sparse_mla=True, version=version, cc=gpu)
        assert "No valid attention backend found for cuda" in why and "0.24" in why


def test_sm120_stores_fp8_ds_mla_for_auto_fp8_and_e4m3_from_024():
    """FLASHINFER_MLA_SPARSE_SM120 ("auto", "fp8", "fp8_e4m3", "fp8_ds_mla"; "bfloat16" is "auto" by the model's
    config): ``_canonicalize_sparse_mla_kv_cache_dtype`` rewrites auto, fp8 and fp8_e4m3 to fp8_ds_mla, 512 fp8
    + 4 fp32 scales + 64 bf16 = 656 bytes a token and layer; fp8_e5m2 it refuses."""
    for version in ("0.24.0", "0.33.0"):
        for dtype in ("bf16", "fp8", "fp8_e4m3", "fp8_ds_mla"):
            assert layout_problem(dtype, mla=True, sparse_mla=True, version=version, cc=RTX5090) == ""
            assert stored_kv_dtype(dtype, sparse_mla=True, version=version, cc=GB10) == "fp8_ds_mla"
        assert "FLASHINFER_MLA_SPARSE_SM120: [kv_cache_dtype not supported]" in sparse_mla_refusal(
            "fp8_e5m2", version, RTX5090)
    assert mla_token_bytes(512, 64, "fp8_ds_mla") == 512 + 4 * 4 + 64 * 2 == 656


def test_no_sparse_backend_off_hopper_blackwell_and_sm12x():
    assert "compute capability not supported" in sparse_mla_refusal("bf16", "0.33.0", A100)
    assert sparse_mla_refusal("bf16", "0.33.0", None) == ""  # not an NVIDIA GPU: not judged here
    assert layout_problem("fp8_e5m2", mla=True, sparse_mla=False, version="0.33.0", cc=H100) == ""
