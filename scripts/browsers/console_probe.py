"""The server half of WebKit's console probe (see ``webkit.py``): a hook for ``tests/serving.py``'s
servers that, for requests carrying the probe's cookie, serves ``console_probe.js`` at
``PROBE_PATH`` and puts a ``<script>`` for it at the top of every HTML page's ``<head>``.

Only a session that asked for the probe gets it; every other client of the same server sees the
pages as built. The script goes before the Content-Security-Policy ``<meta>``, so the policy does
not govern it; the pages' own scripts are untouched.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .webkit import PROBE_COOKIE, PROBE_JS, PROBE_PATH

TAG = f'<script src="{PROBE_PATH}"></script>'.encode()
HEAD = re.compile(rb"<head[^>]*>", re.IGNORECASE)


def _send(handler, body: bytes, content_type: str):
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    return io.BytesIO(body)


def probe_hook(handler):
    """``StaticServer.hooks`` entry: the response to serve instead of the file, or None."""
    if f"{PROBE_COOKIE}=1" not in (handler.headers.get("Cookie") or ""):
        return None
    path = unquote(urlsplit(handler.path).path)
    if path == PROBE_PATH:
        return _send(handler, PROBE_JS.read_bytes(), "text/javascript")
    file = Path(handler.translate_path(handler.path))
    if file.is_dir():
        if not path.endswith("/"):
            return None  # the server's own redirect to the slash
        file = file / "index.html"
    if file.suffix != ".html" or not file.is_file():
        return None
    page = file.read_bytes()
    head = HEAD.search(page)
    if not head:
        return None
    return _send(handler, page[:head.end()] + TAG + page[head.end():], "text/html; charset=utf-8")
