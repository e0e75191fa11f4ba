"""README.md is a landing page: short, every link and picture in it resolves, and its example runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: Markdown links and images: [text](target) and ![alt](target).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(markdown: str) -> set[str]:
    """The heading anchors Python-Markdown's toc (and GitHub) give a Markdown file."""
    found = set()
    for title in re.findall(r"^#+\s+(.+?)\s*$", markdown, re.M):
        slug = re.sub(r"[^\w\s-]", "", title.lower()).strip()
        found.add(re.sub(r"[\s]+", "-", slug))
    return found


def test_the_readme_is_a_landing_page():
    assert README.stat().st_size < 10 * 1024
    text = README.read_text(encoding="utf-8")
    assert "make serve" in text and "make test" in text


def test_every_link_and_picture_of_the_readme_resolves():
    text = README.read_text(encoding="utf-8")
    targets = LINK.findall(text)
    assert targets
    for target in targets:
        assert not target.startswith(("http:", "https:")), f"{target}: link to a file of the repository"
        path, _, anchor = target.partition("#")
        file = (ROOT / path) if path else README
        assert file.is_file(), f"README.md links to {target}, which does not exist"
        if anchor:
            assert anchor in anchors(file.read_text(encoding="utf-8")), f"README.md: no heading #{anchor} in {path}"


def test_the_readme_example_is_a_working_calculator(tmp_path, monkeypatch):
    text = README.read_text(encoding="utf-8")
    code = re.search(r"^```python\n(.*?)^```", text, re.S | re.M).group(1)
    (tmp_path / "readme_example.py").write_text(code, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import readme_example

    result = readme_example.SPEC.run({})
    assert float(result.raw["heat"]) == 4186 * 1 * 85
    # the fence and inline figure the README shows name this calculator and its output
    assert f"```calculator {readme_example.SPEC.id}" in text
    assert "{calc heat heat litres=2}" in text
