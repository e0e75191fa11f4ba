"""Reference tables generated from the code, so that the docs cannot drift from it.

- The catalogue of a site's calculators is a fence, ```` ```calculators-catalogue ````, filled
  at build time from the registry (each site has its own): id, title, embed page, parameters,
  outputs and presets.
- The authors' guide's tables — the spec types, the units, the plugin's options — are the
  framework's, the same for every site: they are written into the guide's Markdown
  (:func:`update_file`, run by ``make reference``; a test checks the file is current), between
  ``<!-- reference:<name> -->`` and ``<!-- /reference:<name> -->``, so that they read on GitHub
  and in an editor too.

Links to the embed pages are written with :data:`SITE_ROOT` until the page's URL is known; the
plugin makes them relative to each page.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import inspect
import re
import textwrap
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c

import course_calculators
from course_calculators import contract, spec, units
from course_calculators.units.si_units import ladder

from .config import CalculatorsConfig, Seconds

CATALOGUE_FENCE = "calculators-catalogue"
#: Units named by SI symbol or currency code, shown in the units table beside the registered ones.
UNIT_SAMPLES = ("m", "km", "kg", "s", "ms", "K", "°C", "J", "kWh", "W", "Pa", "mol", "EUR", "JPY", "CHF")
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


def _md_code(text: str) -> str:
    """A Markdown code span (pipes would end a table cell: none of the generated texts has one)."""
    if "|" in text or "`" in text:
        raise ValueError(f"cannot put {text!r} in a table's code span")
    return f"`{text}`"


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join([_md_row(head), _md_row(["---"] * len(head)), *(_md_row(r) for r in rows)])


def _md_inline(text: str) -> str:
    """Docstring text for a Markdown cell: ``double backticks`` as code spans."""
    return "".join(f"`{p}`" if i % 2 else p.replace("|", "\\|") for i, p in enumerate(text.split("``")))


def options_table() -> str:
    """The plugin's options: name, type, default and what each does (its docstring)."""
    docs = option_docs()
    rows = [[_md_code(name), _type_of(option), _md_code(_default_of(option)), _md_inline(docs.get(name, ""))]
            for name, option in CalculatorsConfig._schema]
    return _md_table(["Option", "Type", "Default", "What it does"], rows)


def _unit_row(name: str, unit: units.Unit) -> list[str]:
    out = spec.Output("example", "Example", name)
    value = unit.example
    precise = (f"{_md_code(spec.Output('example', 'Example', name, precision=2).text(value))}"
               if unit.fixed is not None else "—")
    return [_md_code(name), unit.meaning, _md_code(out.raw(value)), _md_code(out.text(value)), precise]


def units_table() -> str:
    """The framework's units (not those a content package registers) and SI and currency names,
    each with an example raw value and the text its unit makes of it, plain and with a precision;
    then the SI symbols and the prefixes each may be shown with."""
    builtin = units.registered(builtin_only=True)
    rows = [_unit_row(name, unit) for name, unit in builtin.items()]
    rows += [_unit_row(name, units.get(name)) for name in UNIT_SAMPLES]
    custom = units.custom("m/s²")
    rows.append([_md_code('units.custom("m/s²")'), custom.meaning, _md_code(units.format_raw(custom.example)),
                 _md_code(custom.text(custom.example)), _md_code(custom.text(custom.example, 2))])
    head = ["Unit", "What", "Raw value (`data-value`)", "Shown as", "With `precision=2`"]
    symbols = []
    for symbol, (meaning, _) in units.SI_SYMBOLS.items():
        shown = ["µs", "ms", "s", "min", "h"] if symbol == "s" else [label for _, label in ladder(symbol)]
        symbols.append([_md_code(symbol), meaning, ", ".join(shown)])
    return (_md_table(head, rows) + "\n\n" +
            _md_table(["SI symbol", "Measures", "Shown as (by magnitude)"], symbols))


SPEC_TYPES = (spec.Number, spec.Choice, spec.Text, spec.Output, spec.Preset, spec.Chart, spec.Calculator)


def spec_types_table() -> str:
    """Each spec type: what it is (its docstring's first paragraph) and its fields with their defaults."""
    rows = []
    for kind in SPEC_TYPES:
        fields = []
        for f in dataclasses.fields(kind):
            if f.default is not dataclasses.MISSING:
                fields.append(_md_code(f"{f.name}={f.default!r}"))
            elif f.default_factory is not dataclasses.MISSING:
                fields.append(_md_code(f"{f.name}={f.default_factory()!r}"))
            else:
                fields.append(_md_code(f.name))
        what = inspect.getdoc(kind).split("\n\n")[0].replace("\n", " ")
        rows.append([_md_code(kind.__name__), _md_inline(what), ", ".join(fields)])
    return _md_table(["Type", "What", "Fields (defaults)"], rows)


#: The generated tables of the authors' guide, by the name their markers carry.
TABLES = {"spec-types": spec_types_table, "units": units_table, "options": options_table}
_REGION = re.compile(r"(<!-- reference:(?P<name>[a-z-]+) [^>]*-->\n)(?P<body>.*?\n)?(<!-- /reference:(?P=name) -->)", re.S)


def render_into(markdown: str) -> str:
    """``markdown`` with every generated region rewritten from the code; an unknown name is an error."""
    def fill(m: re.Match) -> str:
        name = m["name"]
        if name not in TABLES:
            raise ValueError(f"unknown reference table {name!r}; known: {', '.join(TABLES)}")
        return m.group(1) + TABLES[name]() + "\n" + m.group(4)

    return _REGION.sub(fill, markdown)


def regions(markdown: str) -> list[str]:
    """The names of the generated regions in ``markdown``, in order."""
    return [m["name"] for m in _REGION.finditer(markdown)]


def update_file(path: Path) -> bool:
    """Rewrite the generated regions of ``path``; whether anything changed."""
    old = path.read_text(encoding="utf-8")
    new = render_into(old)
    if new != old:
        path.write_text(new, encoding="utf-8")
    return new != old


def fences() -> list[dict[str, Any]]:
    """The superfences custom fence of the site's catalogue."""
    return [{"name": CATALOGUE_FENCE, "class": CATALOGUE_FENCE,
             "format": lambda source, language, class_name, options, md, **kwargs: catalogue_table()}]
