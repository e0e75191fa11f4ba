"""The chapter's prose figures, each tied to the calculator (or data module) that reproduces it.

Every case names a page, a substring quoted from its Markdown that contains the figure, and how to
reproduce the figure: a calculator id, a preset and/or overrides, an output name, and either the
exact formatted text (``Result.text``) or a raw value with a tolerance (``Result.values``). A few
figures are derived from outputs (a ratio, a difference); those cases give a ``derive`` function
over the result's raw values. The test asserts both that the quote is still on the page (so prose
and test stay in sync) and that the calculator still produces the number.

Quotes are matched with whitespace collapsed (a quote may span a line break in the Markdown).

Figures deliberately NOT checked here, because they are citations of external measurements or
publication metadata rather than something a calculator computes: paper years; the vLLM paper's
20.4%–38.2% and 96.3% KV utilization and its 2–4× throughput; speculative decoding's "2–3×" in
practice; GPTQ/AWQ "about 1%" quality loss; LLM.int8()'s 6.7B threshold and 99.9%; the cache
discounts "10%" and "25–50%"; DeepSeek-R1 / Llama 3 sampling defaults; the CTRL θ ≈ 1.2; the
study time on the index page. Datasheet figures (989 TFLOP/s, 3.35 TB/s, the GPU table) are
checked against ``llm_inference/hardware.py`` instead.
"""

from __future__ import annotations

import math
import pathlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import pytest

import course_calculators
from llm_inference import sampling, speculative_decoding, unit_economics
from llm_inference.engines import vllm
from llm_inference.engines import hybrid_logs, vllm_hybrid, vllm_kv_dtypes, weight_logs
from llm_inference.engines.startup_logs import BY_ID
from llm_inference.hardware import DTYPES, GPUS
from llm_inference.physics import measured
from course_calculators.plugin import figures
from course_calculators.units import GiB, KiB

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs"

TWO = "inference/two-phases.md"
KV = "inference/kv-cache.md"
PAGED = "inference/paged-attention.md"
QUANT = "inference/quantization.md"
SPEC = "inference/speculative-decoding.md"
SAMP = "inference/sampling.md"
ECON = "inference/unit-economics.md"
SUMM = "inference/summary.md"
INDEX = "index.md"


@dataclass(frozen=True)
class Case:
    page: str
    quote: str
    calc: str | None  # calculator id, or None for a figure from a data module / module function
    output: str | None = None  # output name (compared via .text or .values)
    preset: str | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)
    text: str | None = None  # expected formatted text, exact
    value: float | None = None  # expected raw value (after ``derive``, if any)
    rel: float = 0.0  # relative tolerance on ``value``
    derive: Callable[[Mapping[str, Any]], Any] | None = None  # from Result.values (or None) to a number/bool
    note: str = ""

    @property
    def id(self) -> str:
        return f"{self.page}::{self.quote[:40]}"


def C(page, quote, calc, output=None, preset=None, text=None, value=None, rel=0.0, derive=None, **overrides):
    return Case(page, quote, calc, output, preset, overrides, text, value, rel, derive)


def F(page, quote, fn, value, rel=0.0):
    """A figure computed by a module function or read from a data module (no calculator run)."""
    return Case(page, quote, None, None, None, {}, None, value, rel, lambda _v: fn())


def _shape(model_id: str):
    from llm_inference.models import catalogue_shape
    return catalogue_shape(model_id)


def _qwen36_log():
    """The club-3090 #612 log and the layout the calculators' rules give it."""
    from tests.unit.llm_inference.engines.test_hybrid_logs import cache_of
    log = hybrid_logs.HYBRID_LOGS[0]
    return log, cache_of(log)


def _qwen3_next_layout():
    from tests.unit.llm_inference.test_kv_cache import _cache_of_run
    calc = course_calculators.get("kv-cache")
    return _cache_of_run(calc.run(calc.preset("qwen3-next-hybrid").values))


_QNEXT = "qwen3-next-hybrid"
_DSV32 = "deepseek-v32-dcp"

_70B = "h100-70b-bf16"


def _prefill_share(point_id: str) -> float:
    return next(j.share for j in measured.judged_prefill() if j.point.id == point_id)
_8B = "llama3-8b"

