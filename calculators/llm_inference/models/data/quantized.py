"""Popular quantized releases of catalogue models, each its own entry.

A quantized release keeps its base model's shape (the same config.json fields and parameter
counts) and adds what the release's config.json says about its weights: ``quantization_config``
(or, for NVIDIA ModelOpt checkpoints, the ``quantization`` object of the release's
``hf_quant_config.json``, which vLLM reads in its place; vllm/model_executor/layers/quantization/
modelopt.py ``from_config``) and ``torch_dtype``. Each entry cites where those were read.
"""

from __future__ import annotations

from typing import Any

from ..entry import CatalogueEntry, Source
from . import llama, qwen
from .sources import aiconfigurator

_BASES = {entry.id: entry for entry in (*llama.ENTRIES, *qwen.ENTRIES)}


def _release(base_id: str, id: str, name: str, hf_repo: str, quantization: dict[str, Any], source: Source,
             notes: str = "", torch_dtype: str = "bfloat16", **fields: Any) -> CatalogueEntry:
    base = _BASES[base_id]
    config = {**base.config, **fields, "quantization_config": quantization, "torch_dtype": torch_dtype}
    return CatalogueEntry(
        id=id, name=name, config=config, source=source,
        published_total=base.published_total, published_active=base.published_active,
        active_excludes_embedding=base.active_excludes_embedding,
        count_source=f"{base.count_source} (the base model's; quantization keeps every parameter)",
        counts_note=base.counts_note, tolerance=base.tolerance,
        notes=(f"{hf_repo}: {base.name} as released quantized. " + notes).strip(),
    )


def _modelopt(hf_repo: str) -> Source:
    return aiconfigurator(
        hf_repo, note=f"quantization from the release's hf_quant_config.json, stored beside it as "
                      f"{hf_repo.replace('/', '--')}_hf_quant_config.json; shape fields as the base model's")


#: compressed-tensors presets as llm-compressor writes them (compressed_tensors/quantization/
#: quant_scheme.py, PRESET_SCHEMES "FP8_DYNAMIC", "W8A8", "W4A16"), with the models' ignore list.
_FP8_DYNAMIC = {
    "config_groups": {"group_0": {
        "input_activations": {"dynamic": True, "num_bits": 8, "strategy": "token", "symmetric": True, "type": "float"},
        "targets": ["Linear"],
        "weights": {"dynamic": False, "num_bits": 8, "strategy": "channel", "symmetric": True, "type": "float"},
    }},
    "format": "float-quantized", "ignore": ["lm_head"], "quant_method": "compressed-tensors",
}
_W8A8_INT8 = {
    "config_groups": {"group_0": {
        "input_activations": {"dynamic": True, "num_bits": 8, "strategy": "token", "symmetric": True, "type": "int"},
        "targets": ["Linear"],
        "weights": {"dynamic": False, "num_bits": 8, "strategy": "channel", "symmetric": True, "type": "int"},
    }},
    "format": "int-quantized", "ignore": ["lm_head"], "quant_method": "compressed-tensors",
}
#: The quantization_config AutoAWQ writes for w_bit 4, q_group_size 128, zero_point true, version GEMM.
_AWQ_GEMM_128 = {"bits": 4, "group_size": 128, "modules_to_not_convert": None, "quant_method": "awq",
                 "version": "gemm", "zero_point": True}
_W4A16 = {
    "config_groups": {"group_0": {
        "input_activations": None,
        "targets": ["Linear"],
        "weights": {"dynamic": False, "group_size": 128, "num_bits": 4, "strategy": "group", "symmetric": True,
                    "type": "int"},
    }},
    "format": "pack-quantized", "ignore": ["lm_head"], "quant_method": "compressed-tensors",
}
_CARD_NOTE = ("the quantization_config as the model card describes it (weights {w}, activations {a}, "
              "lm_head not quantized) in the layout llm-compressor writes for that preset; no stored copy of "
              "the release's config.json was found")

