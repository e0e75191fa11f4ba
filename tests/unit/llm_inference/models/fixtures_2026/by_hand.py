"""Issue 34's 2026 models derived by hand from their published config.json files, without the library.

Plain arithmetic on each config's fields, one function per architecture, with the vLLM file each
fact comes from named beside it (vllm-project/vllm, read 2026-12). Two figures per checkpoint:

* ``*_kv``: KV bytes of one 131,072-token sequence as vLLM allocates them, at vLLM's default cache
  dtype (bf16, the model dtype, unless the model forces another: DeepSeek-V4 always caches fp8);
  sliding-window layers hold their window only (the convention the catalogue's gpt-oss follows);
  recurrent state (Mamba, Gated DeltaNet) is not KV and is left out;
* ``*_weights``: the bytes vLLM loads from the checkpoint, every tensor at its stored format with
  its scales, the multi-token-prediction layers left out (vLLM skips them unless speculative
  decoding asks for them) and the vision tower left out (text serving).

test_models_2026.py holds the figures and compares the library with them; README.md beside this
file summarises them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

FIXTURES = Path(__file__).parent
CONTEXT = 131072  # one 128K sequence


def config(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def text(cfg: dict) -> dict:
    """The language model's fields: ``text_config`` where a multimodal wrapper nests them."""
    return cfg.get("text_config", cfg)


# -- storage formats, as the checkpoint stores one linear weight of ``rows`` × ``cols`` ------------

def bf16(n: int) -> int:
    return 2 * n


def fp32(n: int) -> int:
    return 4 * n


def fp8_block(rows: int, cols: int, scale_bytes: int = 4) -> int:
    """e4m3 weight plus one scale per 128 × 128 block (``weight_scale_inv``, fp32; DeepSeek-V4
    stores it as ue8m0, one byte)."""
    return rows * cols + scale_bytes * math.ceil(rows / 128) * math.ceil(cols / 128)


def mxfp4(rows: int, cols: int) -> int:
    """e2m1 packed two to a byte, one e8m0 scale byte per 32 along the input dimension."""
    return rows * cols // 2 + rows * (cols // 32)


def nvfp4(rows: int, cols: int) -> int:
    """ModelOpt NVFP4: e2m1 packed two to a byte, an fp8 e4m3 scale per 16, and two fp32 scalars
    per tensor (``weight_scale_2``, ``input_scale``)."""
    return rows * cols // 2 + rows * (cols // 16) + 8


def int4_group32(rows: int, cols: int) -> int:
    """compressed-tensors pack-quantized int4: eight values per int32, a bf16 scale per group of 32,
    and the int32 ``weight_shape`` pair."""
    return rows * cols // 2 + 2 * rows * (cols // 32) + 8


# -- DeepSeek-V4 (vllm/model_executor/models/deepseek_v4.py, layers/deepseek_v4_attention.py) -----

