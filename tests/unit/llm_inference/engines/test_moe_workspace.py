"""The fused-MoE experts backend vLLM picks (vllm_releases.Rules.moe_experts_backend) and the workspace
it keeps (vllm.moe_workspace_bytes): one case per branch, each with the source line it follows.

Lines are those of the released wheels: 0.13.0 (72506c983), 0.14.0 (b17039bcc), 0.15.0 (f17644344),
0.16.0 (89a77b108), 0.17.0 (b31e9326a), 0.19.0 (2a69949bd), 0.20.0 (b8160878f), 0.21.0 (ad7125a43),
0.22.0 (0b3ba88f1), 0.23.0 (0fc695fc6), 0.27.1 (6e448d0ea), 0.33.0 (4ba787ec9); paths under
vllm/model_executor/layers/fused_moe/ unless said."""

from __future__ import annotations

import pytest

from llm_inference.engines import vllm, vllm_releases as vr
from llm_inference.engines.vllm_releases import rules
from course_calculators.units import GiB, MiB

SM80, SM86, SM89, SM90, SM100, SM110, SM120, SM121 = (8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (11, 0), (12, 0), (12, 1)


@pytest.mark.parametrize("version, fmt, cc, install, dp, backend, source", [
    # before 0.14 the bf16 and fp8 experts call fused_experts: buffers per call, none kept
    ("0.13.0", "bf16", SM120, "docker", False, "", "unquantized_fused_moe_method.py (0.13.0): fused_experts"),
    # 0.14: the modular kernel with TritonExperts; FlashInfer only with VLLM_USE_FLASHINFER_MOE_FP16/FP8/FP4=1
    ("0.14.0", "bf16", SM120, "docker", False, "triton", "unquantized_fused_moe_method.py l.285 (0.14.0)"),
    ("0.14.0", "fp8-block", SM90, "docker", False, "triton", "oracle/fp8.py l.79 (0.14.0): FlashInfer opt-in"),
    ("0.14.0", "nvfp4", SM120, "docker", False, "vllm-cutlass-fp4", "oracle/nvfp4.py l.92 (0.14.0)"),
    ("0.14.0", "nvfp4", SM89, "docker", False, "marlin", "oracle/nvfp4.py l.94 (0.14.0)"),
    ("0.14.0", "fp8-block", SM86, "docker", False, "marlin",
     "oracle/fp8.py l.106-109 (0.14.0): 'not has_device_capability(89)'"),
    ("0.14.0", "mxfp4", SM80, "docker", False, "", "quantization/mxfp4.py l.904 (0.16.0): fused_marlin_moe"),
    # 0.15: FlashInfer first for fp8 and NVFP4 (oracle/fp8.py l.145, oracle/nvfp4.py l.117 of 0.15.0)
    ("0.16.0", "fp8-block", SM90, "docker", False, "flashinfer-cutlass",
     "experts' FlashInferExperts._supports_quant_scheme: block fp8 'and p.is_device_capability(90)'"),
    ("0.17.0", "fp8-block", SM90, "docker", False, "triton",
     "oracle/fp8.py l.122 (0.27.1): 'On Hopper for Block Fp8, prefer Triton for TP'"),
    ("0.27.1", "fp8-block", SM90, "docker", True, "flashinfer-cutlass",
     "oracle/fp8.py l.120 (0.27.1): '... and FI CUTLASS for EP'"),
    ("0.27.1", "fp8-block", SM100, "docker", False, "",
     "experts/trtllm_fp8_moe.py l.101 (0.27.1): TRT-LLM on the SM100 family, monolithic"),
    ("0.27.1", "fp8-block", SM120, "docker", False, "triton",
     "experts/flashinfer_cutlass_moe.py l.173 (0.27.1): block fp8 on SM90 only; DeepGEMM off (SM90/SM100)"),
    ("0.27.1", "fp8-tensor", SM120, "docker", False, "flashinfer-cutlass",
     "experts/flashinfer_cutlass_moe.py l.164 (0.27.1): per-tensor fp8 'and p.has_device_capability(90)'"),
    ("0.27.1", "fp8", SM90, "docker", False, "vllm-cutlass",
     "compressed_tensors_moe_w8a8_fp8.py l.111 (0.27.1): allow_vllm_cutlass=True"),
    ("0.27.1", "fp8", SM89, "docker", False, "triton", "oracle/fp8.py (0.27.1): Triton after FlashInfer and CUTLASS"),
    ("0.27.1", "nvfp4", SM100, "docker", False, "", "experts/trtllm_nvfp4_moe.py l.207 (0.27.1): monolithic"),
    ("0.24.0", "nvfp4", SM120, "docker", False, "flashinfer-cutlass",
     "experts/flashinfer_cutlass_moe.py l.182 (0.27.1): NVFP4 'and p.has_device_capability(100)'"),
    ("0.27.1", "nvfp4", SM120, "pip", False, "vllm-cutlass-fp4",
     "utils/flashinfer.py l.57 (0.27.1): no flashinfer-cubin and no nvcc, so no FlashInfer"),
    ("0.27.1", "nvfp4", SM90, "docker", False, "marlin", "oracle/nvfp4.py (0.27.1): Marlin below SM100"),
    # 0.20: bf16 on FlashInfer by default (oracle/unquantized.py l.68 of 0.20.0)
    ("0.19.1", "bf16", SM121, "docker", False, "triton", "oracle/unquantized.py (0.19.1): VLLM_USE_FLASHINFER_MOE_FP16"),
    ("0.20.0", "bf16", SM121, "docker", False, "flashinfer-cutlass",
     "flashinfer_cutlass_moe.py l.133 (0.20.0): is_device_capability_family(120)"),
    ("0.20.0", "bf16", SM100, "docker", False, "", "experts/trtllm_bf16_moe.py l.67 (0.27.1): monolithic"),
    ("0.20.0", "bf16", SM110, "docker", False, "flashinfer-cutlass",
     "flashinfer_cutlass_moe.py l.132 (0.20.0): is_device_capability_family(110)"),
    ("0.21.0", "bf16", SM110, "docker", False, "triton", "experts/flashinfer_cutlass_moe.py l.133 (0.21.0): no 110"),
    ("0.22.0", "bf16", SM90, "docker", False, "flashinfer-cutlass", "oracle/unquantized.py (0.22.0): no SM90 demotion"),
    ("0.23.0", "bf16", SM90, "docker", False, "triton", "oracle/unquantized.py l.75 (0.23.0): SM90 prefers Triton"),
    ("0.20.0", "bf16", SM120, "docker", True, "triton",
     "oracle/unquantized.py l.78 (0.20.0): 'Qwen3.5 has crash with FLASHINFER_CUTLASS BF16 if DEP'"),
    ("0.20.0", "bf16", SM89, "docker", False, "triton", "FlashInferExperts._supports_current_device: SM90+ only"),
    ("0.18.0", "bf16", SM120, "pip", False, "triton", "0.18.0 wheel: flashinfer-python without flashinfer-cubin"),
    ("0.26.0", "bf16", SM120, "pip", False, "triton", "0.26.0 wheel: flashinfer-cubin dropped"),
    ("0.25.1", "bf16", SM120, "pip", False, "flashinfer-cutlass", "0.19.0-0.25.1 wheels require flashinfer-cubin"),
    # MXFP4: Marlin in the modular kernel from 0.17 (quantization/mxfp4.py l.443 of 0.17.0), OpenAI's
    # Triton kernels on Hopper from 0.19 (oracle/mxfp4.py make_mxfp4_moe_kernel), TRT-LLM on SM100
    ("0.17.0", "mxfp4", SM80, "docker", False, "marlin", "quantization/mxfp4.py l.443 (0.17.0): MarlinExperts"),
    ("0.18.0", "mxfp4", SM90, "docker", False, "", "quantization/mxfp4.py l.1192 (0.18.0): triton_kernel_moe_forward"),
    ("0.19.0", "mxfp4", SM90, "docker", False, "oai-triton", "oracle/mxfp4.py l.815 (0.19.1): make_mxfp4_moe_kernel"),
    ("0.27.1", "mxfp4", SM100, "docker", False, "", "experts/trtllm_mxfp4_moe.py l.121 (0.27.1): monolithic"),
    # weight-only integers: Marlin in the modular kernel, GPTQ from 0.20, AWQ from 0.22
    ("0.19.1", "int4", SM90, "docker", False, "", "quantization/gptq_marlin.py l.905 (0.19.1): fused_marlin_moe"),
    ("0.20.0", "int4", SM90, "docker", False, "marlin", "oracle/int_wna16.py l.66 (0.20.0): MARLIN first"),
    ("0.21.0", "awq", SM89, "docker", False, "", "quantization/awq_marlin.py l.821 (0.21.0): fused_marlin_moe"),
    ("0.22.0", "awq", SM89, "docker", False, "marlin", "quantization/awq_marlin.py l.523 (0.22.0): select_wna16_moe_backend"),
    ("0.20.0", "w8a8-int8", SM80, "docker", False, "triton", "oracle/int8.py (0.20.0)"),
    ("0.33.0", "nf4", SM90, "docker", False, "", "quantization/bitsandbytes.py: fused_experts, never modular"),
])
def test_moe_experts_backend(version, fmt, cc, install, dp, backend, source):
    assert fmt in vr.MOE_FORMATS and backend in vr.MOE_BACKENDS
    assert rules(version).moe_experts_backend(fmt, cc, install, data_parallel=dp) == backend, source


def test_flashinfer_usable_by_install_and_release():
    assert rules("0.27.1").flashinfer_usable("docker") and not rules("0.27.1").flashinfer_usable("pip")
    assert rules("0.19.0").flashinfer_usable("pip") and not rules("0.18.0").flashinfer_usable("pip")


def test_workspace_shapes():
    m, h = 8192, 4096
    # TritonExperts (experts/triton_moe.py l.197, 0.27.1): the Qwen3-235B rank at TP 4 (I = 1536 / 4)
    assert vllm.moe_workspace_bytes("triton", m, h, 384, 8) == m * 8 * (4096 + 4096) * 2 == 1 * GiB
    # MarlinExperts (experts/marlin_moe.py l.761-762) and CutlassExpertsFp8 (cutlass_moe.py l.441-442): the same
    assert vllm.moe_workspace_bytes("marlin", m, h, 3072, 8) == m * 8 * (4096 + 6144) * 2
    assert vllm.moe_workspace_bytes("vllm-cutlass", m, h, 384, 8) == 1 * GiB
    # CutlassExpertsFp4 (cutlass_moe.py l.758-759): (M top_k, max(2I, H)) + (M top_k, I)
    assert vllm.moe_workspace_bytes("vllm-cutlass-fp4", m, 2048, 512, 8) == m * 8 * (2048 + 512) * 2
    # OAITritonExperts (gpt_oss_triton_kernels_moe.py l.987-989): workspace13 empty, the output (M, H) in its place
    assert vllm.moe_workspace_bytes("oai-triton", m, 2880, 2880, 4) == (m * 2880 + m * 4 * 2880) * 2
    # FlashInferExperts (flashinfer_cutlass_moe.py l.239-243): (M, K) and nothing: 32 MiB for the GB10's Qwen3.6
    assert vllm.moe_workspace_bytes("flashinfer-cutlass", m, 2048, 512, 8) == 32 * MiB
    assert vllm.moe_workspace_bytes("", m, h, 384, 8) == 0
    # up to 0.17 the modular kernel chunks at VLLM_FUSED_MOE_CHUNK_SIZE (16,384) tokens
    assert rules("0.17.0").moe_chunk_tokens == 16384 and rules("0.18.0").moe_chunk_tokens == 0
    assert vllm.moe_workspace_bytes("triton", 32768, h, 384, 8, chunk_tokens=16384) == 2 * GiB
    with pytest.raises(ValueError):
        vllm.moe_workspace_bytes("deepgemm", m, h, 384, 8)
