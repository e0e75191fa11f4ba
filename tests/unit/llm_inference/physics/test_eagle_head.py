"""physics/eagle_head.py (and its place in physics/speculation.py and the pool) against derivations by
hand from vLLM's source: llama_eagle3.py (a decoder layer whose first qkv_proj takes 2·hidden, three
norms, fc 3·hidden → hidden replicated, the final norm, its own draft-vocabulary LM head, d2t in
int64), llama_eagle.py (fc 2·hidden → hidden as a plain Linear, no LM head, the first layer without
input_layernorm), eagle.py (the embedding shared when the checkpoint ships none); n-gram
(ngram_proposer.py: no model at all)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from llm_inference import deployment_inputs_speculation as dis
from llm_inference.hardware import GPUS
from llm_inference.models import CATALOGUE
from llm_inference.models.data.eagle_heads import HEADS
from llm_inference.models.quantization import SHIPPED
from llm_inference.physics import eagle_head
from llm_inference.physics.budget import Engine
from llm_inference.physics.deployment import deploy
from llm_inference.physics.placement import Layout
from llm_inference.physics.speculation import EAGLE, NGRAM, Speculation
from llm_inference.physics.speculative_speed import speculative_step
from llm_inference.scenario import _catalogue_plan, catalogue_model

LLAMA_HEAD = HEADS["eagle3-llama-3.1-8b"]


def deployment(model_id, gpu, gpus, spec=Speculation()):
    return deploy(catalogue_model(model_id), GPUS[gpu], Layout(gpus=gpus), Engine(speculation=spec),
                  _catalogue_plan(model_id, "", SHIPPED), "bf16")


# -- EAGLE-3: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B's config ------------------------------------------

#: By hand, bf16, one rank: qkv_proj 8,192 (2·hidden) × (4,096 query + 2 × 1,024 KV) = 50,331,648,
#: o_proj 4,096², the MLP 3 × 4,096 × 14,336, three norms of 4,096 → 243,281,920 elements;
#: fc 3 × 4,096 × 4,096 = 50,331,648, the final norm 4,096, the LM head 32,000 × 4,096 (32,000 is
#: already a multiple of 64) → 181,407,744; d2t 32,000 int64 = 256,000 bytes.
EAGLE3_LLAMA_TP1 = (243_281_920 + 181_407_744) * 2 + 256_000
#: At TP 2: qkv 8,192 × (2,048 + 2 × 512), o_proj 2,048 × 4,096, the MLP 3 × 4,096 × 7,168, the norms
#: whole → 121,647,104; fc and the final norm whole, the LM head 16,000 × 4,096 → 115,871,744.
EAGLE3_LLAMA_TP2 = (121_647_104 + 115_871_744) * 2 + 256_000


def test_an_eagle3_head_by_hand():
    assert EAGLE3_LLAMA_TP1 == 849_635_328  # 0.79 GiB: SpecForge's own note gives "~811MB" for this head
    assert eagle_head.weight_bytes(LLAMA_HEAD, 1) == EAGLE3_LLAMA_TP1
    assert eagle_head.weight_bytes(LLAMA_HEAD, 2) == EAGLE3_LLAMA_TP2 == 475_293_696
    # one KV layer of Llama 3.1 8B's geometry: 8 heads × 128 × K and V × 2 bytes
    assert eagle_head.token_bytes(LLAMA_HEAD, "bf16", 1) == 4096
    assert eagle_head.token_bytes(LLAMA_HEAD, "bf16", 2) == 2048


def test_the_head_comes_off_the_budget_and_its_layer_joins_the_group():
    off = deployment("llama-3.1-8b", "h100-sxm", 1).pool
    spec = Speculation(EAGLE, 3, head=LLAMA_HEAD)
    on = deployment("llama-3.1-8b", "h100-sxm", 1, spec).pool
    assert not on.problem and on.drafter.label == LLAMA_HEAD.name
    assert on.drafter_bytes == EAGLE3_LLAMA_TP1
    assert on.available_bytes == pytest.approx(off.available_bytes - EAGLE3_LLAMA_TP1)
    assert on.layers_per_group == off.layers_per_group + 1 == 33
    assert on.bytes_per_token == 33 * 4096
    assert on.num_blocks == int(on.available_bytes // on.page_bytes // 33)
    # the method's two spellings are one drafter
    assert deployment("llama-3.1-8b", "h100-sxm", 1, Speculation("eagle3", 3, head=LLAMA_HEAD)).pool.drafter_bytes \
        == EAGLE3_LLAMA_TP1


#: A full-vocabulary EAGLE-3 head of Qwen3 8B's shape, as speculators trains one with the verifier's LM head
#: copied and frozen (dcstang/eagle3-spec-dec@097df086, logs/run_all_20260701_134859.log: "Checkpoint size:
#: 2.82 GiB"; vLLM 0.24.0 "Model loading took 15.78 GiB" against 15.27 GiB without it).
FULL_VOCAB_QWEN = eagle_head.Head("full", "full-vocabulary head", "https://example.org", eagle_head.EAGLE3,
                                  "qwen3-8b", hidden_size=4096, layers=1, heads=32, kv_heads=8, head_dim=128,
                                  intermediate_size=12288, vocab_size=151936, lm_head_is_target=True)


@pytest.mark.parametrize("version, full_vocab_target_copy, full_vocab_own, draft_vocab_32000", [
    ("0.10.2", False, False, False),  # eagle.py: only a method other than eagle3 takes the target's head
    ("0.11.0", True, True, False),  # the same shape as the target's head: shared, whatever the weights
    ("0.12.0", True, False, False),  # has_own_lm_head, or weights torch.equal to the target's
    ("0.24.0", True, False, False),
    ("", True, False, False),
])
def test_an_eagle3_heads_lm_head_is_the_targets_by_release(version, full_vocab_target_copy, full_vocab_own,
                                                           draft_vocab_32000):
    own = replace(FULL_VOCAB_QWEN, lm_head_is_target=False)
    assert eagle_head.shares_target_lm_head(FULL_VOCAB_QWEN, version) is full_vocab_target_copy
    assert eagle_head.shares_target_lm_head(own, version) is full_vocab_own
    assert eagle_head.shares_target_lm_head(LLAMA_HEAD, version) is draft_vocab_32000


def test_a_shared_lm_head_leaves_the_layer_fc_and_d2t():
    # by hand, bf16: qkv 8,192 × (4,096 + 2 × 1,024) = 50,331,648, o_proj 4,096² = 16,777,216, the MLP
    # 3 × 4,096 × 12,288 = 150,994,944, three norms 12,288; fc 3 × 4,096² = 50,331,648; the final norm 4,096
    # → 268,451,840 elements; d2t 151,936 int64 = 1,215,488 bytes
    shared = (268_451_840 * 2) + 1_215_488
    assert eagle_head.weight_bytes(FULL_VOCAB_QWEN, 1, "0.24.0") == shared == 538_119_168  # 0.50 GiB: the log's 0.51
    # 0.10: its own 151,936-row LM head (a multiple of 64) on top, 151,936 × 4,096 × 2 bytes
    assert eagle_head.weight_bytes(FULL_VOCAB_QWEN, 1, "0.10.2") == shared + 151_936 * 4096 * 2
    # the catalogue's heads draft over 32,000 tokens: their own LM head in every release
    assert all(eagle_head.weight_bytes(LLAMA_HEAD, 1, v) == EAGLE3_LLAMA_TP1 for v in ("0.10.2", "0.11.0", "0.24.0"))


def test_an_eagle1_head_by_hand():
    # EAGLE-LLaMA3-Instruct-8B's shape as llama_eagle.py builds it: fc 2·4,096 → 4,096 (a plain Linear),
    # one layer with qkv 4,096 × 6,144, o_proj 4,096², the MLP 3 × 4,096 × 14,336, post_attention_layernorm
    # only (input_layernorm is nn.Identity in the first layer); no LM head, the embedding shared
    head = eagle_head.Head("e1", "EAGLE", "https://example.org", eagle_head.EAGLE1, "llama-3.1-8b",
                           hidden_size=4096, layers=1, heads=32, kv_heads=8, head_dim=128,
                           intermediate_size=14336, vocab_size=128256)
    layer = 4096 * 6144 + 4096 * 4096 + 3 * 4096 * 14336 + 4096
    assert eagle_head.layer_bytes(head, 0, 1) == layer * 2
    assert eagle_head.weight_bytes(head, 1) == (layer + 2 * 4096 * 4096) * 2 == 503_324_672
    # a second layer keeps its input_layernorm and takes hidden inputs only
    assert eagle_head.layer_bytes(head, 1, 1) == (layer + 4096) * 2


def test_a_checkpoint_that_ships_its_embedding_keeps_it_sharded():
    from dataclasses import replace

    own = replace(LLAMA_HEAD, own_embeddings=True)
    assert eagle_head.weight_bytes(own, 2) - eagle_head.weight_bytes(LLAMA_HEAD, 2) == 64128 * 4096 * 2


def test_a_head_only_fits_the_model_it_was_trained_on():
    spec = Speculation(EAGLE, 3, head=LLAMA_HEAD)
    assert "hidden size" in deployment("qwen3-32b", "h100-sxm", 1, spec).pool.drafter.refusal
    assert "no EAGLE head" in deployment("llama-3.1-8b", "h100-sxm", 1, Speculation(EAGLE, 3)).pool.drafter.refusal
    qwen = deployment("qwen3-32b", "h100-sxm", 2, Speculation(EAGLE, 3, head=HEADS["eagle3-qwen3-32b"])).pool
    assert not qwen.problem and qwen.drafter.kv_layers == 1


@pytest.mark.parametrize("head_id", sorted(HEADS))
def test_each_offered_head_matches_its_target(head_id):
    head = HEADS[head_id]
    assert head.url.startswith("https://") and head.target in CATALOGUE
    model = catalogue_model(head.target)
    assert (head.vocab_size, head.hidden_size) == (model.vocab_size, model.hidden_size)
    assert (head.kv_heads, head.head_dim) == (model.kv_heads, model.head_dim)


# -- n-gram -----------------------------------------------------------------------------------------

def test_ngram_takes_no_weights_and_no_kv():
    off = deployment("qwen3-8b", "h100-sxm", 1).pool
    on = deployment("qwen3-8b", "h100-sxm", 1, Speculation(NGRAM, 4)).pool
    assert on.drafter.method == NGRAM and not on.drafter.refusal and not on.problem
    assert (on.drafter_bytes, on.drafter.kv_layers, on.drafter.token_bytes) == (0, 0, 0)
    assert (on.available_bytes, on.num_blocks, on.bytes_per_token) == (off.available_bytes, off.num_blocks,
                                                                      off.bytes_per_token)


def test_ngram_drafts_on_the_cpu_so_its_step_is_the_verifying_pass():
    d = deployment("qwen3-8b", "h100-sxm", 1, Speculation(NGRAM, 4))
    step = speculative_step(d.pool.drafter, 4, 0.5, d.model, d.pool.placement, GPUS["h100-sxm"], d.weights, "bf16",
                            8, 4096)
    assert step is not None and step.draft_s == 0 and step.step_s == step.verify_s


def test_the_readers_inputs():
    spec = dis.speculation_of({"speculation": "ngram", "num_speculative_tokens": 4}, catalogue_model, lambda m: None)
    assert (spec.method, spec.k, spec.head) == (NGRAM, 4, None)
    spec = dis.speculation_of({"speculation": "eagle", "draft_head": "eagle3-qwen3-32b", "num_speculative_tokens": 2},
                              catalogue_model, lambda m: None)
    assert (spec.method, spec.k, spec.head) == (EAGLE, 2, HEADS["eagle3-qwen3-32b"])
    choices = {p.name: p for p in dis.params()}
    assert [v for v in choices["draft_head"].values] == list(HEADS)
    assert {"ngram", "eagle"} <= set(choices["speculation"].values)


def test_the_kv_cache_calculator_says_ngram_loads_nothing():
    from llm_inference import kv_cache, speculation_outputs

    prepared, errors = kv_cache.SPEC.prepare({"model": "qwen3-8b", "gpu": "h100-sxm", "speculation": "ngram"})
    computed = kv_cache.compute(prepared)
    assert not errors and speculation_outputs.NGRAM_NOTE in computed.notes
    plain = kv_cache.compute(kv_cache.SPEC.prepare({"model": "qwen3-8b", "gpu": "h100-sxm"})[0])
    assert computed.values["max_concurrency"] == plain.values["max_concurrency"]


def test_the_homework_heads_by_hand():
    # dishantghai/ai-perf-hw3-spec-decode-quant's two heads (their config.json committed with the logs): the
    # full-vocabulary one is FULL_VOCAB_QWEN's shape, LM head and embedding the target's (vLLM 0.20.0 prints both
    # 'identical to the target model'): 268,451,840 elements + d2t 151,936 int64
    full = HEADS["eagle3-qwen3-8b-hw3-full-vocab"]
    assert eagle_head.weight_bytes(full, 1, "0.20.0") == 268_451_840 * 2 + 1_215_488 == 538_119_168
    # the 32,000-token one keeps its own LM head, 32,000 × 4,096 (a multiple of 64), and a 32,000-entry d2t:
    # (268,451,840 + 131,072,000) × 2 + 256,000 = 799,303,680 bytes, 0.24 GiB more (the logs: 16.02 - 15.78 GiB)
    small = HEADS["eagle3-qwen3-8b-hw3-32k-vocab"]
    assert eagle_head.weight_bytes(small, 1, "0.20.0") == (268_451_840 + 32_000 * 4096) * 2 + 256_000 == 799_303_680
    # one KV layer of Qwen3 8B's geometry each: 8 heads × 128 × K and V × 2 bytes
    assert eagle_head.token_bytes(full, "bf16", 1) == eagle_head.token_bytes(small, "bf16", 1) == 4096
