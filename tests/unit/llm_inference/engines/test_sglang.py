"""SGLang's budget (engines.sglang) against derivations by hand from its source and against the public
startup logs of engines.sglang_logs.

Every log that prints what the rule needs is rebuilt within 2 %; a log that needs a measurement only
the hardware gives is rebuilt with the estimate the module offers and its error is listed (and kept
within the band the notes give), never tuned away.
"""

from __future__ import annotations

import statistics

import pytest

from llm_inference.engines import sglang
from llm_inference.engines import sglang_token_pool
from llm_inference.engines.sglang_logs import BY_ID, DEFAULT_FRACTIONS, LOGS
from llm_inference.hardware import GPUS
from llm_inference.models import catalogue_shape
from llm_inference.scenario import catalogue_model

from .book_weights import book_weights_gib

GIB = 1 << 30


def _cell(log) -> int:
    s = log.shape
    return sglang.cell_bytes(layers=int(s["layers"]), kv_dtype_bytes=s["kv_dtype_bytes"], kv_heads=int(s["kv_heads"]),
                             head_dim=int(s["head_dim"]), attn_tp=sglang.attention_tp(log.tp, log.dp, log.dp_attention),
                             mla_dim=int(s.get("mla_dim", 0)))


def _rebuilt_tokens(log) -> tuple[int, str]:
    """The rule's max_total_num_tokens for a log, and what it rests on."""
    p, page = log.parsed, int(log.shape["page_size"])
    if log.check == "tokens":
        free_at_start = p["free_after_gib"] + p["weights_gib"]
        tokens = sglang.profiled_tokens(p["free_after_gib"], free_at_start, log.mem_fraction_static, _cell(log))
        return sglang.max_total_num_tokens(tokens, page), "T and B as printed"
    if log.check == "budget":
        return sglang.max_total_num_tokens(int(p["available_kv_gib"] * GIB // _cell(log)), page), "budget as printed"
    if log.check == "weights":
        if "free_at_start_gib" in p:
            free_at_start, how = p["free_at_start_gib"], "T as printed, the book's weights"
        else:
            free_at_start = GPUS["h100-sxm"].visible / GIB - sglang.CONTEXT_GIB[2]
            how = "T estimated (CONTEXT_GIB), the book's weights"
        fraction = log.mem_fraction_static
        if fraction is None:
            fraction = sglang.default_mem_fraction_static(p["gpu_mem_mib"], log.rules, log.tp).mem_fraction_static
        weights = book_weights_gib(log.catalogue_id, log.tp, "h200" if "H200" in log.gpu else "h100-sxm")
        tokens = sglang.profiled_tokens(free_at_start - weights, free_at_start, fraction, _cell(log))
        return sglang.max_total_num_tokens(tokens, page), how
    raise ValueError(log.check)


def _error(log) -> float:
    rebuilt, _ = _rebuilt_tokens(log)
    return rebuilt / log.parsed["tokens"] - 1


REBUILT = [log for log in LOGS if log.check in ("tokens", "budget", "weights")]
REPRODUCIBLE = [log for log in REBUILT if not log.needs]
NEEDS_HARDWARE = [log for log in REBUILT if log.needs]


# --- the evidence itself --------------------------------------------------------------------------------


def test_at_least_ten_public_logs_each_with_url_release_model_gpu_and_layout():
    assert len(LOGS) >= 10
    for log in LOGS:
        assert log.url.startswith("https://github.com/"), log.id
        assert log.release and log.rules in sglang.RELEASES_READ, log.id
        assert log.model and log.gpu and log.tp >= 1 and log.gpus >= log.tp // max(1, log.dp), log.id
        assert log.lines, log.id
        if log.mem_fraction_static is None:
            assert log.fraction_source or log.check in ("kv-size",), log.id
        if log.needs:
            assert len(log.needs) > 20, log.id  # the reason is written out


def test_shapes_of_catalogue_models_are_the_catalogues():
    """Where the log names a model the book has, its cache shape is the published config's."""
    for log in LOGS:
        if log.catalogue_id and log.shape:
            shape = catalogue_shape(log.catalogue_id)
            assert (shape.kv_layers, shape.kv_heads, shape.head_dim) == (
                log.shape["layers"], log.shape["kv_heads"], log.shape["head_dim"]), log.id


def test_every_parsed_figure_is_in_a_quoted_line():
    """The numbers are read from the quoted lines, not typed from memory."""
    for log in LOGS:
        text = " ".join(log.lines)
        for key in ("free_after_gib", "weights_gib", "k_gib", "available_kv_gib", "free_at_start_gib"):
            if key in log.parsed:
                assert f"{log.parsed[key]:.2f}" in text, (log.id, key)
        if "tokens" in log.parsed:
            assert f"#tokens: {int(log.parsed['tokens'])}" in text, log.id


# --- the logs rebuilt ------------------------------------------------------------------------------------


@pytest.mark.parametrize("log", [log for log in LOGS if "k_gib" in log.parsed], ids=lambda log: log.id)
def test_k_and_v_sizes_from_the_token_count(log):
    """The pool holds tokens + page_size slots (slot 0 pads) of half a cell each, printed to 0.01 GiB."""
    k, v = sglang.kv_sizes_gib(int(log.parsed["tokens"]), _cell(log), int(log.shape["page_size"]))
    assert round(k, 2) == pytest.approx(log.parsed["k_gib"], abs=0.0051)
    assert round(v, 2) == pytest.approx(log.parsed["v_gib"], abs=0.0051)


@pytest.mark.parametrize("log", REPRODUCIBLE, ids=lambda log: log.id)
def test_max_total_num_tokens_within_2_percent(log):
    assert abs(_error(log)) <= 0.02, (log.id, _rebuilt_tokens(log), log.parsed["tokens"])


@pytest.mark.parametrize("log", NEEDS_HARDWARE, ids=lambda log: log.id)
def test_logs_that_need_a_hardware_measurement_are_listed_with_their_error(log):
    """Rebuilt with the estimate of T the module offers; the error is what the estimate costs."""
    assert "T" in log.needs or "free" in log.needs
    assert abs(_error(log)) <= 0.03, (log.id, _error(log))


def test_error_summary_median_and_worst():
    errors = {log.id: _error(log) for log in REBUILT}
    reproducible = [abs(errors[log.id]) for log in REPRODUCIBLE]
    everything = [abs(e) for e in errors.values()]
    assert len(reproducible) >= 3
    assert statistics.median(reproducible) <= 0.005 and max(reproducible) <= 0.02
    assert max(everything) <= 0.03  # the logs that need the hardware count as they come out


def test_budget_log_is_exact_with_dp_attention_and_128_token_pages():
    log = BY_ID["qwen3-vl-moe-npu-dp2"]
    assert _cell(log) == 4 * 128 * 48 * 2 * 2  # all 4 KV heads on each rank: attention TP = tp / dp = 1
    assert int(17.67 * GIB // _cell(log)) == 193_003
    assert _rebuilt_tokens(log)[0] == 192_896 == log.parsed["tokens"]


def test_capped_pool_is_the_cap_not_the_memory():
    log = BY_ID["qwen2-14b-tp2-capped"]
    p = log.parsed
    profiled = sglang.profiled_tokens(p["free_after_gib"], p["free_after_gib"] + p["weights_gib"],
                                      sglang.default_mem_fraction_static(40960, "0.4.3", 2).mem_fraction_static,
                                      _cell(log))
    assert profiled > 190_000
    assert sglang.max_total_num_tokens(profiled, 1, max_total_tokens=10240) == p["tokens"]


@pytest.mark.parametrize("log", [log for log in LOGS if log.check == "refusal"], ids=lambda log: log.id)
def test_refused_starts_are_refused(log):
    p = log.parsed
    fraction = log.mem_fraction_static
    if p.get("multimodal"):
        fraction *= sglang.multimodal_factor(log.rules, given=False)
    free_at_start = p["free_after_gib"] + p["weights_gib"]
    assert sglang.profiled_tokens(p["free_after_gib"], free_at_start, fraction, 1) <= 0
    if "minimum_fraction" in p:
        assert sglang.minimum_mem_fraction_static(p["free_after_gib"], free_at_start) == pytest.approx(
            p["minimum_fraction"], abs=0.0005)


def test_gemma3_refusal_is_decided_by_the_multimodal_factor():
    p = BY_ID["gemma3-27b-awq-4090-refused"].parsed
    free_at_start = p["free_after_gib"] + p["weights_gib"]
    assert sglang.profiled_tokens(p["free_after_gib"], free_at_start, 0.88, GIB) == 0  # 0.94 GiB: it would start
    assert p["free_after_gib"] - free_at_start * 0.12 == pytest.approx(0.945, abs=0.01)
    assert p["free_after_gib"] - free_at_start * (1 - 0.88 * 0.95) < 0


@pytest.mark.parametrize("case", DEFAULT_FRACTIONS, ids=lambda c: c.url.rsplit("/", 2)[-1])
def test_printed_default_fractions(case):
    gpu_mem = case.gpu_mem_mib or 81559  # any GPU of 25,000–81,920 MiB: the 0.4 table does not look further
    assert f"mem_fraction_static={case.printed}" in case.line
    assert sglang.default_mem_fraction_static(gpu_mem, case.release, case.tp).mem_fraction_static == pytest.approx(
        case.printed, abs=1e-9)


def test_0835_is_the_h100_and_no_other_gpu_listed():
    hits = [gpu for gpu, mib in sglang.NVIDIA_SMI_MIB.items()
            if sglang.default_mem_fraction_static(mib, "0.5.6", 1).mem_fraction_static == 0.835]
    assert hits == ["h100-sxm"]


# --- the rules, derived by hand from the source -----------------------------------------------------------


def test_fixed_table_of_0_4():
    table = {1: 0.88, 2: 0.87, 4: 0.85, 8: 0.81, 16: 0.79}
    for tp, fraction in table.items():
        assert sglang.default_mem_fraction_static(81559, "0.4.6.post1", tp).mem_fraction_static == fraction
    # above 81,920 MiB from 0.4.6: 13 GiB kept; 0.4.4 had no such branch
    assert sglang.default_mem_fraction_static(143771, "0.4.6", 8).mem_fraction_static == pytest.approx(
        (143771 - 13312) / 143771)
    assert sglang.default_mem_fraction_static(143771, "0.4.4.post1", 8).mem_fraction_static == 0.81


def test_rule_of_0_4_7():
    # the table by TP × PP: TP 2 × PP 2 is four GPUs
    assert sglang.default_mem_fraction_static(81559, "0.4.7", 2, pp=2).mem_fraction_static == 0.85
    # H200 (143,771 MiB > 96 GiB): min(0.88 + 48 GiB × 0.12 / gpu_mem, (gpu_mem − 18 GiB) / gpu_mem)
    assert sglang.default_mem_fraction_static(143771, "0.4.7", 8).mem_fraction_static == pytest.approx(
        min(0.88 + 48 * 1024 * 0.12 / 143771, (143771 - 18 * 1024) / 143771))
    assert sglang.default_mem_fraction_static(143771, "0.4.7", 8, speculative="EAGLE").mem_fraction_static == (
        pytest.approx((143771 - 20 * 1024) / 143771))
    # above 180,000 MiB (B200): 0.79; an 80 GB card with a draft: × 0.95
    assert sglang.default_mem_fraction_static(183359, "0.4.7", 8).mem_fraction_static == 0.79
    assert sglang.default_mem_fraction_static(81559, "0.4.7", 1, speculative="EAGLE").mem_fraction_static == (
        pytest.approx(0.88 * 0.95))


def test_gpu_class_rule_of_0_4_8_to_0_4_10():
    # H100 80GB, TP 1: (9.5 + 0.5) GiB kept
    assert sglang.default_mem_fraction_static(81559, "0.4.9.post2", 1).mem_fraction_static == round(
        (81559 - 10 * 1024) / 81559, 3)
    # H200, TP 8: (12 + 4) GiB; DP attention adds 4 GiB
    assert sglang.default_mem_fraction_static(143771, "0.4.8", 8).mem_fraction_static == round(
        (143771 - 16 * 1024) / 143771, 3)
    assert sglang.default_mem_fraction_static(143771, "0.4.8", 8, dp_attention=True, dp=8).reserved_mib == 20 * 1024
    # RTX 4090: (2.8 + 0.1) GiB
    assert sglang.default_mem_fraction_static(24564, "0.4.9", 1).mem_fraction_static == round(
        (24564 - 2.9 * 1024) / 24564, 3)


def test_reserved_rule_of_0_5():
    h200_tp8 = sglang.default_mem_fraction_static(143771, "0.5.3", 8)
    assert (h200_tp8.chunked_prefill_size, h200_tp8.cuda_graph_max_bs) == (8192, 512)
    assert h200_tp8.reserved_mib == 512 + 8192 * 1.5 + 512 * 2 + 1024
    assert h200_tp8.mem_fraction_static == 0.897
    # a 4090: chunked prefill 2,048, CUDA graphs to 16 (0.5.3) or 24 (0.5.6); under 60 GiB no 10 GiB floor
    assert sglang.default_mem_fraction_static(24564, "0.5.3", 1).reserved_mib == 512 + 2048 * 1.5 + 16 * 2 + 128
    assert sglang.default_mem_fraction_static(24564, "0.5.6", 1).reserved_mib == 512 + 2048 * 1.5 + 24 * 2 + 128
    # an H100 with a small footprint is lifted to the 10 GiB floor
    small = sglang.default_mem_fraction_static(81559, "0.5.6", 1, chunked_prefill_size=2048, cuda_graph_max_bs=8)
    assert small.reserved_mib == 10 * 1024
    # EAGLE adds 2 GiB, a STANDALONE draft 6, n-gram nothing
    base = sglang.default_mem_fraction_static(81559, "0.5.6", 1).reserved_mib
    assert sglang.default_mem_fraction_static(81559, "0.5.6", 1, speculative="EAGLE3").reserved_mib == base + 2048
    assert sglang.default_mem_fraction_static(81559, "0.5.6", 1, speculative="STANDALONE").reserved_mib == base + 6144
    assert sglang.default_mem_fraction_static(81559, "0.5.6", 1, speculative="NGRAM").reserved_mib == base
    # DP attention: 3 MiB (and 1.5 more above a batch of 300) per graph batch and DP rank
    dp = sglang.default_mem_fraction_static(143771, "0.5.6", 8, dp_attention=True, dp=8)
    assert dp.reserved_mib == 512 + 8192 * 1.5 + 512 * 2 + 1024 + 512 * 8 * 3 + 512 * 8 * 1.5


def test_memory_hook_rule_of_0_5_23_by_hand():
    """arg_groups/memory_hook.py: 512 + 1.5 × max(chunked, 2048) + tp·pp/8 GiB + the graphs' reserve
    (2 × decode max_bs, 8 MiB a prefill graph size or 1.5 GiB for MLA), the 10 GiB floor above 60 GiB."""
    # the prefill graph sizes up to 8,192: 4..32 by 4 (8), 48..256 by 16 (14), 288..512 by 32 (8),
    # 576..1024 by 64 (8), 1280..4096 by 256 (12), 4608..8192 by 512 (8)
    assert len(sglang.prefill_graph_sizes(8192)) == 8 + 14 + 8 + 8 + 12 + 8 == 58
    assert len(sglang.prefill_graph_sizes(4096)) == 50 and sglang.prefill_graph_sizes(4096)[-1] == 4096
    # H100 (81,559 MiB), TP 1, a GQA model: chunked 8,192, decode graphs to 256
    h100 = sglang.default_mem_fraction_static(81559, "0.5.23", 1)
    assert (h100.chunked_prefill_size, h100.cuda_graph_max_bs) == (8192, 256)
    assert h100.reserved_mib == 512 + 8192 * 1.5 + 128 + 256 * 2 + 58 * 8 == 13904
    assert h100.mem_fraction_static == round((81559 - 13904) / 81559, 3) == 0.830
    # RTX 4090 (24,564 MiB): chunked 4,096 and graphs to 48 from 0.5.23; no floor below 60 GiB
    rtx = sglang.default_mem_fraction_static(24564, "0.5.23", 1)
    assert (rtx.chunked_prefill_size, rtx.cuda_graph_max_bs) == (4096, 48)
    assert rtx.reserved_mib == 512 + 4096 * 1.5 + 128 + 48 * 2 + 50 * 8 == 7280
    assert rtx.mem_fraction_static == 0.704
    # H200 TP 8, MLA (DeepSeek-V3): 1.5 GiB for the prefill graph instead of 8 MiB a size
    mla = sglang.default_mem_fraction_static(143771, "0.5.23", 8, mla=True)
    assert mla.reserved_mib == 512 + 8192 * 1.5 + 1024 + 512 * 2 + 1536 == 16384
    assert mla.mem_fraction_static == round((143771 - 16384) / 143771, 3) == 0.886
    # ... with DP attention over 8: 3 + 1.5 MiB × 512 × 8 more (the graph batch is above 300)
    dp = sglang.default_mem_fraction_static(143771, "0.5.23", 8, mla=True, dp_attention=True, dp=8)
    assert dp.reserved_mib == 16384 + 512 * 8 * 3 + 512 * 8 * 1.5 == 34816
    assert dp.mem_fraction_static == 0.758 and dp.chunked_prefill_per_rank == 8192 // 8
    # DeepEP's all-to-all buffers: 2 GiB on top of the floor; no prefill graph under PP
    small = sglang.default_mem_fraction_static(81559, "0.5.23", 1, chunked_prefill_size=2048, cuda_graph_max_bs=8)
    assert small.reserved_mib == 10 * 1024
    assert sglang.default_mem_fraction_static(81559, "0.5.23", 1, chunked_prefill_size=2048, cuda_graph_max_bs=8,
                                              deepep=True).reserved_mib == 12 * 1024
    assert sglang.default_mem_fraction_static(143771, "0.5.23", 8, 2).reserved_mib == (
        512 + 8192 * 1.5 + 16 / 8 * 1024 + 512 * 2)
    # --max-running-requests below the graph batch lowers it; --max-total-tokens caps the prefill graph
    capped = sglang.default_mem_fraction_static(81559, "0.5.23", 1, max_running_requests=64, max_total_tokens=1024)
    assert capped.cuda_graph_max_bs == 64 and capped.reserved_mib == 512 + 8192 * 1.5 + 128 + 64 * 2 + 38 * 8


def test_dp_attention_rank_by_hand():
    """compute_dp_attention_world_info: attention TP = tp // dp; the chunk each DP rank prefills is divided
    after the fraction (0.5.6: 8,192 // 8 on an H200)."""
    d = sglang.default_mem_fraction_static(143771, "0.5.6", 8, dp_attention=True, dp=8)
    assert (d.chunked_prefill_size, d.chunked_prefill_per_rank) == (8192, 1024)
    assert d.mem_fraction_static == round((143771 - (512 + 8192 * 1.5 + 1024 + 1024 + 12288 + 6144)) / 143771, 3)
    assert d.mem_fraction_static == 0.769
    assert sglang.default_mem_fraction_static(143771, "0.5.6", 8).chunked_prefill_per_rank == 8192
    # Llama 3.1 70B (80 layers, 8 KV heads of 128), tp 8: dp 2 → attention TP 4, 2 heads a rank; dp 8 → all 8
    assert sglang.cell_bytes(layers=80, kv_dtype_bytes=2, kv_heads=8, head_dim=128,
                             attn_tp=sglang.attention_tp(8, 2, True)) == 2 * 128 * 80 * 2 * 2
    assert sglang.cell_bytes(layers=80, kv_dtype_bytes=2, kv_heads=8, head_dim=128,
                             attn_tp=sglang.attention_tp(8, 8, True)) == 8 * 128 * 80 * 2 * 2
    with pytest.raises(ValueError, match="divisible"):
        sglang.default_mem_fraction_static(143771, "0.5.6", 8, dp_attention=True, dp=3)


def test_mla_kv_size_under_dp_attention_log():
    """DeepSeek-V3 with DP attention (ranks DPi TPi: attention TP 1): every rank the whole latent,
    (kv_lora_rank 512 + rope 64) × 61 layers × bf16, (tokens + 1) slots."""
    log = BY_ID["dsv3-dp-attention-pd-decode"]
    cell = sglang.cell_bytes(layers=61, kv_dtype_bytes=2, mla_dim=512 + 64, attn_tp=1)
    assert cell == 70272 == _cell(log)
    kv, zero = sglang.kv_sizes_gib(161488, cell, 1, mla=True)
    assert zero == 0 and round(kv, 2) == log.parsed["kv_gib"] == 10.57


def test_releases_outside_what_was_read_are_refused():
    with pytest.raises(ValueError, match="0.4.3–0.5.23"):
        sglang.default_mem_fraction_static(81559, "0.6.0", 1)
    with pytest.raises(ValueError):
        sglang.default_mem_fraction_static(81559, "0.3.6", 1)
    model = catalogue_model("qwen3-14b")
    with pytest.raises(ValueError, match="not read"):
        sglang_token_pool.token_pool(model, 79.19, 1, "0.6.0", weight_gib_per_gpu=27.5, mem_fraction_static=0.9)


def test_multimodal_factor_by_release():
    assert sglang.multimodal_factor("0.4.4.post3", given=True) == 0.95  # applied to a given fraction too
    assert sglang.multimodal_factor("0.4.6", given=True) == 0.90
    assert sglang.multimodal_factor("0.4.9", given=True) == 1.0  # only the automatic fraction from 0.4.9
    assert sglang.multimodal_factor("0.4.9", given=False) == 0.90
    # 0.5: 0.95 × (1 − 0.1 × (complexity ratio − 1)), clamped to [0.8, 1.05]; a ViT-L/14 is the baseline
    assert sglang.multimodal_factor("0.5.6", given=False) == pytest.approx(0.95)
    assert sglang.multimodal_factor("0.5.6", given=False, vit_layers=27, vit_hidden=1152) == pytest.approx(
        0.95 * (1 - 0.1 * (27 * 1152 ** 2 / (24 * 1024 ** 2) - 1)))
    assert sglang.multimodal_factor("0.5.6", given=False, vit_layers=64, vit_hidden=2048) == pytest.approx(0.95 * 0.8)


def test_cell_gqa_mla_and_attention_tp():
    # GQA: heads split by TP, at least one a rank (replicated beyond the KV head count)
    assert sglang.cell_bytes(layers=32, kv_dtype_bytes=2, kv_heads=8, head_dim=128, attn_tp=1) == 131072
    assert sglang.cell_bytes(layers=32, kv_dtype_bytes=2, kv_heads=8, head_dim=128, attn_tp=16) == 131072 // 8
    # MLA: one latent of 512 + 64 a layer, not split
    assert sglang.cell_bytes(layers=61, kv_dtype_bytes=2, mla_dim=576, attn_tp=8) == 576 * 61 * 2
    assert sglang.attention_tp(8, 8, True) == 1 and sglang.attention_tp(8, 2, True) == 4 and sglang.attention_tp(8) == 8
    with pytest.raises(ValueError):
        sglang.attention_tp(8, 3, True)


def test_model_cell_bytes_goes_through_the_books_kv_helpers():
    qwen = catalogue_model("qwen3-14b")
    assert sglang.model_cell_bytes(qwen) == 40 * 8 * 128 * 2 * 2
    assert sglang.model_cell_bytes(qwen, "fp8_e4m3", attn_tp=2) == 40 * 4 * 128 * 2
    deepseek = catalogue_model("deepseek-v3")
    assert sglang.model_cell_bytes(deepseek, attn_tp=8) == 61 * 576 * 2
    # windowed layers count as full ones in profile_max_num_token's cell (62 layers × 16 × 128, K and V, bf16)
    assert sglang.model_cell_bytes(catalogue_model("gemma-3-27b")) == 62 * 16 * 128 * 2 * 2
    with pytest.raises(ValueError, match="shapes"):
        sglang.model_cell_bytes(catalogue_model("gemma-4-31b-nvfp4"))


# --- sliding-window layers: SGLang's SWA pool ---------------------------------------------------------------


def test_nsa_cell_by_hand():
    """0.5.6 profile_max_num_token: the MLA latent (512 + 64, bf16) plus the indexer's FP8 key of 128 and one
    fp32 scale a 128-block (uint8: 128 + 4 bytes), 61 layers; FP8 KV: one byte a latent value."""
    v32 = catalogue_model("deepseek-v3.2")
    assert sglang.model_cell_bytes(v32, release="0.5.6") == 61 * ((512 + 64) * 2 + 128 + 4) == 78324
    assert sglang.model_cell_bytes(v32, "fp8_e4m3", release="0.5.6") == 61 * (576 + 132)
    with pytest.raises(ValueError, match="NSA"):
        sglang.model_cell_bytes(v32, release="0.5.3")  # 0.5.3's profile leaves the indexer out: not modelled
    t, w = 137.3, 85.0
    pool = sglang_token_pool.token_pool(v32, 0.0, 8, "0.5.6", weight_gib_per_gpu=w, mem_fraction_static=0.85,
                             free_at_start_gib=t, model_type="deepseek_v32")
    with pytest.raises(ValueError, match="glm_moe_dsa"):  # GLM-5's DSA is not is_deepseek_nsa in 0.5.6
        sglang_token_pool.token_pool(catalogue_model("glm-5"), 0.0, 8, "0.5.6", weight_gib_per_gpu=w, mem_fraction_static=0.85,
                          free_at_start_gib=t, model_type="glm_moe_dsa")
    tokens = int(((t - w) - t * 0.15) * GIB // 78324) // 64 * 64  # page 64, set by server_args for NSA
    assert pool.max_total_num_tokens == tokens and pool.page_size == 64
    latent = (tokens + 64) * 576 * 2
    indexer = (tokens + 65) // 64 * 64 * 132
    assert pool.k_size_gib == pytest.approx(61 * (latent + indexer) / GIB) and pool.v_size_gib == 0


def test_page_rounding_and_cap():
    assert sglang.max_total_num_tokens(193_003, 128) == 192_896
    assert sglang.max_total_num_tokens(193_003, 1, max_total_tokens=8192) == 8192
    assert sglang.max_total_num_tokens(100, 64, max_total_tokens=50) == 0
