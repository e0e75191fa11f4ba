"""How close the calculators come to real SGLang startups: each log of
:mod:`llm_inference.engines.sglang_logs`, rebuilt.

A log whose model is in the catalogue is run through the kv-cache calculator with ``engine`` SGLang,
the model picked by name in its shipped format, the log's GPU, TP, release and the flags it printed
(``READER_INPUTS``); its ``max_total_num_tokens`` and K size are compared. The other logs (a model
the catalogue lacks or the page does not name, an offloading fork, an NPU, a refused start) are
rebuilt by the rule alone (engines.sglang) from the figures they print, and say so. The Accuracy
page (accuracy.table_html) shows both, and the median and worst error per engine.
"""

from __future__ import annotations

import html
import statistics
from dataclasses import dataclass

from .engines import sglang
from .engines import sglang_swa
from .engines.sglang_logs import LOGS, SGLangLog

__all__ = ["READER_INPUTS", "SGLangRow", "rebuild", "rows", "summary", "table_html"]

#: A reader's inputs for the logs whose model the catalogue holds (model by name, format as shipped).
READER_INPUTS = {
    # 0.4.6, one 48 GB card: T = 19.67 + 27.57 as printed; 0.88 the 0.4.3–0.4.7 default for one GPU
    "qwen3-14b-48gb-v046": dict(model="qwen3-14b", gpu="h100-sxm", gpus=1, sglang_version="0.4.6",
                                mem_fraction_static=0.88, sglang_free_gib=47.24),
    # 0.5.3 on 8 × H200: T printed, the automatic fraction
    "llama70b-h200-tp8-v053": dict(model="llama-3.1-70b", gpu="h200", gpus=8, sglang_version="0.5.3",
                                   sglang_free_gib=137.29),
    # 4 × H100, --mem-fraction-static 0.93: T not printed (estimated)
    "qwen3-235b-fp8-h100-tp4": dict(model="qwen3-235b-a22b-fp8", gpu="h100-sxm", gpus=4, sglang_version="0.5.3",
                                    mem_fraction_static=0.93),
}


@dataclass(frozen=True)
class SGLangRow:
    log: SGLangLog
    how: str  # "calculator" (model by name), "rule" (from printed figures) or "refusal"
    tokens: tuple[float, float] | None  # (logged, rebuilt) max_total_num_tokens
    k_gib: tuple[float, float] | None  # (logged, rebuilt) K (MLA: KV) size
    refused_right: bool | None = None
    swa_tokens: tuple[float, float] | None = None  # (logged, rebuilt) swa_max_total_num_tokens of a hybrid pool

    def error(self, pair) -> float | None:
        return None if not pair or not pair[0] else pair[1] / pair[0] - 1

    @property
    def passes(self) -> bool:
        if self.how == "refusal":
            return bool(self.refused_right)
        return all(abs(e) <= 0.02 for e in (self.error(self.tokens), self.error(self.k_gib), self.error(self.swa_tokens))
                   if e is not None)


def _cell(log: SGLangLog) -> int:
    s = log.shape
    return sglang.cell_bytes(layers=int(s["layers"]), kv_dtype_bytes=s["kv_dtype_bytes"], kv_heads=int(s["kv_heads"]),
                             head_dim=int(s["head_dim"]), attn_tp=sglang.attention_tp(log.tp, log.dp, log.dp_attention))


