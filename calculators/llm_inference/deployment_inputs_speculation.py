"""vLLM's ``--speculative-config`` as a reader sets it: off, a draft model from the catalogue, the
model's own MTP layers, a published EAGLE-3 head (models/data/eagle_heads.py) or n-gram prompt
lookup; and ``num_speculative_tokens`` (k).

Declared here, apart from :mod:`.scenario`, as :mod:`.deployment_inputs` declares ``--block-size``:
:func:`params` are added to the engine's parameters through ``deployment_inputs.engine_inputs()``,
and :func:`speculation_of` turns them into the physics' ``Speculation`` (physics.speculation), which
``scenario.engine_from_inputs`` puts on the Engine. What the drafter costs in memory, and what vLLM
does with it, is physics.speculation's (evidence: engines.vllm_speculation).

The MTP layers a model has are its config's ``num_nextn_predict_layers`` (DeepSeek-V3, GLM, MiMo,
Nemotron 3) or ``mtp_num_hidden_layers`` (Qwen3.5): what vLLM's ``hf_config_override`` reads as
``n_predict``. Qwen3-Next's config names neither, and vLLM's ``Qwen3NextMultiTokenPredictor`` then
builds one (``getattr(config, "num_nextn_predict_layers", 1)``). The config's ``model_type`` (the top
level's, which ``hf_config_override`` reads) says which MTP drafter vLLM builds and from which release;
the MTP layer's format is the checkpoint's, module by module (physics.speculation.module_bytes: its
ignore list names the MTP layer or not). The draft model runs from its own checkpoint in its shipped
format.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from course_calculators.spec import Choice, Number

from .models import CATALOGUE
from .models.data.eagle_heads import HEADS
from .physics.speculation import DRAFT_MODEL, EAGLE, MTP, NGRAM, OFF, Speculation

#: The speculation choices offered.
METHODS = ((OFF, "off"), (DRAFT_MODEL, "a draft model (method draft_model)"),
           (MTP, "the model's MTP layers (method mtp)"), (EAGLE, "an EAGLE-3 head (method eagle3)"),
           (NGRAM, "n-gram prompt lookup (method ngram)"))
#: The head a reader sees first: the EAGLE-3 head for Llama 3.1 8B.
DEFAULT_HEAD = "eagle3-llama-3.1-8b"
#: The draft a reader sees first: Llama 3.1 8B, the usual drafter for Llama 3.1 70B.
DEFAULT_DRAFT = "llama-3.1-8b"
#: k offered: vLLM takes any positive count; the acceptance makes more than a handful pointless.
K_MAX = 16
DEFAULT_K = 3
#: Config keys for the number of MTP layers (vllm/config/speculative.py hf_config_override).
MTP_KEYS = ("num_nextn_predict_layers", "mtp_num_hidden_layers")


def params() -> tuple:
    """The speculation parameters, in the order the calculators show them."""
    drafts = tuple((model_id, entry.name) for model_id, entry in CATALOGUE.items())
    return (
        Choice("speculation", "Speculative decoding (--speculative-config)", OFF, METHODS, advanced=True,
               help="A drafter proposes k tokens that the model verifies in one pass. vLLM loads the drafter's "
                    "weights on every GPU (sharded like the model) and caches its layers' keys and values in "
                    "the same pool: less memory for the KV cache, more bytes per token. MTP uses the model's "
                    "own multi-token-prediction layers (DeepSeek-V3, Qwen3.5: one), sharing its input embedding "
                    "(and, for Qwen's, its LM head); an "
                    "EAGLE-3 head is one small layer; n-gram looks the draft up in the request's own tokens "
                    "and takes no memory at all."),
        Choice("draft_model", "Draft model", DEFAULT_DRAFT if DEFAULT_DRAFT in CATALOGUE else drafts[0][0], drafts,
               advanced=True,
               help="The draft model (method draft_model), in its shipped format. vLLM requires its "
                    "vocabulary to equal the model's, and shards it over the same tensor-parallel GPUs."),
        Choice("draft_head", "EAGLE-3 head", DEFAULT_HEAD, tuple((i, h.name) for i, h in HEADS.items()),
               advanced=True,
               help="The head (method eagle3): one decoder layer trained on one model's hidden states, with "
                    "its own small-vocabulary LM head; it shares the model's embedding and caches its layer "
                    "in the same pool. A head fits only the model it was trained on."),
        Number("num_speculative_tokens", "Speculative tokens per step (k)", DEFAULT_K, 1, K_MAX, advanced=True,
               help="num_speculative_tokens: drafted tokens the model verifies per step. The memory does not "
                    "depend on it but for a hybrid's recurrent states (a wider convolution window and a state "
                    "page more per token); the speed-up does (decode roofline)."),
    )


def _config(p: Mapping[str, Any]) -> Mapping[str, Any]:
    """The pasted config.json, else the catalogue model's ({} when neither reads)."""
    text = p.get("config", "")
    if isinstance(text, str) and text.strip():
        try:
            loaded = json.loads(text)
        except ValueError:
            return {}
        return loaded if isinstance(loaded, dict) else {}
    entry = CATALOGUE.get(p.get("model", ""))
    return entry.config if entry is not None else {}


