"""How close the kv-cache calculator comes to real vLLM startups: each log of
:mod:`llm_inference.engines.startup_log_table` rebuilt by the calculator's own path, figure by figure.

:func:`rebuild` runs the kv-cache calculator with the log's model picked by name (its format as
the catalogue ships it), its GPU, TP/PP, utilization, max_model_len, batch limits, multimodal limits,
prefix caching and release, and
compares the four figures vLLM prints and its verdict. A log that names no catalogue model or no
listed GPU is not run: its row says what is missing, and computes nothing from a stand-in.

The tests (tests/unit/llm_inference/test_accuracy.py) and the Accuracy page (made at build time by
:func:`table_html`, the ``accuracy-table`` fence of the site's mkdocs.yml) read the same rows.
"""

from __future__ import annotations

import html
import statistics
from dataclasses import dataclass

from course_calculators.units import GiB

from . import accuracy_sglang
from .deployment_inputs import EXPERT_PARALLEL_ON
from .physics.placement import DP
from .engines import vllm_releases
from .engines.vllm_encoder import DEFAULT_LIMIT_PER_PROMPT
from .engines.startup_log_table import FITS, LOGS, NO_BLOCKS, SEEN, TOO_LITTLE_KV, Log

__all__ = ["TOLERANCE", "SMALL_POOL_GIB", "SMALL_POOL_TOLERANCE_GIB", "FIGURES", "Rebuilt", "inputs_of", "layout_problem",
           "rebuild", "rows", "summary", "table_html"]

