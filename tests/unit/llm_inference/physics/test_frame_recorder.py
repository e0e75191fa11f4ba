"""The frame recorder: a bounded number of evenly spaced frames over a run of any length, the kept
frame and the last step always among them, in step order."""

from __future__ import annotations

import pytest

from llm_inference.physics.frame_recorder import FrameRecorder


def run(steps: int, limit: int, keep: int | None = None) -> list[int]:
    recorder = FrameRecorder(limit)
    for t in range(steps):
        if recorder.due(t) or t == keep:
            recorder.record({"step": t}, keep=t == keep)
    return [f["step"] for f in recorder.finish(steps - 1, lambda: {"step": steps - 1})]


def test_a_short_run_keeps_every_step():
    assert run(5, 48) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("steps", [49, 100, 1000, 12345])
def test_a_long_run_keeps_evenly_spaced_steps_and_the_last(steps):
    kept = run(steps, 48)
    assert kept[0] == 0 and kept[-1] == steps - 1 and len(kept) <= 48 + 1
    gaps = {b - a for a, b in zip(kept[:-1], kept[1:-1])}
    assert len(gaps) == 1  # evenly spaced, but for the last step


def test_a_kept_frame_stays_whatever_the_spacing():
    kept = run(1000, 10, keep=333)
    assert 333 in kept and kept == sorted(kept)
    assert len(kept) <= 10 + 2