#: model_types whose MTP module vLLM builds with one layer when the config names no count
#: (qwen3_next_mtp.py: ``getattr(config, "num_nextn_predict_layers", 1)``; MiMo-V2-Flash's always one,
#: mimo_v2_mtp.py ``_MIMO_V2_FLASH_NUM_MTP_LAYERS``).
MTP_DEFAULT_ONE = ("qwen3_next", "mimo_v2_flash")


def mtp_layers(config: Mapping[str, Any]) -> int:
    """The MTP layers a config declares (0 when none), at its top level or in its text_config; 1 for
    a model_type whose vLLM MTP module defaults to one layer."""
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    for fields in (config, text):
        for key in MTP_KEYS:
            value = fields.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
    return 1 if model_type(config) in MTP_DEFAULT_ONE else 0


def model_type(config: Mapping[str, Any]) -> str:
    """The config's top-level ``model_type`` ("" when it names none)."""
    value = config.get("model_type")
    return value if isinstance(value, str) else ""


#: ``mtp_layers_block_type`` names → the pattern characters of ``mtp_hybrid_override_pattern``.
BLOCK_CHARS = {"attention": "*", "moe": "E", "mamba": "M", "mlp": "-"}


def mtp_pattern(config: Mapping[str, Any]) -> str:
    """Nemotron-H's MTP step: ``mtp_hybrid_override_pattern`` ("*E"), else ``mtp_layers_block_type``
    (["attention", "moe"]) in its characters; "" when the config names neither."""
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    for fields in (config, text):
        pattern = fields.get("mtp_hybrid_override_pattern")
        if isinstance(pattern, str) and pattern:
            return pattern
        kinds = fields.get("mtp_layers_block_type")
        if isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds):
            return "".join(BLOCK_CHARS.get(k, "?") for k in kinds)
    return ""


def speculation_of(p: Mapping[str, Any], draft_model: Callable[[str], Any],
                   draft_plan: Callable[[str], Any]) -> Speculation:
    """The reader's speculation; ``draft_model(id)`` and ``draft_plan(id)`` give a catalogue model as
    the physics sees it and its shipped weights (scenario's, passed in so that this module does not
    import the scenario that imports it)."""
    method = p.get("speculation", OFF)
    k = int(p.get("num_speculative_tokens", DEFAULT_K))
    if method == OFF:
        return Speculation()
    if method == MTP:
        config = _config(p)
        return Speculation(MTP, k, mtp_layers=mtp_layers(config), model_type=model_type(config),
                           mtp_pattern=mtp_pattern(config))
    if method == NGRAM:
        return Speculation(NGRAM, k)
    if method == EAGLE:
        return Speculation(EAGLE, k, head=HEADS.get(p.get("draft_head", DEFAULT_HEAD)))
    draft = p.get("draft_model", DEFAULT_DRAFT)
    if draft not in CATALOGUE:
        return Speculation(DRAFT_MODEL, k)
    return Speculation(DRAFT_MODEL, k, draft=draft_model(draft), draft_weights=draft_plan(draft),
                       draft_name=CATALOGUE[draft].name)
