"""A site's math, typeset at build time with KaTeX, so pages arrive with it rendered (the plugin's
``math`` option).

pymdownx.arithmatex (generic mode) leaves ``<span class="arithmatex">\\(…\\)</span>`` and
``<div class="arithmatex">\\[…\\]</div>`` in each page; :func:`typeset` replaces their contents with
KaTeX's HTML and MathML. Readers then download no KaTeX JavaScript (270 KB) and their main thread
does no typesetting while Python starts, and the math shows at first paint, without JavaScript
too. Only ``katex.min.css`` and its fonts ship. KaTeX runs in one Node process per build
(``katex_render.mjs``), from the same ``node_modules`` the plugin uses.

A page with math also asks for the KaTeX fonts its math uses (``<link rel="preload">`` before
KaTeX's stylesheet): found only when the stylesheet applied, they would arrive after the first
layout, and the text around the math would move when they did (a layout shift). Which class
takes which font is read from ``katex.min.css`` itself.
"""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

HERE = Path(__file__).parent
MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
#: KaTeX's stylesheet in a page's head (mkdocs.yml's extra_css): its folder holds fonts/.
STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]*?katex/dist/)katex\.min\.css[^>]*>')
#: The font of ``.katex`` itself (its ``font`` shorthand): every piece of math uses it.
BASE_FONT = "fonts/KaTeX_Main-Regular.woff2"
#: What the ``math`` option ships (globs under node_modules, copied under assets/vendor/ as the
#: ``vendor`` option copies): KaTeX's stylesheet and its fonts, self-hosted (the CSP allows no other origin).
VENDOR = ("katex/dist/katex.min.css", "katex/dist/fonts/*.woff2")
#: The stylesheet's site path, added to the pages (``extra_css``) when the site does not list it.
CSS = "assets/vendor/katex/dist/katex.min.css"
_process: subprocess.Popen | None = None


def check_installed(node_modules: Path) -> None:
    """KaTeX is in node_modules, or a PluginError saying how to install it."""
    if not (node_modules / "katex" / "dist" / "katex.min.css").is_file():
        raise PluginError(f"calculators: math is on but KaTeX is not in {node_modules}; "
                          "run `npm install --save-exact katex@0.19.1` beside mkdocs.yml (or turn math off)")


def with_stylesheet(output: str, href: str) -> str:
    """A page with math gets KaTeX's stylesheet (``href``, relative to it) when its head has none."""
    if 'class="arithmatex"' not in output or STYLESHEET.search(output):
        return output
    return output.replace("</head>", f'<link rel="stylesheet" href="{html.escape(href, quote=True)}">\n</head>', 1)


def _renderer(node_modules: Path) -> subprocess.Popen:
    global _process
    if _process is None or _process.poll() is not None:
        node = shutil.which("node")
        if not node:
            raise PluginError("calculators: Node.js is needed to typeset the math at build time")
        _process = subprocess.Popen([node, str(HERE / "katex_render.mjs"), str(node_modules)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return _process


def _tex(body: str) -> tuple[str, bool]:
    text = html.unescape(body).strip()
    if text.startswith("\\[") and text.endswith("\\]"):
        return text[2:-2], True
    if text.startswith("\\(") and text.endswith("\\)"):
        return text[2:-2], False
    return text, False


def typeset(output: str, node_modules: Path, where: str) -> str:
    """``output`` (a page's HTML) with each arithmatex element's TeX typeset by KaTeX, and the fonts
    its math uses preloaded; ``where`` names the page in an error."""
    matches = list(MATH.finditer(output))
    if not matches:
        return output
    items = [dict(zip(("tex", "display"), _tex(m.group(2)))) for m in matches]
    proc = _renderer(node_modules)
    proc.stdin.write(json.dumps(items) + "\n")
    proc.stdin.flush()
    reply = proc.stdout.readline()
    if not reply:
        raise PluginError(f"calculators: KaTeX stopped while typesetting {where}")
    rendered = json.loads(reply)
    parts, last = [], 0
    for m, math in zip(matches, rendered):
        parts += [output[last:m.start()], f'<{m.group(1)} class="arithmatex">{math}</{m.group(1)}>']
        last = m.end()
    return with_font_preloads("".join(parts) + output[last:], "".join(rendered), node_modules)


@functools.cache
def _fonts_by_class(css: Path) -> tuple[tuple[frozenset[str], str], ...]:
    """(classes, font file) for each rule of KaTeX's stylesheet that sets a KaTeX font: the classes
    of the rule's last compound selector (an element with all of them takes the font), and the
    ``woff2`` file of the matching ``@font-face``, relative to the stylesheet."""
    text = css.read_text(encoding="utf-8")

    def declarations(body: str) -> dict[str, str]:
        return dict(d.split(":", 1) for d in body.split(";") if ":" in d)

    faces = {}
    for body in re.findall(r"@font-face\{([^}]*)\}", text):
        d = declarations(body)
        woff2 = re.search(r"url\(([^)]+\.woff2)\)", d["src"])
        if woff2:
            family = d["font-family"].strip('"')
            faces[(family, d.get("font-weight", "400"), d.get("font-style", "normal"))] = woff2.group(1)
    rules = []
    for selectors, body in re.findall(r"([^{}@]+)\{([^{}]*font-family:KaTeX_[^{}]*)\}", text):
        d = declarations(body)
        weight = {"normal": "400", "bold": "700"}.get(d.get("font-weight", "400"), d.get("font-weight", "400"))
        font = faces.get((d["font-family"].split(",")[0], weight, d.get("font-style", "normal")))
        for selector in selectors.split(","):
            # The last compound with a class: `.delim-size1>span` sets the font of that element's spans.
            compounds = [frozenset(re.findall(r"\.([\w-]+)", c)) for c in re.split(r"[ >+~]", selector.strip())]
            classes = next((c for c in reversed(compounds) if c), None)
            if font and classes:
                rules.append((classes, font))
    return tuple(rules)


def fonts_used(math: str, css: Path) -> list[str]:
    """The KaTeX font files (relative to its stylesheet) that typeset math ``math`` shows."""
    elements = {frozenset(c.split()) for c in re.findall(r'class="([^"]*)"', math)}
    used = {BASE_FONT}
    used.update(font for classes, font in _fonts_by_class(css) if any(classes <= e for e in elements))
    return sorted(used)


def with_font_preloads(output: str, math: str, node_modules: Path) -> str:
    """``output`` with a preload of each KaTeX font ``math`` uses, before KaTeX's stylesheet."""
    link = STYLESHEET.search(output)
    if not link:
        return output
    fonts = fonts_used(math, node_modules / "katex" / "dist" / "katex.min.css")
    preloads = "".join(f'<link rel="preload" href="{link.group(1)}{font}" as="font" type="font/woff2" crossorigin>'
                       for font in fonts)
    return output[:link.start()] + preloads + output[link.start():]


def close() -> None:
    """End KaTeX's Node process (the build is over)."""
    if _process is not None and _process.poll() is None:
        _process.stdin.close()
        _process.wait(timeout=5)