ENTRIES = (
    _release("llama-3.1-70b", "llama-3.1-70b-fp8", "Llama 3.1 70B FP8 (NVIDIA ModelOpt)",
             "nvidia/Llama-3.1-70B-Instruct-FP8",
             {"quant_method": "modelopt", "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8",
                                                           "exclude_modules": ["lm_head"]}},
             _modelopt("nvidia/Llama-3.1-70B-Instruct-FP8"),
             "fp8 e4m3 weights with one scale per tensor and static input scales; the LM head and "
             "embeddings stay in bf16."),
    _release("llama-3.3-70b", "llama-3.3-70b-fp8-dynamic", "Llama 3.3 70B FP8-dynamic (Red Hat)",
             "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", _FP8_DYNAMIC,
             Source(url="https://huggingface.co/RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic/blob/main/config.json",
                    note=_CARD_NOTE.format(w="fp8, symmetric static per channel", a="fp8, dynamic per token")
                    + "; vLLM's own log names it quantization=compressed-tensors (startup log in "
                      "engines/weight_logs.py)"),
             "compressed-tensors FP8_DYNAMIC: fp8 weights with an fp32 scale per output channel."),
    _release("llama-3.1-70b", "llama-3.1-70b-w8a8", "Llama 3.1 70B W8A8 int8 (Neural Magic)",
             "neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8", _W8A8_INT8,
             Source(url="https://huggingface.co/neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8/blob/main/"
                        "config.json",
                    note=_CARD_NOTE.format(w="int8, symmetric static per channel", a="int8, dynamic per token")
                    + " ('Only weights and activations of the linear operators within transformers blocks are "
                      "quantized', the Neural Magic card of the Llama-3.3 sibling)"),
             "compressed-tensors W8A8: int8 weights with an fp32 scale per output channel, int8 activations."),
    _release("llama-3.1-70b", "llama-3-70b-awq", "Llama 3 70B AWQ (TechxGenus)",
             "TechxGenus/Meta-Llama-3-70B-Instruct-AWQ",
             _AWQ_GEMM_128,
             Source(url="https://huggingface.co/TechxGenus/Meta-Llama-3-70B-Instruct-AWQ/blob/main/config.json",
                    note="a community AWQ release of Llama 3 70B Instruct: the quantization_config AutoAWQ "
                         "writes for w_bit 4, q_group_size 128, zero_point true, version GEMM (the form quoted "
                         "in transformers docs/source/en/quantization/awq.md; no stored copy of the release's "
                         "config.json was found), torch_dtype float16; Llama 3's 8,192-token context "
                         "(max_position_embeddings, no rope_scaling), the layers of Llama 3.1 70B. A vLLM log "
                         "of it at tensor parallel 2 (engines/startup_log_table.py, "
                         "llama3-70b-awq-2xl40s-v0160) prints 'Using max model len 8192' and awq_marlin"),
             "AWQ int4, group 128 with zero points; embeddings, LM head and norms in fp16.",
             torch_dtype="float16", max_position_embeddings=8192, rope_scaling=None),
    _release("llama-3.1-8b", "llama-3.1-8b-w4a16", "Llama 3.1 8B W4A16 (Red Hat)",
             "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16", _W4A16,
             Source(url="https://huggingface.co/RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16/blob/main/"
                        "config.json",
                    note=_CARD_NOTE.format(w="int4, symmetric, group 128", a="16-bit (weight-only)")),
             "compressed-tensors W4A16: int4 weights, a 16-bit scale per 128 inputs, no zero points."),
    _release("qwen2.5-72b", "qwen2.5-72b-awq", "Qwen2.5 72B AWQ (Qwen)", "Qwen/Qwen2.5-72B-Instruct-AWQ",
             _AWQ_GEMM_128,
             Source(url="https://huggingface.co/Qwen/Qwen2.5-72B-Instruct-AWQ/blob/main/config.json",
                    note="Qwen's official AWQ release: the quantization_config AutoAWQ writes for "
                         "w_bit 4, q_group_size 128, zero_point true, version GEMM (the form quoted in "
                         "transformers docs/source/en/quantization/awq.md), torch_dtype float16, "
                         "intermediate_size 29696 (a vLLM log of it at tensor parallel 2, "
                         "engines/weight_logs.py, loads 19.40 GiB per GPU: 29,696 gives 19.39, 29,568 19.31 "
                         "and a refusal)"),
             "AWQ int4, group 128 with zero points; embeddings, LM head and norms in fp16. Qwen pads the "
             "72B MLP from 29,568 to 29,696 in its quantized releases, so that each tensor-parallel rank's "
             "share of down_proj's input stays a whole number of 128-wide groups (29,568 / 2 = 14,784 is not).",
             torch_dtype="float16", intermediate_size=29696),
    _release("qwen2.5-72b", "qwen2.5-72b-gptq-int4", "Qwen2.5 72B GPTQ-Int4 (Qwen)",
             "Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4",
             {"bits": 4, "damp_percent": 0.01, "desc_act": False, "group_size": 128,
              "modules_in_block_to_quantize": None, "quant_method": "gptq", "static_groups": False, "sym": True,
              "true_sequential": True},
             Source(url="https://huggingface.co/Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4/blob/main/config.json",
                    note="Qwen's official GPTQ release: the quantization_config AutoGPTQ writes for bits 4, "
                         "group_size 128, desc_act false, sym true (its defaults otherwise), torch_dtype float16"),
             "GPTQ int4, group 128, symmetric; vLLM's Marlin kernel drops the stored zero points. The MLP "
             "is padded to 29,696, as in the AWQ release.",
             torch_dtype="float16", intermediate_size=29696),
    _release("qwen3-32b", "qwen3-32b-fp8", "Qwen3 32B FP8 (Qwen)", "Qwen/Qwen3-32B-FP8",
             {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]},
             aiconfigurator("Qwen/Qwen3-32B-FP8"),
             "fp8 e4m3 with 128 × 128 block scales, as DeepSeek's."),
    _release("qwen3-30b-a3b", "qwen3-30b-a3b-fp8", "Qwen3 30B-A3B FP8 (Qwen)", "Qwen/Qwen3-30B-A3B-FP8",
             {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]},
             aiconfigurator("Qwen/Qwen3-30B-A3B-FP8"),
             "fp8 e4m3 with 128 × 128 block scales; the routers, norms and LM head stay in bf16 (the release's "
             "modules_to_not_convert lists lm_head and each layer's mlp.gate and norms; vLLM's GateLinear)."),
    _release("qwen3-235b-a22b", "qwen3-235b-a22b-fp8", "Qwen3 235B-A22B FP8 (Qwen)", "Qwen/Qwen3-235B-A22B-FP8",
             {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]},
             aiconfigurator("Qwen/Qwen3-235B-A22B-FP8"),
             "fp8 e4m3 with 128 × 128 block scales; the routers stay in bf16 (vLLM's GateLinear)."),
    _release("qwen3-235b-a22b", "qwen3-235b-a22b-nvfp4", "Qwen3 235B-A22B NVFP4 (NVIDIA ModelOpt)",
             "nvidia/Qwen3-235B-A22B-NVFP4",
             {"quant_method": "modelopt", "quantization": {
                 "quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16,
                 "exclude_modules": [f"model.layers.{i}.mlp.gate" for i in range(94)] + ["lm_head"]}},
             _modelopt("nvidia/Qwen3-235B-A22B-NVFP4"),
             "NVFP4: 4-bit e2m1 weights, an fp8 scale per 16 and an fp32 scale per tensor; routers and LM head "
             "excluded."),
)
