"""The ``calculator`` fence for pymdownx.superfences: a validator and a formatter.

    ```calculator kettle
    litres: 1.7
    power: 2400
    ```

The header names the calculator; each body line overrides one default, ``preset: <id>`` starts
from a preset, ``show: <param> …`` names the parameters shown before "More parameters" and
``pin: [preset=<id>] [<param>=<value> …]`` starts the widget with that setting pinned beside its
own. The body's ``preset:`` and value lines make one :class:`~course_calculators.setting.Setting`,
and so does the ``pin:`` line (its text form), as every other path writes a setting. A parameter
set beside the one that fills it (``gravity: 9`` beside ``world: moon``, which fills it) fails the build,
naming both lines. :func:`find` is the one parser of the fence syntax: the plugin uses it to rewrite each
header to the canonical ``calculator id="kettle" line="12"`` (which superfences can parse, and
which carries the line for error messages) and to find which page uses which calculator. Fences
inside other code blocks are left alone.

As in pymdown-extensions' own custom fences, only :class:`SuperFencesException` escapes: superfences
swallows any other exception from a formatter into a plain code block, and the build must fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

import course_calculators
from course_calculators import contract
from course_calculators.calculator import FilledConflict
from course_calculators.setting import PRESET, Setting
from course_calculators.spec import SpecError

from . import render
from .live import widget_token

#: An opening or closing code fence: its indentation / blockquote lead, its marker, the rest.
_FENCE_LINE = re.compile(r"^(?P<lead>[ \t>]*)(?P<marker>`{3,}|~{3,})(?P<info>.*)$")
#: The info string of a calculator fence, short (``calculator kettle``) or canonical (``calculator id="kettle"``).
_HEADER = re.compile(
    r"^" + contract.FENCE_NAME + r"[ \t]+(?:id=[\"']?)?(?P<id>[A-Za-z0-9_-]+)[\"']?(?P<rest>(?:[ \t].*)?)$"
)


@dataclass(frozen=True)
class Fence:
    line: int  # 1-based line of the header in the page's Markdown
    calc_id: str
    lead: str
    marker: str
    rest: str  # anything after the id on the header line


def find(markdown: str) -> Iterator[Fence]:
    """Every calculator fence of a page, in order; fences inside other code blocks are skipped."""
    open_marker = ""
    for number, line in enumerate(markdown.splitlines(), 1):
        m = _FENCE_LINE.match(line)
        if open_marker:
            # A fence closes with the same character, at least as long, and nothing else.
            if m and m["marker"][0] == open_marker[0] and len(m["marker"]) >= len(open_marker) and not m["info"].strip():
                open_marker = ""
            continue
        if not m or (m["marker"][0] == "`" and "`" in m["info"]):
            continue
        open_marker = m["marker"]
        header = _HEADER.match(m["info"].strip())
        if header:
            yield Fence(number, header["id"], m["lead"], m["marker"], header["rest"].strip())


def expand_headers(markdown: str) -> str:
    """Rewrite each calculator fence's header to ``calculator id="…" line="…"``."""
    lines = markdown.splitlines(keepends=True)
    for fence in find(markdown):
        end = "\n" if lines[fence.line - 1].endswith("\n") else ""
        rest = f" {fence.rest}" if fence.rest and "line=" not in fence.rest else ""
        lines[fence.line - 1] = (f'{fence.lead}{fence.marker}{contract.FENCE_NAME} id="{fence.calc_id}" '
                                 f'line="{fence.line}"{rest}{end}')
    return "".join(lines)


def body(markdown: str, fence: Fence) -> str:
    """The lines of a fence between its header and its closing line (the lead, ``> `` or
    indentation, stripped as Markdown would)."""
    lines = markdown.splitlines()[fence.line:]
    out = []
    for line in lines:
        text = line[len(fence.lead):] if line.startswith(fence.lead) else line.lstrip(" \t>")
        if text.strip().startswith(fence.marker) and not text.strip().strip(fence.marker[0]):
            break
        out.append(text)
    return "\n".join(out)


def shown_on_page(markdown: str, calc_id: str) -> list[str] | None:
    """The ``show:`` list of the page's first fence of ``calc_id`` (what its embed page shows
    too), or None when it has none."""
    for f in find(markdown):
        if f.calc_id == calc_id:
            try:
                line = parse_overrides(body(markdown, f)).get("show")
            except OverrideError:
                return None
            return line[0].split() if line else None
    return None


