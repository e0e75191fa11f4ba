"""Content-Security-Policy and Subresource Integrity for every built page.

GitHub Pages sends no security headers, so the policy travels in a ``<meta http-equiv>`` tag at
the top of each page's ``<head>``. It lets a page run only the site's own script files, the few
inline scripts the theme writes (each allowed by its sha256 — an attacker's injected script has
another hash), and WebAssembly (``'wasm-unsafe-eval'``, which Pyodide needs). Styles may be
inline (KaTeX and Chart.js set style attributes); nothing may load from another origin.

Every ``<script src>`` and style sheet of the site gets an ``integrity`` hash, so the browser
refuses a file that is not the one this build wrote, and a ``?v=<hash>`` on its URL, so a cached
older copy is never offered. (The worker checks the lock file and the
snapshot by sha256 itself, and Pyodide checks the wheel against the lock.)

Applied after the build, to the finished HTML files (``on_post_build``); not under
``mkdocs serve``, whose live-reload script is injected inline at request time.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from urllib.parse import urlsplit

#: Directives besides script-src. frame-ancestors cannot be set from a meta tag (embeds rely on
#: that: any site may frame /embed/ pages).
POLICY = (
    "default-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)
EXECUTABLE_TYPES = ("", "text/javascript", "application/javascript", "module")

_INLINE_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.S | re.I)
_SRC = re.compile(r"""<script\b[^>]*?\ssrc=["']([^"']+)["'][^>]*>""", re.I)
_STYLESHEET = re.compile(r"""<link\b(?=[^>]*\brel=["']?stylesheet)[^>]*?\shref=["']([^"']+)["'][^>]*>""", re.I)
_CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def version_tag(data: bytes) -> str:
    """The ``v`` of a ``?v=<hash>`` URL: a file's content hash, so a changed file gets a new URL."""
    return hashlib.sha256(data).hexdigest()[:10]


def insert_at_head_top(html: str, tags: str) -> str:
    """Put ``tags`` at the top of <head>, right after the charset declaration: before the style
    sheets and scripts (a classic script waits for the style sheets above it; a policy governs
    only what follows it)."""
    charset = _CHARSET.search(html)
    if charset:
        return html[: charset.end()] + "\n" + tags + html[charset.end():]
    return html.replace("<head>", "<head>\n" + tags, 1)


def _type(attrs: str) -> str:
    m = re.search(r"""\btype=["']?([^"'\s>]+)""", attrs, re.I)
    return m.group(1).lower() if m else ""


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions for the page's executable inline scripts."""
    hashes = []
    for m in _INLINE_SCRIPT.finditer(html):
        attrs = m.group("attrs") or ""
        if re.search(r"\ssrc=", attrs, re.I) or _type(attrs) not in EXECUTABLE_TYPES:
            continue
        digest = base64.b64encode(hashlib.sha256(m.group("body").encode()).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return sorted(set(hashes))


def policy(hashes: list[str]) -> str:
    script = " ".join(["script-src 'self' 'wasm-unsafe-eval'", *hashes])
    return "; ".join([POLICY[0], script, *POLICY[1:]])


def _local_file(url: str, page: Path, site_dir: Path) -> Path | None:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = (site_dir / parts.path.lstrip("/")) if parts.path.startswith("/") else (page.parent / parts.path)
    path = path.resolve()
    return path if path.is_file() and path.is_relative_to(site_dir.resolve()) else None


def add_integrity(html: str, page: Path, site_dir: Path, cache: dict[Path, tuple[str, str]]) -> str:
    """Give each local script and style sheet tag an ``integrity`` hash, and version its URL with
    ``?v=<content hash>``: a file that changes gets a new URL, so no cache (GitHub Pages lets
    browsers keep files 10 minutes) can hand a new page an old file that its hash would refuse."""

    def tag(m: re.Match) -> str:
        text, url = m.group(0), m.group(1)
        if "integrity=" in text:
            return text
        file = _local_file(url, page, site_dir)
        if file is None:
            return text
        if file not in cache:
            data = file.read_bytes()
            cache[file] = (sri(data), version_tag(data))
        integrity, version = cache[file]
        if "v=" not in urlsplit(url).query:
            versioned = url + ("&" if "?" in url else "?") + "v=" + version
            text = text.replace(f'"{url}"', f'"{versioned}"', 1).replace(f"'{url}'", f"'{versioned}'", 1)
        return text[:-1].rstrip("/").rstrip() + f' integrity="{integrity}">'

    return _STYLESHEET.sub(tag, _SRC.sub(tag, html))


def harden_page(html: str, page: Path, site_dir: Path, cache: dict[Path, tuple[str, str]] | None = None,
                hashes: list[str] | None = None) -> str:
    html = add_integrity(html, page, site_dir, {} if cache is None else cache)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(hashes or inline_script_hashes(html))}">'
    return insert_at_head_top(html, meta)


def harden_site(site_dir: Path) -> int:
    """Apply the policy and integrity hashes to every HTML file of a built site; returns the count."""
    cache: dict[Path, tuple[str, str]] = {}
    pages = {}
    for page in sorted(site_dir.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if 'http-equiv="Content-Security-Policy"' not in html:
            pages[page] = html
    # One list for the whole site: after instant navigation the first page's policy still
    # governs, and the theme runs the next page's inline scripts under it.
    hashes = sorted({h for html in pages.values() for h in inline_script_hashes(html)})
    for page, html in pages.items():
        page.write_text(harden_page(html, page, site_dir, cache, hashes), encoding="utf-8")
    return len(pages)
