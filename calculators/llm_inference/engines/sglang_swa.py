"""SGLang's pool for sliding-window layers (``SWAKVPool``): which architectures get one, per release, and
how the token budget of :mod:`.sglang` is shared out between the full layers and the windowed ones.

Where SGLang keeps windowed layers in a pool of their own (mem_cache/memory_pool.py), the full layers'
pool holds ``full_max_total_num_tokens`` and the windowed layers' ``swa_max_total_num_tokens``,
``--swa-full-tokens-ratio`` (default 0.8) of it; elsewhere every layer caches every token (the window
is a mask only). Read in the 0.4.9.post2, 0.4.10, 0.5.3, 0.5.6 and 0.5.23 wheels.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..physics.model import Model
from . import sglang  # the module object: physics imports these while sglang is loading

__all__ = ["SWA_FULL_TOKENS_RATIO", "hybrid_swa", "swa_tokens_of", "swa_pool_sizes_gib", "SWASplit", "swa_split"]

#: ``--swa-full-tokens-ratio``'s default, SWA-layer tokens ÷ full-layer tokens: ``ServerArgs.
#: swa_full_tokens_ratio = 0.8`` in 0.4.10, 0.5.3 and 0.5.6 (server_args.py); 0.5.23 declares it None with
#: ``fallback=0.8`` (arg_groups/fields/schedule.py) and overrides it to 0.1 only for DeepSeek-V4 and Inkling
#: (arg_groups/model_overrides/), models not modelled here.
SWA_FULL_TOKENS_RATIO = 0.8

#: Model types (the config's ``model_type``, as the book derives it) whose windowed layers get the SWA pool.
#: 0.4.10: ``ModelRunner.__init__`` turns it on for every model that defines
#: ``get_attention_sliding_window_size`` (models/gemma2.py, gemma3_causal.py, gemma3_mm.py, gemma3n_*.py) unless
#: ``--disable-hybrid-swa-memory``; 0.4.9.post2 has no SWA pool. 0.5.3 and 0.5.6: server_args.py
#: ``_handle_model_specific_adjustments`` sets ``disable_hybrid_swa_memory = True`` for Gemma 2/3/3n, Olmo 2
#: and GptOssForCausalLM, the only models that define the method, so no model gets it by default (Llama 4's
#: own split needs ``--hybrid-kvcache-ratio``, default None: configs/model_config.py ``is_hybrid_model``).
#: 0.5.23: ``is_hybrid_swa_model`` (configs/model_config.py) lists the architectures; GptOssForCausalLM is
#: among them (``SWA_SINK_ARCHS``) and no override disables it, Gemma 2/3 are disabled
#: (arg_groups/model_overrides/gemma2_gemma3.py).
_SWA_POOL = {(0, 4, 10): ("gemma2", "gemma3_text", "gemma3", "gemma3n_text"), (0, 5, 3): (), (0, 5, 23): ("gpt_oss",)}
#: 0.5.23 architectures with an SWA pool whose geometry (per-layer head sizes, chunked windows, SWA draft
#: layers) is not read here: refused rather than given a uniform pool they do not have.
_SWA_NOT_MODELLED_0523 = ("llama4", "llama4_text", "gemma4", "gemma4_text", "mimo_v2_flash", "step3p5",
                          "deepseek_v4")


def hybrid_swa(model: Model, release: str, model_type: str = "") -> bool:
    """Whether SGLang ``release`` keeps ``model``'s windowed layers in a pool of their own (``SWAKVPool``).

    False for a model without windowed layers, and for every architecture SGLang gives one pool of all
    layers (the window is then a mask: every layer caches every token, Mistral's and Phi-3's windows
    always). A release between two read takes the nearer read one below it. ``model_type`` ""
    (a custom shape) is refused where the answer depends on the architecture.
    """
    if not model.windowed_layers:
        return False
    version = sglang.parse_release(release)
    if version < (0, 4, 10):
        return False
    read = max(v for v in _SWA_POOL if v <= version)
    if read == (0, 5, 3):
        return False
    if not model_type:
        raise ValueError(f"SGLang {release} decides by the architecture whether windowed layers get their own "
                         "pool: not known for a custom shape")
    if read == (0, 4, 10) and model_type == "gpt_oss":
        # models/gpt_oss.py is not in the 0.4.10 wheel; 0.4.10.post1–0.5.2, which served it, were not read
        raise ValueError(f"SGLang {release}: gpt-oss came after 0.4.10, and whether the releases up to 0.5.2 gave it "
                         "an SWA pool was not read (0.5.3–0.5.6 do not)")
    if read == (0, 5, 23) and model_type in _SWA_NOT_MODELLED_0523:
        raise ValueError(f"SGLang {release}'s SWA pool for {model_type} (its own per-layer geometry) is not "
                         "modelled")
    return model_type in _SWA_POOL[read]


def swa_tokens_of(full_tokens: int, ratio: float = SWA_FULL_TOKENS_RATIO, page_size: int = 1) -> int:
    """``swa_max_total_num_tokens`` from the full pool's: int(full × ratio), rounded down to a page (0.5.23
    ``_solve_pool_sizes``; 0.4.10–0.5.6 do not round it, their SWAKVPool pages being 1 token)."""
    return int(full_tokens * ratio) // page_size * page_size


def swa_pool_sizes_gib(swa_tokens: int, *, swa_layers: int, kv_heads: int, k_head_dim: int, v_head_dim: int,
                       kv_dtype_bytes: float, page_size: int = 1) -> tuple[float, float]:
    """("K size", "V size") the SWA pool logs: (tokens + page) slots of the SWA layers' heads on one rank
    (``kv_heads`` already divided by the attention TP), K and V each of their own width (MiMo-V2: 192, 128)."""
    slots = (swa_tokens + page_size) * kv_heads * swa_layers * kv_dtype_bytes
    return slots * k_head_dim / sglang.GIB, slots * v_head_dim / sglang.GIB


@dataclass(frozen=True)
class SWASplit:
    """The two token counts of SGLang's hybrid pool (one rank)."""

    full_tokens: int  # full_max_total_num_tokens (= the sglang.max_total_num_tokens the scheduler prints)
    swa_tokens: int  # swa_max_total_num_tokens
    full_layers: int
    swa_layers: int
    ratio: float  # --swa-full-tokens-ratio
    rule: str


