"""Public vLLM startup logs of hybrid models (linear-attention layers beside attention), quoted
exactly, with the settings needed to rebuild their "GPU KV cache size" and "Maximum
concurrency" lines through :mod:`llm_inference.physics.cache_layout` (the tests do, within 2 %).

Each :class:`HybridLog` names the page that shows the lines, the vLLM release (printed in the
log, or inferred and saying how), the model's config.json (a published copy: repository, path,
commit; the fields kept are the published ones, the rope, token-id and multimodal fields left
out), the GPU, tensor parallelism, KV dtype, ``max_model_len``, prefix caching and speculative
tokens as the log's ``non-default args`` give them.

Two kinds of record:

* ``available_gib`` given — the log prints "Available KV cache memory": the tests rebuild the
  block count from it (GiB rounded to 0.01 by vLLM, so a few blocks either way), then the two
  lines.
* ``available_gib`` None — the page quotes only the two lines: the tests check that some whole
  number of blocks gives both at once with this layout (block size, groups, blocks per request),
  which pins the layout down without the memory.

Mamba-2 hybrids: Nemotron 3 Super's NVFP4 release on a DGX Spark (below; its weights' format
does not enter the layout, so the catalogue's bf16 entry gives it). The other Mamba rules are
checked against the source (tests/unit/llm_inference/engines/test_vllm_hybrid.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["HybridLog", "HYBRID_LOGS", "CONFIGS", "AICONFIGURATOR_COMMIT"]

#: ai-dynamo/aiconfigurator's copies of published config.json files (model_configs/).
AICONFIGURATOR_COMMIT = "095f58a51c4ca8e61b66ec108d86f223f8d559ce"
_AIC = "aic-core/src/aiconfigurator_core/model_configs/"


@dataclass(frozen=True)
class ConfigCopy:
    """A published config.json, as a repository stores it."""

    repo: str
    path: str
    commit: str
    config: Mapping[str, Any]


#: The configs of the logged models (the text model's fields; the wrapper's model_type kept).
CONFIGS: dict[str, ConfigCopy] = {
    "qwen3.6-35b-a3b": ConfigCopy(
        repo="ai-dynamo/aiconfigurator", path=_AIC + "nvidia--Qwen3.6-35B-A3B-NVFP4_config.json",
        commit=AICONFIGURATOR_COMMIT,
        config={
            "architectures": ["Qwen3_5MoeForConditionalGeneration"], "model_type": "qwen3_5_moe",
            "tie_word_embeddings": False,
            "text_config": {
                "attention_bias": False, "attn_output_gate": True, "full_attention_interval": 4, "head_dim": 256,
                "hidden_size": 2048, "linear_conv_kernel_dim": 4, "linear_key_head_dim": 128,
                "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_value_head_dim": 128,
                "mamba_ssm_dtype": "float32", "max_position_embeddings": 262144, "model_type": "qwen3_5_moe_text",
                "moe_intermediate_size": 512, "mtp_num_hidden_layers": 1, "mtp_use_dedicated_embeddings": False,
                "num_attention_heads": 16, "num_experts": 256, "num_experts_per_tok": 8, "num_hidden_layers": 40,
                "num_key_value_heads": 2, "partial_rotary_factor": 0.25, "shared_expert_intermediate_size": 512,
                "tie_word_embeddings": False, "vocab_size": 248320,
            },
        }),
    "qwen3.5-27b": ConfigCopy(
        repo="ai-dynamo/aiconfigurator", path=_AIC + "Qwen--Qwen3.5-27B_config.json", commit=AICONFIGURATOR_COMMIT,
        config={
            "architectures": ["Qwen3_5ForConditionalGeneration"], "model_type": "qwen3_5", "tie_word_embeddings": False,
            "text_config": {
                "attention_bias": False, "attn_output_gate": True, "full_attention_interval": 4, "head_dim": 256,
                "hidden_size": 5120, "intermediate_size": 17408, "linear_conv_kernel_dim": 4,
                "linear_key_head_dim": 128, "linear_num_key_heads": 16, "linear_num_value_heads": 48,
                "linear_value_head_dim": 128, "mamba_ssm_dtype": "float32", "max_position_embeddings": 262144,
                "mlp_only_layers": [], "model_type": "qwen3_5_text", "mtp_num_hidden_layers": 1,
                "mtp_use_dedicated_embeddings": False, "num_attention_heads": 24, "num_hidden_layers": 64,
                "num_key_value_heads": 4, "vocab_size": 248320,
            },
        }),
}


@dataclass(frozen=True)
class HybridLog:
    id: str
    url: str
    where: str  # where on the page the lines are
    vllm_version: str  # as the log prints it, or inferred (then says how)
    model: str  # the checkpoint served
    config: str  # a key of CONFIGS, or a catalogue id (``catalogue:<id>``)
    gpu: str  # the GPU's name as the log or its page gives it (its compute capability sets the alignment)
    tensor_parallel: int
    kv_dtype: str
    max_model_len: int
    prefix_caching: bool | None  # None: the release's default
    lines: tuple[str, ...]  # quoted exactly (the page's own text)
    kv_tokens: int
    concurrency: float  # as printed (two decimals)
    available_gib: float | None = None
    num_spec: int = 0
    draft_attention_layers: int = 0  # an MTP drafter's attention layers, caching in the same pool
    batched_tokens: int = 8192
    release: str = ""  # the release whose rules rebuild it (the version, or the one inferred)
    notes: str = ""
    settings: Mapping[str, Any] = field(default_factory=dict)


HYBRID_LOGS: tuple[HybridLog, ...] = (
    HybridLog(
        id="qwen3.6-35b-a3b-rtx5090-612",
        url="https://github.com/noonghunna/club-3090/issues/612",
        where="issue description, 'KV pool sizing' block; engine args in the 'non-default args' line",
        vllm_version="0.24.0 ('Initializing a V1 LLM engine (v0.24.0)')", release="0.24.0",
        model="Qwen3.6-35B-A3B NVFP4 (modelopt)", config="qwen3.6-35b-a3b", gpu="NVIDIA GeForce RTX 5090",
        tensor_parallel=1, kv_dtype="fp8", max_model_len=131072, prefix_caching=True,
        lines=(
            "(EngineCore pid=107) INFO 07-06 22:52:09 [gpu_worker.py:508] Available KV cache memory: 5.98 GiB",
            "(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2146] GPU KV cache size: 567,978 tokens",
            "(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 "
            "tokens per request: 4.33x",
        ),
        available_gib=5.98, kv_tokens=567978, concurrency=4.33,
        settings={"dtype": "bfloat16", "max_num_seqs": 1, "max_num_batched_tokens": 8192,
                  "enable_prefix_caching": True, "kv_cache_dtype": "fp8"},
        notes="30 Gated DeltaNet layers and 10 attention layers: four groups of ten. The state (fp32 SSM, the "
              "config's mamba_ssm_dtype) is 2,146,304 bytes a layer, so the attention block grows to 2,096 tokens; "
              "prefix caching puts the states in 'align' mode, two pages per request and group: 63 + 3 × 2 = 69 "
              "blocks per 131,072-token request, and 299 blocks give 4.33.",
    ),
    HybridLog(
        id="qwen3.6-35b-a3b-rtx5090-652",
        url="https://github.com/noonghunna/club-3090/issues/652",
        where="issue description, 'KV pool sizing' block",
        vllm_version="0.24.0 ('Initializing a V1 LLM engine (v0.24.0)')", release="0.24.0",
        model="Qwen3.6-35B-A3B NVFP4 (modelopt)", config="qwen3.6-35b-a3b", gpu="NVIDIA GeForce RTX 5090",
        tensor_parallel=1, kv_dtype="fp8", max_model_len=131072, prefix_caching=True,
        lines=(
            "(EngineCore pid=107) INFO 07-09 02:58:11 [gpu_worker.py:508] Available KV cache memory: 6.01 GiB",
            "(EngineCore pid=107) INFO 07-09 02:58:11 [kv_cache_utils.py:2146] GPU KV cache size: 569,878 tokens",
            "(EngineCore pid=107) INFO 07-09 02:58:11 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 "
            "tokens per request: 4.35x",
        ),
        available_gib=6.01, kv_tokens=569878, concurrency=4.35,
        settings={"dtype": "bfloat16", "max_num_seqs": 1, "max_num_batched_tokens": 8192,
                  "enable_prefix_caching": True, "kv_cache_dtype": "fp8"},
        notes="The same compose as #612 two days later: 0.03 GiB more memory is one more 2,096-token block (300).",
    ),
    HybridLog(
        id="qwen3-next-80b-tp2-26646",
        url="https://github.com/vllm-project/vllm/issues/26646",
        where="issue description: the startup log of Qwen3-Next-80B-A3B int4 AutoRound on two GPUs",
        vllm_version="0.11.x (inferred: October 2025, V1 log format of 0.11)", release="0.11.0",
        model="Qwen3-Next-80B-A3B-Instruct int4 AutoRound", config="catalogue:qwen3-next-80b-a3b",
        gpu="not stated", tensor_parallel=2, kv_dtype="fp8_e5m2", max_model_len=215040, prefix_caching=None,
        lines=(
            "GPU KV cache size: 90,048 tokens",
            "Maximum concurrency for 215,040 tokens per request: 1.66x",
        ),
        kv_tokens=90048, concurrency=1.66,
        settings={"dtype": "float16", "tensor_parallel_size": 2, "kv_cache_dtype": "fp8_e5m2",
                  "max_model_len": 215040},
        notes="Lines only (the page does not quote the available memory). 0.11 aligns the attention block to 16 on "
              "every GPU, so the GPU does not matter: one KV head per rank in fp8 is 512 bytes a token, the fp16 "
              "state 548,864 bytes, the block 1,072 tokens, a request 201 + 3 blocks, and 338 or 339 blocks print "
              "both lines (the ≤ 0.20 token count: blocks // 4 groups × 1,072): 2.07–2.08 GiB of KV cache per "
              "GPU, what 24 GB cards leave beside half of a 4-bit 80B model.",
    ),
    HybridLog(
        id="qwen3.5-27b-h20-40691",
        url="https://github.com/vllm-project/vllm/issues/40691",
        where="issue description ('The log as:'), run with --max-model-len 32768 --max-num-seqs 16 "
              "--max-num-batched-token 16384",
        vllm_version="0.19.0 (the issue's environment)", release="0.19.0",
        model="Qwen3.5-27B", config="qwen3.5-27b", gpu="NVIDIA H20", tensor_parallel=1, kv_dtype="bf16",
        max_model_len=32768, prefix_caching=None, batched_tokens=16384,
        lines=(
            "INFO [kv_cache_utils.py:1319] GPU KV cache size: 290,864 tokens",
            "INFO [kv_cache_utils.py:1324] Maximum concurrency for 32,768 tokens per request: 33.04x",
        ),
        kv_tokens=290864, concurrency=33.04,
        settings={"max_model_len": 32768, "max_num_seqs": 16, "max_num_batched_tokens": 16384},
        notes="Lines only. The issue is about exactly this: 290,864 ≠ 33.04 × 32,768, because up to 0.20 the token "
              "count is blocks // groups × the smallest block. The fp32 state (the config's mamba_ssm_dtype, read "
              "since 0.17) makes the block 784 tokens; without prefix caching (not a hybrid default before 0.26) a "
              "request takes 42 + 3 blocks, and only 1,487 blocks print both lines: 71.2 GiB of KV cache, more "
              "than a 96 GB H20 leaves beside 50 GiB of bf16 weights (about 35 GiB): the card is likely the 141 GB "
              "H20 variant; the check does not depend on it.",
    ),
    HybridLog(
        id="nemotron-3-super-nvfp4-gb10-mtp",
        url="https://github.com/djangodevreng/dgx-spark-benchmarks/blob/5636536703fb6fe6a4992f68162b93fa03e7f15e/"
            "results/nemotron-3/nemotron-3-super-120b-a12b/nvfp4/_bootlog.txt",
        where="lines 8 (non-default args: max_model_len 131072, utilization 0.95, kv fp8, prefix caching off, "
              "mamba_ssm_cache_dtype float32, max_num_seqs 20, MTP with 3 speculative tokens), 54, 74, 77 and 78; "
              "line 67: 'Add 5 padding layers, may waste at most 12.50% KV cache memory'",
        vllm_version="0.19.2rc1.dev134+gfe9c3d6c5 (printed): a build of main after 0.19 branched, with 0.20's rules",
        release="0.20.0", model="nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4 (ModelOpt mixed precision)",
        config="catalogue:nemotron-3-super-120b-a12b", gpu="NVIDIA GB10", tensor_parallel=1, kv_dtype="fp8",
        max_model_len=131072, prefix_caching=False,
        lines=(
            "(EngineCore pid=185) INFO 05-04 23:55:10 [interface.py:606] Setting attention block size to 8432 tokens "
            "to ensure that attention page size is >= mamba page size.",
            "(EngineCore pid=185) INFO 05-04 23:55:57 [gpu_worker.py:440] Available KV cache memory: 36.25 GiB",
            "(EngineCore pid=185) INFO 05-04 23:55:57 [kv_cache_utils.py:1337] GPU KV cache size: 1,399,712 tokens",
            "(EngineCore pid=185) INFO 05-04 23:55:57 [kv_cache_utils.py:1342] Maximum concurrency for 131,072 "
            "tokens per request: 27.81x",
        ),
        available_gib=36.25, kv_tokens=1399712, concurrency=27.81, num_spec=3, draft_attention_layers=1,
        batched_tokens=2048,
        settings={"max_model_len": 131072, "gpu_memory_utilization": 0.95, "kv_cache_dtype": "fp8",
                  "enable_prefix_caching": False, "mamba_ssm_cache_dtype": "float32", "max_num_seqs": 20,
                  "speculative_config": {"method": "mtp", "num_speculative_tokens": 3}},
        notes="The first Mamba-2 hybrid log of these tables. 40 Mamba-2 layers (128 heads × 64 × 128 fp32 state, a "
              "conv window of 3 + 3 speculative columns over 10,240 channels: 4,317,184 bytes) and 8 attention "
              "layers of 2 fp8 KV heads of 128 (512 bytes a token): the attention block grows to 8,432 tokens, as "
              "printed. The MTP drafter's attention layer joins the groups (9 a group, 'Add 5 padding layers'); "
              "without it the tokens come out 12.7 % high. max_num_scheduled_tokens 2048 (the log: 'set to 2048 "
              "based on the speculative decoding settings').",
    ),
)
