"""The build-time math hook: arithmatex's TeX becomes KaTeX's HTML and MathML, nothing else moves."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("katex_prerender", ROOT / "hooks" / "katex_prerender.py")
katex_prerender = importlib.util.module_from_spec(spec)
spec.loader.exec_module(katex_prerender)

CONFIG = SimpleNamespace(config_file_path=str(ROOT / "mkdocs.yml"))
PAGE = SimpleNamespace(file=SimpleNamespace(src_uri="t.md"))


def test_inline_and_display_math_are_typeset_with_mathml():
    html = ('<p>a <span class="arithmatex">\\(n &lt; 2^{10}\\)</span> b</p>'
            '<div class="arithmatex">\\[\\sum_{t=1}^{n} t\\]</div><p>end</p>')
    out = katex_prerender.on_post_page(html, page=PAGE, config=CONFIG)
    assert out.startswith("<p>a ") and out.endswith("<p>end</p>")
    assert out.count('class="katex"') == 2 and out.count('class="katex-display"') == 1
    assert "<math" in out and "\\(" not in out and "\\[" not in out
    assert "<mo>&lt;</mo>" in out  # the escaped TeX was unescaped before typesetting


def test_a_page_without_math_is_returned_untouched_and_bad_tex_does_not_stop_the_build():
    assert katex_prerender.on_post_page("<p>x</p>", page=PAGE, config=CONFIG) == "<p>x</p>"
    out = katex_prerender.on_post_page('<span class="arithmatex">\\(\\frac{1}\\)</span>', page=PAGE, config=CONFIG)
    assert "katex-error" in out


def test_a_page_with_math_preloads_the_katex_fonts_its_math_uses():
    """Each font the page's math takes is asked for before KaTeX's stylesheet (found only when the
    stylesheet applies, it would arrive after the first layout and move the text around the math);
    the files exist where the stylesheet's own URLs point."""
    head = '<link rel="stylesheet" href="../assets/vendor/katex/dist/katex.min.css?v=1" integrity="sha384-x">'
    html = head + '<p>token <span class="arithmatex">\\(n+1\\)</span></p><div class="arithmatex">\\[\\sum_{t=1}^{n} t\\]</div>'
    out = katex_prerender.on_post_page(html, page=PAGE, config=CONFIG)
    preloads = re.findall(r'<link rel="preload" href="\.\./assets/vendor/katex/dist/(fonts/[^"]+)" as="font" '
                          r'type="font/woff2" crossorigin>', out)
    assert out.index("preload") < out.index('rel="stylesheet"')
    # the base font, n in math italic, the display sum's large operator
    assert set(preloads) == {"fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_Math-Italic.woff2",
                             "fonts/KaTeX_Size2-Regular.woff2"}, preloads
    dist = ROOT / "node_modules" / "katex" / "dist"
    assert all((dist / font).is_file() for font in preloads)
    # no math, or no KaTeX stylesheet in the page: nothing is added
    assert katex_prerender.on_post_page(head + "<p>x</p>", page=PAGE, config=CONFIG) == head + "<p>x</p>"
    assert "preload" not in katex_prerender.on_post_page('<span class="arithmatex">\\(n\\)</span>', page=PAGE,
                                                         config=CONFIG)


def test_every_font_rule_of_katex_is_read():
    """The class → font table read from katex.min.css covers every font file but the two that only
    a combination of classes takes (bold italic Main, bold Caligraphic)."""
    css = ROOT / "node_modules" / "katex" / "dist" / "katex.min.css"
    read = {font for _classes, font in katex_prerender._fonts_by_class(css)} | {katex_prerender.BASE_FONT}
    files = set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css.read_text(encoding="utf-8")))
    assert files - read == {"fonts/KaTeX_Main-BoldItalic.woff2", "fonts/KaTeX_Caligraphic-Bold.woff2"}
    assert (frozenset({"delim-size1"}), "fonts/KaTeX_Size1-Regular.woff2") in katex_prerender._fonts_by_class(css)