def swa_split(profiled: int, *, full_layers: int, swa_layers: int, layer_bytes: float, release: str,
              rest_bytes: float | None = None, ratio: float = SWA_FULL_TOKENS_RATIO, page_size: int = 1,
              max_total_tokens: int | None = None) -> SWASplit:
    """Full and SWA token counts from what ``profile_max_num_token`` left.

    0.4.10–0.5.6 (model_runner.py ``set_num_token_hybrid``, after the cap and page rounding of
    ``init_memory_pool``): ``profiled`` is the count of a cell over *all* layers (each caching every
    token); the same bytes are shared out so that swa = ratio × full:

        total = profiled × layers;  full = int(total ÷ (ratio × swa_layers + full_layers));  swa = int(full × ratio)

    0.5.23 (model_executor/pool_configurator.py ``HybridSWAPoolConfigurator``): the cell is already
    full_layers × layer + ratio × swa_layers × layer bytes, so full = int(rest ÷ cell) rounded to a page,
    swa = int(full × ratio) rounded to a page (``rest_bytes`` needed; ``profiled`` unused); the cap and page
    of ``_apply_token_constraints`` then apply to full. ``layer_bytes``: one layer's bytes a token.
    """
    if not 0 < ratio <= 1:
        raise ValueError(f"--swa-full-tokens-ratio must be in (0, 1] (server_args.py), not {ratio}")
    if sglang.parse_release(release) >= (0, 5, 23):
        if rest_bytes is None:
            raise ValueError("0.5.23's SWA split needs the pool's bytes (rest_bytes)")
        cell = full_layers * layer_bytes + ratio * swa_layers * layer_bytes
        full = sglang.max_total_num_tokens(int(rest_bytes // cell), page_size, max_total_tokens)
        return SWASplit(full, swa_tokens_of(full, ratio, page_size), full_layers, swa_layers, ratio,
                        "0.5.23: full + ratio × SWA bytes a token")
    tokens = sglang.max_total_num_tokens(profiled, page_size, max_total_tokens)
    full = int(tokens * (full_layers + swa_layers) / (ratio * swa_layers + full_layers))
    return SWASplit(full, int(full * ratio), full_layers, swa_layers, ratio,
                    "0.4.10–0.5.6: all layers' tokens shared out, SWA = ratio × full")
