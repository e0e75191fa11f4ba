"""The chapter's inline figures: every ``{calc …}`` of every page computes (as the strict build
requires), renders in the page as the calculator's text, and the reference figures among them
keep their values, each checked here against arithmetic of its own."""

from __future__ import annotations

import math
import pathlib
import re

import markdown
import pytest

from course_calculators.plugin import figures

from . import test_chapter_figures as chapter

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs"
#: Code (fenced blocks and spans) shows the syntax; nothing in it is a figure.
_CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$|`[^`\n]+`", re.M | re.S)


def chapter_figures() -> list[tuple[str, int, str]]:
    """(page, line, source) of every inline figure of the chapter's pages."""
    found = []
    for md in sorted(DOCS.rglob("*.md")):
        text = md.read_text(encoding="utf-8")
        prose = _CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        for m in re.finditer(figures.PATTERN, prose):
            found.append((md.relative_to(DOCS).as_posix(), prose.count("\n", 0, m.start()) + 1, m.group(0)))
    return found


FIGURES = chapter_figures()


def parse(source: str) -> figures.Figure:
    m = re.fullmatch(figures.PATTERN, source)
    return figures.Figure.parse(m["id"], m["output"], m["args"] or "")


def test_the_chapter_quotes_its_figures_from_the_calculators():
    pages = {page for page, _, _ in FIGURES}
    assert {"index.md", "inference/summary.md", "inference/speculative-decoding.md"} <= pages
    assert len(FIGURES) >= 20


@pytest.mark.parametrize("page, line, source", FIGURES, ids=[f"{p}:{n}" for p, n, _ in FIGURES])
def test_every_figure_computes_and_renders_as_its_text(page, line, source):
    raw, text, _ = figures.compute(parse(source))
    assert raw and text
    state = figures.PageFigures()
    state.start(page, source)
    html = markdown.Markdown(extensions=[figures.FiguresExtension(lambda: state)]).convert(source)
    assert f'data-value="{raw}">{text}</span>' in html


#: Reference figures of the chapter, by the figure that shows them: the raw value and the text,
#: each raw value worked out here from the model's published shape or the formula.
REFERENCE = {
    # 2 (K and V) × layers × KV heads × head dimension × bytes
    "{calc kv-cache kv_bytes_per_token preset=llama3-8b}": (2 * 32 * 8 * 128 * 2, "128 KiB"),
    "{calc kv-cache kv_bytes_per_token preset=gpt3-mha}": (2 * 96 * 96 * 128 * 2, "4.5 MiB"),
    "{calc kv-cache kv_bytes_per_sequence preset=llama3-8b-128k}": (2 * 32 * 8 * 128 * 2 * 131072, "16 GiB"),
    "{calc kv-cache kv_bytes_per_sequence preset=llama3-70b context=131072}": (2 * 80 * 8 * 128 * 2 * 131072, "40 GiB"),
    # MLA: (latent 512 + RoPE 64) × 61 layers × 2 bytes
    "{calc kv-cache kv_bytes_per_token preset=deepseek-v3-mla}": ((512 + 64) * 61 * 2, "68.6 KiB"),
    "{calc kv-cache weight_bytes preset=llama3-8b model=custom params_b=8}": (16e9, "14.9 GiB"),
    # (1 − α^(k+1)) / (1 − α) and that ÷ (k·c + 1)
    "{calc speculative-decoding tokens_per_pass}": ((1 - 0.8**5) / 0.2, "3.36"),
    "{calc speculative-decoding speedup}": ((1 - 0.8**5) / 0.2 / 1.2, "2.8×"),
    "{calc speculative-decoding tokens_per_pass acceptance=0.6}": ((1 - 0.6**5) / 0.4, "2.31"),
    "{calc speculative-decoding tokens_per_pass acceptance=0.7 draft_tokens=3 draft_cost=0.1}":
        ((1 - 0.7**4) / 0.3, "2.53"),
    "{calc speculative-decoding speedup acceptance=0.7 draft_tokens=3 draft_cost=0.1}":
        ((1 - 0.7**4) / 0.3 / 1.3, "1.95×"),
}


@pytest.mark.parametrize("source", sorted(REFERENCE))
def test_reference_figures_keep_their_values(source):
    assert source in {s for _, _, s in FIGURES}, f"{source} is no longer in the chapter"
    raw, text, _ = figures.compute(parse(source))
    want, want_text = REFERENCE[source]
    assert math.isclose(float(raw), want, rel_tol=1e-12) and text == want_text


def _case_figure(case) -> str:
    """The inline figure a chapter-figure case stands for: its calculator, output and inputs."""
    args = [f"preset={case.preset}"] if case.preset else []
    args += [f"{k}={'%g' % v if isinstance(v, float) else v}" for k, v in case.overrides.items()]
    return "{calc %s %s%s}" % (case.calc, case.output, "".join(" " + a for a in args))


#: The figures of test_chapter_figures.py that a calculator shows exactly as the sentence quotes it
#: (outside math, where no inline figure can go): each must come from the inline syntax.
EXACT = [c for c in chapter.CASES if c.calc and c.output and c.text and not c.derive
         and "$" not in c.quote and "\\" not in c.quote
         and re.search(r"(?<![\w.,])" + re.escape(c.text) + r"(?!\w)", c.quote)]


@pytest.mark.parametrize("case", EXACT, ids=[c.id for c in EXACT])
def test_a_figure_the_prose_quotes_exactly_is_an_inline_figure(case):
    raw = chapter._squash((DOCS / case.page).read_text(encoding="utf-8"))
    assert chapter._squash(case.quote) not in raw, (
        f"{case.page}: {case.text!r} in {case.quote!r} is typed by hand; write {_case_figure(case)}")
    assert chapter._squash(case.quote) in chapter.page_text(case.page)
