"""The build-time math hook: arithmatex's TeX becomes KaTeX's HTML and MathML, nothing else moves."""

from __future__ import annotations

import importlib.util
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
