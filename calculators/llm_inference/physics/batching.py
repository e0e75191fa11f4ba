"""Serving a stream of requests from one KV budget: contiguous max-length reservations against
paged blocks, static against continuous batching — the physics behind the paged-attention
calculator (which adds its spec, its outputs and its pictures).

* the workload: :func:`sample_requests`, lognormal prompt and output lengths;
* what each reservation scheme keeps busy: :func:`utilizations` (closed forms, no simulation);
* static and continuous batching over contiguous slots: :func:`static_throughput`,
  :func:`continuous_throughput`, and :func:`contiguous_frames` (the slots at chosen steps);
* continuous batching over paged memory, the scheduler of vLLM's paper: :func:`simulate_paged`,
  over a :class:`~.block_pool.BlockPool`, its steps kept by a :class:`~.frame_recorder.FrameRecorder`.

One step generates one token for every running sequence; prefill is folded into admission.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Any, Sequence

from .block_pool import BlockPool
from .frame_recorder import FrameRecorder

#: Spread (σ of the log) of prompt lengths; output lengths take theirs from a parameter.
PROMPT_SIGMA = 0.6
#: Share of the blocks vLLM keeps free when admitting a request (``watermark=0.01``).
WATERMARK = 0.01


def sample_requests(n: int, mean_prompt: float, mean_output: float, spread: float, cap: int,
                    seed: int) -> list[tuple[int, int]]:
    """``n`` (prompt, output) pairs: lognormal lengths with the given means, prompt + output ≤ ``cap``."""
    rng = random.Random(seed)
    mu_p = math.log(mean_prompt) - PROMPT_SIGMA**2 / 2
    mu_o = math.log(mean_output) - spread**2 / 2
    requests = []
    for _ in range(n):
        p = max(1, round(rng.lognormvariate(mu_p, PROMPT_SIGMA)))
        o = max(1, round(rng.lognormvariate(mu_o, spread)))
        p = min(p, cap - 1)
        o = min(o, cap - p)
        requests.append((p, o))
    return requests


def ceil_sum(n: int, block: int) -> int:
    """Σ_{L=1..n} ceil(L / block): blocks held summed over a sequence's growth from 1 to n tokens."""
    q, r = divmod(n, block)
    return block * q * (q + 1) // 2 + r * (q + 1)


def utilizations(requests: Sequence[tuple[int, int]], block: int, max_len: int) -> dict[str, float]:
    """Time-averaged fraction of reserved KV slots holding tokens, per reservation scheme."""
    held = contiguous = oracle = pow2 = paged = 0
    for p, o in requests:
        held += o * p + o * (o + 1) // 2
        contiguous += o * max_len
        oracle += o * (p + o)
        pow2 += o * min(max_len, 1 << (p + o - 1).bit_length())
        paged += block * (ceil_sum(p + o, block) - ceil_sum(p, block))
    return {
        "contiguous": held / contiguous if contiguous else 0.0,
        "oracle": held / oracle if oracle else 0.0,
        "pow2": held / pow2 if pow2 else 0.0,
        "paged": held / paged if paged else 0.0,
    }


def static_throughput(outputs: Sequence[int], batch: int) -> float:
    """Static batching: tokens per step while requests wait (every batch but the last).

    Each batch of ``batch`` requests runs until its longest output is done; its finished sequences
    idle meanwhile. With a single batch nothing ever waits and the whole run counts.
    """
    if batch <= 0 or not outputs:
        return 0.0
    batches = [outputs[i:i + batch] for i in range(0, len(outputs), batch)]
    saturated = batches[:-1] or batches
    steps = sum(max(b) for b in saturated)
    return sum(sum(b) for b in saturated) / steps if steps else 0.0


def continuous_throughput(outputs: Sequence[int], slots: int) -> float:
    """Continuous batching with fixed contiguous slots: tokens per step while requests wait.

    A finished request's slot is refilled at the next step, so while requests wait every slot makes
    a token each step: exactly ``slots`` tokens per step. If all requests fit at once, the run lasts
    as long as the longest output.
    """
    if slots <= 0 or not outputs:
        return 0.0
    if len(outputs) > slots:
        return float(slots)
    return sum(outputs) / max(outputs)


