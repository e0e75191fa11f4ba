"""EAGLE-3 heads the calculators offer, each with the config.json it was published with.

A head is not a model of the catalogue (it cannot be served alone): it is the drafter of
``--speculative-config '{"method": "eagle3", "model": ...}'`` beside the catalogue model it was
trained on (``target``). The fields are the config's as published; what vLLM builds from them is
physics.eagle_head's.
"""

from __future__ import annotations

from ...physics.eagle_head import EAGLE3, Head

_SPECFORGE = "https://huggingface.co/FasterDFlash/Hanrui/blob/main/progress/github/SpecForge/configs/"

HEADS: dict[str, Head] = {
    head.id: head
    for head in (
        # SpecForge's llama3-8B-eagle3.json, the config of yuhuili/EAGLE3-LLaMA3.1-Instruct-8B (Llama 3.1
        # 8B's shape, one layer, a 32,000-token draft vocabulary); the checkpoint ships no embed_tokens.
        Head("eagle3-llama-3.1-8b", "EAGLE-3 head for Llama 3.1 8B (yuhuili/EAGLE3-LLaMA3.1-Instruct-8B)",
             _SPECFORGE + "llama3-8B-eagle3.json", EAGLE3, "llama-3.1-8b", hidden_size=4096, layers=1,
             heads=32, kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=128256,
             draft_vocab_size=32000),
        # SpecForge's qwen3-8b-eagle3.json: Qwen3 8B's hidden size and KV geometry (32 heads, 8 KV heads of
        # 128), one layer, intermediate 12,288, a 32,000-token draft vocabulary, no embed_tokens.
        # Tengyunw/qwen3_8b_eagle3 (a LlamaForCausalLMEagle3 head for Qwen3-8B, vllm#22333) is served as this
        # shape: its own config.json was not read, but vLLM 0.15.1 printed 'Model loading took 16.01 GiB' with it
        # against 15.27 GiB without (dhayanesh/spec-decoding-bench, compare/, the log kept in
        # engines/startup_log_table_speculation.py), the 0.74 GiB this shape's fc, decoder layer and 32,000-row
        # LM head take in bf16.
        Head("eagle3-qwen3-8b", "EAGLE-3 head for Qwen3 8B (SpecForge qwen3-8b-eagle3)",
             _SPECFORGE + "qwen3-8b-eagle3.json", EAGLE3, "qwen3-8b", hidden_size=4096, layers=1,
             heads=32, kv_heads=8, head_dim=128, intermediate_size=12288, vocab_size=151936,
             draft_vocab_size=32000),
        # SpecForge's qwen3-32b-eagle3.json: Qwen3 32B's hidden size and KV geometry, one layer.
        Head("eagle3-qwen3-32b", "EAGLE-3 head for Qwen3 32B (SpecForge qwen3-32b-eagle3)",
             _SPECFORGE + "qwen3-32b-eagle3.json", EAGLE3, "qwen3-32b", hidden_size=5120, layers=1,
             heads=64, kv_heads=8, head_dim=128, intermediate_size=25600, vocab_size=151936,
             draft_vocab_size=32000),
    )
}

__all__ = ["HEADS"]
