"""The serving physics behind the paged-attention calculator (``llm_inference/physics/batching.py``):
the workload's lengths, static and continuous throughput against numpy, the paged scheduler
against a plain per-token reference, its frames and snapshot, the contiguous schedule's frames."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pytest

from llm_inference import paged_attention
from llm_inference.physics import batching

#: The calculator's picture: the block table's first blocks, and the steps a reader can watch.
PICTURE = {"watched": paged_attention.GRID_ROWS * paged_attention.GRID_COLS, "max_frames": paged_attention.MAX_FRAMES}


def test_ceil_sum_closed_form():
    for block in (1, 3, 16, 256):
        for n in (0, 1, 15, 16, 17, 1000):
            assert batching.ceil_sum(n, block) == sum(math.ceil(k / block) for k in range(1, n + 1))


def test_sampled_lengths_have_the_requested_means():
    requests = batching.sample_requests(20000, 300, 500, 0.8, 10**9, seed=3)
    prompts = np.array([p for p, _ in requests])
    outputs = np.array([o for _, o in requests])
    assert prompts.mean() == pytest.approx(300, rel=0.03)
    assert outputs.mean() == pytest.approx(500, rel=0.05)
    assert np.log(outputs).std() == pytest.approx(0.8, rel=0.05)


def test_requests_respect_the_cap():
    for p, o in batching.sample_requests(500, 3000, 3000, 1.5, 2048, seed=1):
        assert p >= 1 and o >= 1 and p + o <= 2048


# -- throughput: static batching against numpy, the paged scheduler against a reference ------------


def test_static_throughput_against_numpy():
    rng = np.random.default_rng(0)
    outputs = rng.integers(1, 500, size=100).tolist()
    batch = 8
    full = np.array(outputs[: (len(outputs) - 1) // batch * batch]).reshape(-1, batch)
    # 100 = 12 full batches of 8 + a last batch of 4: the last one is the drain, not counted.
    expected = full.sum() / full.max(axis=1).sum()
    assert batching.static_throughput(outputs, batch) == pytest.approx(expected, rel=1e-12)
    assert batching.static_throughput([5, 3], 8) == pytest.approx(8 / 5)  # one batch: the whole run counts
    assert batching.continuous_throughput(outputs, batch) == batch
    assert batching.continuous_throughput([5, 3], 8) == pytest.approx(8 / 5)


def reference_paged(requests, block, pool):
    """A plain per-token simulation of the same policy: FCFS admission with a 1% watermark, on-demand
    blocks, preemption of the latest admitted sequence (recompute, generated tokens kept)."""
    n = len(requests)
    held = [0] * n
    generated = [0] * n
    waiting = deque(range(n))
    running: list[int] = []
    free = pool
    watermark = max(1, int(pool * batching.WATERMARK))
    finished = steps = preemptions = steady_steps = steady_tokens = 0
    while finished < n:
        while waiting:
            s = waiting[0]
            length = requests[s][0] + generated[s]
            need = math.ceil(length / block)
            if need > free or (running and free - need < watermark):
                break
            waiting.popleft()
            held[s] = length
            free -= need
            running.append(s)
        saturated = bool(waiting)
        needers = [s for s in running if held[s] % block == 0]
        victims = []
        while len(needers) > free:
            v = running.pop()
            free += math.ceil(held[v] / block)
            preemptions += 1
            victims.append(v)
            if v in needers:
                needers.remove(v)
        for v in victims:
            waiting.appendleft(v)
        free -= len(needers)
        if saturated:
            steady_steps += 1
            steady_tokens += len(running)
        done = []
        for s in running:
            held[s] += 1
            generated[s] += 1
            if generated[s] == requests[s][1]:
                done.append(s)
        for s in done:
            running.remove(s)
            free += math.ceil(held[s] / block)
            finished += 1
        steps += 1
        assert free >= 0
    total = sum(o for _, o in requests)
    throughput = steady_tokens / steady_steps if steady_steps else total / steps
    return steps, preemptions, throughput


@pytest.mark.parametrize(
    "n,mean_prompt,mean_output,spread,block,pool",
    [
        (30, 100, 100, 0.5, 16, 64),
        (40, 50, 200, 1.0, 8, 100),
        (25, 300, 50, 0.3, 32, 40),
        (30, 20, 300, 1.5, 1, 900),
        (20, 60, 60, 0.0, 4, 5000),  # everything fits: no waiting, no preemption
        (50, 200, 400, 0.8, 128, 12),
    ],
)
def test_scheduler_matches_a_per_token_reference(n, mean_prompt, mean_output, spread, block, pool):
    requests = batching.sample_requests(n, mean_prompt, mean_output, spread, pool * block, seed=7)
    sim = batching.simulate_paged(requests, block, pool, **PICTURE)
    steps, preemptions, throughput = reference_paged(requests, block, pool)
    assert sim["steps"] == steps
    assert sim["preemptions"] == preemptions
    assert sim["throughput"] == pytest.approx(throughput, rel=1e-12)


def test_snapshot_is_a_consistent_block_table():
    sim = batching.simulate_paged(batching.sample_requests(200, 400, 400, 0.6, 2048, seed=1), 16, 4096, **PICTURE)
    cells = sim["snapshot"]
    assert len(cells) == PICTURE["watched"]
    owners = [c for c in cells if c is not None]
    assert owners and all(isinstance(c, int) and 0 <= c < 200 for c in owners)
    assert cells.count(None) < len(cells) // 2  # the pool is busy half-way through
    # some sequence's blocks are physically scattered: not one contiguous run
    runs = {}
    for i, c in enumerate(cells):
        if c is not None:
            runs.setdefault(c, []).append(i)
    assert any(b[-1] - b[0] + 1 > len(b) for b in runs.values())


def test_paged_frames_follow_the_run():
    requests = batching.sample_requests(200, 400, 400, 0.6, 2048, seed=1)
    sim = batching.simulate_paged(requests, 16, 4096, **PICTURE)
    frames = sim["frames"]
    steps = [f["step"] for f in frames]
    assert steps == sorted(set(steps)) and steps[0] == 0 and steps[-1] == sim["steps"] - 1
    assert 2 <= len(frames) <= PICTURE["max_frames"] + 2 and sim["snapshot_step"] in steps
    assert frames[-1]["finished"] == 200 and frames[-1]["waiting"] == 0
    for f in frames:
        assert f["running"] + f["waiting"] + f["finished"] == 200
        assert 0 <= f["free"] <= 4096 and f["held"] <= (4096 - f["free"]) * 16
        assert f["allocated"] - f["freed"] == 4096 - f["free"]  # every block in use was allocated, not freed
    snap = frames[steps.index(sim["snapshot_step"])]
    assert snap["owner"] == sim["snapshot"]
    for a, b in zip(frames, frames[1:]):
        assert b["finished"] >= a["finished"] and b["preemptions"] >= a["preemptions"]


def test_contiguous_frames_serve_in_order_and_fill_every_slot():
    requests = batching.sample_requests(60, 100, 100, 0.5, 2048, seed=3)
    states = batching.contiguous_frames(requests, 8, 2048, range(0, 3000, 7), 8)
    for s in states:
        assert s["running"] + s["waiting"] + s["finished"] == 60
        assert s["waiting"] == 0 or s["running"] == 8  # while requests wait every slot is busy
    assert states[-1]["finished"] == 60
    # The tokens held by the shown slots are the prompt plus the tokens made so far.
    first = states[0]["slots"][0]
    assert first == (0, requests[0][0] + 1)
