"""Reference tables generated from the code, so that the docs cannot drift from it.

Two fences, written in a page like any other fenced block:

- ```` ```calculators-catalogue ```` — every calculator of the site: id, title, its embed page, its
  parameters, outputs and presets (from the registry);
- ```` ```calculators-options ```` — the plugin's options: name, type, default and what each does
  (from :class:`~course_calculators.plugin.config.CalculatorsConfig` and its docstrings);
- ```` ```calculators-units ```` — every output unit, with a value formatted by the formatter
  itself, and the units that take a per-output precision;
- ```` ```calculators-spec-types ```` — the spec types and their fields, from the dataclasses.

Links to the embed pages are written with :data:`SITE_ROOT` until the page's URL is known; the
plugin makes them relative to each page.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import inspect
import textwrap
from typing import Any

from mkdocs.config import config_options as c

import course_calculators
from course_calculators import contract, spec, units

from .config import CalculatorsConfig, Seconds

CATALOGUE_FENCE = "calculators-catalogue"
OPTIONS_FENCE = "calculators-options"
UNITS_FENCE = "calculators-units"
SPEC_TYPES_FENCE = "calculators-spec-types"
#: One raw value per output unit, and what it means, for the units table.
UNIT_EXAMPLES = {
    "bytes": (131072, "bytes"), "seconds": (0.0453, "seconds"), "tokens_per_s": (41.27, "tokens per second"),
    "usd": (61.95, "US dollars"), "fraction": (0.561, "a plain fraction"), "count": (100000, "a number"),
    "ratio": (3.42, "a multiplier"), "flops": (9.89e14, "FLOP per second"),
    "bandwidth": (3.35e12, "bytes per second"), "bool": (True, "1 or 0"), "text": ("memory", "a word"),
}
#: Stands for the site root (relative to the page) in generated HTML.
SITE_ROOT = "@calculators-root/"


def _code(text: str) -> str:
    return f"<code>{html.escape(text)}</code>"


def catalogue_table() -> str:
    rows = []
    for calc in course_calculators.CALCULATORS.values():
        embed = f"{SITE_ROOT}{contract.EMBED_DIR}/{calc.id}/"
        rows.append(
            "<tr>"
            f"<td>{_code(calc.id)}<br>{html.escape(calc.title)}</td>"
            f'<td><a href="{html.escape(embed)}">{html.escape(contract.EMBED_DIR)}/{html.escape(calc.id)}/</a></td>'
            f"<td>{', '.join(_code(p.name) for p in calc.params)}</td>"
            f"<td>{', '.join(_code(o.name) for o in calc.outputs)}</td>"
            f"<td>{', '.join(_code(p.id) for p in calc.presets) or '—'}</td>"
            "</tr>"
        )
    head = "<tr><th>Calculator</th><th>Embed page</th><th>Parameters</th><th>Outputs</th><th>Presets</th></tr>"
    return f'<table data-calculators-catalogue><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


def option_docs() -> dict[str, str]:
    """Each option's docstring (the string right after its assignment in the config class)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(CalculatorsConfig)))
    body = tree.body[0].body
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.Assign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.targets[0].id] = " ".join(after.value.value.split())
    return docs


def _type_of(option: Any) -> str:
    if isinstance(option, c.ListOfItems):
        return "list of strings"
    if isinstance(option, c.Dir):
        return "folder"
    if isinstance(option, Seconds):
        return "seconds"
    kind = getattr(option, "_type", None)
    return {bool: "boolean", str: "string", int: "integer"}.get(kind, type(option).__name__)


def _default_of(option: Any) -> str:
    default = option.default
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, list):
        return "[]" if not default else repr(default)
    return str(default)


def options_table() -> str:
    docs = option_docs()
    rows = []
    for name, option in CalculatorsConfig._schema:
        rows.append(f"<tr><td>{_code(name)}</td><td>{_type_of(option)}</td><td>{_code(_default_of(option))}</td>"
                    f"<td>{_inline_code(docs.get(name, ''))}</td></tr>")
    head = "<tr><th>Option</th><th>Type</th><th>Default</th><th>What it does</th></tr>"
    return f'<table data-calculators-options><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


def _inline_code(text: str) -> str:
    """Docstring text with ``double backticks`` as code, everything else escaped."""
    parts = text.split("``")
    return "".join(_code(p) if i % 2 else html.escape(p) for i, p in enumerate(parts))


def units_table() -> str:
    """Each unit, an example raw value and the text its formatter makes of it (and with a precision)."""
    rows = []
    for unit, (value, meaning) in UNIT_EXAMPLES.items():
        out = spec.Output("example", "Example", unit)
        raw = out.raw(value)
        precise = (_code(spec.Output("example", "Example", unit, precision=2).text(value)) + " with "
                   + _code("precision=2")) if unit in units.PRECISE else "—"
        rows.append(f"<tr><td>{_code(unit)}</td><td>{html.escape(meaning)}</td><td>{_code(raw)}</td>"
                    f"<td>{_code(out.text(value))}</td><td>{precise}</td></tr>")
    missing = set(units.FORMATTERS) - set(UNIT_EXAMPLES)
    if missing:
        raise ValueError(f"units without an example in reference.UNIT_EXAMPLES: {sorted(missing)}")
    head = ("<tr><th>Unit</th><th>Raw value (<code>data-value</code>)</th><th>Example</th><th>Shown as</th>"
            "<th>With a precision</th></tr>")
    return f'<table data-calculators-units><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


SPEC_TYPES = (spec.Number, spec.Choice, spec.Text, spec.Output, spec.Preset, spec.Chart, spec.Calculator)


def spec_types_table() -> str:
    """Each spec type: what it is (its docstring's first paragraph) and its fields with their defaults."""
    rows = []
    for kind in SPEC_TYPES:
        fields = []
        for f in dataclasses.fields(kind):
            if f.default is not dataclasses.MISSING:
                fields.append(_code(f"{f.name}={f.default!r}"))
            elif f.default_factory is not dataclasses.MISSING:
                fields.append(_code(f"{f.name}={f.default_factory()!r}"))
            else:
                fields.append(_code(f.name))
        what = inspect.getdoc(kind).split("\n\n")[0].replace("\n", " ")
        rows.append(f"<tr><td>{_code(kind.__name__)}</td><td>{_inline_code(what)}</td><td>{', '.join(fields)}</td></tr>")
    head = "<tr><th>Type</th><th>What</th><th>Fields (defaults)</th></tr>"
    return f'<table data-calculators-spec-types><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


def fences() -> list[dict[str, Any]]:
    """The superfences custom fences of the generated tables."""
    def fmt(table):
        return lambda source, language, class_name, options, md, **kwargs: table()

    return [{"name": name, "class": name, "format": fmt(table)} for name, table in (
        (CATALOGUE_FENCE, catalogue_table), (OPTIONS_FENCE, options_table), (UNITS_FENCE, units_table),
        (SPEC_TYPES_FENCE, spec_types_table))]
