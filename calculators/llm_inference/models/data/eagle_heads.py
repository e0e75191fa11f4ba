"""EAGLE-3 heads the calculators offer, each with the config.json it was published with.

A head is not a model of the catalogue (it cannot be served alone): it is the drafter of
``--speculative-config '{"method": "eagle3", "model": ...}'`` beside the catalogue model it was
trained on (``target``). The fields are the config's as published; what vLLM builds from them is
physics.eagle_head's.
"""

from __future__ import annotations

from ...physics.eagle_head import EAGLE3, Head

_SPECFORGE = "https://huggingface.co/FasterDFlash/Hanrui/blob/main/progress/github/SpecForge/configs/"
_HW3 = "https://github.com/dishantghai/ai-perf-hw3-spec-decode-quant/blob/d1c3b59586c732c2c3504d8b4fd793fcbf20e0d3/"

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
        # Two heads a homework trained with speculators 0.6 for Qwen3-8B on an H100 (dishantghai/ai-perf-hw3-spec-
        # decode-quant), each config.json committed beside the server logs that load it: an Eagle3DraftModel with
        # Qwen3 8B's shape in transformer_layer_config (hidden 4,096, one layer, 32 heads, 8 KV heads of 128,
        # intermediate 12,288, vocabulary 151,936), target_hidden_size null (the head's own). The first was trained
        # with the full 151,936-token draft vocabulary and the verifier's LM head frozen: vLLM 0.20.0 prints 'Detected
        # EAGLE model with lm_head identical to the target model' (logs/c2_n1_server.log), hence lm_head_is_target;
        # its embed_tokens is the target's too ('embed_tokens identical to the target model').
        Head("eagle3-qwen3-8b-hw3-full-vocab",
             "EAGLE-3 head for Qwen3 8B (dishantghai/ai-perf-hw3-spec-decode-quant, full 151,936 draft vocabulary)",
             _HW3 + "checkpoints_metadata/checkpoints/config.json", EAGLE3, "qwen3-8b", hidden_size=4096, layers=1,
             heads=32, kv_heads=8, head_dim=128, intermediate_size=12288, vocab_size=151936,
             draft_vocab_size=151936, lm_head_is_target=True),
        # The same head retrained with a 32,000-token draft vocabulary ("draft_vocab_size": 32000): its own LM head.
        Head("eagle3-qwen3-8b-hw3-32k-vocab",
             "EAGLE-3 head for Qwen3 8B (dishantghai/ai-perf-hw3-spec-decode-quant, 32,000 draft vocabulary)",
             _HW3 + "checkpoints_metadata/checkpoints_compressed_vocab/config.json", EAGLE3, "qwen3-8b",
             hidden_size=4096, layers=1, heads=32, kv_heads=8, head_dim=128, intermediate_size=12288,
             vocab_size=151936, draft_vocab_size=32000),
    )
}

__all__ = ["HEADS"]
