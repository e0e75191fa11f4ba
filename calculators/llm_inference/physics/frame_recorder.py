"""The steps of a simulation a reader can watch: at most a bounded number, evenly spaced over a run
whose length is not known in advance, plus the ones a chart must show.

Every step is recorded at first; when the recorder is full it drops every other frame and records
half as often from then on (every 2nd step, then every 4th, …), so that the frames stay evenly
spaced and their number bounded whatever the run's length. A frame can be *kept* whatever the
spacing (the step a chart shows, for instance), and the run's last step closes the record.
"""

from __future__ import annotations

from typing import Any, Callable


class FrameRecorder:
    """Frames (each a mapping with its ``step``) of a run, at most about ``limit`` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.stride = 1
        self.frames: list[dict[str, Any]] = []
        self.kept: dict[str, Any] | None = None

    def due(self, step: int) -> bool:
        """Whether ``step`` falls on the current spacing."""
        return step % self.stride == 0

    def record(self, frame: dict[str, Any], *, keep: bool = False) -> None:
        """Record ``frame`` if its step is due; ``keep`` keeps it whatever the spacing."""
        if keep:
            self.kept = frame
        if self.due(frame["step"]):
            self.frames.append(frame)
            if len(self.frames) >= self.limit:  # too many: keep every other, record half as often
                self.frames = self.frames[::2]
                self.stride *= 2

    def finish(self, last_step: int, last: Callable[[], dict[str, Any]]) -> list[dict[str, Any]]:
        """The frames, in step order: the recorded ones, the last step's and the kept one (unless
        thinned into the others already). The last step's frame is ``last()``, the state the run
        ends in, even when that step was recorded as it ran (a frame taken during the step, before
        what finishes at it)."""
        frames = list(self.frames)
        if last_step >= 0:
            if frames and frames[-1]["step"] == last_step:
                frames.pop()
            frames.append(last())
        if self.kept is not None and all(f["step"] != self.kept["step"] for f in frames):
            frames = sorted([*frames, self.kept], key=lambda f: f["step"])
        return frames