#: Every figure within 2 % of the log's …
TOLERANCE = 0.02
#: … except a pool under 3 GiB, within 0.25 GiB.
SMALL_POOL_GIB = 3.0
SMALL_POOL_TOLERANCE_GIB = 0.25
#: (log field, calculator output, words) of the four figures.
FIGURES = (
    ("loading_gib", "weight_bytes_per_gpu", "Model loading took"),
    ("available_gib", "kv_cache_memory", "Available KV cache memory"),
    ("kv_tokens", "kv_cache_tokens", "GPU KV cache size"),
    ("concurrency", "max_concurrency", "Maximum concurrency"),
)
_KV_DTYPES = {"auto": "bf16", "bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "fp8_e4m3": "fp8", "fp8_e5m2": "fp8"}


@dataclass(frozen=True)
class Rebuilt:
    log: Log
    ran: bool
    reason: str  # why it was not run, or what it waits for
    figures: dict  # field -> (logged, rebuilt) for each figure the log prints
    verdict: str  # the calculator's verdict ("" when not run)

    def error(self, name: str) -> float | None:
        """Relative error of one figure (rebuilt ÷ logged − 1); None when not both known."""
        if name not in self.figures:
            return None
        logged, got = self.figures[name]
        if not logged:
            return None
        return got / logged - 1

    def within(self, name: str) -> bool:
        """Within 2 %; a pool under 3 GiB within 0.25 GiB — and then its tokens and concurrency within
        the share of it that 0.25 GiB is (they are the pool divided by a request's or a token's bytes,
        so the same absolute miss)."""
        logged, got = self.figures[name]
        if name == "available_gib" and logged < SMALL_POOL_GIB:
            return abs(got - logged) <= SMALL_POOL_TOLERANCE_GIB
        err = self.error(name)
        if err is None:
            return False
        pool = self.log.available_gib
        if name in ("kv_tokens", "concurrency") and pool is not None and 0 < pool < SMALL_POOL_GIB:
            return abs(err) <= max(TOLERANCE, SMALL_POOL_TOLERANCE_GIB / pool)
        return abs(err) <= TOLERANCE

    @property
    def verdict_right(self) -> bool:
        return self.ran and self.verdict == self.log.verdict

    @property
    def passes(self) -> bool:
        return self.ran and not self.log.needs and self.verdict_right and all(self.within(n) for n in self.figures)


def in_catalogue(model_id: str) -> bool:
    from .models.catalogue import CATALOGUE

    return model_id in CATALOGUE


def layout_problem(log: Log) -> str:
    """Why the kv-cache calculator has no layout for this log's data parallelism ("" when it has one).

    ``--data-parallel-size N`` runs N engine ranks. On a dense model they are independent replicas, each
    with its own TP group and pool, so one replica's GPU is the log's GPU. On a mixture of experts the
    MoE layers span all N × TP GPUs (``FusedMoEParallelConfig.make``, vllm/model_executor/layers/fused_moe/
    config.py: ``flatten_tp_across_dp``): with ``--enable-expert-parallel`` and TP 1 that is the
    calculator's data-parallel attention layout (every GPU its own attention and pool, whole experts
    over the N GPUs). With TP above 1 (attention TP inside each DP rank, experts over DP × TP), with
    pipeline stages, or without expert parallelism (the experts sliced over DP × TP), it has none."""
    dp = max(1, log.data_parallel)
    if dp == 1 or not in_catalogue(log.model_id) or not _is_moe(log.model_id):
        return ""
    if log.tensor_parallel > 1 or log.pipeline_parallel > 1:
        return (f"data parallelism {dp} over TP {log.tensor_parallel} × PP {log.pipeline_parallel} for a mixture of "
                "experts (experts over DP × TP, attention TP within each DP rank) is not a layout the calculator has")
    if not log.expert_parallel:
        return (f"data parallelism {dp} without expert parallelism slices every expert over the {dp} GPUs; the "
                "calculator's data-parallel layout deals whole experts (expert parallelism)")
    return ""


def inputs_of(log: Log) -> dict | None:
    """The kv-cache calculator's inputs for this log; None when its model is not in the catalogue (yet:
    its ``needs`` name the branch that adds it), its GPU is not listed, or its data-parallel layout is not
    one the calculator has (:func:`layout_problem`)."""
    from .hardware import GPUS

    if not log.model_id or not in_catalogue(log.model_id) or log.gpu_id not in GPUS or layout_problem(log):
        return None
    dp_attention = log.data_parallel > 1 and log.expert_parallel and _is_moe(log.model_id)
    inputs = {
        "model": log.model_id, "gpu": log.gpu_id,
        "gpus": log.data_parallel if dp_attention else log.tensor_parallel * log.pipeline_parallel,
        "pipeline_stages": log.pipeline_parallel,
        "vllm_version": vllm_releases.release_of(log.release).version,
        "gpu_memory_utilization": log.utilization or 0,
        "max_num_batched_tokens": log.max_num_batched_tokens or 0, "max_num_seqs": log.max_num_seqs or 0,
        "vllm_install": log.install, "cuda_graphs": "eager" if log.enforce_eager else "captured",
        "concurrency": 1,
    }
    if log.max_model_len:
        inputs["context"] = log.max_model_len
    limits = {} if log.language_model_only else dict(log.limit_mm_per_prompt or {})
    for modality in ("image", "video"):  # a modality the flag leaves out keeps vLLM's 999; the flag alone, 0
        inputs[f"{modality}_limit"] = 0 if log.language_model_only else limits.get(modality, DEFAULT_LIMIT_PER_PROMPT)
    if log.prefix_caching is not None:
        inputs["prefix_caching"] = "on" if log.prefix_caching else "off"
    if log.kv_dtype in _KV_DTYPES:
        inputs["kv_dtype"] = _KV_DTYPES[log.kv_dtype]
    if log.speculation:
        inputs["speculation"] = log.speculation
        inputs["num_speculative_tokens"] = log.num_speculative_tokens
        if log.draft_model_id:  # a draft model's catalogue id, or an EAGLE head's (models/data/eagle_heads.py)
            inputs["draft_head" if log.speculation == "eagle" else "draft_model"] = log.draft_model_id
    if log.max_loras:
        inputs["max_loras"] = log.max_loras
        inputs["max_lora_rank"] = str(log.max_lora_rank)
    if dp_attention:
        inputs["attention_parallel"] = DP
    elif log.expert_parallel:
        inputs["expert_parallel"] = EXPERT_PARALLEL_ON
    return inputs


def _is_moe(model_id: str) -> bool:
    from .scenario import catalogue_model  # the calculator's side; imported here, as in rebuild

    return catalogue_model(model_id).is_moe


def _verdict(pool, values: dict) -> str:
    """vLLM's verdict: no block at all (``No available memory for the cache blocks``), not one request of
    max_model_len (``To serve at least one request ...``), or it starts."""
    if pool.available_bytes <= 0 or pool.num_blocks <= 0:
        return NO_BLOCKS
    return FITS if values["max_concurrency"] / pool.placement.data_parallel >= 1 else TOO_LITTLE_KV


def rebuild(log: Log) -> Rebuilt:
    """The log rebuilt by the kv-cache calculator (or why it cannot be)."""
    from . import kv_cache  # the calculator; imported here so that the engines stay catalogue-free

    inputs = inputs_of(log)
    if inputs is None:
        missing = (f"{log.model_id} is not in the catalogue" if not in_catalogue(log.model_id)
                   else layout_problem(log) or "its GPU is not listed")
        return Rebuilt(log, False, "; ".join(log.needs) or missing, {}, "")
    prepared, _errors = kv_cache.SPEC.prepare(inputs)
    computed = kv_cache.compute(prepared)
    values, pool = computed.values, computed.details["pool"]
    if values.get("max_concurrency") is None:  # a setting the calculator does not model leaves the pool out
        why = next((n for n in computed.notes if n.startswith("Not modelled")), "the pool is not computed")
        return Rebuilt(log, False, "; ".join(log.needs) or why, {}, "")
    figures = {}
    for name, output, _words in FIGURES:
        logged = getattr(log, name)
        if logged is None:
            continue
        # the pool as vLLM prints it, negative when it refuses to start (the output clips it at 0); the
        # concurrency of one pool, as each data-parallel engine prints its own (the output sums the ranks)
        got = pool.available_bytes if name == "available_gib" else values[output]
        if name == "loading_gib":
            # "Model loading took" is measured around both loads, the target's and the drafter's
            # (gpu_model_runner.py load_model: the drafter's load_model runs inside the same
            # DeviceMemoryProfiler whose consumed_memory it prints), and around the LoRA slots, which
            # load_model allocates there too ("self.model = self.load_lora_model(...)" before
            # "model_memory_usage = m.consumed_memory": engines.vllm_lora.EVIDENCE)
            got += pool.drafter_bytes + pool.lora_bytes
        if name == "concurrency":
            got = got / pool.placement.data_parallel
        if name in ("loading_gib", "available_gib"):
            got = got / GiB
        figures[name] = (logged, got)
    return Rebuilt(log, True, "; ".join(log.needs), figures, _verdict(pool, values))


def rows() -> list[Rebuilt]:
    return [rebuild(log) for log in LOGS]


def summary(rebuilt: list[Rebuilt]) -> dict[str, tuple[int, float | None, float | None, int]]:
    """Per figure: (logs compared, median |error|, worst |error|, misses) over every log that ran. A log whose
    row ``needs`` a measurement only the hardware gives counts as it comes out (its error is in the median and
    the worst) and as a miss, as is any figure outside the tolerance; a log that could not run (its model not in
    the catalogue) has no error to count, and the page lists it."""
    out = {}
    for name, _output, words in FIGURES:
        compared = [(r, abs(e)) for r in rebuilt if r.ran and (e := r.error(name)) is not None]
        errors = [e for _r, e in compared]
        misses = sum(bool(r.log.needs) or not r.within(name) for r, _e in compared)
        out[words] = (len(errors), statistics.median(errors) if errors else None, max(errors) if errors else None,
                      misses)
    return out


def _pct(err: float | None) -> str:
    return "—" if err is None else f"{err * 100:+.1f} %"


def _figure_cell(r: Rebuilt, name: str) -> str:
    logged = getattr(r.log, name)
    if logged is None:
        return "—"
    shown = f"{logged:,}" if isinstance(logged, int) else f"{logged:g}"
    if name not in r.figures:
        return html.escape(shown)
    got = r.figures[name][1]
    rebuilt = f"{got:,.0f}" if name == "kv_tokens" else f"{got:.2f}"
    return f"{html.escape(shown)} → {html.escape(rebuilt)} ({_pct(r.error(name))})"


def table_html() -> str:
    """The Accuracy page's tables: the summary per figure, then every log."""
    rebuilt = rows()
    passed = sum(r.passes for r in rebuilt)
    ran = sum(r.ran for r in rebuilt)
    needing = sum(r.ran and bool(r.log.needs) for r in rebuilt)
    head = ("<p>" f"{len(rebuilt)} logs; {passed} are within tolerance on every figure they print with the verdict "
            f"right. {needing} need a quantity only their hardware gives (the host's share of a unified memory, "
            "a measurement the source does not size: each row says which, and its error): they are rebuilt "
            "without it and count as misses, their errors in the median and the worst below"
            + (f"; {len(rebuilt) - ran} could not run (their model is not in the catalogue)" if ran < len(rebuilt)
               else "") + ".</p>")
    srows = "".join(
        f"<tr><td>{html.escape(words)}</td><td>{n}</td><td>{_pct(med)}</td><td>{_pct(worst)}</td><td>{misses}</td></tr>"
        for words, (n, med, worst, misses) in summary(rebuilt).items())
    stable = ("<table data-accuracy-summary><thead><tr><th>Figure</th><th>Logs compared</th>"
              "<th>Median |error|</th><th>Worst |error|</th><th>Misses</th></tr></thead><tbody>" + srows
              + "</tbody></table>")
    body = []
    for r in rebuilt:
        log = r.log
        layout = (f"TP {log.tensor_parallel}" + (f" PP {log.pipeline_parallel}" if log.pipeline_parallel > 1 else "")
                  + (f" DP {log.data_parallel}" if log.data_parallel > 1 else "") + (" EP" if log.expert_parallel else "")
                  + (f" LoRA {log.max_loras}×r{log.max_lora_rank}" if log.max_loras else ""))
        verdict = log.verdict + ("" if not r.ran else (" ✓" if r.verdict_right else f" (calculator: {r.verdict})"))
        status = "passes" if r.passes else ("runs; waits for: " if r.ran else "not run: ") + html.escape(r.reason)
        body.append(
            "<tr>"
            f'<td><a href="{html.escape(log.url)}">{html.escape(log.id)}</a></td>'
            f"<td>{html.escape(log.vllm_version.split(' (')[0])}</td>"
            f"<td>{html.escape(log.model)}<br><code>{html.escape(log.model_id or '—')}</code></td>"
            f"<td>{html.escape(log.gpu)}</td><td>{layout}</td><td>{html.escape(log.weights)} / "
            f"{html.escape(log.kv_dtype)}</td>"
            + "".join(f"<td>{_figure_cell(r, name)}</td>" for name, _o, _w in FIGURES)
            + f"<td>{html.escape(verdict)}</td><td>{status}</td></tr>")
    ltable = ("<table data-accuracy-logs><thead><tr><th>Log</th><th>vLLM</th><th>Model (catalogue id)</th>"
              "<th>GPU</th><th>Layout</th><th>Weights / KV</th><th>Model loading (GiB)</th>"
              "<th>Available KV (GiB)</th><th>KV tokens</th><th>Concurrency</th><th>Verdict</th><th>Status</th>"
              "</tr></thead><tbody>" + "".join(body) + "</tbody></table>")
    seen = "".join(
        f'<li><a href="{html.escape(s.url)}">{html.escape(s.url.split("://", 1)[-1])}</a> '
        f"({html.escape(s.where)}): {html.escape(s.reason)}</li>" for s in SEEN)
    left_out = (f"<p>{len(SEEN)} public logs were read for this table and left out, each for the reason "
                "given: a model, GPU or setting the page does not name, an engine or a device the "
                "calculator does not model, figures that do not add up.</p><ul data-accuracy-seen>"
                + seen + "</ul>")
    return head + stable + ltable + left_out + accuracy_sglang.table_html()
