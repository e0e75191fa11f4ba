"""The generated reference tables: they list exactly what the code has."""

from __future__ import annotations

import re
from pathlib import Path

import course_calculators
from course_calculators import units
from course_calculators.plugin import reference
from course_calculators.plugin.config import CalculatorsConfig

ROOT = Path(__file__).resolve().parents[4]


def rows(table: str) -> list[list[str]]:
    body = table.split("<tbody>", 1)[1]
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]


def text(cell: str) -> str:
    return re.sub(r"<[^>]+>", "", cell).replace("&#x27;", "'").replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")


def test_the_options_reference_matches_the_config_class():
    table = rows(reference.options_table())
    options = dict(CalculatorsConfig._schema)
    assert [text(r[0]) for r in table] == list(options)
    docs = reference.option_docs()
    for name, kind, default, what in table:
        option = options[text(name)]
        assert text(default) == reference._default_of(option)
        assert text(what) == docs[text(name)].replace("``", "") and text(what), name


def test_every_option_has_its_documentation():
    assert set(reference.option_docs()) == {name for name, _ in CalculatorsConfig._schema}


def test_the_authors_page_uses_the_generated_tables():
    page = (ROOT / "docs" / "authors.md").read_text()
    for fence in (reference.OPTIONS_FENCE, reference.UNITS_FENCE, reference.SPEC_TYPES_FENCE):
        assert f"```{fence}\n```" in page, fence


def test_the_units_table_formats_with_the_formatters_themselves():
    table = {text(r[0]): r for r in rows(reference.units_table())}
    assert set(table) == set(units.FORMATTERS)
    assert text(table["bytes"][3]) == "128 KiB" and text(table["usd"][4]).startswith("$61.95")


def test_the_catalogue_lists_every_registered_calculator():
    ids = [re.match(r"<code>([^<]+)</code>", r[0]).group(1) for r in rows(reference.catalogue_table())]
    assert ids == list(course_calculators.CALCULATORS)
