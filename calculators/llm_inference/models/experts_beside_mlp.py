"""Experts beside a dense MLP in the same layer: Gemma 4's MoE (26B-A4B).

vLLM's ``Gemma4DecoderLayer`` (vllm/model_executor/models/gemma4.py, read 2026-12) always builds
its dense ``mlp`` (``intermediate_size``); with ``enable_moe_block`` (or its older name
``use_second_mlp_block``) it adds, in parallel on the same residual, a ``Gemma4Router`` (a weightless
RMSNorm, a learned per-dimension ``scale`` of hidden_size, and ``proj``, a GateLinear of
num_experts rows that is never quantized), a ``Gemma4MoE`` (``num_experts`` FusedMoE experts of
``moe_intermediate_size``, ``top_k_experts`` per token, and a ``per_expert_scale`` of num_experts)
and three more RMSNorms (``post_feedforward_layernorm_1``, ``_2``, ``pre_feedforward_layernorm_2``).
Every token runs the dense MLP and its top-k experts.
"""

from __future__ import annotations

from .fields import FieldReader
from .params import ROUTER, Params, join, norm, vector

#: The model types whose experts run beside the dense MLP, and the switch each reads.
BESIDE_TYPES = ("gemma4_text",)
SWITCHES = ("enable_moe_block", "use_second_mlp_block")


def experts_beside_mlp(reader: FieldReader) -> bool:
    """Whether every layer runs routed experts beside its dense MLP."""
    if reader.model_type not in BESIDE_TYPES:
        return False
    on = any(reader.boolean(name, False) for name in SWITCHES)
    if on:
        reader.traps.append(
            f"{reader.label('enable_moe_block')} is true: every layer runs its dense MLP (intermediate_size "
            f"{reader.integer('intermediate_size')}) and, beside it on the same input, routed experts "
            f"(Gemma4DecoderLayer); both are counted, and both are read for every token.")
    return on


def experts_switched_off(reader: FieldReader) -> bool:
    """A Gemma 4 config whose MoE block is off: vLLM builds no router and no experts, whatever
    ``num_experts`` says (the dense 31B lists none; a config that lists them is read as dense)."""
    if reader.model_type not in BESIDE_TYPES or any(reader.boolean(name, False) for name in SWITCHES):
        return False
    listed = [name for name in ("num_experts", "top_k_experts", "moe_intermediate_size") if reader.has(name)]
    if listed:
        reader.seen(*listed)
        reader.traps.append(f"{', '.join(listed)} {'is' if len(listed) == 1 else 'are'} given but enable_moe_block "
                            f"is false: Gemma4DecoderLayer builds no experts, every layer is dense.")
    return True


def router_extras(hidden: int, experts: int) -> Params:
    """What Gemma 4's MoE block holds besides the router's projection and the experts: the router's
    per-dimension scale, the per-expert output scale and the block's three RMSNorms."""
    return join(vector(ROUTER, "router.scale", hidden, "scale", split="replicated"),
                vector(ROUTER, "moe.per_expert_scale", experts, "scale", split="replicated"),
                *(norm(hidden, name) for name in ("post_feedforward_layernorm_1", "post_feedforward_layernorm_2",
                                                  "pre_feedforward_layernorm_2")))
