"""The build-time math (the plugin's ``math`` option): arithmatex's TeX becomes KaTeX's HTML and
MathML, nothing else moves."""

from __future__ import annotations

import re
from pathlib import Path

from course_calculators.plugin import katex

ROOT = Path(__file__).resolve().parents[4]
NODE_MODULES = ROOT / "node_modules"


def typeset(html: str) -> str:
    return katex.typeset(html, NODE_MODULES, "t.md")


def test_inline_and_display_math_are_typeset_with_mathml():
    html = ('<p>a <span class="arithmatex">\\(n &lt; 2^{10}\\)</span> b</p>'
            '<div class="arithmatex">\\[\\sum_{t=1}^{n} t\\]</div><p>end</p>')
    out = typeset(html)
    assert out.startswith("<p>a ") and out.endswith("<p>end</p>")
    assert out.count('class="katex"') == 2 and out.count('class="katex-display"') == 1
    assert "<math" in out and "\\(" not in out and "\\[" not in out
    assert "<mo>&lt;</mo>" in out  # the escaped TeX was unescaped before typesetting


def test_a_page_without_math_is_returned_untouched_and_bad_tex_does_not_stop_the_build():
    assert typeset("<p>x</p>") == "<p>x</p>"
    out = typeset('<span class="arithmatex">\\(\\frac{1}\\)</span>')
    assert "katex-error" in out


def test_a_page_with_math_preloads_the_katex_fonts_its_math_uses():
    """Each font the page's math takes is asked for before KaTeX's stylesheet (found only when the
    stylesheet applies, it would arrive after the first layout and move the text around the math);
    the files exist where the stylesheet's own URLs point."""
    head = '<link rel="stylesheet" href="../assets/vendor/katex/dist/katex.min.css?v=1" integrity="sha384-x">'
    html = head + '<p>token <span class="arithmatex">\\(n+1\\)</span></p><div class="arithmatex">\\[\\sum_{t=1}^{n} t\\]</div>'
    out = typeset(html)
    preloads = re.findall(r'<link rel="preload" href="\.\./assets/vendor/katex/dist/(fonts/[^"]+)" as="font" '
                          r'type="font/woff2" crossorigin>', out)
    assert out.index("preload") < out.index('rel="stylesheet"')
    # the base font, n in math italic, the display sum's large operator
    assert set(preloads) == {"fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_Math-Italic.woff2",
                             "fonts/KaTeX_Size2-Regular.woff2"}, preloads
    dist = ROOT / "node_modules" / "katex" / "dist"
    assert all((dist / font).is_file() for font in preloads)
    # no math, or no KaTeX stylesheet in the page: nothing is added
    assert typeset(head + "<p>x</p>") == head + "<p>x</p>"
    assert "preload" not in typeset('<span class="arithmatex">\\(n\\)</span>')


def test_every_font_rule_of_katex_is_read():
    """The class → font table read from katex.min.css covers every font file but the two that only
    a combination of classes takes (bold italic Main, bold Caligraphic)."""
    css = ROOT / "node_modules" / "katex" / "dist" / "katex.min.css"
    read = {font for _classes, font in katex._fonts_by_class(css)} | {katex.BASE_FONT}
    files = set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css.read_text(encoding="utf-8")))
    assert files - read == {"fonts/KaTeX_Main-BoldItalic.woff2", "fonts/KaTeX_Caligraphic-Bold.woff2"}
    assert (frozenset({"delim-size1"}), "fonts/KaTeX_Size1-Regular.woff2") in katex._fonts_by_class(css)