def simulate_paged(requests: Sequence[tuple[int, int]], block: int, pool_blocks: int, *, watched: int,
                   max_frames: int) -> dict[str, Any]:
    """Continuous batching over a pool of ``pool_blocks`` blocks of ``block`` tokens, one token per step.

    A request is admitted first-come first-served when its blocks fit (keeping :data:`WATERMARK`
    of the pool free while others run); when a growing sequence finds no free block, the most
    recently admitted sequence is preempted: its blocks are freed and it is recomputed later with
    the tokens it had already generated (vLLM's "recompute" preemption).

    Returns the steps taken, the preemptions, the tokens per step while requests waited (every
    running sequence makes one token per step: the mean running batch; over the whole run if none
    waited), a snapshot of the first ``watched`` physical blocks (owner id or None) taken at the
    step when half of the requests have finished, and ``frames``: the state at up to about
    ``max_frames`` evenly spaced steps, the snapshot's and the last one (the first blocks' owners,
    the running, waiting and finished sequences, the free blocks, the preemptions and the blocks
    allocated and freed so far, the tokens held).
    """
    n = len(requests)
    prompt = [p for p, _ in requests]
    out = [o for _, o in requests]
    done_before = [0] * n  # tokens generated before the current admission (kept across preemption)
    state = [0] * n  # 0 waiting, 1 running, 2 finished
    epoch = [0] * n
    t_adm = [0] * n
    len_adm = [0] * n
    waiting = deque(range(n))
    order: list[tuple[int, int]] = []  # (sequence, epoch) in admission order: preemption victims from the end
    # A sequence admitted at step a holding L tokens needs a new block at step t when (t - a + L) % block == 0.
    buckets: list[set[int]] = [set() for _ in range(block)]
    finish_at: dict[int, list[tuple[int, int]]] = {}
    watermark = max(1, int(pool_blocks * WATERMARK))
    pool = BlockPool(pool_blocks, watched)
    recorder = FrameRecorder(max_frames)
    table: list[list[int]] = [[] for _ in range(n)]
    snapshot: list[int | None] = []
    snapshot_step = snapshot_running = 0
    snapshot_taken = False
    nrun, finished, preemptions = 0, 0, 0
    steady_steps = steady_sum = 0

    def frame(step: int, held: int) -> dict[str, Any]:
        return {"step": step, "owner": list(pool.owner), "running": nrun, "waiting": len(waiting),
                "finished": finished, "free": pool.free, "preemptions": preemptions,
                "allocated": pool.allocated, "freed": pool.freed, "held": held}

    t = 0
    limit = 2 * sum(out) + 2 * n + 10  # every step makes progress that is never lost: a safety net only
    while finished < n and t < limit:
        while waiting:  # admission, first come first served
            s = waiting[0]
            length = prompt[s] + done_before[s]
            need = -(-length // block)
            if need > pool.free or (nrun and pool.free - need < watermark):
                break
            waiting.popleft()
            state[s] = 1
            epoch[s] += 1
            t_adm[s], len_adm[s] = t, length
            order.append((s, epoch[s]))
            buckets[(t - length) % block].add(s)
            finish_at.setdefault(t + out[s] - done_before[s] - 1, []).append((s, epoch[s]))
            nrun += 1
            table[s] = pool.take(s, need)
        if nrun == 0:  # cannot happen: every request fits the empty pool
            break
        saturated = bool(waiting)
        needers = buckets[t % block]
        victims = []
        while len(needers) > pool.free:  # out of blocks: preempt the most recently admitted sequence
            v, e = order.pop()
            if state[v] != 1 or epoch[v] != e:
                continue
            buckets[(t_adm[v] - len_adm[v]) % block].discard(v)
            done_before[v] += t - t_adm[v]
            state[v] = 0
            nrun -= 1
            preemptions += 1
            victims.append(v)
            pool.give_back(table[v])
            table[v] = []
        for v in victims:  # back to the head of the queue, earliest first
            waiting.appendleft(v)
        if saturated:  # requests were waiting: the server is saturated; every running sequence makes a token
            steady_steps += 1
            steady_sum += nrun
        growing = list(needers)
        for s, b in zip(growing, pool.take_one_each(growing)):
            table[s].append(b)
        # A frame: the state once this step's blocks are allocated (the tokens it makes included).
        snap = not snapshot_taken and finished * 2 >= n
        if snap or recorder.due(t):
            held = sum(len_adm[i] + t - t_adm[i] + 1 for i in range(n) if state[i] == 1)
            this = frame(t, held)
            if snap:  # the block table of the chart: a frame that thinning keeps
                snapshot, snapshot_step, snapshot_running = list(pool.owner), t, nrun
                snapshot_taken = True
            recorder.record(this, keep=snap)
        for s, e in finish_at.pop(t, ()):  # every running sequence made a token; some are done
            if state[s] != 1 or epoch[s] != e:
                continue
            state[s] = 2
            nrun -= 1
            finished += 1
            buckets[(t_adm[s] - len_adm[s]) % block].discard(s)
            pool.give_back(reversed(table[s]))
            table[s] = []
        t += 1
    frames = recorder.finish(t - 1, lambda: frame(t - 1, 0)) if t else []
    return {
        "steps": t,
        "preemptions": preemptions,
        "throughput": steady_sum / steady_steps if steady_steps else (sum(out) / t if t else 0.0),
        "snapshot": snapshot,
        "snapshot_step": snapshot_step,
        "snapshot_running": snapshot_running,
        "frames": frames,
    }


def contiguous_frames(requests: Sequence[tuple[int, int]], slots: int, max_len: int,
                      steps: Sequence[int], shown: int) -> list[dict[str, Any]]:
    """Continuous batching over ``slots`` contiguous max-length reservations (Orca's schedule), at
    each of ``steps``: the first ``shown`` slots (the request in each, the tokens it holds), and
    the running, waiting and finished requests and the tokens held. The same step convention as
    :func:`simulate_paged`: a request admitted at step a makes its i-th token at step a + i − 1
    and frees its slot at the end of its last step; a freed slot is refilled at the next step."""
    n = len(requests)
    waiting = deque(range(n))
    slot_of: list[int | None] = [None] * slots
    admitted = [0] * n
    finish_at: dict[int, list[int]] = {}
    free_slots = list(range(slots - 1, -1, -1))  # lowest slot first
    finished = 0
    wanted = sorted(set(steps))
    out: list[dict[str, Any]] = []
    t = 0
    for target in wanted:
        while t <= target:
            while waiting and free_slots:
                s, k = waiting.popleft(), free_slots.pop()
                slot_of[k], admitted[s] = s, t
                finish_at.setdefault(t + requests[s][1] - 1, []).append(k)
            if t == target:
                held = [None if s is None else requests[s][0] + t - admitted[s] + 1 for s in slot_of]
                out.append({"step": t, "slots": [(s, h) for s, h in zip(slot_of[:shown], held)],
                            "running": slots - len(free_slots), "waiting": len(waiting), "finished": finished,
                            "held": sum(h for h in held if h is not None)})
            for k in finish_at.pop(t, ()):
                slot_of[k] = None
                free_slots.append(k)
                finished += 1
            free_slots.sort(reverse=True)
            t += 1
    return out
