"""PagedAttention and continuous batching: how much reserved KV memory holds real tokens, and what it buys.

A seeded stream of requests, each with a prompt of ``p`` tokens and an output of ``o`` tokens
(lognormal lengths; a request never exceeds the max-length limit), is served three ways from the
same KV budget of ``kv_budget`` token slots:

* **Static batching, contiguous reservation** (pre-2023 servers such as FasterTransformer): every
  request reserves ``max_len`` contiguous slots, so ``kv_budget // max_len`` requests form a batch;
  the batch runs until its *longest* output is done, and only then does the next batch start.
* **Continuous batching, contiguous reservation** (Orca): the same slots, but a finished request's
  slot is refilled at the next step.
* **Continuous batching, paged memory** (vLLM's PagedAttention, Kwon et al., 2023): the cache is cut
  into blocks of ``block_size`` tokens, allocated on demand from a free list as a sequence grows.
  A request is admitted first-come first-served when its prompt's blocks fit (keeping 1% of the
  blocks free, as vLLM's watermark does); when a growing sequence finds no free block, the most
  recently admitted sequence is preempted: its blocks are freed and it is recomputed later with the
  tokens it had already generated (vLLM's "recompute" preemption).

One step generates one token for every running sequence; prefill is folded into admission (it costs
no step). Throughput is measured in tokens per step *while requests wait*, when the server is
saturated (over the whole run if nothing ever waits): a finite stream ends with a drain in which one
long answer can run alone for hundreds of steps, and counting it would measure that answer instead
of the server. The gain factors exactly:

    throughput_gain = gain_batching (continuous vs static, contiguous) × gain_paging (paged vs contiguous)

The vLLM paper's 2–4× compares vLLM with Orca, which already batches continuously: that is
``gain_paging``. Against static batching (FasterTransformer) the paper reports up to 22×.

Utilization is time-averaged over each sequence's decode steps (the tokens held at step ``j`` are
``p + j``), against what its reservation holds at that step:

    contiguous: Σ_i Σ_j (p_i + j) / Σ_i o_i · max_len
    paged:      Σ_i Σ_j (p_i + j) / Σ_i Σ_j block_size · ceil((p_i + j) / block_size)

so the paged waste is only the unfilled tail of each sequence's last block. The vLLM paper measured
20.4% (max-length reservation), 26.8% (power-of-two) and 38.2% (exact-length oracle) of KV memory
holding token states in earlier systems, against 96.3% with PagedAttention. Its power-of-two and
oracle figures also lose memory to external fragmentation between reservations; this model counts
only what each reservation leaves empty, so its figures for those two schemes are higher.

The serving itself — the workload, the schedulers, the block pool, the recorded steps — is
physics, in :mod:`llm_inference.physics.batching`; this module holds the calculator: its spec,
:func:`compute` (the outputs) and :func:`chart` (the block table, a reader can step through, and
the utilization bars).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from course_calculators.spec import Calculator, Chart, Computed, Number, Output, Preset
from course_calculators.units import format_count, format_fraction, format_ratio

from . import answers
from .physics.batching import (contiguous_frames, continuous_throughput, sample_requests, simulate_paged,
                               static_throughput, utilizations)

#: The block-table picture: the first ROWS × COLS physical blocks of the pool.
GRID_ROWS = 8
GRID_COLS = 16
#: The steps a reader can watch: at most this many, evenly spaced over the run (every step of a
#: short run, every 2nd, 4th, … of a longer one), plus its last step and the one when half of the
#: requests had finished: within the chart's limit (Chart.MAX_FRAMES, 120). The default run's
#: 1,777 steps are recorded every 16th, the steps in which each running sequence of 16-token
#: blocks takes one block more; the player shows them all in the chart's play_seconds.
MAX_FRAMES = 118

PARAMS = (
    Number("block_size", "Block size", 16, 1, 256, unit="tokens", scale="log",
           help="Tokens per KV block (vLLM's default is 16). 1 wastes nothing but needs a huge block table."),
    Number("requests", "Requests", 200, 10, 500,
           help="Requests in the simulated stream, all waiting at the start."),
    Number("max_len", "Max-length reservation", 2048, 256, 32768, unit="tokens", scale="log",
           help="The longest a request may grow (prompt + output): what a contiguous server reserves for each."),
    Number("mean_prompt", "Mean prompt length", 400, 1, 8192, unit="tokens", scale="log"),
    Number("mean_output", "Mean output length", 400, 1, 8192, unit="tokens", scale="log"),
    Number("length_spread", "Output-length spread", 0.6, 0, 2, step=0.05, integer=False,
           help="σ of the logarithm of output lengths (lognormal): 0 makes every output the mean length; "
                "1.5 gives a long tail of very long answers."),
    Number("kv_budget", "KV cache budget", 65536, 32768, 1048576, unit="tokens", scale="log",
           help="Token slots of KV memory (65,536 × 128 KiB = 8 GiB for Llama 3 8B)."),
    Number("seed", "Random seed", 1, 0, 9999, help="The same seed gives the same stream of requests."),
)

OUTPUTS = (
    Output("utilization_contiguous", "KV memory holding tokens, contiguous max-length reservation",
           "fraction", primary=True),
    Output("utilization_paged", "KV memory holding tokens, paged blocks", "fraction", primary=True),
    Output("throughput_gain", "Throughput, continuous + paged vs static + contiguous", "ratio", primary=True,
           help="Tokens generated per step while requests wait; both serve the same requests from the same KV budget."),
    Output("batch_contiguous", "Sequences that fit, contiguous", "count",
           help="KV budget ÷ max length: the batch size of both contiguous servers."),
    Output("batch_paged", "Sequences running, paged (mean while requests wait)", "count"),
    Output("gain_paging", "Paged vs contiguous, both batching continuously", "ratio",
           help="The comparison behind the vLLM paper's 2–4× over Orca: the same scheduler, more sequences "
                "in memory."),
    Output("gain_batching", "Continuous vs static batching, both contiguous", "ratio"),
    Output("utilization_pow2", "KV memory holding tokens, power-of-two reservation", "fraction"),
    Output("utilization_oracle", "KV memory holding tokens, exact-length reservation (oracle)", "fraction"),
    Output("tokens_per_step_static", "Tokens per step, static + contiguous", "count"),
    Output("tokens_per_step_continuous", "Tokens per step, continuous + contiguous", "count"),
    Output("tokens_per_step_paged", "Tokens per step, continuous + paged", "count"),
    Output("steps_paged", "Steps to serve every request, continuous + paged", "count"),
    Output("preemptions", "Preemptions (paged)", "count",
           help="Sequences evicted when a growing sequence found no free block, recomputed later."),
    Output("blocks_total", "Physical blocks in the pool", "count"),
    Output("mean_length", "Mean request length (prompt + output)", "count"),
)
OUTPUTS = answers.grouped(OUTPUTS, answers.PAGED_ATTENTION_GROUPS)

#: The default workload, spelled out in every preset so that each notice holds whatever was set before.
_WORKLOAD = {"requests": 200, "max_len": 2048, "mean_prompt": 400, "mean_output": 400, "length_spread": 0.6,
             "kv_budget": 65536, "seed": 1}

PRESETS = (
    Preset("block-16", "Block 16 (vLLM default)", {**_WORKLOAD, "block_size": 16},
           "Contiguous max-length reservation keeps only about a third of KV memory busy with tokens; "
           "16-token blocks waste just the tail of each last block (about 1%), so over three times as many "
           "sequences run at once (about 107 against 32)."),
    Preset("block-1", "Block 1", {**_WORKLOAD, "block_size": 1},
           "No waste at all — but 65,536 blocks to track for barely 2% more sequences than 16-token blocks: "
           "why engines settle on 16 or 32."),
    Preset("block-128", "Block 128", {**_WORKLOAD, "block_size": 128},
           "Huge blocks bring internal fragmentation back: each sequence can waste up to 127 slots, "
           "utilization falls to about 92% and about 96 sequences fit instead of 107."),
    Preset("long-tail", "Long-tail outputs", {**_WORKLOAD, "block_size": 16, "length_spread": 1.5},
           "A few very long answers: a static batch waits for its longest while its finished slots idle, "
           "so continuous batching alone gains almost 5× and the total reaches about 22×."),
)


def compute(p: Mapping[str, Any]) -> Computed:
    notes: list[str] = []
    block, max_len, budget = p["block_size"], p["max_len"], p["kv_budget"]
    pool = budget // block
    cap = min(max_len, pool * block)  # a request must fit the whole pool, too
    requests = sample_requests(p["requests"], p["mean_prompt"], p["mean_output"], p["length_spread"],
                               cap, p["seed"])
    outputs = [o for _, o in requests]
    util = utilizations(requests, block, max_len)
    batch_contiguous = budget // max_len
    static = static_throughput(outputs, batch_contiguous)
    continuous = continuous_throughput(outputs, batch_contiguous)
    sim = simulate_paged(requests, block, pool, watched=GRID_ROWS * GRID_COLS, max_frames=MAX_FRAMES)
    paged = sim["throughput"]
    truncated = sum(1 for q, o in requests if q + o == cap)
    if truncated:
        notes.append(f"{format_count(truncated)} of {format_count(len(requests))} requests reached the "
                     f"{format_count(cap)}-token limit and were cut there.")
    if p["mean_prompt"] + p["mean_output"] > max_len:
        notes.append("The mean request is longer than the max length: most requests are cut short.")
    if util["paged"] < util["contiguous"]:
        notes.append(f"Blocks of {format_count(block)} tokens waste more than the max-length reservation: "
                     f"choose a max length that is a multiple of the block size.")
    if budget % block:
        notes.append(f"The KV budget is not a multiple of the block size: {format_count(budget % block)} "
                     f"token slots stay unused.")
    if sim["preemptions"]:
        notes.append(f"{format_count(sim['preemptions'])} preemption(s): a growing sequence found no free block, "
                     f"so the most recently admitted one was evicted and recomputed later.")
    values = {
        "utilization_contiguous": util["contiguous"],
        "utilization_paged": util["paged"],
        "throughput_gain": paged / static if static else 1.0,
        "batch_contiguous": batch_contiguous,
        "batch_paged": round(paged, 1),
        "gain_paging": paged / continuous if continuous else 1.0,
        "gain_batching": continuous / static if static else 1.0,
        "utilization_pow2": util["pow2"],
        "utilization_oracle": util["oracle"],
        "tokens_per_step_static": round(static, 2),
        "tokens_per_step_continuous": round(continuous, 2),
        "tokens_per_step_paged": round(paged, 2),
        "steps_paged": sim["steps"],
        "preemptions": sim["preemptions"],
        "blocks_total": pool,
        "mean_length": round(sum(q + o for q, o in requests) / len(requests), 1),
    }
    steps = [f["step"] for f in sim["frames"]]
    contiguous = contiguous_frames(requests, batch_contiguous, max_len, steps, GRID_ROWS)
    return Computed(values, notes, details={"sim": sim, "contiguous": contiguous, "requests": len(requests)})


def _runs(blocks: list[int]) -> int:
    """How many separate runs of consecutive physical blocks a list of blocks makes."""
    return 1 + sum(1 for a, b in zip(blocks, blocks[1:]) if b != a + 1)


def _grid_summary(p: Mapping[str, Any], cells: Sequence[int | None], step: int, running: int, pool: int,
                  when: str) -> str:
    """The block table at one step, in words: how many of the first blocks hold tokens of how
    many sequences, and one sequence whose blocks lie scattered."""
    owners: dict[int, list[int]] = {}
    for index, owner in enumerate(cells):
        if owner is not None:
            owners.setdefault(owner, []).append(index)
    used = sum(len(v) for v in owners.values())
    free = len(cells) - used
    size = format_count(p["block_size"])
    text = (f"Block table at step {format_count(step)}{when}: "
            f"the first {len(cells)} of {format_count(pool)} physical blocks of {size} token"
            f"{'' if p['block_size'] == 1 else 's'} each; {used} hold tokens of {len(owners)} sequence"
            f"{'' if len(owners) == 1 else 's'}, {free} {'is' if free == 1 else 'are'} free. "
            f"{format_count(running)} sequences were running in the whole pool.")
    scattered = [(s, b) for s, b in owners.items() if _runs(b) > 1]
    if scattered:
        s, b = max(scattered, key=lambda item: (_runs(item[1]), -item[0]))
        shown = ", ".join(str(i) for i in b[:8]) + (", …" if len(b) > 8 else "")
        text += (f" Sequence {s} owns blocks {shown} here: logically one sequence, physically "
                 f"{_runs(b)} separate runs.")
    return text


def _rows(cells: Sequence[int | None]) -> list[dict[str, Any]]:
    return [{"name": f"Blocks {r * GRID_COLS}–{r * GRID_COLS + GRID_COLS - 1}",
             "values": list(cells[r * GRID_COLS:(r + 1) * GRID_COLS])} for r in range(GRID_ROWS)]


def _contiguous_rows(state: Mapping[str, Any], max_len: int) -> list[dict[str, Any]]:
    """The first reservations as rows of GRID_COLS cells of max_len / GRID_COLS tokens each: the
    request's id where it holds tokens, −(id + 1) where it is reserved but still empty, None for
    a free slot."""
    rows = []
    for k, (seq, held) in enumerate(state["slots"]):
        if seq is None:
            values: list[int | None] = [None] * GRID_COLS
        else:
            values = [seq if c * max_len / GRID_COLS < held else -(seq + 1) for c in range(GRID_COLS)]
        rows.append({"name": f"Slot {k + 1}", "values": values})
    return rows


def _utilization(held: int, reserved: int) -> float:
    return held / reserved if reserved else 0.0


def _frames(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The steps of both servers a reader can watch, and the timeline."""
    sim, contiguous, n = details["sim"], details["contiguous"], details["requests"]
    pool, block, max_len, slots = v["blocks_total"], p["block_size"], p["max_len"], v["batch_contiguous"]
    frames, timeline = [], {"paged": [], "contiguous": [], "paged_done": [], "contiguous_done": []}
    previous = {"allocated": 0, "freed": 0}
    for f, c in zip(sim["frames"], contiguous):
        util_paged = _utilization(f["held"], (pool - f["free"]) * block)
        util_contiguous = _utilization(c["held"], c["running"] * max_len)
        allocated, freed = f["allocated"] - previous["allocated"], f["freed"] - previous["freed"]
        previous = f
        snapshot = f["step"] == sim["snapshot_step"] and sim["snapshot"]
        when = ", when half of the requests had finished" if snapshot else ""
        text = _grid_summary(p, f["owner"], f["step"], f["running"], pool, when)
        text += (f" Paged: {format_count(f['waiting'])} waiting, {format_count(f['finished'])} of "
                 f"{format_count(n)} served, {format_count(f['preemptions'])} preemption"
                 f"{'' if f['preemptions'] == 1 else 's'} so far; {format_count(allocated)} blocks allocated and "
                 f"{format_count(freed)} freed since the previous frame; {format_fraction(util_paged)} of the "
                 f"blocks in use hold tokens. Contiguous: {format_count(c['running'])} of {format_count(slots)} "
                 f"reservations running, {format_count(c['waiting'])} waiting, {format_count(c['finished'])} served; "
                 f"{format_fraction(util_contiguous)} of the reserved slots hold tokens.")
        frames.append({
            "label": f"Step {format_count(f['step'])}",
            "summary": text,
            "series": _rows(f["owner"]),
            "stats": [
                ["Paged: running, waiting, served", f"{format_count(f['running'])}, {format_count(f['waiting'])}, "
                                                    f"{format_count(f['finished'])}"],
                ["Paged: free blocks", f"{format_count(f['free'])} of {format_count(pool)}"],
                ["Paged: blocks allocated, freed since the last frame", f"{format_count(allocated)}, {format_count(freed)}"],
                ["Paged: preemptions so far", format_count(f["preemptions"])],
                ["Contiguous: running, waiting, served", f"{format_count(c['running'])}, {format_count(c['waiting'])}, "
                                                         f"{format_count(c['finished'])}"],
                ["KV memory holding tokens now", f"paged {format_fraction(util_paged)}, "
                                                 f"contiguous {format_fraction(util_contiguous)}"],
            ],
            "panels": [{"kind": "grid",
                        "title": f"Contiguous: the first {len(c['slots'])} of {format_count(slots)} reservations of "
                                 f"{format_count(max_len)} tokens (a cell is {format_count(max_len / GRID_COLS)} tokens; "
                                 f"pale: reserved, still empty)",
                        "rows": _contiguous_rows(c, max_len)}],
        })
        timeline["paged"].append(round(util_paged * 100, 2))
        timeline["contiguous"].append(round(util_contiguous * 100, 2))
        timeline["paged_done"].append(round(f["finished"] / n * 100, 2))
        timeline["contiguous_done"].append(round(c["finished"] / n * 100, 2))
    series = [
        {"name": "Paged: KV memory holding tokens", "values": timeline["paged"]},
        {"name": "Contiguous: KV memory holding tokens", "values": timeline["contiguous"]},
        {"name": "Paged: requests served", "values": timeline["paged_done"]},
        {"name": "Contiguous: requests served", "values": timeline["contiguous_done"]},
    ]
    return frames, {"title": "Over the run", "y_label": "%", "series": series}


def chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> list[Chart]:
    frames, timeline = _frames(p, v, details)
    # The chart shows the run's first step: the page's HTML, print and readers without JavaScript
    # see what the player opens on, and the player plays from there.
    shown = 0
    grid = Chart(
        kind="grid",
        title="Block table: which sequence owns each physical block",
        x_label="Physical block (column)",
        y_label="Row of blocks",
        labels=[str(c) for c in range(GRID_COLS)],
        series=frames[shown]["series"],
        summary=frames[shown]["summary"],
        frames=frames,
        frame=shown,
        timeline=timeline,
    )
    schemes = [
        ("Contiguous, max length", v["utilization_contiguous"]),
        ("Contiguous, power of 2", v["utilization_pow2"]),
        ("Contiguous, exact length", v["utilization_oracle"]),
        (f"Paged, {format_count(p['block_size'])}-token blocks", v["utilization_paged"]),
    ]
    bars = Chart(
        kind="bar",
        title="Share of reserved KV memory holding tokens",
        x_label="Reservation scheme",
        y_label="% of reserved KV slots",
        labels=[name for name, _ in schemes],
        series=[{"name": "utilization", "values": [round(u * 100, 2) for _, u in schemes], "kind": "bar"}],
        marker=len(schemes) - 1,
        summary="Share of reserved KV memory holding tokens: "
                + "; ".join(f"{name} {format_fraction(u)}" for name, u in schemes)
                + f". Continuous batching with paged memory generates {format_ratio(v['throughput_gain'])} "
                  f"the tokens per step of static batching with contiguous reservation.",
    )
    return [grid, bars]


SPEC = Calculator(
    id="paged-attention",
    title="PagedAttention and continuous batching",
    summary="A seeded stream of requests served from one KV budget: contiguous max-length reservation "
            "against paged blocks, static against continuous batching, and the block table itself.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    answer=answers.paged_attention,
    answers=answers.PAGED_ATTENTION,
    # A run simulates the whole stream, and each entry of the table before Python carries its
    # block grid: past the nearest stops of each control, ten more moves keep the table under its
    # size limit with the pictures; more moves would make it drop them.
    neighbours=10,
)
