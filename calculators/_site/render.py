"""Widget HTML: the form, the outputs computed now by the same Python the browser runs, the charts.

The markup is the public widget contract (``../shared/widget-contract.md`` in the course repo, and
the "Widget contract" page of the site): tests and embedders rely on its attributes.
"""

from __future__ import annotations

import importlib.util
import json
import math
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import jinja2
from mkdocs.exceptions import PluginError
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from calculators.spec import Calculator, Number

TEMPLATES = Path(__file__).parent / "templates"

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(TEMPLATES)),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=False,
)

#: Whether widgets offer "Show the Python" (the plugin's ``show_source`` option).
show_source: ContextVar[bool] = ContextVar("show_source", default=True)
#: How many widgets of each id the current page holds (DOM ids must be unique on a page).
widget_counter: ContextVar[dict[str, int]] = ContextVar("widget_counter")


def _next_dom_id(calc_id: str) -> str:
    try:
        counts = widget_counter.get()
    except LookupError:
        counts = {}
        widget_counter.set(counts)
    counts[calc_id] = counts.get(calc_id, 0) + 1
    n = counts[calc_id]
    return f"calc-{calc_id}" if n == 1 else f"calc-{calc_id}-{n}"


def slider(param: Number, value: float) -> dict[str, Any]:
    """Range-input attributes; a log slider moves in powers of two of the value."""
    if param.scale == "log":
        return {
            "min": math.log2(param.min),
            "max": math.log2(param.max),
            "step": 1 if param.integer else 0.05,
            "value": round(math.log2(value), 4) if value > 0 else math.log2(param.min),
        }
    return {"min": param.min, "max": param.max, "step": param.step, "value": value}


#: Stands for the folder of the source files (``assets/calc/source/``) in widget HTML until the
#: page's URL is known: ``link_sources`` makes it relative to each page.
SOURCE_PREFIX = "@calculators-source/"


def source_file(module: str) -> str:
    """The file, under ``assets/calc/source/``, that holds a module's highlighted source."""
    return f"{module}.html"


def source_document(module: str) -> str:
    """A small HTML page with one module's highlighted source. Widgets load it when a reader opens
    "Show the Python" (it is most of a page's markup: 3,600 of the kv-cache page's 5,000 tags),
    and link to it, for readers without JavaScript."""
    path, code = source_html(module)
    title = _env.from_string("{{ path }}").render(path=path)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>\n'
            f"<body><h1>{title}</h1>\n{code}</body></html>\n")


def link_sources(html: str, folder: str) -> str:
    """Point the widgets' source links at ``folder`` (the source files, relative to the page)."""
    return html.replace(SOURCE_PREFIX, folder)


@lru_cache(maxsize=None)
def source_html(module: str) -> tuple[str, str]:
    """The calculator module's path (relative to the package's parent) and highlighted source."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return module, ""
    path = Path(spec.origin)
    code = path.read_text(encoding="utf-8")
    html = highlight(code, PythonLexer(), HtmlFormatter(cssclass="highlight", wrapcode=True))
    return f"{module.replace('.', '/')}.py", html


class RenderError(PluginError):
    """A calculator failed to compute its pre-rendered outputs; the message names its module.

    A PluginError, so that ``mkdocs build`` stops with the message, not a traceback.
    """


def module_file(calc: Calculator) -> str:
    return calc.module.replace(".", "/") + ".py"


def widget(calc: Calculator, inputs: Mapping[str, Any], *, embed: bool = False) -> str:
    """The HTML of one widget whose defaults are ``inputs`` (already validated)."""
    try:
        result = calc.run(inputs)
    except Exception as exc:  # a broken calculator must fail the build, naming its file
        raise RenderError(
            f"calculator {calc.id!r} ({module_file(calc)}) failed to render: {type(exc).__name__}: {exc}"
        ) from exc
    dom_id = _next_dom_id(calc.id)
    source_path = source_html(calc.module)[0] if show_source.get() else ""
    template = _env.get_template("widget.html")
    return template.render(
        calc=calc,
        dom_id=dom_id,
        inputs=result.inputs,
        result=result,
        # "</" can never close the <script> that holds the JSON.
        charts_json=json.dumps(result.charts, separators=(",", ":"), allow_nan=False),
        slider=slider,
        source_path=source_path,
        source_url=SOURCE_PREFIX + source_file(calc.module),
        embed=embed,
    )