def rebuild(log: SGLangLog) -> SGLangRow:
    p = log.parsed
    if log.id in READER_INPUTS:
        from .kv_cache import SPEC  # the calculator, as a reader runs it
        raw = {**SPEC.preset("llama3-8b").values, "engine": "sglang", "weight_dtype": "shipped",
               **READER_INPUTS[log.id]}
        values = SPEC.run(raw).values
        tokens = values["kv_cache_tokens"]
        k = sglang.kv_sizes_gib(tokens, _cell(log), int(log.shape["page_size"]))[0]
        return SGLangRow(log, "calculator", (p["tokens"], tokens), (p.get("k_gib"), k) if "k_gib" in p else None)
    if log.check == "refusal":
        free_at_start = p["free_after_gib"] + p["weights_gib"]
        fraction = log.mem_fraction_static
        if p.get("multimodal"):
            fraction *= sglang.multimodal_factor(log.rules, given=False)
        refused = sglang.profiled_tokens(p["free_after_gib"], free_at_start, fraction, 1) <= 0
        return SGLangRow(log, "refusal", None, None, refused)
    page = int(log.shape["page_size"])
    if log.check == "swa-split":
        s = log.shape
        swa = sglang_swa.swa_tokens_of(int(p["full_tokens"]), s["swa_full_tokens_ratio"], page)
        k, _v = sglang_swa.swa_pool_sizes_gib(int(p["swa_tokens"]), swa_layers=int(s["swa_layers"]),
                                          kv_heads=max(1, int(s["swa_kv_heads"]) // log.tp),
                                          k_head_dim=int(s["k_head_dim"]), v_head_dim=int(s["v_head_dim"]),
                                          kv_dtype_bytes=s["kv_dtype_bytes"], page_size=page)
        return SGLangRow(log, "rule", None, (p["swa_k_gib"], k), swa_tokens=(p["swa_tokens"], swa))
    tokens = None
    if log.check == "tokens":
        t = sglang.profiled_tokens(p["free_after_gib"], p["free_after_gib"] + p["weights_gib"],
                                   log.mem_fraction_static, _cell(log))
        tokens = (p["tokens"], sglang.max_total_num_tokens(t, page))
    elif log.check == "budget":
        tokens = (p["tokens"], sglang.max_total_num_tokens(int(p["available_kv_gib"] * sglang.GIB // _cell(log)), page))
    k = sglang.kv_sizes_gib(int(p["tokens"]), _cell(log), page)[0]
    return SGLangRow(log, "rule", tokens, (p["k_gib"], k) if "k_gib" in p else None)


def rows() -> list[SGLangRow]:
    return [rebuild(log) for log in LOGS]


def summary(rebuilt: list[SGLangRow]) -> dict[str, tuple[int, float | None, float | None]]:
    """Per figure: (logs compared, median |error|, worst |error|) over every row that rebuilds it."""
    out = {}
    for words, attr in (("max_total_num_tokens", "tokens"), ("K size", "k_gib"),
                        ("swa_max_total_num_tokens", "swa_tokens")):
        errors = [abs(e) for r in rebuilt if (e := r.error(getattr(r, attr))) is not None]
        out[words] = (len(errors), statistics.median(errors) if errors else None, max(errors) if errors else None)
    return out


def _pct(err: float | None) -> str:
    return "—" if err is None else f"{err * 100:+.2f} %"


def _cell_html(r: SGLangRow, pair, fmt: str) -> str:
    if not pair or pair[0] is None:
        return "—"
    return f"{format(pair[0], fmt)} → {format(pair[1], fmt)} ({_pct(r.error(pair))})"


def _tokens_html(r: SGLangRow) -> str:
    """max_total_num_tokens, or a hybrid pool's SWA count (its K size is then the SWA pool's)."""
    if r.tokens is None and r.swa_tokens is not None:
        return "SWA pool: " + _cell_html(r, r.swa_tokens, ',.0f')
    return _cell_html(r, r.tokens, ',.0f')


_HOW = {"calculator": "kv-cache calculator, model by name as shipped",
        "rule": "the rule, from the figures printed (model not in the catalogue or not named)",
        "refusal": "refused start, from the figures printed"}


def table_html() -> str:
    """The SGLang section of the Accuracy page: the summary, then every log."""
    rebuilt = rows()
    srows = "".join(f"<tr><td>{html.escape(w)}</td><td>{n}</td><td>{_pct(m)}</td><td>{_pct(x)}</td></tr>"
                    for w, (n, m, x) in summary(rebuilt).items())
    stable = ("<table data-accuracy-sglang-summary><thead><tr><th>SGLang figure</th><th>Logs compared</th>"
              "<th>Median |error|</th><th>Worst |error|</th></tr></thead><tbody>" + srows + "</tbody></table>")
    body = []
    for r in rebuilt:
        log = r.log
        status = ("passes" if r.passes else "misses") + (f"; needs: {log.needs}" if log.needs else "")
        if r.how == "refusal":
            status = ("refused, as logged" if r.refused_right else "calculator would start: miss")
        body.append(
            "<tr>"
            f'<td><a href="{html.escape(log.url)}">{html.escape(log.id)}</a></td>'
            f"<td>{html.escape(log.release.split(' (')[0])}</td><td>{html.escape(log.model)}</td>"
            f"<td>{html.escape(log.gpu)}</td><td>TP {log.tp}" + (f" DP {log.dp}" if log.dp > 1 else "") + "</td>"
            f"<td>{_tokens_html(r)}</td><td>{_cell_html(r, r.k_gib, '.2f')}</td>"
            f"<td>{html.escape(_HOW[r.how])}</td><td>{html.escape(status)}</td></tr>")
    ltable = ("<table data-accuracy-sglang-logs><thead><tr><th>Log</th><th>SGLang</th><th>Model</th><th>GPU</th>"
              "<th>Layout</th><th>max_total_num_tokens</th><th>K size (GB)</th><th>Rebuilt by</th><th>Status</th>"
              "</tr></thead><tbody>" + "".join(body) + "</tbody></table>")
    head = (f"<h2>SGLang</h2><p>{len(rebuilt)} public SGLang startup logs; "
            f"{sum(r.how == 'calculator' for r in rebuilt)} run through the kv-cache calculator with the engine "
            f"set to SGLang, the others rebuilt by the same rule from the figures they print; "
            f"{sum(r.passes for r in rebuilt)} within 2 % on every figure (refusals: refused).</p>")
    return head + stable + ltable
