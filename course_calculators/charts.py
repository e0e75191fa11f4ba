"""The chart schema: the data of one chart, in display units, that the browser draws (Python
decides every number; the page only maps it onto Chart.js, SVG or elements)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

__all__ = ["Chart", "grid_row", "frame_ms", "HELD", "RESERVED", "FREE"]

#: A grid cell's states, as the painters name them (the CSS classes ``calc__cell--<state>``).
HELD, RESERVED, FREE = "held", "reserved", "free"
#: Degrees around the colour wheel between consecutive owners: neighbours (sequence 7 and 8) get
#: clearly different hues, and the wheel comes round again only after many owners.
HUE_STEP = 47


def grid_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """One row of a grid as the painters receive it: ``values`` the owner of each cell (None when
    free), ``states`` each cell's state (:data:`HELD` tokens of its owner, :data:`RESERVED` for
    it but still empty, :data:`FREE`) and ``hues`` each cell's colour, a hue in degrees (None
    when free). An author writes a reserved cell as ``-(owner + 1)``; nothing downstream decodes it."""
    # Comprehensions, no call per cell: a simulation's frames hold tens of thousands of cells per
    # run. The check tries `type(value) is int` first, so that a plain owner costs no call.
    values = row["values"]
    for value in values:
        if value is not None and type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"grid row {row.get('name')!r}: a cell is an integer owner or None, got {value!r}")
    owners = [v if v is None or v >= 0 else -v - 1 for v in values]
    return {**row, "values": owners,
            "states": [FREE if v is None else RESERVED if v < 0 else HELD for v in values],
            "hues": [None if owner is None else owner * HUE_STEP % 360 for owner in owners]}


#: The longest a step of a recorded run shows at the default speed: a run of a few steps plays
#: faster than its ``play_seconds`` rather than leaving a reader before a still picture.
MAX_FRAME_MS = 1500


def frame_ms(count: int, play_seconds: float) -> int:
    """How long each of ``count`` recorded steps shows at the player's default speed: the run from
    its first step to its last in ``play_seconds`` (a run's length varies with its inputs, and a
    frame recorder keeps between half and all of its limit), at most :data:`MAX_FRAME_MS`."""
    if count < 2:
        return MAX_FRAME_MS
    return max(1, min(MAX_FRAME_MS, round(play_seconds * 1000 / (count - 1))))


@dataclass(frozen=True)
class Chart:
    """Data for one chart, in display units; the browser draws it, Python decides every number.

    ``labels`` are the x-axis category labels; each series is ``{"name", "values", "kind"}`` with
    ``kind`` ``line`` (default), ``bar`` or ``rule`` (a horizontal reference line such as a limit).
    ``marker`` optionally highlights one label index (the current setting).

    Chart kinds: ``line`` and ``bar`` (x categories ``labels``, one value per label per series) and
    ``grid`` (a picture of a table such as PagedAttention's block table: each series is a row,
    ``name`` its label, ``values`` one cell each — an integer owner id, ``-(id + 1)`` for a cell
    reserved for that owner but still empty, or None for a free cell; :meth:`to_dict` hands the
    painters each row as :func:`grid_row` makes it: ``values`` the owners, ``states`` and ``hues``
    per cell, so that no painter decodes a cell or picks a colour),
    and ``xy`` (numeric axes, ``x_log``/``y_log`` for log scales; each series holds ``points``,
    ``[[x, y], …]``, drawn as a ``line``, as separate ``points`` such as measurements, or as one
    ``marker`` point; an optional ``point_labels`` names each point, for tooltips and the table).
    ``summary`` is the text alternative read by screen readers and shown without JavaScript.

    ``frames`` makes the chart a simulation a reader can step through: a bounded list of steps,
    each a mapping with ``label`` ("Step 120") and ``summary`` (the text alternative at that step),
    and optionally ``series`` (the chart's series at that step, same shapes), ``marker``, ``stats``
    (``[[label, text], …]``, Python's formatted figures of the step) and ``panels`` (more pictures
    of the step: ``{"kind": "grid", "title", "rows": [{"name", "values"}]}`` with the grid's cells
    (each row handed on as :func:`grid_row` makes it),
    or ``{"kind": "tokens", "title", "tokens": [{"text", "state"}]}``, a row of labelled tokens).
    ``frame`` is the step the chart's own series show (what the page shows first, without
    JavaScript and in print). ``play_seconds`` is how long the whole run takes to play at the
    player's default speed: :meth:`to_dict` turns it into ``frame_ms``, the time each step shows
    (:func:`frame_ms`; the browser only divides it by the reader's speed). ``timeline``
    (``{"title", "y_label", "series": [{"name", "values"}]}``, one value per frame) is drawn as a line over the steps with the current one marked. The
    browser only shows frame ``i``: it never steps a simulation itself.
    """

    kind: str
    title: str
    x_label: str
    y_label: str
    labels: Sequence[str]
    series: Sequence[Mapping[str, Any]]
    marker: int | None = None
    summary: str = ""
    y_log: bool = False
    x_log: bool = False
    frames: Sequence[Mapping[str, Any]] = ()
    frame: int = 0
    timeline: Mapping[str, Any] | None = None
    play_seconds: float = 30.0

    KINDS = ("line", "bar", "grid", "xy")
    #: The most steps one chart may carry (they travel with every result).
    MAX_FRAMES = 120
    PANELS = ("grid", "tokens")

    def to_dict(self) -> dict[str, Any]:
        if self.kind not in self.KINDS:
            raise ValueError(f"chart {self.title!r}: kind {self.kind!r} is not one of {self.KINDS}")
        series = []
        for s in self.series:
            if self.kind == "xy":
                points = [[x, y] for x, y in s["points"]]
                numbers = [v for point in points for v in point]
                out = dict(s, points=points)
            else:
                numbers = list(s["values"])
                out = grid_row(s) if self.kind == "grid" else dict(s, values=numbers)
            if any(v is not None and not math.isfinite(v) for v in numbers):
                raise ValueError(f"chart {self.title!r}: series {s['name']!r} holds a non-finite value")
            series.append(out)
        out = {
            "kind": self.kind,
            "title": self.title,
            "x_label": self.x_label,
            "y_label": self.y_label,
            "labels": list(self.labels),
            "series": series,
            "marker": self.marker,
            "summary": self.summary,
            "y_log": self.y_log,
            "x_log": self.x_log,
        }
        if self.frames:
            out.update(self._frames_dict())
        return out

    def _frames_dict(self) -> dict[str, Any]:
        """``frames``, ``frame`` and ``timeline`` as plain data, each checked."""
        where = f"chart {self.title!r}"
        frames = [dict(f) for f in self.frames]
        if len(frames) > self.MAX_FRAMES:
            raise ValueError(f"{where}: {len(frames)} frames; at most {self.MAX_FRAMES}")
        if not (isinstance(self.frame, int) and 0 <= self.frame < len(frames)):
            raise ValueError(f"{where}: frame {self.frame!r} is not one of its {len(frames)} frames")
        for i, f in enumerate(frames):
            if not isinstance(f.get("label"), str) or not isinstance(f.get("summary"), str):
                raise ValueError(f"{where}: frame {i} needs a label and a summary (text)")
            if "series" in f:
                f["series"] = [grid_row(s) if self.kind == "grid" else dict(s, values=list(s["values"]))
                               for s in f["series"]]
                if any(v is not None and not math.isfinite(v) for s in f["series"] for v in s["values"]):
                    raise ValueError(f"{where}: frame {i} holds a non-finite value")
            f["stats"] = [[str(a), str(b)] for a, b in f.get("stats", ())]
            panels = [dict(panel) for panel in f.get("panels", ())]
            for panel in panels:
                if panel.get("kind") not in self.PANELS:
                    raise ValueError(f"{where}: frame {i}: a panel's kind is one of {self.PANELS}")
                if panel["kind"] == "grid":
                    panel["rows"] = [grid_row(r) for r in panel["rows"]]
                else:
                    panel["tokens"] = [{"text": str(t["text"]), "state": str(t["state"])} for t in panel["tokens"]]
            f["panels"] = panels
        if not (isinstance(self.play_seconds, (int, float)) and 0 < self.play_seconds <= 600):
            raise ValueError(f"{where}: play_seconds {self.play_seconds!r} is not in (0, 600]")
        out: dict[str, Any] = {"frames": frames, "frame": self.frame, "timeline": None,
                               "frame_ms": frame_ms(len(frames), self.play_seconds)}
        if self.timeline is not None:
            series = [dict(s, values=list(s["values"])) for s in self.timeline["series"]]
            if any(len(s["values"]) != len(frames) for s in series):
                raise ValueError(f"{where}: the timeline needs one value per frame")
            out["timeline"] = {"title": str(self.timeline["title"]), "y_label": str(self.timeline["y_label"]),
                               "labels": [f["label"] for f in frames], "series": series}
        return out
