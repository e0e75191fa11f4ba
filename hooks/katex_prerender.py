"""Typeset the chapter's math at build time with KaTeX, so pages arrive with it rendered.

pymdownx.arithmatex (generic mode) leaves ``<span class="arithmatex">\\(…\\)</span>`` and
``<div class="arithmatex">\\[…\\]</div>`` in each page; this hook replaces their contents with
KaTeX's HTML and MathML. Readers then download no KaTeX JavaScript (270 KB) and their main thread
does no typesetting while Python starts, and the math shows at first paint, without JavaScript
too. Only ``katex.min.css`` and its fonts ship. KaTeX runs in one Node process per build
(``katex_render.mjs``), from the same ``node_modules`` the calculators plugin uses.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

HERE = Path(__file__).parent
MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
_process: subprocess.Popen | None = None


def _renderer(node_modules: Path) -> subprocess.Popen:
    global _process
    if _process is None or _process.poll() is not None:
        node = shutil.which("node")
        if not node:
            raise PluginError("katex_prerender: Node.js is needed to typeset the math at build time")
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


def on_post_page(output: str, *, page, config) -> str:
    matches = list(MATH.finditer(output))
    if not matches:
        return output
    items = [dict(zip(("tex", "display"), _tex(m.group(2)))) for m in matches]
    proc = _renderer(Path(config.config_file_path).parent / "node_modules")
    proc.stdin.write(json.dumps(items) + "\n")
    proc.stdin.flush()
    reply = proc.stdout.readline()
    if not reply:
        raise PluginError(f"katex_prerender: KaTeX stopped while typesetting {page.file.src_uri}")
    rendered = json.loads(reply)
    parts, last = [], 0
    for m, math in zip(matches, rendered):
        parts += [output[last:m.start()], f'<{m.group(1)} class="arithmatex">{math}</{m.group(1)}>']
        last = m.end()
    return "".join(parts) + output[last:]


def on_shutdown() -> None:
    if _process is not None and _process.poll() is None:
        _process.stdin.close()
        _process.wait(timeout=5)
