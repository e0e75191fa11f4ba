"""The ``calculator`` fence for pymdownx.superfences.

    ```calculator kv-cache
    context: 131072
    concurrency: 4
    ```

The header names the calculator (the plugin rewrites the short form above to the canonical
``calculator id="kv-cache"``, which superfences can parse); each body line overrides one default,
``preset: <id>`` starts from a preset. An unknown id or a bad override raises
:class:`SuperFencesException` — pymdown-extensions swallows any other exception from a fence into a
plain code block, and the build must fail instead.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Any

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

import calculators
from calculators.spec import SpecError

from . import render

FENCE_NAME = "calculator"
#: The page being rendered, set by the plugin so that errors can name it.
current_page: ContextVar[str] = ContextVar("current_page", default="<markdown>")

_SHORT_HEADER = re.compile(
    r"^(?P<lead>[ \t>]*)(?P<fence>`{3,}|~{3,})" + FENCE_NAME + r"[ \t]+(?P<id>[A-Za-z0-9_-]+)[ \t]*$",
    re.MULTILINE,
)


def expand_short_headers(markdown: str) -> str:
    """```` ```calculator kv-cache ```` → ```` ```calculator id="kv-cache" ````."""
    return _SHORT_HEADER.sub(lambda m: f'{m["lead"]}{m["fence"]}{FENCE_NAME} id="{m["id"]}"', markdown)


class FenceError(SuperFencesException, PluginError):
    """A bad calculator fence: superfences lets a SuperFencesException through (it swallows any
    other), and as a PluginError mkdocs stops with the message alone, not a traceback."""


def _fail(message: str) -> FenceError:
    return FenceError(f"{current_page.get()}: {message}")


def validator(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any) -> bool:
    calc_id = inputs.get("id")
    if not calc_id:
        raise _fail(f'a calculator fence needs an id: ```{FENCE_NAME} <id>```; known ids: {", ".join(calculators.CALCULATORS)}')
    try:
        calculators.get(calc_id)
    except SpecError as exc:
        raise _fail(str(exc)) from None
    options["id"] = calc_id
    return True


def parse_overrides(source: str) -> dict[str, str]:
    """``name: value`` lines; blank lines and ``#`` comments are skipped."""
    overrides: dict[str, str] = {}
    for number, line in enumerate(source.splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        name, sep, value = text.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"line {number}: expected 'name: value', got {text!r}")
        overrides[name.strip()] = value.strip()
    return overrides


def formatter(source: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any) -> str:
    calc_id = options["id"]
    try:
        calc = calculators.get(calc_id)
        overrides = parse_overrides(source)
        preset_id = overrides.pop("preset", None)
        base = dict(calc.preset(preset_id).values) if preset_id else {}
        inputs = calc.check_overrides({**base, **overrides})
    except (SpecError, ValueError) as exc:
        raise _fail(f"calculator {calc_id!r}: {exc}") from None
    try:
        return render.widget(calc, inputs)
    except render.RenderError as exc:  # a broken calculator must fail the build, not become a code block
        raise _fail(str(exc)) from exc
    except Exception as exc:
        raise _fail(f"calculator {calc_id!r} ({render.module_file(calc)}) failed to render: "
                    f"{type(exc).__name__}: {exc}") from exc