def deepseek_v4_kv(c: dict) -> int:
    """Per layer, by ``compress_ratios[layer]`` (the last entry belongs to the MTP layer):

    * every layer keeps a sliding-window cache (DeepseekV4SWACache) of ``sliding_window`` tokens;
    * ratio 4 (C4) and 128 (C128) layers keep one compressed entry per ``ratio`` tokens
      (MLAAttentionSpec with ``compress_ratio``: ``storage_block_size = block_size // ratio``);
    * C4 layers also keep the indexer's keys, one per 4 tokens (DeepseekV4IndexerCache):
      ``index_head_dim`` fp8 bytes + one fp32 scale per 128 = 132 bytes.

    An entry is 584 bytes whatever the dtype asked: DeepseekV4MLAAttention asserts an fp8 cache
    and switches it to ``fp8_ds_mla``, whose DeepSeek-V4 layout is 448 fp8 NoPE bytes + 64 bf16
    RoPE values (128 bytes) + 7 scale bytes + 1 pad (kv_cache_interface.MLAAttentionSpec.
    real_page_size_bytes, ``model_version == "deepseek_v4"``).
    """
    entry = (c["head_dim"] - c["qk_rope_head_dim"]) + 2 * c["qk_rope_head_dim"] + 8
    assert entry == 584
    indexer_entry = c["index_head_dim"] + 4 * (c["index_head_dim"] // 128)
    total = 0
    for ratio in c["compress_ratios"][: c["num_hidden_layers"]]:
        total += c["sliding_window"] * entry
        if ratio > 1:
            total += CONTEXT // ratio * entry
        if ratio == 4:
            total += CONTEXT // 4 * indexer_entry
    return total


def deepseek_v4_weights(c: dict, experts: str = "mxfp4") -> int:
    """The checkpoint's tensors per layer, as DeepseekV4ForCausalLM names them.

    Attention and shared experts are fp8 with ue8m0 128 × 128 block scales (DeepseekV4FP8Config:
    ``is_scale_e8m0`` for the fp4-expert checkpoints); routed experts are MXFP4 when
    ``expert_dtype`` is "fp4" (Mxfp4MoEMethod), or NVFP4 in NVIDIA's re-quantization. The
    compressors' ``wkv``/``wgate`` (``fused_wkv_wgate``, layers/deepseek_compressor.py) and the
    indexer's ``weights_proj`` are built with ``quant_config=None``: bf16. Checked against vLLM's
    source (deepseek_v4.py 023da1fc, deepseek_v4_attention.py 0a291a2e, deepseek_compressor.py
    0de10a27, norm_gate_linear.py 80413b1c): every tensor below is one vLLM creates, at that dtype;
    the one difference, ``attn_sink`` padded to 64 heads per rank for FlashMLA, is 256 bytes a layer.
    """
    H, n, d = c["hidden_size"], c["num_attention_heads"], c["head_dim"]
    q_lora, g, o_lora = c["q_lora_rank"], c["o_groups"], c["o_lora_rank"]
    E, I, V = c["n_routed_experts"], c["moe_intermediate_size"], c["vocab_size"]
    ih, idim, hc = c["index_n_heads"], c["index_head_dim"], c["hc_mult"]
    fp8 = lambda r, k: fp8_block(r, k, scale_bytes=1)  # noqa: E731
    expert = {"mxfp4": mxfp4, "nvfp4": nvfp4}[experts]
    mix = (2 + hc) * hc  # the hyper-connection mixing width
    total = 0
    for layer, ratio in enumerate(c["compress_ratios"][: c["num_hidden_layers"]]):
        total += fp8(q_lora, H) + fp8(d, H)  # wq_a, wkv (one 512-wide latent head)
        total += fp8(n * d, q_lora)  # wq_b
        total += fp8(g * o_lora, n * d // g) + fp8(H, g * o_lora)  # grouped output: wo_a, wo_b
        total += fp32(n) + bf16(q_lora + d)  # attn_sink; q_norm, kv_norm
        if ratio > 1:  # the KV compressor: overlapping windows (2×) at ratio 4
            coff = 2 if ratio == 4 else 1
            total += bf16(2 * coff * d * H) + fp32(ratio * coff * d) + bf16(d)  # wkv, wgate; ape; norm
        if ratio == 4:  # the lightning indexer and its own compressor
            total += fp8(ih * idim, q_lora) + bf16(ih * H) + bf16(2 * idim)  # wq_b, weights_proj, k_norm
            total += bf16(2 * 2 * idim * H) + fp32(4 * 2 * idim) + bf16(idim)
        total += bf16(E * H)  # router
        total += 4 * V * c["num_experts_per_tok"] if layer < c["num_hash_layers"] else fp32(E)  # tid2eid | bias
        total += E * (2 * expert(I, H) + expert(H, I))  # routed experts w1, w3, w2
        total += c["n_shared_experts"] * (2 * fp8(I, H) + fp8(H, I))
        total += 2 * (fp32(mix * hc * H) + fp32(mix) + fp32(3))  # hc_attn_*, hc_ffn_*
        total += bf16(2 * H)  # attn_norm, ffn_norm
    total += 2 * bf16(V * H) + bf16(H)  # embed, head (untied), norm
    total += fp32(hc * hc * H) + fp32(hc) + fp32(1)  # hc_head_*
    return total


# -- MLA with DeepSeek-V3.2's indexer: GLM-5, 5.1, 5.2 (vllm/model_executor/models/deepseek_v2.py,
#    glm_moe_dsa registered on it; the indexer's cache: deepseek_v2.py DeepseekV32IndexerCache) ---

def mla_kv(c: dict, indexed_layers: int) -> int:
    """MLA caches one latent of ``kv_lora_rank + qk_rope_head_dim`` per token and layer (MLAAttentionSpec,
    one KV head) at bf16; each layer that runs the indexer adds its fp8 key, 128 bytes + a 4-byte
    fp32 scale (DeepseekV32IndexerCache: ``head_dim = index_head_dim + index_head_dim // 128 * 4``)."""
    latent = c["kv_lora_rank"] + c["qk_rope_head_dim"]
    indexer = c["index_head_dim"] + 4 * (c["index_head_dim"] // 128) if indexed_layers else 0
    return CONTEXT * (c["num_hidden_layers"] * 2 * latent + indexed_layers * indexer)


def glm5_indexed_layers(c: dict) -> int:
    """GLM-5.2's ``indexer_types`` keeps the indexer ("full") on some layers; the "shared" ones reuse
    the top-k of the layer before and cache no key. GLM-5 and 5.1 index every layer."""
    kinds = c.get("indexer_types")
    return c["num_hidden_layers"] if kinds is None else kinds.count("full")


def glm5_weights(c: dict, fmt: str = "bf16", nvfp4_parts: tuple[str, ...] = ()) -> int:
    """DeepseekV2DecoderLayer with the V3.2 indexer, as GLM-5's checkpoint names it. In the FP8
    release every linear layer is fp8 block-quantized except what ``modules_to_not_convert``
    lists: the embeddings, lm_head, the norms, the router (``mlp.gate``) and the indexer's
    ``indexers_proj`` (its per-head weights). NVIDIA's NVFP4 releases quantize the parts named in
    ``nvfp4_parts`` ("dense", "experts", "shared") and keep the rest bf16 (their exclude lists:
    all of self_attn with the indexer; GLM-5.2's also the shared experts and layers 0-2)."""
    H, n = c["hidden_size"], c["num_attention_heads"]
    q_lora, kv_lora = c["q_lora_rank"], c["kv_lora_rank"]
    nope, rope, v = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    E, I, V = c["n_routed_experts"], c["moe_intermediate_size"], c["vocab_size"]
    lin = {"bf16": lambda r, k: bf16(r * k), "fp8": fp8_block}[fmt]
    part = {name: nvfp4 if name in nvfp4_parts else lin for name in ("dense", "experts", "shared")}
    indexed = c.get("indexer_types") or ["full"] * c["num_hidden_layers"]
    total = 0
    for layer in range(c["num_hidden_layers"]):
        total += lin(q_lora, H) + lin(n * (nope + rope), q_lora)  # q_a_proj, q_b_proj
        total += lin(kv_lora + rope, H) + lin(n * (nope + v), kv_lora)  # kv_a_proj_with_mqa, kv_b_proj
        total += lin(H, n * v) + bf16(q_lora + kv_lora)  # o_proj; q_a_layernorm, kv_a_layernorm
        if indexed[layer] == "full":  # indexer: wq_b, wk, k_norm (LayerNorm), weights_proj
            ih, idim = c["index_n_heads"], c["index_head_dim"]
            total += lin(ih * idim, q_lora) + lin(idim, H) + bf16(2 * idim) + bf16(ih * H)
        if layer < c["first_k_dense_replace"]:
            total += 3 * part["dense"](c["intermediate_size"], H)
        else:
            total += bf16(E * H) + fp32(E)  # router gate, e_score_correction_bias
            total += E * 3 * part["experts"](I, H) + c["n_shared_experts"] * 3 * part["shared"](I, H)
        total += bf16(2 * H)
    return total + 2 * bf16(V * H) + bf16(H)


# -- DeepSeek-V3 layout with int4 experts: Kimi K2.5 / K2.6 (deepseek_v2.py via kimi_k25.py) ------

def kimi_k2_kv(c: dict) -> int:
    return mla_kv(c, 0)


def kimi_k2_weights(c: dict, experts: str = "int4", nvfp4_parts: tuple[str, ...] = ()) -> int:
    """DeepSeek-V3's tensors; the int4 release quantizes the routed experts only (its
    ``ignore``: lm_head, self_attn, shared_experts, the dense MLP), group 32, symmetric.
    NVIDIA's NVFP4 releases also quantize what ``nvfp4_parts`` names ("dense" for layer 0's MLP,
    "shared"): K2.5-NVFP4 ignores only self_attn and lm_head; K2.6-NVFP4 also layer 0 and the
    shared experts."""
    H, n = c["hidden_size"], c["num_attention_heads"]
    q_lora, kv_lora = c["q_lora_rank"], c["kv_lora_rank"]
    nope, rope, v = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    E, I, V = c["n_routed_experts"], c["moe_intermediate_size"], c["vocab_size"]
    expert = {"int4": int4_group32, "nvfp4": nvfp4, "bf16": lambda r, k: bf16(r * k)}[experts]
    total = 0
    for layer in range(c["num_hidden_layers"]):
        total += bf16(q_lora * H + n * (nope + rope) * q_lora + (kv_lora + rope) * H
                      + n * (nope + v) * kv_lora + H * n * v + q_lora + kv_lora)
        dense = nvfp4 if "dense" in nvfp4_parts else (lambda r, k: bf16(r * k))
        shared = nvfp4 if "shared" in nvfp4_parts else (lambda r, k: bf16(r * k))
        if layer < c["first_k_dense_replace"]:
            total += 3 * dense(c["intermediate_size"], H)
        else:
            total += bf16(E * H) + fp32(E) + E * 3 * expert(I, H) + c["n_shared_experts"] * 3 * shared(I, H)
        total += bf16(2 * H)
    return total + 2 * bf16(V * H) + bf16(H)


# -- Gemma 4 (vllm/model_executor/models/gemma4.py) -----------------------------------------------

def gemma4_kv(c: dict) -> int:
    """Gemma4DecoderLayer: a full-attention layer uses ``global_head_dim`` and, with
    ``attention_k_eq_v``, ``num_global_key_value_heads``; a sliding layer ``head_dim`` and
    ``num_key_value_heads``. Both build a plain ``Attention(num_kv_heads, head_dim)``, so the cache
    holds K and V even where V is K (the qkv_proj loads K into both slots). bf16."""
    t = text(c)
    total = 0
    for kind in t["layer_types"]:
        if kind == "full_attention":
            heads = t["num_global_key_value_heads"] if t["attention_k_eq_v"] else t["num_key_value_heads"]
            total += CONTEXT * 2 * heads * t["global_head_dim"] * 2
        else:
            total += t["sliding_window"] * 2 * t["num_key_value_heads"] * t["head_dim"] * 2
    return total


def gemma4_weights(c: dict, fmt: str = "bf16", dense_mlp: str | None = None) -> int:
    """Per layer: q/k/v/o (no v_proj on K = V layers), q_norm, k_norm; the dense MLP always, and
    with ``enable_moe_block`` a router and experts beside it (Gemma4DecoderLayer). In NVIDIA's NVFP4
    release the ``ignore`` list keeps every ``self_attn`` in bf16 (and lm_head, tied here); the
    26B-A4B release also keeps the dense ``mlp`` and the ``router`` in bf16 (``dense_mlp``)."""
    t = text(c)
    H, n, V = t["hidden_size"], t["num_attention_heads"], t["vocab_size"]
    formats = {"bf16": lambda r, k: bf16(r * k), "nvfp4": nvfp4}
    lin, mlp = formats[fmt], formats[dense_mlp or fmt]
    total = 0
    for kind in t["layer_types"]:
        full = kind == "full_attention"
        d = t["global_head_dim"] if full else t["head_dim"]
        kv = t["num_global_key_value_heads"] if full and t["attention_k_eq_v"] else t["num_key_value_heads"]
        v_proj = 0 if full and t["attention_k_eq_v"] else kv * d
        total += bf16((n * d + kv * d + v_proj) * H + H * n * d + 2 * d)  # attention stays bf16
        total += 2 * mlp(t["intermediate_size"], H) + mlp(H, t["intermediate_size"])
        norms = 4
        if t.get("enable_moe_block"):
            E, I = t["num_experts"], t["moe_intermediate_size"]
            total += bf16(E * H + H + E)  # router proj, its scale, per-expert scale
            total += E * (2 * lin(I, H) + lin(H, I))
            norms += 3
        total += bf16(norms * H) + bf16(1)  # the layernorms, layer_scalar
    return total + bf16(V * H) + bf16(H)  # embed_tokens (tied with lm_head), norm


# -- Qwen3.5: Gated DeltaNet beside gated full attention (vllm/model_executor/models/qwen3_5.py,
#    the mixer in qwen3_next.py) -------------------------------------------------------------------

def qwen35_kv(c: dict) -> int:
    """Only the ``full_attention`` layers cache K and V (the linear layers keep a fixed state)."""
    t = text(c)
    return CONTEXT * t["layer_types"].count("full_attention") * 2 * t["num_key_value_heads"] * t["head_dim"] * 2


def qwen35_weights(c: dict, experts: str = "bf16") -> int:
    """bf16. Full attention: q_proj twice as wide (``attn_output_gate``), k, v, o, q_norm, k_norm.
    Gated DeltaNet: in_proj_qkvz, in_proj_ba, conv1d over q, k, v, A_log, dt_bias, norm, out_proj.
    The MLP is dense (27B) or 512/256 experts with one gated shared expert (the MoE sizes). Untied:
    the top-level ``tie_word_embeddings: false`` governs. NVIDIA's NVFP4 releases quantize the
    routed experts only (``ignore``: linear_attn, self_attn, shared_expert, its gate, lm_head; the
    router is no Linear)."""
    t = text(c)
    H, V = t["hidden_size"], t["vocab_size"]
    n, kv, d = t["num_attention_heads"], t["num_key_value_heads"], t["head_dim"]
    kh, kd = t["linear_num_key_heads"], t["linear_key_head_dim"]
    vh, vd = t["linear_num_value_heads"], t["linear_value_head_dim"]
    total = routed = 0  # bf16 parameters; the routed experts' bytes
    for kind in t["layer_types"]:
        if kind == "full_attention":
            total += (2 * n * d + 2 * kv * d) * H + H * n * d + 2 * d
        else:
            total += (2 * kh * kd + 2 * vh * vd) * H + 2 * vh * H  # in_proj_qkvz, in_proj_ba
            total += (2 * kh * kd + vh * vd) * t["linear_conv_kernel_dim"] + 2 * vh + vd  # conv1d; A_log, dt_bias; norm
            total += H * vh * vd  # out_proj
        if "num_experts" in t:
            E, I, S = t["num_experts"], t["moe_intermediate_size"], t["shared_expert_intermediate_size"]
            total += E * H + 3 * S * H + H  # router, shared expert, its gate
            routed += bf16(E * 3 * I * H) if experts == "bf16" else E * 3 * nvfp4(I, H)
        else:
            total += 3 * t["intermediate_size"] * H
        total += 2 * H
    return bf16(total + 2 * V * H + H) + routed


# -- MiniMax-M2 (vllm/model_executor/models/minimax_m2.py) -----------------------------------------

def minimax_m2_kv(c: dict) -> int:
    """Every layer is full GQA attention (``attn_type_list`` all 1)."""
    return CONTEXT * c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * c["head_dim"] * 2


def minimax_m2_weights(c: dict, fmt: str = "fp8") -> int:
    """fp8 128 × 128 blocks on q/k/v/o and the experts; ``modules_to_not_convert``: the router
    gate, its bias, lm_head (the embeddings are no Linear: bf16). qk-norm over all heads. NVIDIA's
    NVFP4 release quantizes the experts only (``ignore``: self_attn, the gate, lm_head)."""
    H, n, kv, d = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    E, I, V = c["num_local_experts"], c["intermediate_size"], c["vocab_size"]
    attn = fp8_block if fmt == "fp8" else (lambda r, k: bf16(r * k))
    expert = fp8_block if fmt == "fp8" else nvfp4
    per_layer = (attn(n * d, H) + 2 * attn(kv * d, H) + attn(H, n * d)
                 + bf16(n * d + kv * d)  # q_norm, k_norm
                 + bf16(E * H) + fp32(E)  # router gate, e_score_correction_bias
                 + E * (2 * expert(I, H) + expert(H, I))
                 + bf16(2 * H))
    return c["num_hidden_layers"] * per_layer + 2 * bf16(V * H) + bf16(H)


# -- MiMo-V2-Flash (vllm/model_executor/models/mimo_v2_flash.py) -----------------------------------

def mimo_v2_kv(c: dict) -> int:
    """``hybrid_layer_pattern`` 1 = sliding-window layer (swa_* geometry), 0 = full. K is ``head_dim``
    wide, V ``v_head_dim`` (Attention(head_size_v=...), FlashAttentionDiffKVBackend), so a token
    costs kv_heads × (192 + 128) × 2 bytes a layer."""
    total = 0
    for swa in c["hybrid_layer_pattern"]:
        if swa:
            per_token = c["swa_num_key_value_heads"] * (c["swa_head_dim"] + c["swa_v_head_dim"]) * 2
            total += c["sliding_window_size"] * per_token
        else:
            total += CONTEXT * c["num_key_value_heads"] * (c["head_dim"] + c["v_head_dim"]) * 2
    return total


def mimo_v2_weights(c: dict) -> int:
    """fp8 128 × 128 blocks on every Linear (no ignore list); the router gate and its bias are a
    plain ``nn.Linear`` outside the quant config (MiMoV2MoE), stored bf16; embeddings bf16; the
    sliding layers add a per-head ``attention_sink_bias``."""
    H, V, E, I = c["hidden_size"], c["vocab_size"], c["n_routed_experts"], c["moe_intermediate_size"]
    total = 0
    for layer, swa in enumerate(c["hybrid_layer_pattern"]):
        p = "swa_" if swa else ""
        n, kv = c[f"{p}num_attention_heads"], c[f"{p}num_key_value_heads"]
        dk, dv = c[f"{p}head_dim"], c[f"{p}v_head_dim"]
        total += fp8_block(n * dk, H) + fp8_block(kv * dk, H) + fp8_block(kv * dv, H) + fp8_block(H, n * dv)
        if swa and c.get("add_swa_attention_sink_bias"):
            total += bf16(n)
        if c["moe_layer_freq"][layer]:
            total += bf16(E * H) + bf16(E) + E * (2 * fp8_block(I, H) + fp8_block(H, I))
        else:
            total += 2 * fp8_block(c["intermediate_size"], H) + fp8_block(H, c["intermediate_size"])
        total += bf16(2 * H)
    return total + 2 * bf16(V * H) + bf16(H)


# -- Nemotron-H with latent MoE: Nemotron 3 Ultra, 3.5 (vllm/model_executor/models/nemotron_h.py) --

def nemotron_h_kv(c: dict) -> int:
    """Only the ``attention`` entries of ``layers_block_type`` cache K and V; Mamba layers keep a
    fixed state, MoE layers none."""
    layers = c["layers_block_type"].count("attention")
    return CONTEXT * layers * 2 * c["num_key_value_heads"] * c["head_dim"] * 2


def mxfp8(rows: int, cols: int) -> int:
    """OCP MXFP8 (ModelOpt): e4m3 numbers, one e8m0 scale byte per 32 along the input."""
    return rows * cols + rows * math.ceil(cols / 32)


def fp8_tensor(rows: int, cols: int) -> int:
    """ModelOpt FP8: e4m3 weight with one fp32 weight scale and one fp32 input scale."""
    return rows * cols + 8


def nemotron_h_weights(c: dict, formats: dict[str, object] | None = None) -> int:
    """Mamba-2 mixer: in_proj (z, x, B, C, dt), conv1d with bias over x, B, C, A_log, D, dt_bias, a
    grouped norm, out_proj. MoE: router + correction bias, routed experts with a squared-ReLU
    up/down pair (no gate), run in ``moe_latent_size`` when set (fc1/fc2_latent_proj around them),
    and one shared expert at full width. bf16, except the linear layers ``formats`` maps to a
    storage ("mamba_proj", "experts", "shared", "lm_head"): NVIDIA's Nemotron 3.5 release lists
    each module's format in ``quantized_layers`` (FP8 Mamba in/out_proj; W4A16 NVFP4 experts, shared
    expert and lm_head) and keeps conv1d, the router, attention and the embeddings bf16."""
    fmt = {part: (formats or {}).get(part, lambda r, k: bf16(r * k)) for part in ("mamba_proj", "experts", "shared",
                                                                                 "lm_head")}
    H, V = c["hidden_size"], c["vocab_size"]
    heads, hd = c["mamba_num_heads"], c["mamba_head_dim"]
    inner, gs = heads * hd, c["n_groups"] * c["ssm_state_size"]
    E, I, S = c["n_routed_experts"], c["moe_intermediate_size"], c["moe_shared_expert_intermediate_size"]
    latent = c.get("moe_latent_size") or H
    total = linear = 0  # bf16 parameters; the bytes of the linear layers ``formats`` names
    for kind in c["layers_block_type"]:
        if kind == "mamba":
            linear += fmt["mamba_proj"](2 * inner + 2 * gs + heads, H) + fmt["mamba_proj"](H, inner)  # in, out_proj
            total += (inner + 2 * gs) * (c["conv_kernel"] + 1)  # conv1d weight and bias
            total += 3 * heads + inner  # A_log, D, dt_bias; norm
        elif kind == "attention":
            n, kv, d = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
            total += (n * d + 2 * kv * d) * H + H * n * d
        else:  # moe
            total += E * H + E  # gate, e_score_correction_bias
            linear += E * (fmt["experts"](I, latent) + fmt["experts"](latent, I))  # up_proj, down_proj
            if latent != H:
                total += 2 * latent * H  # fc1_latent_proj, fc2_latent_proj
            linear += fmt["shared"](S, H) + fmt["shared"](H, S)  # shared expert up, down
        total += H  # the block's norm
    return bf16(total + V * H + H) + fmt["lm_head"](V, H) + linear


# -- MiniMax-M3: block-sparse attention (MSA), as upstream vLLM serves it: vllm/models/minimax_m3/
#    nvidia/model.py @ 902158949803 (the layers and weights), common/indexer.py @ 545393a3abcb (the
#    index-key cache), common/sparse_attention.py @ fa109e0e4625 (the paged K/V), v1/kv_cache_interface.py
#    @ 001cabc1be16 (the specs' bytes). The figures are those first derived after baidu/vLLM-Kunlun's
#    plugin, whose reading upstream confirms; the shared expert is sized as upstream sizes it. --

def minimax_m3_kv(c: dict) -> int:
    """Every layer caches K and V (``num_key_value_heads`` × ``head_dim``, bf16): the dense layers
    through a plain ``Attention``, the sparse ones through ``MiniMaxM3SparseAttention.get_kv_cache_spec``
    (a FullAttentionSpec of the same geometry). Each layer ``sparse_attention_config.sparse_attention_freq``
    marks 1 also keeps the indexer's key-only side cache, ``MiniMaxM3IndexerCache``: an
    MLAAttentionSpec of one head of ``sparse_index_dim`` (no factor 2) in ``indexer_kv_dtype``, bf16
    by default (vllm/config/attention.py), whatever ``--kv-cache-dtype`` says."""
    s = c["sparse_attention_config"]
    sparse = sum(s["sparse_attention_freq"][: c["num_hidden_layers"]])
    full = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * c["head_dim"] * 2
    return CONTEXT * (full + sparse * s["sparse_index_dim"] * 2)


def minimax_m3_weights(c: dict, fmt: str = "bf16") -> int:
    """bf16 (the published config names no quantization). Per layer: q/k/v/o and the per-head Gemma
    q/k norms (one ``head_dim`` vector each); on sparse layers the fused projection's ``index_q``
    (``sparse_num_index_heads`` × index_dim, which vLLM requires equal to the KV heads) and
    ``index_k`` (one head), and their two norm vectors (``index_v/o_proj`` are never created:
    ``sparse_disable_index_value``); on MoE layers (``moe_layer_freq`` 1) the router, a
    ``GateLinear`` with ``params_dtype=torch.float32``, and the fp32 ``e_score_correction_bias``,
    ``num_local_experts`` experts of ``intermediate_size`` (FusedMoE's) and the shared expert, a
    ``MiniMaxM3MLP`` of ``intermediate_size × n_shared_experts`` (not ``shared_intermediate_size``,
    which restates it here); on the others a ``MiniMaxM3MLP`` of ``dense_intermediate_size``; two
    RMSNorms. ``load_weights`` skips every ``mtp.`` tensor; this text config has no vision tower."""
    H, n, kv, d, V = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"], c["vocab_size"]
    s = c["sparse_attention_config"]
    E, I = c["num_local_experts"], c["intermediate_size"]
    S = I * c["n_shared_experts"]
    # NVIDIA's MiniMax-M3-NVFP4 (``fmt`` "nvidia"): its quantized_layers make the routed experts NVFP4
    # and q/k/v/o, index_q/index_k, the shared experts and the dense MLPs MXFP8; the routers, the
    # embeddings and lm_head are excluded (bf16 / fp32 as above)
    linear = mxfp8 if fmt == "nvidia" else (lambda r, k: bf16(r * k))
    expert = nvfp4 if fmt == "nvidia" else (lambda r, k: bf16(r * k))
    total = 0
    for layer in range(c["num_hidden_layers"]):
        total += linear(n * d, H) + 2 * linear(kv * d, H) + linear(H, n * d) + bf16(2 * d)
        if s["sparse_attention_freq"][layer]:
            idx = s["sparse_index_dim"]
            total += linear(s["sparse_num_index_heads"] * idx, H) + linear(idx, H) + bf16(2 * idx)
        if c["moe_layer_freq"][layer]:
            total += fp32(E * H + E) + E * (2 * expert(I, H) + expert(H, I)) + 2 * linear(S, H) + linear(H, S)
        else:
            D = c["dense_intermediate_size"]
            total += 2 * linear(D, H) + linear(H, D)
        total += bf16(2 * H)
    return total + bf16(2 * V * H + H)
