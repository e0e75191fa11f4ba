"""kv-cache shows vLLM's pool for DeepSeek-V4 and GLM-5.2 where their layout is read (physics.multi_page_pool),
vLLM's refusal where its start check fails, and "Not modelled" with the reason for the releases not read."""

from __future__ import annotations

import pytest

from llm_inference.kv_cache import SPEC

POOL = ("max_concurrency", "kv_cache_tokens", "max_sequences", "max_context", "fits")


def run(**inputs):
    raw = {"gpu": "h200", "gpus": 8, "context": 131072, "concurrency": 1, "kv_dtype": "fp8", **inputs}
    SPEC.check_overrides(raw)
    return SPEC.run(raw)


def _available(r) -> float:
    line = r.text["startup_lines"]
    return float(line.split("Available KV cache memory: ")[1].split(" GiB")[0]) * 2**30


@pytest.mark.parametrize("model, request_blocks, block_bytes", [
    ("deepseek-v4-flash", 6429, 1_039_680),   # tests/.../physics/test_multi_page_pool.py, by hand
    ("deepseek-v4-flash-nvfp4", 6429, 1_039_680),  # the same caches: only the weights differ
    ("glm-5.2-fp8", 2048, 78 * 64 * 656 + 21 * 64 * 132),  # fp8_ds_mla latent pages and the 21 indexer pages
])
def test_pool_shown(model, request_blocks, block_bytes):
    r = run(model=model, vllm_version="0.26.0")
    assert all(r.values[k] is not None for k in POOL), r.notes
    assert not any(n.startswith("Not modelled") for n in r.notes)
    concurrency = r.values["max_concurrency"]
    blocks = round(concurrency * request_blocks)
    assert concurrency == pytest.approx(blocks / request_blocks, abs=1e-12)
    # "Available KV cache memory" (printed to 0.01 GiB) // the block gives those blocks
    assert blocks * block_bytes == pytest.approx(_available(r), abs=0.006 * 2**30 + block_bytes)
    assert r.values["kv_cache_tokens"] == int(concurrency * 131072)
    assert any(("DeepSeek-V4's pool" if "deepseek" in model else "indexer is kept on some layers") in n
               for n in r.notes)


def test_v4_pro_pool_shown_on_16_gpus():
    r = run(model="deepseek-v4-pro", gpus=16, vllm_version="0.23.0")
    assert r.values["max_concurrency"] > 0 and r.values["kv_cache_tokens"] > 0


@pytest.mark.parametrize("model, version, words", [
    ("deepseek-v4-flash", "0.33.0", "groups DeepSeek-V4's caches otherwise than 0.20–0.27"),
    ("glm-5.2-fp8", "0.33.0", "not read here for layers with an indexer on some of them"),
    ("glm-5.2-fp8", "0.23.0", "on every layer (up to 0.23 index_topk_freq only skips the top-k"),
])
def test_releases_not_read_say_not_modelled(model, version, words):
    r = run(model=model, vllm_version=version)
    assert all(r.values[k] is None for k in POOL)
    assert any(n.startswith("Not modelled") and words in n for n in r.notes)


def test_start_check_refusal_is_said():
    """Two H20s at utilization 0.8: about 0.55 GiB of KV cache memory, while vLLM's start check asks
    6.66 GiB for one request of 30,000 tokens (22 layer tuples × 6,800 pages × 47,808 bytes at 0.26's
    16,384 tokens in flight): vLLM raises, so nothing fits and the startup line is its error."""
    r = run(model="deepseek-v4-flash", gpu="h20", gpus=2, context=30000, vllm_version="0.26.0",
            gpu_memory_utilization=0.8, max_num_batched_tokens=8192)
    assert r.values["fits"] is False and r.values["max_concurrency"] == 0.0 and r.values["kv_cache_tokens"] == 0
    assert r.notes[0].startswith("vLLM refuses to start: for one request of 30,000 tokens its check asks 6.66 GiB")
    assert "ValueError: To serve at least one request with the model's max seq len (30000), (6.66 GiB" in \
        r.text["startup_lines"]
    assert 0 < r.values["max_context"] < 30000


def test_bf16_v4_still_refused():
    r = run(model="deepseek-v4-flash", kv_dtype="bf16", vllm_version="0.26.0")
    assert any("only in its fp8 layout" in n for n in r.notes)


def test_sparse_mla_fp8_per_token_is_fp8_ds_mla():
    """DeepSeek-V3.2 with --kv-cache-dtype fp8: vLLM stores fp8_ds_mla, so per token 61 layers x
    (656 latent bytes + 132 indexer bytes) = 48,068 bytes, and the notes say why."""
    r = run(model="deepseek-v3.2", vllm_version="0.26.0")
    assert r.values["kv_bytes_per_token"] == 61 * (512 + 4 * 4 + 64 * 2 + 128 + 4) == 48_068
    assert any("fp8_ds_mla" in n and "656 bytes" in n for n in r.notes)


def test_auto_is_fp8_ds_mla_from_011_to_017_and_the_note_says_so():
    """DeepseekV32ForCausalLM.verify_and_update_config at 0144dd5b (0.11.0) rewrites "auto" too; from 0.18
    only fp8 (vllm_hybrid.deepseek_v32_auto_kv_dtype). The calculator's bf16 is --kv-cache-dtype bfloat16."""
    words = "default (auto) stores a DeepSeek sparse-attention cache as fp8_ds_mla"
    assert any(words in n for n in run(model="deepseek-v3.2", kv_dtype="bf16", vllm_version="0.14.0").notes)
    assert not any(words in n for n in run(model="deepseek-v3.2", kv_dtype="bf16", vllm_version="0.18.0").notes)
