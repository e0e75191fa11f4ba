"""Numbers in the prose from the calculators: ``{calc <id> <output> [preset=<id>] [<param>=<value> …] [follow]}``.

    A full kettle boils in {calc kettle time preset=full-kettle}.

is rendered at build time by the same ``run()`` and formatter as the widgets:

    <span class="calc-figure" data-figure="kettle" data-output="time"
          data-value="197.45">3.29 min</span>

``follow`` marks a figure that describes "the calculator below": it names the next widget of that
calculator on the page, and the browser keeps it equal to that widget's output as the reader
changes inputs. An unknown id, output, preset, parameter or value fails ``mkdocs build --strict``,
naming the page and the line. Inside code (spans and blocks) nothing is replaced, so the syntax
can be shown.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from markdown import Extension
from markdown.inlinepatterns import InlineProcessor
from mkdocs.exceptions import PluginError

import course_calculators
from course_calculators import contract
from course_calculators.setting import Setting
from course_calculators.spec import SpecError

#: ``{calc kettle cost preset=one-cup litres=0.5 follow}``
PATTERN = (r"\{calc[ \t]+(?P<id>" + contract.ID_PATTERN + r")[ \t]+(?P<output>" + contract.NAME_PATTERN
           + r")(?P<args>(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=[^\s{}]+|[ \t]+follow)*)[ \t]*\}")


class FigureError(PluginError):
    """A figure that cannot be computed; the message names the page and the line."""


@dataclass(frozen=True)
class Figure:
    calc_id: str
    output: str
    #: The figure's inputs: its ``preset=`` and ``<param>=<value>`` words, in their order.
    setting: Setting
    follow: bool

    @classmethod
    def parse(cls, calc_id: str, output: str, args: str) -> "Figure":
        words = args.split()
        setting = Setting.from_text(" ".join(w for w in words if w != "follow")) if set(words) - {"follow"} else Setting()
        return cls(calc_id, output, setting, "follow" in words)


@lru_cache(maxsize=4096)
def compute(figure: Figure) -> tuple[str, str, dict[str, Any]]:
    """(raw value, text, inputs used) of a figure; SpecError says what is wrong."""
    calc = course_calculators.get(figure.calc_id)
    if figure.output not in calc.output_map:
        raise SpecError(f"calculator {figure.calc_id!r} has no output {figure.output!r}; "
                        f"outputs: {', '.join(calc.output_map)}")
    pairs = figure.setting.strict_inputs(calc)
    calc.check_overrides(pairs)
    result = calc.run(pairs)
    return result.raw[figure.output], result.text[figure.output], result.inputs


@dataclass
class PageFigures:
    """The figures of the page being rendered: the plugin starts it for each page."""

    #: Under `mkdocs serve` (plugin/live.py): a figure that cannot be computed is shown, not raised.
    live: Any = None
    page: str = "<markdown>"
    markdown: str = ""
    rendered: list[Figure] = field(default_factory=list)

    def start(self, page: str, markdown: str) -> None:
        self.page, self.markdown, self.rendered = page, markdown, []

    def line_of(self, text: str) -> int | None:
        at = self.markdown.find(text)
        return self.markdown.count("\n", 0, at) + 1 if at >= 0 else None

    def element(self, source: str, figure: Figure) -> etree.Element:
        try:
            raw, text, inputs = compute(figure)
        except Exception as exc:
            if self.live is None and not isinstance(exc, SpecError):
                raise
            line = self.line_of(source)
            where = f"{self.page}:{line}" if line else self.page
            text = str(exc) if isinstance(exc, SpecError) else f"{type(exc).__name__}: {exc}"
            error = FigureError(f"{where}: {source}: {text}")
            if self.live is None:
                raise error from None
            error.__cause__ = exc  # live.where() finds the author's line in its traceback
            span = etree.Element("span")
            span.set("class", "calc-live-error")
            span.set("style", "color:#b00020")
            span.text = f"⚠ {self.live.add(error)}"
            return span
        self.rendered.append(figure)
        span = etree.Element("span")
        span.set("class", "calc-figure")
        span.set("data-figure", figure.calc_id)
        span.set("data-output", figure.output)
        span.set("data-value", raw)
        if figure.follow:
            # The browser follows the next widget of this calculator; the inputs let it say so
            # when the reader has moved that widget away from what the sentence describes.
            span.set("data-follow", "")
            span.set("data-inputs", json.dumps(inputs, separators=(",", ":")))
        span.text = text
        return span


class _Processor(InlineProcessor):
    def __init__(self, figures: Callable[[], PageFigures], md: Any) -> None:
        super().__init__(PATTERN, md)
        self.figures = figures

    def handleMatch(self, m: re.Match, data: str):  # noqa: N802 (Python-Markdown's name)
        figure = Figure.parse(m["id"], m["output"], m["args"] or "")
        return self.figures().element(m.group(0), figure), m.start(0), m.end(0)


class FiguresExtension(Extension):
    """The Markdown extension the plugin adds; ``figures`` returns the current page's state."""

    def __init__(self, figures: Callable[[], PageFigures]) -> None:
        super().__init__()
        self.figures = figures

    def extendMarkdown(self, md: Any) -> None:  # noqa: N802
        # After code spans (190) and escapes (180): nothing inside backticks is replaced.
        md.inlinePatterns.register(_Processor(self.figures, md), "calculator-figure", 175)