def calculators_used(markdown: str) -> list[str]:
    """The calculator ids a page's Markdown uses, in order of first use."""
    return list(dict.fromkeys(f.calc_id for f in find(markdown)))


class FenceError(SuperFencesException, PluginError):
    """A bad calculator fence: superfences lets a SuperFencesException through (it swallows any
    other), and as a PluginError mkdocs stops with the message alone, not a traceback."""


def parse_overrides(source: str) -> dict[str, tuple[str, int]]:
    """``name: value`` lines, each with its line number in the body; blank lines and ``#``
    comments are skipped. Raises ValueError naming the line."""
    overrides: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(source.splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        name, sep, value = text.partition(":")
        if not sep or not name.strip():
            raise OverrideError(number, f"expected 'name: value', got {text!r}")
        overrides[name.strip()] = (value.strip(), number)
    return overrides


def parse_show(calc: Any, names: str) -> list[str]:
    """``show: speed angle world``: the parameters this widget shows before "More
    parameters" (the ones its section talks about); the others fold away, keeping their values."""
    listed = names.split()
    unknown = [n for n in listed if n not in calc.param_map]
    if not listed or unknown:
        raise SpecError(f"show: {'unknown parameter(s) ' + ', '.join(map(repr, unknown)) if unknown else 'name the parameters to show'}; "
                        f"parameters: {', '.join(calc.param_map)}")
    return listed


def parse_pin(calc: Any, text: str) -> str:
    """``pin: preset=one-cup litres=0.5``: the widget starts with this setting pinned beside
    its own. Checked strictly, as the fence's own values are; returned as the canonical pin (the
    query form of :meth:`Setting.of`, what the Pin button would pin)."""
    try:
        setting = Setting.from_text(text)
    except SpecError as exc:
        raise SpecError(f"pin: {exc}") from None
    inputs = calc.check_overrides(setting.strict_inputs(calc))
    return Setting.of(calc, inputs).query()


class OverrideError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class PageFences:
    """The fences of the page being rendered: the plugin starts it for each page and registers its
    :meth:`validator` and :meth:`formatter` with superfences. It numbers the widgets (DOM ids are
    unique on a page) and remembers the first one (the page's first paint waits for it)."""

    show_source: bool = True
    #: Under `mkdocs serve` (plugin/live.py): a bad fence is recorded and shown, not raised.
    live: Any = None
    page: str = "<markdown>"
    counts: dict[str, int] = field(default_factory=dict)
    dom_ids: list[str] = field(default_factory=list)
    #: Under `mkdocs serve`: each widget's HTML and the token that stands for it in the page's
    #: digest (``live.widget_token``: its fence and its spec's shape, not its numbers).
    shapes: list[tuple[str, str]] = field(default_factory=list)

    def start(self, page: str) -> None:
        self.page = page
        self.counts = {}
        self.dom_ids = []
        self.shapes = []

    def next_dom_id(self, calc_id: str, instance: str = "") -> str:
        self.counts[calc_id] = self.counts.get(calc_id, 0) + (0 if instance else 1)
        dom_id = contract.dom_id(calc_id, self.counts[calc_id], instance)
        self.dom_ids.append(dom_id)
        return dom_id

    def _parse_instance(self, calc: Any, name: str) -> str:
        """``instance: second``: this widget's URL keys are ``<id>~second.<param>``, apart from the
        page's other widgets of the calculator (the default instance keeps ``<id>.<param>``)."""
        if not contract.is_id(name):
            raise SpecError(f"instance: {name!r} is not an instance name (kebab-case: `instance: second`)")
        dom_id = contract.dom_id(calc.id, 1, name)
        if dom_id in self.dom_ids:
            raise SpecError(f"instance: {name!r} is already a widget of {calc.id!r} on this page; give each its own name")
        return name

    def _fail(self, line: int | None, message: str) -> FenceError:
        where = f"{self.page}:{line}" if line else self.page
        return FenceError(f"{where}: {message}")

    def validator(self, language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any],
                  md: Any) -> bool:
        try:
            return self._validate(inputs, options)
        except FenceError as exc:
            if self.live is None:
                raise
            options["live_error"] = self.live.add(exc)
            return True

    def formatter(self, source: str, language: str, class_name: str, options: dict[str, Any], md: Any,
                  **kwargs: Any) -> str:
        if "live_error" in options:
            return self.live.placeholder(options["live_error"])
        try:
            return self._format(source, options)
        except FenceError as exc:
            if self.live is None:
                raise
            return self.live.placeholder(self.live.add(exc))

    def _validate(self, inputs: dict[str, str], options: dict[str, Any]) -> bool:
        line = int(inputs["line"]) if str(inputs.get("line", "")).isdigit() else None
        calc_id = inputs.get("id")
        if not calc_id:
            known = ", ".join(course_calculators.CALCULATORS)
            raise self._fail(line, f"a calculator fence needs an id: ```{contract.FENCE_NAME} <id>```; known ids: {known}")
        try:
            course_calculators.get(calc_id)
        except SpecError as exc:
            raise self._fail(line, str(exc)) from None
        options["id"] = calc_id
        options["line"] = line
        return True

    def check_page(self, page: str, markdown: str) -> None:
        """Every calculator fence of a page read and checked as :meth:`formatter` will, nothing
        rendered: the plugin calls it for each page before the build's slow steps (the snapshot),
        so that a bad fence fails the build at once, with the same message."""
        self.start(page)
        for found in find(markdown):
            options: dict[str, Any] = {}
            self._validate({"id": found.calc_id, "line": str(found.line)}, options)
            calc, _, _, _, instance = self._read(body(markdown, found), options)
            self.next_dom_id(calc.id, instance)  # an instance name used twice on the page is caught
        self.start(page)

    def _read(self, source: str, options: dict[str, Any]) -> tuple[Any, Setting, list[str] | None, str, str]:
        """A fence's body read and checked: its calculator, setting, ``show:``, ``pin:`` and
        ``instance:``. Raises :class:`FenceError` naming every bad line."""
        calc_id, header = options["id"], options.get("line")
        calc = course_calculators.get(calc_id)

        def line(n: int) -> int | None:
            return header + n if header else None

        try:
            overrides = parse_overrides(source)
        except OverrideError as exc:
            raise self._fail(line(exc.line), f"calculator {calc_id!r}: {exc}") from None
        problems: list[tuple[int | None, str]] = []  # every bad line, each with its number
        lines: dict[str, int | None] = {}  # each setting name's line, for the filled-field rule
        read: dict[str, Any] = {"show": None, "pin": "", contract.INSTANCE_KEY: ""}  # the lines that are not values
        for key, parse in (("show", parse_show), ("pin", parse_pin), (contract.INSTANCE_KEY, self._parse_instance)):
            if key in overrides:
                text, number = overrides.pop(key)
                try:
                    read[key] = parse(calc, text)
                except SpecError as exc:
                    problems.append((line(number), str(exc)))
        shown, pin, instance = read["show"], read["pin"], read[contract.INSTANCE_KEY]
        for name, (value, number) in overrides.items():
            lines[name] = line(number)
            try:
                if name == PRESET:
                    calc.preset(value)
                else:
                    calc.check_overrides({name: value})
            except SpecError as exc:
                problems.append((line(number), str(exc)))
        if problems:
            first = problems[0][0]
            more = "".join(f"\n{self.page}:{n}: {text}" if n else f"\n{text}" for n, text in problems[1:])
            raise self._fail(first, f"calculator {calc_id!r}: {problems[0][1]}{more}")
        setting = Setting.from_pairs((name, value) for name, (value, _) in overrides.items())
        try:
            calc.check_overrides(setting.strict_inputs(calc))
        except FilledConflict as exc:
            at = lines.get(exc.filled) or header
            where = (f"on line {lines[exc.filler]}" if lines.get(exc.filler) else f"by preset {setting.preset!r}")
            raise self._fail(at, f"calculator {calc_id!r}: {exc} ({exc.filler} is set {where}.)") from None
        except SpecError as exc:
            raise self._fail(header, f"calculator {calc_id!r}: {exc}") from None
        return calc, setting, shown, pin, instance

    def _format(self, source: str, options: dict[str, Any]) -> str:
        calc, setting, shown, pin, instance = self._read(source, options)
        header, calc_id = options.get("line"), calc.id
        dom_id = self.next_dom_id(calc_id, instance)
        try:
            widget_html = render.widget(calc, setting, dom_id=dom_id, show_source=self.show_source, shown=shown,
                                        pin=pin, instance=instance)
        except render.RenderError as exc:  # a broken calculator must fail the build, not become a code block
            raise self._fail(header, str(exc)) from exc
        if self.live is not None:
            presets = [render.preset_inputs(calc, p.id) for p in calc.presets]
            self.shapes.append((widget_html, widget_token(calc, calc.defaults(), presets, source, dom_id,
                                                          self.show_source)))
        return widget_html