CASES = [
    # ---------------------------------------------------------------- two-phases.md
    F(TWO, "with 989 TFLOP/s of dense bf16 compute", lambda: GPUS["h100-sxm"].bf16_flops, 989e12),
    F(TWO, "3.35 TB/s of bandwidth", lambda: GPUS["h100-sxm"].bandwidth, 3.35e12),
    C(TWO, "the ridge sits at $989 / 3.35 \\approx 295$ FLOP per byte", "decode-roofline", "ridge_point",
      preset=_70B, text="295"),
    C(TWO, "Intensity is about 1 FLOP per byte, some three hundred times below", "decode-roofline",
      "arithmetic_intensity", preset=_70B, value=1.0, rel=0.01),
    C(TWO, "70 billion parameters × 2 bytes = 140 GB", "decode-roofline", "weight_bytes",
      preset=_70B, value=140e9, rel=1e-9),
    C(TWO, "\\approx 24\\ \\text{tokens/s}", "decode-roofline", "tokens_per_s", preset=_70B,
      value=24, rel=0.02),
    C(TWO, "About 24 tokens per second, for one stream", "decode-roofline", "tokens_per_s", preset=_70B,
      text="23.9 tokens/s"),
    C(TWO, "140 GB of bf16 weights do not fit into the 80 GB of a single H100", "decode-roofline", "fits",
      preset=_70B, text="does not fit"),
    C(TWO, "2 × 24 ≈ 48 tokens/s", "decode-roofline", "tokens_per_s", preset="h100-70b-bf16-tp2",
      value=48, rel=0.01),
    C(TWO, "vLLM may use 92% of the 79.2 GiB each card's driver shows, 72.9 GiB", "decode-roofline",
      preset="h100-70b-bf16-tp2", derive=lambda v: (round(v["usable_bytes"] / 2 / GiB, 1),
                                                    round(GPUS["h100-sxm"].visible / GiB, 1)), value=(72.9, 79.2)),
    C(TWO, "65.2 GiB of it holds the card's half of the weights", "decode-roofline", preset="h100-70b-bf16-tp2",
      derive=lambda v: round(v["weight_bytes"] / 2 / GiB, 1), value=65.2),
    C(TWO, "4.9 GiB the activation peak of the profiling run", "decode-roofline", preset="h100-70b-bf16-tp2",
      derive=lambda v: round(v["activation_bytes"] / GiB, 1), value=4.9),
    C(TWO, "about 2.4 GiB per card for the KV cache", "decode-roofline", preset="h100-70b-bf16-tp2",
      derive=lambda v: round(v["kv_cache_memory"] / GiB, 1), value=2.4),
    C(TWO, "some 16,000 tokens at Llama 3 70B's 320 KiB per token, 160 KiB on each card", "decode-roofline",
      preset="h100-70b-bf16-tp2", derive=lambda v: (round(v["kv_cache_tokens"], -2), v["bytes_per_gpu"] > 0),
      value=(16_000, True)),
    C(TWO, "160 times per step at about 6 µs each", "decode-roofline", preset="h100-70b-bf16-tp2",
      derive=lambda v: v["allreduce_s"] / 160, value=6e-6, rel=0.02),
    C(TWO, "the estimate falls to about 46 tokens/s", "decode-roofline", "estimate_tokens_per_s",
      preset="h100-70b-bf16-tp2", value=46, rel=0.01),
    C(TWO, "Llama 3 70B's 320 KiB per token", "decode-roofline", "kv_bytes_per_token", preset=_70B,
      text="320 KiB"),
    C(TWO, "about 0.14 s at the H100's dense peak", "decode-roofline", "ttft_s", preset=_70B,
      value=0.14, rel=0.02, prompt_tokens=1000),
    C(TWO, "that is $1.4 \\times 10^{14}$", "decode-roofline", "ttft_s", preset=_70B, prompt_tokens=1000,
      derive=lambda v: v["ttft_s"] * GPUS["h100-sxm"].bf16_flops, value=1.4e14, rel=0.02),
    C(TWO, "$4.8 / 3.35 \\approx 1.43$ times higher", "decode-roofline", preset=_70B, gpu="h200",
      derive=lambda v: v["tokens_per_s"] / course_calculators.get("decode-roofline").run(
          course_calculators.get("decode-roofline").preset(_70B).values).values["tokens_per_s"],
      value=1.43, rel=0.005),
    F(TWO, "Many spec sheets quote 1,979 TFLOP/s for the H100's bf16",
      lambda: "BF16 1,979 TFLOPS" in GPUS["h100-sxm"].source and 2 * GPUS["h100-sxm"].bf16_flops <= 1979e12 * 1.001,
      True),
    # (fp8 with block scales, the embedding, LM head and routers in bf16: a byte per parameter, 1 % more)
    C(TWO, "DeepSeek-V3 has 671B parameters in total", "decode-roofline", "weight_bytes",
      preset="deepseek-v3-moe", derive=lambda v: v["weight_bytes"] / DTYPES["fp8"] / 1e9, value=671, rel=0.01),
    C(TWO, "a token touches about\n37B of them", "decode-roofline", "streamed_weight_bytes",
      preset="deepseek-v3-moe", derive=lambda v: v["streamed_weight_bytes"] / DTYPES["fp8"] / 1e9,
      value=37, rel=0.06),
    C(TWO, "The per-stream speed sits near the 24 tokens/s computed above", "decode-roofline", "bound",
      preset=_70B, text="memory"),
    C(TWO, "roughly doubles, to about 48 tokens/s", "decode-roofline", "tokens_per_s",
      preset="h100-70b-bf16-tp2", text="47.7 tokens/s"),
    C(TWO, "2.4 GiB per card left for the KV cache", "decode-roofline", preset="h100-70b-bf16-tp2",
      derive=lambda v: round(v["kv_cache_memory"] / GiB, 1), value=2.4),
    C(TWO, "the 160 all-reduces of each step: about 46 tokens/s", "decode-roofline", "estimate_tokens_per_s",
      preset="h100-70b-bf16-tp2", value=46, rel=0.01),
    C(TWO, "8 of DeepSeek-V3's 256 for one token", "decode-roofline", "experts_touched", preset="deepseek-v3-moe",
      value=8, rel=1e-9),
    C(TWO, "about 57 for a batch of 8", "decode-roofline", "experts_touched", preset="deepseek-v3-batch-64",
      batch=8, value=57, rel=0.01),
    C(TWO, "222 for a batch of 64", "decode-roofline", "experts_touched", preset="deepseek-v3-batch-64", text="222"),
    C(TWO, "a step streams 549 GiB, most of the model", "decode-roofline", "streamed_weight_bytes",
      preset="deepseek-v3-batch-64", text="549 GiB"),
    C(TWO, "64 tokens touch 222 experts per layer", "decode-roofline", "experts_touched",
      preset="deepseek-v3-batch-64", text="222"),
    # ---- practice below the ceiling: each measurement judged by the same physics
    F(TWO, "fourteen published decode measurements", lambda: len(measured.judged()), 14),
    *[
        F(TWO, quote, (lambda pid=pid: round(measured.judge(next(
            p for p in measured.DECODE_POINTS if p.id == pid)).share, 2)), share)
        for quote, pid, share in (
            ("LLaMA 7B at 77% of the ceiling on an H100", "trtllm-llama2-7b-fp8-h100-b48", 0.77),
            ("78% on an A100", "trtllm-llama2-7b-fp16-a100-b60", 0.78),
            ("76% on an L40S", "trtllm-llama2-7b-fp8-l40s-b64", 0.76),
            ("A B200 at batch 1 reached only 47%", "vllm-nemotron-super-49b-fp8-b200-c1", 0.47),
            ("3% of a 0.71 ms ceiling", "sglang-dsr1-fp8-16xh100-c1", 0.03),
            ("eight H200s reached 48% of its ceiling", "sglang-dsr1-fp8-8xh200-tp8-c64-1k1k", 0.48),
        )
    ],
    C(TWO, "at 18.58 ms between tokens, 60% of the 11.1 ms ceiling", "decode-roofline", preset="nim-70b-fp8-tp2",
      derive=lambda v: (v["measured"].split(": ")[1].split(" per")[0], round(v["measured_share"], 2),
                        round(v["step_time_s"] * 1e3, 1)), value=("18.58 ms", 0.60, 11.1)),
    C(TWO, "at about 6 µs each they cost about 1 ms", "decode-roofline", "allreduce_s", preset="nim-70b-fp8-tp2",
      value=1e-3, rel=0.05),
    F(TWO, "on 16 H100s across two nodes at 23.2 ms per token",
      lambda: next(p.step_ms for p in measured.DECODE_POINTS if p.id == "sglang-dsr1-fp8-16xh100-c1"), 23.2),
    F(TWO, "3% of a 0.71 ms ceiling", lambda: round(next(
        j.ceiling_ms for j in measured.judged() if j.point.id == "sglang-dsr1-fp8-16xh100-c1"), 2), 0.71),
    C(TWO, "the presets **`batch-64`** and\n  **`batch-512`**", "decode-roofline", "bound", preset="batch-512",
      text="compute"),
    C(TWO, "streams only the 37B active ones", "decode-roofline", "streamed_weight_bytes",
      preset="deepseek-v3-moe", text="36.2 GiB"),
    # The times to first token of "Practice below the ceiling": measurements.py through physics.measured.
    F(TWO, "sixteen published\ntimes to first token", lambda: len(measured.PREFILL_POINTS), 16),
    *[
        F(TWO, quote, (lambda ids=ids: tuple(round(_prefill_share(i), 2) for i in ids)), shares)
        for quote, ids, shares in (
            ("reached 29% of it for a 128-token prompt on an H100 and 39% for\n2,048 tokens",
             ("trtllm-llama2-7b-fp8-h100-sxm-tp1-128", "trtllm-llama2-7b-fp8-h100-sxm-tp1-2048"), (0.29, 0.39)),
            ("NVIDIA NIM: 44% for Llama 3.3 70B and 5,000 tokens on\ntwo H100s",
             ("nim-llama33-70b-fp8-tp2-c1-5000",), (0.44,)),
            ("vLLM 0.16.0: 27% for Nemotron Super 49B on a B200", ("vllm-nemotron-super-49b-fp8-b200-c1-2048",),
             (0.27,)),
        )
    ],
    # GPU table of two-phases.md: hardware.py, not a calculator.
    *[
        F(TWO, row, (lambda g=g, bw=bw, fl=fl: (GPUS[g].bandwidth, GPUS[g].bf16_flops)), (bw, fl))
        for row, g, bw, fl in (
            ("| H100 SXM | 80 GB | 3.35 TB/s | 989 TFLOP/s |", "h100-sxm", 3.35e12, 989e12),
            ("| H100 PCIe | 80 GB | 2.0 TB/s | 756 TFLOP/s |", "h100-pcie", 2.0e12, 756e12),
            ("| H200 | 141 GB | 4.8 TB/s | 989 TFLOP/s |", "h200", 4.8e12, 989e12),
            ("| A100 80GB SXM | 80 GB | 2.039 TB/s | 312 TFLOP/s |", "a100-80g", 2.039e12, 312e12),
            ("| A100 40GB | 40 GB | 1.555 TB/s | 312 TFLOP/s |", "a100-40g", 1.555e12, 312e12),
            ("| L40S | 48 GB | 0.864 TB/s | 362 TFLOP/s |", "l40s", 0.864e12, 362e12),
            ("| RTX 4090 | 24 GB | 1.008 TB/s | 165 TFLOP/s (fp32 accumulate) |", "rtx-4090", 1.008e12, 165e12),
            ("| B200 | 180 GB | 8 TB/s | 2,250 TFLOP/s |", "b200", 8e12, 2250e12),
            ("| MI300X | 192 GB | 5.3 TB/s | about 1,307 TFLOP/s |", "mi300x", 5.3e12, 1307e12),
        )
    ],
    # ---------------------------------------------------------------- kv-cache.md
    C(KV, "= 131{,}072 \\ \\text{bytes} = 128\\ \\text{KiB per token}", "kv-cache", "kv_bytes_per_token",
      preset=_8B, value=131072),
    C(KV, "8,192 × 128 KiB = **1 GiB**", "kv-cache", "kv_bytes_per_sequence", preset=_8B, text="1 GiB"),
    C(KV, "one sequence at 128K context (131,072 tokens): **16 GiB**", "kv-cache", "kv_bytes_per_sequence",
      preset="llama3-8b-128k", text="16 GiB"),
    C(KV, "8B parameters × 2 bytes ≈ 16 GB — 8.03B parameters exactly, 14.96 GiB", "kv-cache", preset=_8B,
      derive=lambda v: (round(v["weight_bytes"] / GiB, 2), round(v["weight_bytes"] / 2e9, 2)), value=(14.96, 8.03)),
    C(KV, "needs *more memory for its cache\nthan the model needs for its weights*", "kv-cache",
      preset="llama3-8b-128k", derive=lambda v: v["kv_bytes_per_sequence"] > v["weight_bytes"], value=True),
    C(KV, "it may use 92% of the 79.2 GiB the driver shows, 72.9 GiB", "kv-cache", "usable_bytes", preset=_8B,
      text="72.9 GiB"),
    C(KV, "the 4.83 GiB activation peak of its startup profiling", "kv-cache", "activation_bytes", preset=_8B,
      text="4.83 GiB"),
    C(KV, "52.6 GiB are left for the cache", "kv-cache", "kv_cache_memory", preset=_8B, text="52.6 GiB"),
    C(KV, "room for 52 sequences at 8K context", "kv-cache", "max_sequences", preset=_8B, text="52"),
    C(KV, "or just 3 at 128K", "kv-cache", "max_sequences", preset="llama3-8b-128k", text="3"),
    C(KV, "the worked example: 128 KiB per token", "kv-cache", "kv_bytes_per_token", preset=_8B,
      text="128 KiB"),
    C(KV, "16 GiB of cache for\n  one sequence", "kv-cache", "kv_bytes_per_sequence",
      preset="llama3-8b-128k", text="16 GiB"),
    C(KV, "4.5 MiB per token, 36 times the 8B model's figure", "kv-cache", "kv_bytes_per_token",
      preset="gpt3-mha", text="4.5 MiB"),
    C(KV, "36 times the 8B model's figure", "kv-cache", preset="gpt3-mha",
      derive=lambda v: v["kv_bytes_per_token"] / (128 * KiB), value=36),
    C(KV, "with 80 layers: 320 KiB per token", "kv-cache", "kv_bytes_per_token", preset="llama3-70b",
      text="320 KiB"),
    C(KV, "weights that need two 80 GB GPUs before any cache is stored", "decode-roofline", "gpus_needed",
      preset=_70B, text="2"),
    C(KV, "128K context: about 68.6 KiB per token", "kv-cache", "kv_bytes_per_token",
      preset="deepseek-v3-mla", text="68.6 KiB"),
    C(KV, "about 8.6 GiB for the\n  whole 128K-token sequence", "kv-cache", "kv_bytes_per_sequence",
      preset="deepseek-v3-mla", value=8.6 * GiB, rel=0.005),
    C(KV, "less than the 8B model's cache even\n  though the model is nearly a hundred times larger",
      "kv-cache", preset="deepseek-v3-mla",
      derive=lambda v: v["kv_bytes_per_token"] < 128 * KiB and 80 < v["weight_bytes"] / DTYPES["fp8"] / 8e9 < 100,
      value=True),
    C(KV, "= 4{,}718{,}592\\ \\text{bytes} = 4.5\\ \\text{MiB per token}", "kv-cache", "kv_bytes_per_token",
      preset="gpt3-mha", value=4_718_592),
    C(KV, "one 8K-token sequence needs 36 GiB of cache", "kv-cache", "kv_bytes_per_sequence",
      preset="gpt3-mha", text="36 GiB"),
    C(KV, "Plugging 32 into the\n    formula overstates its cache four times", "kv-cache", preset=_8B,
      model="custom", kv_heads=32, derive=lambda v: v["kv_bytes_per_token"] / (128 * KiB), value=4),
    C(KV, "= 70{,}272\\ \\text{bytes} \\approx 68.6\\ \\text{KiB}", "kv-cache", "kv_bytes_per_token",
      preset="deepseek-v3-mla", value=70272),
    C(KV, "Llama 3.1 405B with GQA needs 504 KiB per token, over seven\ntimes as much", "kv-cache",
      preset=_8B, model="llama-3.1-405b",
      derive=lambda v: v["kv_bytes_per_token"] == 504 * KiB and 7 < v["kv_bytes_per_token"] / 70272 < 8,
      value=True),
    C(KV, "an MHA model of DeepSeek-V3's shape would need roughly\nseventy times as much", "kv-cache",
      preset="deepseek-v3-as-gqa", derive=lambda v: v["kv_bytes_per_token"] / 70272, value=70, rel=0.03),
    C(KV, "gives about 4.77 MiB\n    per token", "kv-cache", "kv_bytes_per_token", preset="deepseek-v3-as-gqa",
      text="4.77 MiB"),
    C(KV, "overstates the real cache about 70 times", "kv-cache", preset="deepseek-v3-as-gqa",
      derive=lambda v: v["kv_bytes_per_token"] / 70272, value=70, rel=0.03),
    C(KV, "4,096 × 128 KiB = 512 MiB however long", "kv-cache", "kv_bytes_per_sequence",
      preset="mistral-7b-swa", text="512 MiB"),
    C(KV, "| Llama 3.1 8B | 32 | 8 | 128 | 128 KiB |", "kv-cache", "kv_bytes_per_token", preset=_8B,
      text="128 KiB"),
    C(KV, "| Llama 3.1 70B | 80 | 8 | 128 | 320 KiB |", "kv-cache", "kv_bytes_per_token", preset=_8B,
      model="llama-3.1-70b", text="320 KiB"),
    C(KV, "| Llama 3.1 405B | 126 | 8 | 128 | 504 KiB |", "kv-cache", "kv_bytes_per_token", preset=_8B,
      model="llama-3.1-405b", text="504 KiB"),
    C(KV, "| Mistral 7B / Mixtral 8x7B | 32 | 8 | 128 | 128 KiB |", "kv-cache", "kv_bytes_per_token",
      preset="mistral-7b-swa", text="128 KiB"),
    C(KV, "| GPT-3 175B (MHA) | 96 | 96 | 128 | 4.5 MiB |", "kv-cache", "kv_bytes_per_token",
      preset="gpt3-mha", text="4.5 MiB"),
    C(KV, "| DeepSeek-V3 (MLA, 61 layers) | — | — | — | 68.6 KiB |", "kv-cache", "kv_bytes_per_token",
      preset="deepseek-v3-mla", text="68.6 KiB"),
    C(KV, "model weights: **14.96 GiB** — the 8B parameters (8.03B, to be exact)", "kv-cache",
      "weight_bytes", preset=_8B, derive=lambda v: round(v["weight_bytes"] / GiB, 2), value=14.96),
    # ---- memory as the engine places it
    F(KV, "an H100 \"80 GB\" shows 79.19 GiB", lambda: GPUS["h100-sxm"].visible / GiB, 79.19, rel=1e-9),
    F(KV, "0.9 by\ndefault up to release 0.19, 0.92 from 0.20",
      lambda: (vllm.default_gpu_memory_utilization("0.19.1"), vllm.default_gpu_memory_utilization("0.20.0")),
      (0.9, 0.92)),
    C(KV, "Llama 3.1 8B's 128,256-token vocabulary takes 4.83 GiB", "kv-cache", "activation_bytes", preset=_8B,
      text="4.83 GiB"),
    C(KV, "vLLM's estimate of its CUDA graphs — takes 512 MiB on one H100",
      "kv-cache", "runtime_bytes", preset=_8B, text="512 MiB"),
    C(KV, "gets 54.5 GiB of KV cache under 0.18's rules", "kv-cache",
      "kv_cache_memory", model="llama-3.1-8b", vllm_version="0.18.0", text="54.5 GiB"),
    C(KV, "0.18's rules and 55.2 GiB under 0.20's", "kv-cache",
      "kv_cache_memory", model="llama-3.1-8b", vllm_version="0.20.0", text="55.2 GiB"),
    C(KV, "the runtime grows to 1.05 GiB", "kv-cache",
      "runtime_bytes", model="llama-3.1-8b", vllm_version="0.20.0", text="1.05 GiB"),
    C(KV, "gets 55.2 GiB\n  under 0.22", "kv-cache",
      "kv_cache_memory", model="llama-3.1-8b", vllm_version="0.22.0", text="55.2 GiB"),
    C(KV, "52.9 GiB\n  under 0.26", "kv-cache",
      "kv_cache_memory", model="llama-3.1-8b", vllm_version="0.26.0", text="52.9 GiB"),
    C(KV, "and 52.6 GiB under the newest", "kv-cache", "kv_cache_memory", model="llama-3.1-8b", text="52.6 GiB"),
    C(KV, "the peak falls to 1.69 GiB", "kv-cache", "activation_bytes", model="llama-3.1-8b",
      vllm_version="0.17.0", text="1.69 GiB"),
    C(KV, "the runtime is 666 MiB there", "kv-cache",
      "runtime_bytes", model="llama-3.1-8b", vllm_version="0.8.5", text="666 MiB"),
    C(KV, "there, 154 MiB from 0.9.1", "kv-cache",
      "runtime_bytes", model="llama-3.1-8b", vllm_version="0.18.0", text="154 MiB"),
    C(KV, "activation peak is 1.29 GiB in the image", "kv-cache", "activation_bytes", model="llama-3.1-8b",
      vllm_version="0.9.1", vllm_install="docker", text="1.29 GiB"),
    C(KV, "in the image, 4.83 GiB from pip", "kv-cache",
      "activation_bytes", model="llama-3.1-8b", vllm_version="0.9.1", text="4.83 GiB"),
    C(KV, "Gemma 3 4B at 128K held 3.15× sequences", "kv-cache", "max_concurrency", model="gemma-3-4b", context=131072,
      vllm_version="0.8.5", text="3.15×"),
    C(KV, "against 15.21× with the hybrid allocator", "kv-cache", "max_concurrency", model="gemma-3-4b", context=131072,
      vllm_version="0.9.1", text="15.21×"),
    C(KV, "printed as 458,464 tokens by 0.20", "kv-cache", "kv_cache_tokens", model="gemma-3-4b",
      context=131072, vllm_version="0.20.0", text="458,464"),
    C(KV, "and 2,255,914 by 0.21", "kv-cache", "kv_cache_tokens", model="gemma-3-4b",
      context=131072, vllm_version="0.21.0", text="2,255,914"),
    C(KV, "on two GPUs each caches 4 of Llama 3 70B's 8", "kv-cache", preset="llama3-70b",
      derive=lambda v: v["kv_bytes_per_token_per_gpu"] / v["kv_bytes_per_token"], value=0.5),
    C(KV, "on 16 GPUs each of the 8 heads is stored twice, and every GPU still caches 40 KiB per token",
      "kv-cache", preset="llama3-70b-tp16", derive=lambda v: (v["kv_replicas"], v["kv_bytes_per_token_per_gpu"]),
      value=(2, 40 * KiB)),
    C(KV, "fits 4 sequences, not the 45", "kv-cache", preset="deepseek-v3-mla",
      derive=lambda v: (v["max_sequences"], (8 * 141 * GiB * 0.9 - v["weight_bytes"]) // v["kv_bytes_per_sequence"]),
      value=(4, 45)),
    C(KV, "24 sequences fit (the preset **`deepseek-v3-dp8`**)", "kv-cache", "max_sequences", preset="deepseek-v3-dp8",
      text="24"),
    F(KV, "20.43× maximum\nconcurrency with tensor parallelism, 156.9× with data-parallel attention",
      lambda: (BY_ID["dsv4-flash-tp8-vs-dp8-b200"].parsed["concurrency_tp8"],
               BY_ID["dsv4-flash-tp8-vs-dp8-b200"].parsed["concurrency_dp8"]), (20.43, 156.9)),
    C(KV, "Qwen2.5 7B (28 heads, 4 KV heads) runs on 1, 2 or 4 GPUs", "kv-cache", "legal_gpus", preset=_8B,
      model="qwen2.5-7b", text="1, 2, 4"),
    F(KV, "12,304 token slots per request up to vLLM 0.25", lambda: vllm.sliding_window_tokens(4096, 8192, 16), 12304),
    F(KV, "20,496 slots", lambda: vllm.sliding_window_tokens(4096, vllm.in_flight_tokens(8192, "0.26.0"), 16),
      20496),
    C(KV, "at 32K context one H100 holds 23\nsequences", "kv-cache", "max_sequences", preset="mistral-7b-swa",
      text="23"),
    C(KV, "stores\n656 bytes per token and layer", "kv-cache", preset="deepseek-v3-mla", kv_dtype="fp8_ds_mla",
      derive=lambda v: v["kv_bytes_per_token"] / 61, value=656),
    F(KV, "logged \"Available KV cache memory:\n56.21 GiB\", \"GPU KV cache size: 460,496 tokens\"",
      lambda: (BY_ID["llama31-8b-a100-v031"].parsed["available_gib"], BY_ID["llama31-8b-a100-v031"].parsed["kv_tokens"]),
      (56.21, 460496)),
    C(KV, "gives 56.24 GiB, 460,752 tokens and 3.52×", "kv-cache", preset=_8B, gpu="a100-80g", context=131072,
      derive=lambda v: (round(v["kv_cache_memory"] / GiB, 2), v["kv_cache_tokens"], round(v["max_concurrency"], 2)),
      value=(56.24, 460752, 3.52)),
    C(KV, "one\n8K sequence needs 1 GiB, so 11.12 GiB of cache holds 11.12 such sequences", "kv-cache",
      preset=_8B, derive=lambda v: 11.12 * GiB / v["kv_bytes_per_sequence"], value=11.12, rel=1e-9),
    # ---- layers without a KV cache, hybrid pools, the indexer and DCP, the layouts
    F(KV, "$C = 2 \\times 16 \\times 128\n+ 32 \\times 128 = 8{,}192$ channels of width 4 and 32 value heads",
      lambda: (_shape("qwen3-next-80b-a3b").state.conv_channels, _shape("qwen3-next-80b-a3b").state.conv_kernel,
               _shape("qwen3-next-80b-a3b").state.heads), (8192, 4, 32)),
    F(KV, "49,152 + 1,048,576 = 1,097,728 bytes a layer in bf16",
      lambda: (8192 * 3 * 2, 32 * 128 * 128 * 2,
               vllm_hybrid.state_bytes(vllm_hybrid.Mixer(**{k: getattr(_shape("qwen3-next-80b-a3b").state, a) for k, a in (
                   ("kind", "mixer"), ("heads", "heads"), ("head_dim", "head_dim"), ("state_dim", "state_dim"),
                   ("conv_channels", "conv_channels"), ("groups", "groups"), ("conv_kernel", "conv_kernel"))}))),
      (49152, 1048576, 1097728)),
    F(KV, "Its 36\nlinear layers hold", lambda: (_shape("qwen3-next-80b-a3b").state_layers,
                                               _shape("qwen3-next-80b-a3b").kv_layers), (36, 12)),
    C(KV, "only its 12 full-attention layers cache keys and values", "kv-cache", preset=_QNEXT,
      derive=lambda v: v["kv_bytes_per_token"] / (2 * 2 * 256 * 2), value=12),
    C(KV, "The state weighs as much as about 1,600 tokens of that cache", "kv-cache", preset=_QNEXT,
      derive=lambda v: v["state_bytes_per_sequence"] / v["kv_bytes_per_token"], value=1600, rel=0.01),
    F(KV, "float32 by default from 0.20, float16 in 0.13–0.19",
      lambda: tuple(vllm_hybrid._ssm_dtype_bytes(vllm_hybrid.Mixer("mamba2", 1, 1, 1), vllm_hybrid.NEMOTRON_H, 2, v)
                    for v in ("0.20.0", "0.19.1", "0.13.0", "0.12.0")), (4, 2, 2, 2)),
    F(KV, "its 23 Mamba-2 layers hold", lambda: (_shape("nemotron-3-nano-30b-a3b").state_layers,
                                               _shape("nemotron-3-nano-30b-a3b").state.ssm_dtype), (23, "float32")),
    F(KV, "its 6 attention layers (of 52 blocks;", lambda: (_shape("nemotron-3-nano-30b-a3b").kv_layers,
                                                           _shape("nemotron-3-nano-30b-a3b").layers), (6, 52)),
    C(KV, "the\n    formula over all 48 overstates its cache four times", "kv-cache", preset=_QNEXT, model="custom",
      layers=48, kv_heads=2, head_dim=256, kv_free_layers=0, state_layers=0, mixer="none",
      derive=lambda v: v["kv_bytes_per_token"] / (24 * KiB), value=4),
    F(KV, "Its 12\nattention and 36 linear layers form four groups of 12",
      lambda: (len(_qwen3_next_layout().groups), _qwen3_next_layout().layers_per_group), (4, 12)),
    F(KV, "one\nmore for a prefill checkpoint in 0.33",
      lambda: (_qwen3_next_layout().checkpoint_blocks, _qwen3_next_layout().version,
               vllm_hybrid.state_blocks_per_request("align", checkpoint_blocks=1, version="0.33.0")), (1, "0.33.0", 3)),
    F(KV, "Prefix caching is on by default for\nhybrid models from 0.26",
      lambda: (vllm_hybrid.hybrid_prefix_caching_default("0.25.0"), vllm_hybrid.hybrid_prefix_caching_default("0.26.0")),
      (False, True)),
    F(KV, "#40691, shows 290,864 tokens beside 33.04× of 32,768",
      lambda: next((g.kv_tokens, g.concurrency, g.max_model_len) for g in hybrid_logs.HYBRID_LOGS
                   if g.url.endswith("/40691")), (290864, 33.04, 32768)),
    F(KV, "10 of 40 layers attending", lambda: (lambda c: (c.layers_per_group, 4 * c.layers_per_group))(_qwen36_log()[1]),
      (10, 40)),
    F(KV, "logged \"Available KV cache memory: 5.98 GiB\",\n\"GPU KV cache size: 567,978 tokens\"",
      lambda: (_qwen36_log()[0].available_gib, _qwen36_log()[0].kv_tokens, _qwen36_log()[0].concurrency),
      (5.98, 567978, 4.33)),
    F(KV, "float32 state (2,146,304 bytes a\nlayer) the block is 2,096 tokens, the 5.98 GiB hold 299 blocks",
      lambda: (lambda log, c: (c.state_page_bytes, c.block_size, __import__(
          "llm_inference.physics.cache_layout", fromlist=["x"]).from_available(c, log.available_gib * GiB, 131072)[0]))(
          *_qwen36_log()), (2146304, 2096, 299)),
    F(KV, "the same model would cache four\ntimes as much per token", lambda: (lambda sh: sh.layers / sh.kv_layers)(_shape("qwen3-next-80b-a3b")),
      4.0),
    F(KV, "63 + 3 × 2 = 69 of them: 4.33, and 567,978 tokens",
      lambda: (lambda log, c: (c.request_blocks(131072, 8192), *(lambda r: (round(r[1], 2), r[2]))(__import__(
          "llm_inference.physics.cache_layout", fromlist=["x"]).from_available(c, log.available_gib * GiB, 131072))))(
          *_qwen36_log()), (69, 4.33, 567978)),
    F(KV, "attend to the 2,048\ntokens", lambda: _shape("deepseek-v3.2").indexer_head_dim and __import__(
        "llm_inference.models", fromlist=["x"]).get_entry("deepseek-v3.2").config["index_topk"], 2048),
    F(KV, "128 values in fp8 with one fp32\nscale, 132 bytes whatever the KV dtype, in the 64-token blocks",
      lambda: (_shape("deepseek-v3.2").indexer_head_dim, vllm_hybrid.indexer_bytes_per_token(128),
               vllm_hybrid.DEEPSEEK_V32_BLOCK_SIZE), (128, 132, 64)),
    F(KV, "the default for `auto` from 0.11 to 0.17; bf16 from 0.18",
      lambda: tuple(vllm_hybrid.deepseek_v32_auto_kv_dtype(v) for v in ("0.11.0", "0.17.0", "0.18.0")),
      ("fp8_ds_mla", "fp8_ds_mla", "auto")),
    C(KV, "The recurrent states of a hybrid model are\nnot divided", "kv-cache", preset=_QNEXT,
      derive=lambda v: vllm_hybrid.dcp_request_tokens(8, 8) == 1 and v["state_bytes_per_sequence"] > 0, value=True),
    F(KV, "| `int8_per_token_head`, `fp8_per_token_head` (0.20 on) | 128 + a 4-byte fp32 scale |",
      lambda: (vllm_kv_dtypes.vector_bytes(128, "int8_per_token_head"), vllm_kv_dtypes.KV_LAYOUTS["int8_per_token_head"].since,
               vllm_kv_dtypes.KV_LAYOUTS["fp8_per_token_head"].since), (132, (0, 20), (0, 20))),
    F(KV, "| `int4_per_token_head` (0.25 on) | 64 + 4: two values a byte |",
      lambda: (vllm_kv_dtypes.vector_bytes(128, "int4_per_token_head"), vllm_kv_dtypes.KV_LAYOUTS["int4_per_token_head"].since),
      (68, (0, 25))),
    F(KV, "| `nvfp4` (0.21 on) | 64 + 8: an fp8 scale per 16 values |",
      lambda: (vllm_kv_dtypes.vector_bytes(128, "nvfp4"), vllm_kv_dtypes.KV_LAYOUTS["nvfp4"].since), (72, (0, 21))),
    F(KV, "from 0.32 also SM 8.x, 9.x, 12.x, not at head size 64 or with attention sinks",
      lambda: (vllm_kv_dtypes.NVFP4_FA2_SINCE,
               bool(vllm_kv_dtypes.layout_problem("nvfp4", mla=False, version="0.31.0", cc=(9, 0))),
               vllm_kv_dtypes.layout_problem("nvfp4", mla=False, version="0.32.0", cc=(9, 0)),
               bool(vllm_kv_dtypes.layout_problem("nvfp4", mla=False, version="0.33.0", cc=(12, 0), head_dim=64)),
               bool(vllm_kv_dtypes.layout_problem("nvfp4", mla=False, version="0.33.0", cc=(9, 0), sinks=True))),
      ((0, 32), True, "", True, True)),
    F(KV, "FlashMLA's takes `fp8` but not\n`fp8_e4m3` or `fp8_e5m2`",
      lambda: tuple(bool(vllm_kv_dtypes.sparse_mla_refusal(d, "0.29.0", (9, 0))) for d in ("fp8", "fp8_e4m3",
                                                                                          "fp8_e5m2")),
      (False, True, True)),
    F(KV, "from 0.30 FlashInfer's\nSM90 sparse backend takes `fp8_e4m3` and keeps it plain",
      lambda: (vllm_kv_dtypes.sparse_mla_backend("fp8_e4m3", "0.30.0", (9, 0)),
               vllm_kv_dtypes.stored_kv_dtype("fp8_e4m3", sparse_mla=True, version="0.30.0", cc=(9, 0))),
      ("FLASHINFER_MLA_SPARSE_SM90", "fp8_e4m3")),
    F(KV, "have no sparse-MLA backend before 0.24, so vLLM refuses the model there",
      lambda: (bool(vllm_kv_dtypes.sparse_mla_refusal("bf16", "0.23.0", (12, 0))),
               vllm_kv_dtypes.stored_kv_dtype("bf16", sparse_mla=True, version="0.24.0", cc=(12, 0))),
      (True, "fp8_ds_mla")),
    C(KV, "Qwen3-30B-A3B on four H100s with R = 4 holds 33 whole experts a GPU", "kv-cache",
      model="qwen3-30b-a3b", gpus=4, expert_parallel="on", redundant_experts=4,
      derive=lambda v: v["weight_bytes_per_gpu"] - __import__("llm_inference.kv_cache", fromlist=["SPEC"]).SPEC.run(
          {"model": "qwen3-30b-a3b", "gpus": 4, "expert_parallel": "on"}).values["weight_bytes_per_gpu"],
      value=452_984_832 + 311_427_072 + 75_849_984),
    F(KV, "| `fp8_ds_mla` (0.12 on), `nvfp4_ds_mla` (0.30 on, SM100) | 656 / 352 bytes per token and layer |",
      lambda: (vllm_kv_dtypes.KV_LAYOUTS["fp8_ds_mla"].since, vllm_kv_dtypes.KV_LAYOUTS["nvfp4_ds_mla"].since,
               vllm_kv_dtypes.mla_token_bytes(512, 64, "fp8_ds_mla"), vllm_kv_dtypes.mla_token_bytes(512, 64, "nvfp4_ds_mla")),
      ((0, 12), (0, 30), 656, 352)),
    F(KV, "packs\nthe 512 into 256 bytes of fp4 with 32 fp8 scales and the RoPE key in fp8, 352\nbytes",
      lambda: (512 // 2, 512 // 16, 64, vllm_kv_dtypes.NVFP4_DS_MLA_BYTES), (256, 32, 64, 352)),
    F(KV, "| Qwen3-Next 80B-A3B (12 of 48 layers attend) | 12 | 2 | 256 |",
      lambda: (lambda q: (q.kv_layers, q.layers, q.kv_heads, q.head_dim))(_shape("qwen3-next-80b-a3b")), (12, 48, 2, 256)),
    F(KV, "| Nemotron 3 Nano 30B-A3B (6 of 52 blocks attend) | 6 | 2 | 128 |",
      lambda: (lambda q: (q.kv_layers, q.layers, q.kv_heads, q.head_dim))(_shape("nemotron-3-nano-30b-a3b")), (6, 52, 2, 128)),
    F(PAGED, "DeepSeek-V3.2's sparse-attention kernels\nread 64-token blocks", lambda: vllm_hybrid.DEEPSEEK_V32_BLOCK_SIZE, 64),
    # ---------------------------------------------------------------- paged-attention.md
    # 20.4–38.2%, 96.3% and 2–4× are the vLLM paper's measurements (citations, not checked).
    # The 16-token block example table (40 tokens → 3 blocks, 8 of 16 used; 20 → 2 blocks, 4 used)
    # is plain arithmetic with no calculator output behind it.
    C(PAGED, "gain over 16-token blocks is small", "paged-attention", preset="block-1",
      derive=lambda v: v["throughput_gain"] / course_calculators.get("paged-attention").run(
          course_calculators.get("paged-attention").preset("block-16").values).values["throughput_gain"],
      value=1.0, rel=0.05),
    C(PAGED, "utilization falls and fewer\n  sequences fit", "paged-attention", preset="block-128",
      derive=lambda v: (lambda b16: v["utilization_paged"] < b16["utilization_paged"]
                        and v["batch_paged"] < b16["batch_paged"])(
          course_calculators.get("paged-attention").run(course_calculators.get("paged-attention").preset("block-16").values).values),
      value=True),
    C(PAGED, "Compare the two utilization\n  figures", "paged-attention", preset="block-16",
      derive=lambda v: v["utilization_contiguous"] < 0.5 < 0.95 < v["utilization_paged"], value=True),
    C(PAGED, "continuous batching gains the most here", "paged-attention", preset="long-tail",
      derive=lambda v: v["gain_batching"] > max(
          course_calculators.get("paged-attention").run(course_calculators.get("paged-attention").preset(p).values)
          .values["gain_batching"] for p in ("block-1", "block-16", "block-128")),
      value=True),
    # ---------------------------------------------------------------- quantization.md
    C(QUANT, "does not start on one 80 GB H100", "decode-roofline", preset=_70B, weight_dtype="fp8",
      derive=lambda v: (v["fits"], v["weight_bytes"] > 70e9), value=(False, True)),
    C(QUANT, "\"Model loading took 67.72 GiB\"", "kv-cache", "weight_bytes", model="llama-3.3-70b-fp8-dynamic",
      value=67.72 * GiB, rel=0.02),
    F(QUANT, "That costs\n$16 / 128 = 0.125$ extra bits per weight", lambda: 16 / 128, 0.125),
    F(QUANT, "shows \"Model loading took 65.97 GiB\"\n(<https://github.com/vllm-project/vllm/issues/23278>)",
      lambda: next(round(w.loaded_gib, 2) for w in weight_logs.WEIGHT_LOGS
                   if w.url == "https://github.com/vllm-project/vllm/issues/23278"), 65.97),
    C(QUANT, "the first\nmore than three times too heavy", "kv-cache", model="gpt-oss-120b", gpu="h100-sxm",
      weight_dtype="bf16", derive=lambda v: v["weight_bytes"] / course_calculators.get("kv-cache").run(
          {"model": "gpt-oss-120b", "gpu": "h100-sxm"}).values["weight_bytes"] > 3, value=True),
    C(QUANT, "against the 67.72 GiB of the log\nabove", "kv-cache", "weight_bytes",
      model="llama-3.3-70b-fp8-dynamic", value=67.72 * GiB, rel=0.02),
    C(QUANT, "LLaMA-3 8B drops from 128 KiB to 64 KiB per token", "kv-cache", "kv_bytes_per_token",
      preset=_8B, kv_dtype="fp8", text="64 KiB"),
    C(QUANT, "a 128K\ncontext from 16 GiB to 8 GiB", "kv-cache", "kv_bytes_per_sequence",
      preset="llama3-8b-128k", kv_dtype="fp8", text="8 GiB"),
    C(QUANT, "At 4 bits it falls to about 4.25 GiB", "kv-cache", "kv_bytes_per_sequence",
      preset="llama3-8b-128k", kv_dtype="int4_per_token_head", text="4.25 GiB"),
    C(QUANT, "A 70B\n  model in 4 bits (about 39 GB with its scales and bf16 embeddings)", "decode-roofline",
      "weight_bytes", preset="h100-70b-int4", value=39e9, rel=0.02),
    C(QUANT, "a 13B model in bf16 (26 GB)", "kv-cache", "weight_bytes", preset=_8B, model="custom", params_b=13,
      value=26e9, rel=1e-9),
    C(QUANT, "nearly the same ceiling as a second GPU", "decode-roofline", preset=_70B, weight_dtype="fp8",
      derive=lambda v: 0.9 < v["tokens_per_s"] / 47.7 < 1.0, value=True),
    # ---------------------------------------------------------------- speculative-decoding.md
    C(SPEC, "\\approx 3.36 \\text{ tokens per pass}", "speculative-decoding", "tokens_per_pass",
      acceptance=0.8, draft_tokens=4, draft_cost=0.05, text="3.36"),
    C(SPEC, "\\frac{3.36}{4 \\times 0.05 + 1} \\approx 2.8\\times", "speculative-decoding", "speedup",
      acceptance=0.8, draft_tokens=4, draft_cost=0.05, text="2.8×"),
    C(SPEC, "about 2.31 tokens per pass", "speculative-decoding", "tokens_per_pass",
      acceptance=0.6, draft_tokens=4, draft_cost=0.05, text="2.31"),
    C(SPEC, "a 1.92× speedup", "speculative-decoding", "speedup",
      acceptance=0.6, draft_tokens=4, draft_cost=0.05, text="1.92×"),
    F(SPEC, "$1/(1-\\alpha)$ — 5 at $\\alpha = 0.8$",
      lambda: (1 / (1 - 0.8),
               all(speculative_decoding.tokens_per_pass(0.8, k) < 5 for k in range(1, speculative_decoding.K_MAX + 1)),
               speculative_decoding.tokens_per_pass(0.8, 500)),
      (5.0, True, 5.0), rel=1e-9),
    C(SPEC, "$\\alpha = 0.6$ the speedup is about 0.77: a slowdown", "speculative-decoding", "speedup",
      acceptance=0.6, draft_tokens=4, draft_cost=0.5, value=0.77, rel=0.005),
    C(SPEC, "3.36 tokens per pass and 2.8×", "speculative-decoding", preset=None,
      acceptance=0.8, draft_tokens=4, draft_cost=0.05,
      derive=lambda v: (round(v["tokens_per_pass"], 2), round(v["speedup"], 1)), value=(3.36, 2.8)),
    C(SPEC, "lower\n  $\\alpha$ and watch the best $k$ move down", "speculative-decoding", preset="code",
      derive=lambda v: v["best_k"] > course_calculators.get("speculative-decoding").run(
          course_calculators.get("speculative-decoding").preset("chat").values).values["best_k"],
      value=True),
    # ---------------------------------------------------------------- sampling.md
    *[
        F(SAMP, f"| {t} | {row} |",
          (lambda t=t: tuple(round(x, 3) for x in sampling.softmax([2, 1, 0], float(t)))),
          tuple(float(x) for x in row.split(", ")))
        for t, row in (("0.5", "0.867, 0.117, 0.016"), ("1", "0.665, 0.245, 0.090"), ("2", "0.506, 0.307, 0.186"))
    ],
    F(SAMP, "0.665 + 0.245 = 0.91, so the third is dropped",
      lambda: (round(sum(sampling.softmax([2, 1, 0], 1.0)[:2]), 2), sampling.top_p_filter(
          sampling.softmax([2, 1, 0], 1.0), 0.9)[2]), (0.91, 0.0)),
    F(SAMP, "the survivors become 0.731 and 0.269",
      lambda: (lambda q: tuple(round(x / sum(q), 3) for x in q if x > 0))(
          sampling.top_p_filter(sampling.softmax([2, 1, 0], 1.0), 0.9)), (0.731, 0.269)),
    # "anything below 0.06 is cut" (min-p 0.1 × leader 0.6) — the calculator has no min-p; plain arithmetic.
    F(SAMP, "With $p_\\text{min} = 0.1$ and a leader at 0.6,\nanything below 0.06 is cut", lambda: 0.1 * 0.6,
      0.06, rel=1e-9),
    C(SAMP, "the continuation falls into the\n  greedy loop", "sampling", "loops", preset="greedy", text="loops"),
    C(SAMP, "Add a repetition penalty and watch the loop break", "sampling", "loops", preset="penalty",
      text="no loop"),
    # ---------------------------------------------------------------- unit-economics.md
    # Cache discounts (10%, 25–50%) are vendor pricing citations, not checked.
    C(ECON, "consumer content product with 100,000 daily active\nusers", "unit-economics", preset="defaults",
      derive=lambda v: None, value=None),  # a preset input: checked through INPUT_CHECKS
    C(ECON, "defaults to 1 in 100", "unit-economics", preset="defaults", derive=lambda v: None, value=None),
    C(ECON, "defaults to 1 in 1,000", "unit-economics", preset="defaults", derive=lambda v: None, value=None),
    C(ECON, "the default cache hit rate is 70%", "unit-economics", preset="defaults",
      derive=lambda v: None, value=None),
    C(ECON, "100,000 daily users, remix rate 1 in 100, PGC rate 1 in\n   1,000, cache hit rate 70%",
      "unit-economics", preset="defaults", derive=lambda v: None, value=None),
    C(ECON, "the rented GPU sits idle most\n   of the day", "unit-economics", preset="defaults",
      derive=lambda v: v["selfhosted_load"] < 0.1 and v["cheapest"] != "Self-hosted small", value=True),
    C(ECON, "then with 95%", "unit-economics", preset="cache-95", derive=lambda v: None, value=None),
    C(ECON, "the remix rate rises from 1 in 100 to 1 in 10", "unit-economics", preset="remix-10",
      derive=lambda v: None, value=None),
    C(ECON, "becomes the cheapest option — more than an order of\n   magnitude below the flagship",
      "unit-economics", preset="remix-10",
      derive=lambda v: v["cheapest"] == "Self-hosted" and v["flagship_vs_selfhosted"] > 10, value=True),
    C(ECON, "the chapter's model (Llama 3.1 8B on one H100 by default)", "unit-economics", preset="defaults",
      derive=lambda v: v["selfhosted_replica"].startswith("Llama 3.1 8B, bf16, on 1 × NVIDIA H100 SXM"), value=True),
    C(ECON, "more than the mid tier's", "unit-economics", preset="defaults",
      derive=lambda v: v["usd_per_m_blended_selfhosted"] > v["usd_per_m_blended_mid"], value=True),
    C(ECON, "Self-hosting does not pay yet", "unit-economics", "cheapest", preset="defaults", text="Small API"),
    F(ECON, "their median, 47%, is the\ndefault", lambda: (round(measured.median_decode_share(), 2),
                                                            unit_economics.UTILIZATION_DEFAULT), (0.47, 0.47)),
    F(ECON, "(a\nmedian of 39%)", lambda: round(measured.median_prefill_share(), 2), 0.39),
    F(ECON, "decodes at 47% of the ceiling", lambda: unit_economics.SPEC.defaults()["utilization"], 0.47),
    C(ECON, "close to the\n   floor of a fully loaded fleet", "unit-economics", dau=10_000_000,
      derive=lambda v: v["selfhosted_load"] > 0.9, value=True),
    F(ECON, "($2.69 for an H100 SXM, RunPod, March 2026)", lambda: GPUS["h100-sxm"].usd_per_hour, 2.69),
    # ---------------------------------------------------------------- summary.md
    C(SUMM, "about 295 FLOP/byte on an H100", "decode-roofline", "ridge_point", preset=_70B, text="295"),
    C(SUMM, "decode at batch 1 has an intensity of about 1", "decode-roofline", "arithmetic_intensity",
      preset=_70B, value=1, rel=0.01),
    C(SUMM, "about 24 tokens/s for a 70B bf16 model at H100 bandwidth", "decode-roofline", "tokens_per_s",
      preset=_70B, value=24, rel=0.01),
    C(SUMM, "(two GPUs: about 48 tokens/s)", "decode-roofline", "tokens_per_s", preset="h100-70b-bf16-tp2",
      value=48, rel=0.01),
    C(SUMM, "per token: 128 KiB for LLaMA-3 8B", "kv-cache", "kv_bytes_per_token", preset=_8B, text="128 KiB"),
    C(SUMM, "16 GiB for one 128K-token sequence — more than the weights", "kv-cache", preset="llama3-8b-128k",
      derive=lambda v: v["kv_bytes_per_sequence"] == 16 * GiB and v["kv_bytes_per_sequence"] > v["weight_bytes"],
      value=True),
    C(SUMM, "(4.5 MiB per token for a\n   GPT-3-style MHA model)", "kv-cache", "kv_bytes_per_token",
      preset="gpt3-mha", text="4.5 MiB"),
    C(SUMM, "(68.6 KiB per\n   token for DeepSeek-V3, no factor 2)", "kv-cache", "kv_bytes_per_token",
      preset="deepseek-v3-mla", text="68.6 KiB"),
    C(SUMM, "\\approx 34$ tokens/s", "decode-roofline", "tokens_per_s", preset=_70B, gpu="h200", context=1,
      value=34, rel=0.01),
    F(SUMM, "the driver shows 139.8 GiB", lambda: round(GPUS["h200"].visible / GiB, 1), 139.8),
    C(SUMM, "92% of it is about 129 GiB", "decode-roofline", "usable_bytes", preset=_70B, gpu="h200", text="129 GiB"),
    C(SUMM, "less than the 140 GB\n   (about 130 GiB) of weights", "decode-roofline", preset=_70B, gpu="h200",
      derive=lambda v: (v["weight_bytes"], round(v["weight_bytes"] / GiB), v["fits"]), value=(140e9, 130, False)),
    C(SUMM, "About 62.8 tokens/s in bf16 (15 GiB of weights)", "decode-roofline", model="llama-3.1-8b",
      gpu="rtx-4090", context=1, weight_dtype="bf16",
      derive=lambda v: (round(v["tokens_per_s"], 1), round(v["weight_bytes"] / GiB)), value=(62.8, 15)),
    C(SUMM, "about 177 tokens/s in\n   int4 (5.31 GiB, not 4 GB", "decode-roofline", model="llama-3.1-8b",
      gpu="rtx-4090", context=1, weight_dtype="int4",
      derive=lambda v: (round(v["tokens_per_s"]), round(v["weight_bytes"] / GiB, 2)), value=(177, 5.31)),
    C(SUMM, "$312 / 2.039 \\approx 153$ FLOP/byte", "decode-roofline", "ridge_point", preset=_70B,
      gpu="a100-80g", text="153"),
    C(SUMM, "(the calculator, at a context of 1 token, says 154)", "decode-roofline", "ridge_batch",
      preset=_70B, gpu="a100-80g", context=1, text="154"),
    C(SUMM, "70B model at 4,096 tokens of context, no batch size makes the step\n   compute-bound",
      "decode-roofline", "ridge_batch", preset=_70B, gpu="a100-80g", context=4096, text="never"),
    C(SUMM, "320 KiB × 131,072 tokens = 40 GiB", "kv-cache", "kv_bytes_per_sequence", preset="llama3-70b",
      context=131072, text="40 GiB"),
    C(SUMM, "against 140 GB (about 130 GiB) of bf16\n   weights", "kv-cache", preset=_8B, model="custom", params_b=70,
      derive=lambda v: (round(v["weight_bytes"]), round(v["weight_bytes"] / GiB)), value=(140e9, 130)),
    C(SUMM, "504 KiB × 131,072 = 63 GiB", "kv-cache", "kv_bytes_per_sequence", preset="llama3-8b-128k",
      model="llama-3.1-405b", text="63 GiB"),
    C(SUMM, "DeepSeek-V3: 68.6 KiB × 131,072\n   ≈ 8.6 GiB", "kv-cache", "kv_bytes_per_sequence",
      preset="deepseek-v3-mla", value=8.6 * GiB, rel=0.005),
    C(SUMM, "FP8 halves the cache to 0.5 GiB per 8K sequence", "kv-cache", "kv_bytes_per_sequence", preset=_8B,
      kv_dtype="fp8", value=0.5 * GiB),
    C(SUMM, "22 sequences: FP8 halves the cache", "kv-cache", preset=_8B, kv_dtype="fp8",
      derive=lambda v: math.floor(11.12 * GiB / v["kv_bytes_per_sequence"]), value=22),
    C(SUMM, "11.12 GiB holds 22.24 of them", "kv-cache", preset=_8B, kv_dtype="fp8",
      derive=lambda v: round(11.12 * GiB / v["kv_bytes_per_sequence"], 2), value=22.24),
    C(SUMM, "15 × 128 KiB ≈ 1.9 MiB per sequence", "kv-cache", "kv_bytes_per_sequence", preset=_8B,
      context=15, value=1.9 * 1024 * KiB, rel=0.02),
    C(SUMM, "About 2.53 tokens per pass", "speculative-decoding", "tokens_per_pass",
      acceptance=0.7, draft_tokens=3, draft_cost=0.1, text="2.53"),
    C(SUMM, "a speedup of about 1.95×", "speculative-decoding", "speedup",
      acceptance=0.7, draft_tokens=3, draft_cost=0.1, text="1.95×"),
    *[
        F(SUMM, quote, (lambda t=t: (tuple(round(x, 3) for x in sampling.softmax([2, 1, 0], t)),
                                     sum(1 for x in sampling.top_p_filter(sampling.softmax([2, 1, 0], t), 0.9)
                                         if x > 0))), (probs, survivors))
        for quote, t, probs, survivors in (
            ("At $T = 0.5$ the probabilities are 0.867, 0.117, 0.016: two tokens survive.", 0.5,
             (0.867, 0.117, 0.016), 2),
            ("At $T = 1$ (0.665, 0.245, 0.090): two.", 1.0, (0.665, 0.245, 0.090), 2),
            ("At $T = 2$ (0.506, 0.307, 0.186):\n   all three.", 2.0, (0.506, 0.307, 0.186), 3),
        )
    ],
    # ---------------------------------------------------------------- index.md
    C(INDEX, "8B parameters × 2 bytes =\n    16 GB", "kv-cache", "weight_bytes", preset=_8B, model="custom",
      params_b=8, value=16e9, rel=1e-12),
    F(INDEX, "the \"80 GB\" of an H100 is 80 GiB of memory chips", lambda: GPUS["h100-sxm"].memory_bytes, 80 * GiB),
    F(INDEX, "of which the driver shows a process 79.19 GiB", lambda: GPUS["h100-sxm"].visible / GiB, 79.19,
      rel=1e-9),
    C(INDEX, "So 16 GB of weights is about 14.9 GiB", "kv-cache", "weight_bytes", preset=_8B, model="custom",
      params_b=8, text="14.9 GiB"),
]

#: Input checks for cases whose figure is a preset input rather than an output (unit-economics).
INPUT_CHECKS: dict[str, Mapping[str, Any]] = {
    "consumer content product with 100,000 daily active\nusers": {"dau": 100_000},
    "defaults to 1 in 100": {"remix_rate": 0.01},
    "defaults to 1 in 1,000": {"pgc_rate": 0.001},
    "the default cache hit rate is 70%": {"cache_hit": 0.7},
    "100,000 daily users, remix rate 1 in 100, PGC rate 1 in\n   1,000, cache hit rate 70%":
        {"dau": 100_000, "remix_rate": 0.01, "pgc_rate": 0.001, "cache_hit": 0.7},
    "then with 95%": {"cache_hit": 0.95},
    "the remix rate rises from 1 in 100 to 1 in 10": {"remix_rate": 0.1},
}


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


_PAGES: dict[str, str] = {}


def page_text(page: str) -> str:
    """A page's Markdown as its reader reads it: each inline figure ``{calc …}`` as the text the
    build renders for it (the quotes of figures that come from a calculator are checked there)."""
    if page not in _PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        text = re.sub(figures.PATTERN, lambda m: figures.compute(
            figures.Figure.parse(m["id"], m["output"], m["args"] or ""))[1], text)
        _PAGES[page] = _squash(text)
    return _PAGES[page]


def _close(got: Any, want: Any, rel: float) -> bool:
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(
            _close(g, w, rel) for g, w in zip(got, want))
    if isinstance(want, (bool, str)) or want is None:
        return got == want
    return math.isclose(float(got), float(want), rel_tol=rel, abs_tol=0 if rel else 1e-12)


def _ids() -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for case in CASES:
        base = case.id
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def test_cases_are_well_formed():
    assert len(CASES) >= 100
    for case in CASES:
        assert case.text is not None or case.derive is not None or case.value is not None, case
        if case.calc is not None and case.derive is None:
            assert case.output is not None, case


@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_quote_is_on_page(case: Case):
    assert _squash(case.quote) in page_text(case.page), f"{case.page}: quote not found: {case.quote!r}"


@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_figure_is_reproduced(case: Case):
    if case.calc is None:
        got = case.derive(None)
        assert _close(got, case.value, case.rel), f"{case.quote!r}: got {got!r}, want {case.value!r}"
        return
    calc = course_calculators.get(case.calc)
    raw = {**(dict(calc.preset(case.preset).values) if case.preset else {}), **case.overrides}
    calc.check_overrides(raw)  # every input is taken as given: a typo or out-of-range override is an error
    result = calc.run(raw)
    if case.quote in INPUT_CHECKS:
        for name, want in INPUT_CHECKS[case.quote].items():
            assert result.inputs[name] == want, f"{case.quote!r}: input {name} is {result.inputs[name]!r}"
    if case.text is not None:
        assert result.text[case.output] == case.text, (
            f"{case.quote!r}: {case.calc}.{case.output} shows {result.text[case.output]!r}, want {case.text!r}")
    if case.derive is not None:
        got = case.derive(result.values)
        assert _close(got, case.value, case.rel), f"{case.quote!r}: got {got!r}, want {case.value!r}"
    elif case.value is not None:
        got = result.values[case.output]
        assert _close(got, case.value, case.rel), (
            f"{case.quote!r}: {case.calc}.{case.output} = {got!r}, want {case.value!r} (rel {case.rel})")


def test_every_input_check_has_a_case():
    quotes = {c.quote for c in CASES}
    assert set(INPUT_CHECKS) <= quotes
