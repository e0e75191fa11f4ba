"""What a run gives and what ``compute()`` may return: :class:`Result` (every output as a value,
its text and its raw form, the notes, the charts, the canonical pin, what a link carries) and
:class:`Computed`. Plain data: the pipeline that fills them is :mod:`course_calculators.calculator`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

__all__ = ["Result", "Computed"]


@dataclass
class Result:
    """What a run returns: the inputs used, raw outputs, their text, notes and an optional chart."""

    inputs: dict[str, Any]
    values: dict[str, Any]
    text: dict[str, str]
    raw: dict[str, str]
    notes: list[str] = field(default_factory=list)
    charts: list[dict[str, Any]] = field(default_factory=list)
    #: Each input as the reader reads it ("20 m/s", a choice's label): the printed table.
    inputs_text: dict[str, str] = field(default_factory=dict)
    #: The canonical setting of these inputs against the calculator's defaults, in query form
    #: (``default`` when nothing differs): what the widget's Pin button pins and an embed snippet carries.
    pin: str = "default"
    #: The inputs that differ from the run's ``base`` (the widget's fence setting), each as its
    #: canonical text: what the page's address carries under ``<calc>.<name>``.
    changed: dict[str, str] = field(default_factory=dict)
    #: Each log slider's position for these inputs: the index of its nearest stop in the
    #: ``data-stops`` its HTML carries (:attr:`Number.stops`), so the page never computes one.
    slider: dict[str, int] = field(default_factory=dict)
    #: The calculator's answer in one sentence (its ``answer`` function; "" without one), which the
    #: widget shows first, above its answer outputs.
    answer: str = ""
    #: Each stacked bar (:class:`Bar`) by group: its parts' shares and a summary line.
    bars: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: What each shared parameter carries to the reader's other calculators, by scenario name
    #: (:func:`course_calculators.setting.carried`: its text, or None for nothing).
    scenario: dict[str, str | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "inputs_text": self.inputs_text,
            "raw": self.raw,
            "text": self.text,
            "notes": self.notes,
            "charts": self.charts,
            "pin": self.pin,
            "changed": self.changed,
            "slider": self.slider,
            "answer": self.answer,
            "bars": self.bars,
            "scenario": self.scenario,
        }


@dataclass
class Computed:
    """What ``compute()`` may return: the outputs' values, notes for the reader, and ``details``:
    data that is not an output but that ``chart()`` draws (a simulation's recorded steps, a
    distribution). ``chart(inputs, values, details)`` receives it when it takes three arguments."""

    values: Mapping[str, Any]
    notes: Sequence[str] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
