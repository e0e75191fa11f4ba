"""The generated reference tables: they list exactly what the code has, and the authors' guide
holds them, current, in its Markdown source (``make reference`` rewrites them)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import course_calculators
from course_calculators import units
from course_calculators.plugin import reference
from course_calculators.plugin.config import CalculatorsConfig

ROOT = Path(__file__).resolve().parents[4]
GUIDE = ROOT / "docs" / "authors.md"


def md_rows(table: str) -> list[list[str]]:
    """The body rows of the first Markdown table in ``table``, cells stripped of code marks."""
    lines = table.split("\n\n")[0].splitlines()[2:]
    return [[cell.strip().strip("`") for cell in line.strip("|").split(" | ")] for line in lines]


def html_rows(table: str) -> list[list[str]]:
    body = table.split("<tbody>", 1)[1]
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]


def test_the_options_reference_matches_the_config_class():
    table = md_rows(reference.options_table())
    options = dict(CalculatorsConfig._schema)
    assert [r[0] for r in table] == list(options)
    docs = reference.option_docs()
    for name, kind, default, what in table:
        assert default == reference._default_of(options[name])
        assert what.replace("`", "") == docs[name].replace("``", "") and what, name


def test_every_option_has_its_documentation():
    assert set(reference.option_docs()) == {name for name, _ in CalculatorsConfig._schema}


def test_the_units_table_formats_with_the_units_themselves():
    table = {r[0]: r for r in md_rows(reference.units_table())}
    assert set(units.registered(builtin_only=True)) | set(reference.UNIT_SAMPLES) <= set(table)
    assert not {"tokens_per_s", "flops", "bandwidth"} & set(table)  # the chapter's, not the framework's
    assert table["bytes"][3] == "128 KiB" and table["usd"][4] == "$61.95"
    assert table["m"][2:] == ["1500", "1.5 km", "1.50 km"] and table["EUR"][3] == "€61.95"


def test_the_catalogue_lists_every_registered_calculator():
    ids = [re.match(r"<code>([^<]+)</code>", r[0]).group(1) for r in html_rows(reference.catalogue_table())]
    assert ids == list(course_calculators.CALCULATORS)


def test_the_guide_holds_each_table_in_its_markdown():
    text = GUIDE.read_text(encoding="utf-8")
    assert reference.regions(text) == ["spec-types", "units", "options"]
    for name, table in reference.TABLES.items():
        assert table() in text, f"docs/authors.md: the {name} table is not current: run `make reference`"


def test_the_guide_is_current():
    text = GUIDE.read_text(encoding="utf-8")
    assert reference.render_into(text) == text, "docs/authors.md is not current: run `make reference`"
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "reference.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_regions_are_rewritten_and_an_unknown_one_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n<!-- reference:options (generated) -->\nSTALE\n<!-- /reference:options -->\nafter\n")
    assert reference.update_file(page) is True
    text = page.read_text()
    assert reference.options_table() in text and "STALE" not in text and text.endswith("after\n")
    assert reference.update_file(page) is False
    with pytest.raises(ValueError, match="unknown reference table 'nope'"):
        reference.render_into("<!-- reference:nope (x) -->\n<!-- /reference:nope -->")
