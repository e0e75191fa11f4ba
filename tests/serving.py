"""Building and serving sites for the tests: a strict build, and a static server on 127.0.0.1 that
binds a free port first, so that the site can be built for the port it got (no port is fixed: any
other program may hold any port)."""

from __future__ import annotations

import functools
import http.server
import os
import pathlib
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parents[1]


def build_site(out: pathlib.Path, site_url: str, cwd: pathlib.Path = ROOT, **kwargs) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the site in ``cwd`` into ``out``, for the address ``site_url``
    (mkdocs-material's instant navigation only follows links of its own sitemap, port included).
    Never with ``-q``: it hides the warnings from the logger that ``--strict`` counts, so a quiet
    strict build passes with a broken link."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=cwd, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": site_url}, **kwargs,
    )


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
    }

    def log_message(self, *args) -> None:
        pass

    def copyfile(self, source, outputfile) -> None:
        """A file goes out by the kernel's sendfile: no Python loop copies the wasm and the
        snapshot, so a busy machine does not slow the bytes that the worker times to choose its
        start (``worker/boot-path.js``)."""
        try:
            source.fileno()
        except (AttributeError, OSError):
            super().copyfile(source, outputfile)
            return
        self.wfile.flush()
        self.connection.sendfile(source)

    def send_head(self):
        """The file, unless one of the server's hooks answers instead (see ``StaticServer.hooks``)."""
        for hook in getattr(self.server, "hooks", ()):
            answer = hook(self)
            if answer is not None:
                return answer
        return super().send_head()


class StaticServer(http.server.ThreadingHTTPServer):
    """A static server for ``directory`` on 127.0.0.1, bound to a free port at once: build the site
    for :attr:`url` (the folder may not exist yet), then :meth:`start`."""

    def __init__(self, directory: pathlib.Path) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory)))
        self.url = f"http://127.0.0.1:{self.server_port}/"
        #: Callables ``hook(handler)`` asked first for every GET: one returns the body it has
        #: started to send (status and headers written), or None to let the file be served. The
        #: WebKit suite's console probe is one (``scripts/browsers/console_probe.py``).
        self.hooks: list = []

    def start(self) -> "StaticServer":
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

    def handle_error(self, request, client_address) -> None:
        """A page closed mid-download drops its connection: not worth a traceback."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: pathlib.Path) -> tuple[StaticServer, str]:
    """Serve a folder that is ready now; the server and its URL."""
    server = StaticServer(directory).start()
    return server, server.url
